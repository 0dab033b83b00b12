"""Messages of the device-placement harness (:mod:`ptcourse.placement`)."""

MESSAGES = {
    "placement.data_not_moved": (
        "The data reached the model without .to(device): {op}() got {tensor} still on the CPU, together "
        "with tensors on the {device} device. On a real {device} device this stops with \"Expected all tensors "
        "to be on the same device\". Move every batch first, e.g. images, labels = images.to(device), "
        "labels.to(device), and use what .to() returns."
    ),
    "placement.model_not_moved": (
        "The model was not moved to the device: {op}() got {tensor} still on the CPU, together with data "
        "on the {device} device. Move the model once, before training: model.to(device)."
    ),
    "placement.autocast_device": (
        "autocast ran with device_type '{got}', but the model and the data are on '{device}': autocast for "
        "another device type changes nothing here. Take it from the device instead of writing it by hand: "
        "torch.autocast(device.type, ...)."
    ),
    "placement.autocast_not_disabled": (
        "autocast was on (dtype {got}) although this run asks for plain float32 (amp_dtype is None): pass "
        "enabled=amp_dtype is not None, so that the same lines turn mixed precision off."
    ),
    "placement.autocast_missing": (
        "the forward pass did not run under an enabled autocast with dtype {dtype} on the '{device}' device: "
        "wrap the forward pass and the loss in torch.autocast(device.type, dtype=..., enabled=...)."
    ),
    "placement.autocast_dtype": (
        "autocast ran with dtype {got}, expected {expected}: pass the run's dtype, dtype=amp_dtype, "
        "instead of writing one by hand."
    ),
}
