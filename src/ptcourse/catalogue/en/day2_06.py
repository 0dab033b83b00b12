"""Messages of day2/06_debugging."""

MESSAGES = {
    # Exercise 1: to_class_index (class index out of range)
    "debug.index_dtype": "to_class_index() should return an int64 tensor, got {got}.",
    "debug.index_values": (
        "For labels {labels} and classes {classes}, to_class_index() should give {expected}, got "
        "{got}. Each label becomes its position in `classes` (classes.index(label)); subtracting 1 "
        "or clamping only moves the bad label elsewhere and changes the meaning of the others."
    ),
    "debug.index_in_place": (
        "to_class_index() changed the tensor it was given (from {before} to {after}): build a new "
        "tensor and leave the raw labels alone."
    ),
    "debug.index_no_error": (
        "Label {label} is not in classes {classes}, so to_class_index() should raise a ValueError "
        "(fail loudly on the CPU, instead of a device-side assert on the GPU), but it returned."
    ),
    "debug.index_error_names": (
        "The ValueError should name the unknown label so the reader knows what to fix; got the "
        "message {message!r}."
    ),
    # demonstration cells (say)
    "debug.demo_label_range": "labels from {low} to {high}, but {classes} classes means indices 0 to {last}",
    "debug.demo_cpu_only": "Only a CPU here: every tensor is on the same device, so this error cannot happen.",
    "debug.demo_first_try": "first try, RuntimeError:",
    "debug.demo_with_detach": "with the detach: loss",
    "debug.demo_no_gradient": "no gradient reached:",
    "debug.demo_repaired": "repaired: loss",
    "debug.demo_vanishes": "{kind} the gradient vanishes at:",
    # The error table: shape, dtype, device, out of memory, cuDNN (fix and name the cause)
    "debug.cause_unknown": "{name} should be one of {options}; got {got!r}.",
    "debug.shape_still_fails": (
        "FixedCNN()(digits) still fails: {error}. Follow a 28 x 28 image through the layers: each 3 x 3 "
        "convolution without padding takes 2 off a side, each pooling halves it; fc1 takes channels x "
        "height x width of what arrives."
    ),
    "debug.shape_output": "FixedCNN()(digits) should give scores of shape {expected}, got {got}.",
    "debug.shape_in_features": (
        "fc1 should be a Linear layer taking the 64 x 5 x 5 = 1600 features each image has after the "
        "second pooling, with 128 outputs; its in_features is {got}. Repair the layer to fit the data, "
        "not the data to fit the layer (resizing the feature maps or reshaping the batch changes what the "
        "network sees)."
    ),
    "debug.shape_why_not_flattened": (
        "Not flattening would give mat1 with many more rows than images (a Linear layer takes every "
        "dimension but the last as rows); mat1 is 4x1600: 4 rows, one per image, so the flatten worked."
    ),
    "debug.shape_why_batch_mixed": (
        "Mixing the batch into the features would give 1 row (1x6400); mat1 is 4x1600: one row per "
        "image, so the batch dimension was kept. The numbers that disagree are 1600 and 9216."
    ),
    "debug.dtype_features": "prepare_batch() should return float32 features, for the float32 weights; got {got}.",
    "debug.dtype_labels": (
        "prepare_batch() should return int64 labels (class indices for CrossEntropyLoss); got {got}."
    ),
    "debug.dtype_feature_values": (
        "prepare_batch() should return the table's first columns, unchanged but for the dtype; got {got}."
    ),
    "debug.dtype_label_values": (
        "prepare_batch() should return the last column as labels [2, 0, 1, 2, 0]; got {got}."
    ),
    "debug.dtype_still_fails": "The model and the loss still fail on prepare_batch(table): {error}",
    "debug.dtype_why_1": (
        "Error 1 (Double and Float): mat1, the input, is float64 (NumPy's default), the weights float32. "
        "Convert the data, features.float(); {got} is not it (model.double() runs, but doubles the "
        "memory, is many times slower on most GPUs and changes every checkpoint)."
    ),
    "debug.dtype_why_2": (
        "Error 2 (expected target dtype Long, got Double): CrossEntropyLoss wants class indices as int64: "
        "labels.long(), not {got}."
    ),
    "debug.dtype_why_3": (
        "Error 3 (Found dtype Long but expected Float): binary_cross_entropy compares probabilities with "
        "float targets, and the target tensor([0, 1, 1, 0]) is int64: targets.float(), not {got}."
    ),
    "debug.device_model_elsewhere": (
        "After accuracy(), the model's parameters should be on the {device} device: model.to(device)."
    ),
    "debug.device_value": "accuracy() should return {expected} as a Python float, got {got}.",
    "debug.device_why_model_not_moved": (
        "nn.Module.to() moves the module's parameters in place and returns the module itself, so "
        "model.to(device) without assigning it works. Tensor.to() returns a new tensor and leaves the "
        "old one where it was: images.to(device) without images = ... moves nothing."
    ),
    "debug.device_why_made_in_forward": (
        "The model is one nn.Linear: its forward makes no tensor. The recorded calls got images and "
        "labels from the CPU: look at the lines that should have moved them."
    ),
    "debug.oom_still_fails": (
        "mean_loss() still runs out of the pretend GPU's 1 MB: {error}. Something keeps every batch's "
        "memory alive: what does total += loss hold on to?"
    ),
    "debug.oom_type": "mean_loss() should return a Python float, got {got_type}: loss.item().",
    "debug.oom_value": "mean_loss() should return the mean of the batches' losses, {expected:.5f}; got {got}.",
    "debug.oom_why_batch_too_large": (
        "One batch alone takes about a third of the memory, and the error came after a few batches: the "
        "batch is not too large. Smaller batches would fail the same way, only later."
    ),
    "debug.oom_why_cache": (
        "empty_cache() only gives back memory that nothing uses any more; here every batch's graph is "
        "still referenced, by total, so there is nothing to give back."
    ),
    "debug.cudnn_still_fails": (
        "predict() still fails on the pretend 1.5 MB GPU: {error}. Score the images a few at a time "
        "(images.split(...)), under torch.no_grad(), and join the scores with torch.cat."
    ),
    "debug.cudnn_shape": "predict(tagger, photos) should return a tensor of shape (64, 10), got {got}.",
    "debug.cudnn_why_earlier_assert": (
        "An earlier device-side assert would show as a clearer error without cuDNN or on the CPU (an "
        "IndexError); without cuDNN this one became out of memory, and a smaller batch ran."
    ),
    "debug.cudnn_why_unsupported": (
        "An unsupported input would fail for a batch of 8 too; photos[:8] ran, and without cuDNN the "
        "error became out of memory."
    ),
    "debug.cudnn_why_install": (
        "A broken installation would fail on every batch, small ones included; photos[:8] ran, and "
        "without cuDNN the error became out of memory."
    ),
    "debug.demo_mix": (
        "{op}() got {host} still on the CPU with tensors on the GPU: on a real GPU, RuntimeError: "
        "Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu!"
    ),
    "debug.demo_one_batch": "one batch alone needs at most {mib:.2f} MiB",
    "debug.demo_it_ran": "it ran",
    "debug.label_images": "images",
    "debug.label_labels": "labels",
}
