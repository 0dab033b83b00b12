"""Messages of day3/01_devices."""

MESSAGES = {
    # Exercise 1: move_to
    "devices.move_not_moved": (
        "`{where}` should be on '{expected}' after move_to(), got '{got}'. Was it skipped? Call "
        "move_to on every value of a dict and every item of a list or tuple, and use the result "
        "of tensor.to(device): it returns a moved copy, it does not move the tensor in place."
    ),
    "devices.move_lost_tensor": (
        "`{where}` was a tensor, but after move_to() it is {got_type}: a tensor should come back "
        "as a tensor (tensor.to(device)), in the same place."
    ),
    "devices.move_shape": "`{where}` changed shape in move_to(): expected {expected}, got {got}.",
    "devices.move_type": (
        "`{where}` was a {expected} but move_to() returned a {got}: keep the container's type "
        "(a tuple stays a tuple, a list a list, a dict a dict); code downstream may rely on it."
    ),
    "devices.move_keys": (
        "`{where}`: move_to() should keep every key of a dict, in order; expected {expected}, got {got}."
    ),
    "devices.move_length": (
        "`{where}` had {expected} element(s) but has {got} after move_to(): were values that are not "
        "tensors dropped? Return them unchanged instead."
    ),
    "devices.move_other_changed": (
        "`{where}` is not a tensor ({expected!r}) and should come back unchanged, got {got!r}."
    ),
    "devices.move_same_object": (
        "move_to() returned the very list it was given, modified in place: build a new container "
        "([move_to(item, device) for item in batch]); the caller may still need the batch on the CPU."
    ),
    "devices.move_in_place": (
        "The batch given to the function was changed: `{where}` is now on '{got}'. Build new "
        "containers instead of assigning into the old ones; the original batch must stay where it was."
    ),
    # Exercise 2: place
    "devices.place_raised": (
        "place() raised: {error}. Move the model with model.to(device), which works for every "
        "device (.cuda() fails where there is no GPU), and the batch with move_to(batch, device), "
        "which handles tensors nested in tuples, lists and dicts."
    ),
    "devices.place_pair": "place() should return the pair (model, batch), got {got_type}.",
    "devices.place_model_type": "place() should return the model first (an nn.Module), got {got_type}.",
    "devices.place_param": (
        "Parameter `{name}` is on '{got}' after place(): did you forget to move the model? "
        "model.to(device) moves every parameter and buffer."
    ),
    "devices.place_buffer": (
        "Buffer `{name}` is on '{got}' after place(): moving the parameters one by one leaves the "
        "buffers (BatchNorm's running statistics...) behind; model.to(device) moves both."
    ),
    "devices.place_batch": (
        "The batch returned by place() is not on the device (got {got}): move it with "
        "move_to(batch, device) and return the moved copy."
    ),
    # Exercise 3: devices_used
    "devices.used_type": "devices_used() should return a set, got {got_type}.",
    "devices.used_elements": (
        "devices_used() should return a set of torch.device objects (p.device), got {got}."
    ),
    "devices.used_value": (
        "devices_used() should give {expected}, got {got}. Look at every parameter, not only the "
        "first (next(model.parameters())), and at every tensor of the batch."
    ),
    "devices.used_buffers": (
        "A BatchNorm1d whose parameters are on meta but whose buffers stayed on the CPU should give "
        "{{meta, cpu}}, got {got}: include model.buffers() too."
    ),
    "devices.used_nested": (
        "A batch with one tensor on the CPU deep inside dicts, lists and tuples should give "
        "{{meta, cpu}}, got {got}: walk the batch recursively, as move_to does."
    ),
    # Printed by the demonstration cells (ptcourse.messages.say) and figure texts
    "devices.label_batch_inputs": "the batch's inputs",
    "devices.demo_after": "after {what}:",
    "devices.demo_layer_to_meta": "after layer.to('meta'): weight on {device} | returns the same module: {same}",
    "devices.demo_plain_attribute": "plain attribute after .to('meta'):",
    "devices.demo_in_state_dict": "in state_dict:",
    "devices.demo_bn_buffers": "BatchNorm1d buffers after .to('meta'):",
    "devices.demo_output": "output:",
    "devices.demo_buffers": "buffers:",
    "devices.demo_parameters": "parameters:",
    "devices.demo_mean_on": "after .to('meta'): mean on",
    "devices.demo_no_gpu": "No GPU here. With PyTorch {version} on a CUDA machine, nn.Linear(4, 2).to('cuda')(torch.zeros(1, 4)) says:",
    "devices.demo_in_play": "devices in play:",
    "devices.demo_per_sample": "{device}: batch {size:4} -> {ms:.4f} ms per sample",
}
