"""Wrong answers for day2/06_debugging."""

from tools.mutants import Mutant

CLIP = "    torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)\n"
FC1 = "        self.fc1 = nn.Linear(64 * 5 * 5, 128)\n"

MUTANTS = [
    # Exercise 1: FixedCNN and SHAPE_CAUSE (shape mismatch)
    Mutant("debug_shape_fix", "keeps the tutorial's fc1", expect=r"still fails.*4x1600 and 9216x128",
           replace=[(FC1, "        self.fc1 = nn.Linear(64 * 12 * 12, 128)\n")], caught_by="visible", msgid="debug.shape_still_fails"),
    Mutant("debug_shape_fix", "counts only one pooling", expect=r"still fails.*4x1600 and 7744x128",
           replace=[(FC1, "        self.fc1 = nn.Linear(64 * 11 * 11, 128)\n")], caught_by="visible", msgid="debug.shape_still_fails"),
    Mutant("debug_shape_fix", "resizes the feature maps to fit fc1", expect=r"fit the data, not the data to fit the layer",
           replace=[(FC1, "        self.fc1 = nn.Sequential(nn.Unflatten(1, (64, 5, 5)), nn.Upsample(size=(12, 12)), nn.Flatten(),\n"
                          "                                 nn.Linear(64 * 12 * 12, 128))\n")], caught_by="visible", msgid="debug.shape_in_features"),
    Mutant("debug_shape_fix", "names a missing flatten", expect=r"4 rows, one per image, so the flatten worked",
           replace=[('SHAPE_CAUSE = "in_features"', 'SHAPE_CAUSE = "not_flattened"')], caught_by="visible", msgid="debug.shape_why_not_flattened"),
    Mutant("debug_shape_fix", "names a batch mixed into the features", expect=r"the batch dimension was kept",
           replace=[('SHAPE_CAUSE = "in_features"', 'SHAPE_CAUSE = "batch_mixed"')], caught_by="visible", msgid="debug.shape_why_batch_mixed"),
    # Exercise 2: prepare_batch and DTYPE_REPAIRS (dtype mismatch)
    Mutant("debug_dtype_fix", "leaves the features float64", expect=r"float32 features.*got torch\.float64",
           replace=[("table[:, :-1].float()", "table[:, :-1]")], caught_by="visible", msgid="debug.dtype_features"),
    Mutant("debug_dtype_fix", "int32 labels", expect=r"int64 labels.*got torch\.int32",
           replace=[("table[:, -1].long()", "table[:, -1].int()")], caught_by="visible", msgid="debug.dtype_labels"),
    Mutant("debug_dtype_fix", "float labels", expect=r"int64 labels.*got torch\.float32",
           replace=[("table[:, -1].long()", "table[:, -1].float()")], caught_by="visible", msgid="debug.dtype_labels"),
    Mutant("debug_dtype_fix", "converts the model instead of the data", expect=r"Error 1.*Convert the data",
           replace=[('1: "features.float()"', '1: "model.double()"')], caught_by="visible", msgid="debug.dtype_why_1"),
    Mutant("debug_dtype_fix", "int64 targets for BCE", expect=r"Error 3.*targets\.float\(\), not labels\.long\(\)",
           replace=[('3: "targets.float()"', '3: "labels.long()"')], caught_by="visible", msgid="debug.dtype_why_3"),
    # Exercise 4: accuracy and DEVICE_CAUSE (device mismatch)
    Mutant("debug_device_fix", "moves the batch without keeping it", expect=r"linear\(\) got images still on the CPU",
           replace=[("    images, labels = images.to(device), labels.to(device)\n", "    images.to(device)\n    labels.to(device)\n")], caught_by="visible", msgid="placement.data_not_moved"),
    Mutant("debug_device_fix", "moves the images, not the labels", expect=r"__eq__\(\) got labels still on the CPU",
           replace=[("    images, labels = images.to(device), labels.to(device)\n", "    images = images.to(device)\n")],
           caught_by="visible", msgid="placement.data_not_moved"),
    Mutant("debug_device_fix", "does not move the model", expect=r"model was not moved",
           replace=[("    model.to(device)\n    images, labels", "    images, labels")], caught_by="visible", msgid="placement.model_not_moved"),
    Mutant("debug_device_fix", "returns a tensor", expect=r"as a Python float",
           replace=[(".float().mean().item()", ".float().mean()")], caught_by="visible", msgid="debug.device_value"),
    Mutant("debug_device_fix", "blames the model's .to()", expect=r"moves the module's parameters in place",
           replace=[('DEVICE_CAUSE = "batch_not_moved"', 'DEVICE_CAUSE = "model_not_moved"')], caught_by="visible", msgid="debug.device_why_model_not_moved"),
    # Exercise 7: mean_loss and OOM_CAUSE (out of memory)
    Mutant("debug_oom_fix", "keeps total += loss", expect=r"still runs out.*CUDA out of memory",
           code=("def mean_loss(model, batches):\n    total = 0\n    for x, y in batches:\n"
                 "        total += F.cross_entropy(model(x), y)\n    return float(total / len(batches))\n\n\nOOM_CAUSE = 'graphs_kept'\n"), caught_by="visible", msgid="debug.oom_still_fails"),
    Mutant("debug_oom_fix", "empties the cache after each batch", expect=r"still runs out.*CUDA out of memory",
           code=("def mean_loss(model, batches):\n    total = 0\n    for x, y in batches:\n"
                 "        total += F.cross_entropy(model(x), y)\n        torch.cuda.empty_cache()\n"
                 "    return float(total / len(batches))\n\n\nOOM_CAUSE = 'cache_not_emptied'\n"), caught_by="visible", msgid="debug.oom_still_fails"),
    Mutant("debug_oom_fix", "halves every batch", expect=r"still runs out.*CUDA out of memory",
           code=("def mean_loss(model, batches):\n    total = 0\n    for x, y in batches:\n"
                 "        for part_x, part_y in zip(x.split(64), y.split(64)):\n"
                 "            total += F.cross_entropy(model(part_x), part_y) / 2\n"
                 "    return float(total / len(batches))\n\n\nOOM_CAUSE = 'batch_too_large'\n"), caught_by="visible", msgid="debug.oom_still_fails"),
    Mutant("debug_oom_fix", "returns a tensor", expect=r"should return a Python float, got Tensor",
           replace=[("F.cross_entropy(model(x), y).item()", "F.cross_entropy(model(x), y)")], caught_by="visible", msgid="debug.oom_type"),
    Mutant("debug_oom_fix", "blames the batch size", expect=r"the batch is not too large",
           replace=[('OOM_CAUSE = "graphs_kept"', 'OOM_CAUSE = "batch_too_large"')], caught_by="visible", msgid="debug.oom_why_batch_too_large"),
    Mutant("debug_oom_fix", "blames the cache", expect=r"nothing to give back",
           replace=[('OOM_CAUSE = "graphs_kept"', 'OOM_CAUSE = "cache_not_emptied"')], caught_by="visible", msgid="debug.oom_why_cache"),
    # Exercise 9: predict and CUDNN_CAUSE (cuDNN error)
    Mutant("debug_cudnn_fix", "one batch under no_grad", expect=r"still fails.*CUDNN_STATUS_INTERNAL_ERROR",
           replace=[("torch.cat([model(part) for part in images.split(16)])", "model(images)")], caught_by="visible", msgid="debug.cudnn_still_fails"),
    Mutant("debug_cudnn_fix", "chunks that keep their graphs", expect=r"still fails.*CUDNN_STATUS_INTERNAL_ERROR",
           replace=[("    with torch.no_grad():\n        return torch.cat", "    if True:\n        return torch.cat")], caught_by="visible", msgid="debug.cudnn_still_fails"),
    Mutant("debug_cudnn_fix", "turns cuDNN off", expect=r"still fails.*CUDA out of memory",
           replace=[("    with torch.no_grad():\n        return torch.cat([model(part) for part in images.split(16)])",
                     "    with torch.no_grad(), torch.backends.cudnn.flags(enabled=False):\n        return model(images)")], caught_by="visible", msgid="debug.cudnn_still_fails"),
    Mutant("debug_cudnn_fix", "blames an earlier assert", expect=r"became out of memory, and a smaller batch ran",
           replace=[('CUDNN_CAUSE = "memory"', 'CUDNN_CAUSE = "earlier_assert"')], caught_by="visible", msgid="debug.cudnn_why_earlier_assert"),
    Mutant("debug_cudnn_fix", "blames the installation", expect=r"broken installation",
           replace=[('CUDNN_CAUSE = "memory"', 'CUDNN_CAUSE = "broken_install"')], caught_by="visible", msgid="debug.cudnn_why_install"),
    # Exercise 3: to_class_index (class index out of range)
    Mutant("debug_class_index", "subtracts 1 from all labels", expect=r"should give \[0, 3, 1, 0, 9\], got \[9, 2, 0, 9, 8\]",
           code="def to_class_index(labels, classes):\n    return labels - 1\n", caught_by="visible", msgid="debug.index_values"),
    Mutant("debug_class_index", "clamps the labels", expect=r"should give \[0, 3, 1, 0, 9\], got \[9, 3, 1, 9, 9\]",
           code="def to_class_index(labels, classes):\n    return labels.clamp(max=len(classes) - 1)\n", caught_by="visible", msgid="debug.index_values"),
    Mutant("debug_class_index", "labels modulo the number of classes", expect=r"should give \[(5, 3, 0, 4, 5, 1|2, 0, 1)\]",
           code="def to_class_index(labels, classes):\n    return labels % len(classes)\n", caught_by="visible", msgid="debug.index_values"),
    Mutant("debug_class_index", "unknown labels silently become class 0", expect=r"should raise a ValueError",
           code=("def to_class_index(labels, classes):\n"
                 "    index_of = {int(label): index for index, label in enumerate(classes)}\n"
                 "    return torch.tensor([index_of.get(int(v), 0) for v in labels.tolist()], dtype=torch.int64)\n"), caught_by="visible", msgid="debug.index_no_error"),
    Mutant("debug_class_index", "rewrites the labels in place", expect=r"changed the tensor it was given",
           code=("def to_class_index(labels, classes):\n"
                 "    index_of = {int(label): index for index, label in enumerate(classes)}\n"
                 "    for i, value in enumerate(labels.tolist()):\n"
                 "        if value not in index_of:\n"
                 "            raise ValueError(f'label {value} is not in classes')\n"
                 "        labels[i] = index_of[value]\n"
                 "    return labels\n"), caught_by="visible", msgid="debug.index_in_place"),
    Mutant("debug_class_index", "float indices", expect=r"should return an int64 tensor, got torch\.float32",
           replace=[("dtype=torch.int64)", "dtype=torch.float32)")], caught_by="visible", msgid="debug.index_dtype"),
    # Exercise 5: clipped_step (NaN loss, clipping under a GradScaler)
    # Exercise 6: parameters_without_gradient
    # Exercise 8: vanishing_layer
]
