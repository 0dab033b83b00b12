"""Wrong answers for day2/06_debugging."""

from tools.mutants import Mutant

CLIP = "    torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)\n"
FLAT = "return self.fc(torch.flatten(images, start_dim=1))"

MUTANTS = [
    # Exercise 1: to_class_index (class index out of range)
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
    # Exercise 2: clipped_step (NaN loss, clipping under a GradScaler)
    Mutant("debug_clipped_step", "no clipping at all", expect=r"The loss became (inf|nan)",
           replace=[(CLIP, "")], caught_by="visible", msgid="debug.clip_not_finite"),
    Mutant("debug_clipped_step", "clips after the step", expect=r"clip after backward\(\) and before step\(\)",
           replace=[(CLIP + "    scaler.step(optimizer)\n", "    scaler.step(optimizer)\n" + CLIP)], caught_by="visible", msgid="debug.clip_norm"),
    Mutant("debug_clipped_step", "clips before backward()", expect=r"The loss became (inf|nan)|above max_norm",
           replace=[(CLIP, ""), ("    scaler.scale(loss).backward()\n", CLIP + "    scaler.scale(loss).backward()\n")], caught_by="visible", msgid="debug.clip_not_finite"),
    Mutant("debug_clipped_step", "clips each value instead of the norm", expect=r"above max_norm",
           replace=[("torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)",
                     "torch.nn.utils.clip_grad_value_(model.parameters(), max_norm)")], caught_by="visible", msgid="debug.clip_norm"),
    Mutant("debug_clipped_step", "forgets zero_grad", expect=r"included earlier batches",
           replace=[("    optimizer.zero_grad()\n", "")], caught_by="visible", msgid="debug.clip_stale_grads"),
    Mutant("debug_clipped_step", "returns the loss tensor", expect=r"as a Python float, got Tensor",
           replace=[("return loss.item()", "return loss")], caught_by="visible", msgid="debug.clip_return_type"),
    Mutant("debug_clipped_step", "rescales every gradient to max_norm (small ones up)", expect=r"below max_norm=.*scales small gradients up",
           replace=[(CLIP, "    total = torch.linalg.vector_norm(torch.stack([p.grad.norm() for p in model.parameters()]))\n"
                           "    for p in model.parameters():\n        p.grad.mul_(max_norm / total)\n")], caught_by="visible", msgid="debug.clip_scaled_up"),
    Mutant("debug_clipped_step", "only ever scales gradients up", expect=r"The loss became (inf|nan)|above max_norm",
           replace=[(CLIP, "    total = torch.linalg.vector_norm(torch.stack([p.grad.norm() for p in model.parameters()]))\n"
                           "    for p in model.parameters():\n        p.grad.mul_(max(1.0, max_norm / total))\n")], caught_by="visible", msgid="debug.clip_not_finite"),
    Mutant("debug_clipped_step", "clips before scaler.unscale_", expect=r"clipped while still multiplied by the scaler's scale",
           replace=[("    scaler.unscale_(optimizer)\n" + CLIP, CLIP + "    scaler.unscale_(optimizer)\n")], caught_by="visible", msgid="debug.clip_scaled_grads"),
    Mutant("debug_clipped_step", "never unscales (scaler.step unscales after the clip)", expect=r"clipped while still multiplied",
           replace=[("    scaler.unscale_(optimizer)\n", "")], caught_by="visible", msgid="debug.clip_scaled_grads"),
    Mutant("debug_clipped_step", "ignores the scaler", expect=r"never called scaler\.scale\(loss\), scaler\.step\(optimizer\), scaler\.update\(\)",
           replace=[("    scaler.scale(loss).backward()\n    scaler.unscale_(optimizer)\n", "    loss.backward()\n"),
                    ("    scaler.step(optimizer)\n    scaler.update()\n", "    optimizer.step()\n")], caught_by="visible", msgid="debug.clip_scaler_unused"),
    Mutant("debug_clipped_step", "optimizer.step() instead of scaler.step()", expect=r"never called scaler\.step\(optimizer\)",
           replace=[("    scaler.step(optimizer)\n", "    optimizer.step()\n")], caught_by="visible", msgid="debug.clip_scaler_unused"),
    Mutant("debug_clipped_step", "forgets scaler.update()", expect=r"never called scaler\.update\(\)",
           replace=[("    scaler.update()\n", "")], caught_by="visible", msgid="debug.clip_scaler_unused"),
    # Exercise 3: parameters_without_gradient
    Mutant("debug_no_gradient", "only checks for None", expect=r"all zeros counts as no gradient",
           replace=[("if parameter.grad is None or not bool(parameter.grad.any()):", "if parameter.grad is None:")], caught_by="visible", msgid="debug.nograd_zeros"),
    Mutant("debug_no_gradient", "looks at the values without checking for None", expect=r"check `p\.grad is None`",
           replace=[("if parameter.grad is None or not bool(parameter.grad.any()):",
                     "if not bool(parameter.grad.any()):")], caught_by="visible", msgid="debug.nograd_none_crash"),
    Mutant("debug_no_gradient", "lists frozen parameters too", expect=r"frozen on purpose",
           replace=[("        if not parameter.requires_grad:\n            continue\n", "")], caught_by="visible", msgid="debug.nograd_frozen"),
    Mutant("debug_no_gradient", "returns the tensors, not the names", expect=r"should list names \(str\)",
           replace=[("missing.append(name)", "missing.append(parameter)")], caught_by="visible", msgid="debug.nograd_names"),
    Mutant("debug_no_gradient", "lists the parameters that do have a gradient", expect=r"should give \['0\.weight', '0\.bias'\]",
           replace=[("if parameter.grad is None or not bool(parameter.grad.any()):",
                     "if parameter.grad is not None and bool(parameter.grad.any()):")], caught_by="visible", msgid="debug.nograd_value"),
    Mutant("debug_no_gradient", "a gradient that sums to zero counts as none", expect=r"should give \[\], got \['weight'\]",
           replace=[("if parameter.grad is None or not bool(parameter.grad.any()):",
                     "if parameter.grad is None or float(parameter.grad.sum()) == 0:")], caught_by="visible", msgid="debug.nograd_value"),
    # Exercise 4: vanishing_layer
    Mutant("debug_vanishing", "weights only, no bias", expect=r"on dead should be '2', got None.*bias must count",
           replace=[("for p in m.parameters() if p.grad is not None", "for p in [m.weight] if p.grad is not None")], caught_by="visible", msgid="debug.vanish_value"),
    Mutant("debug_vanishing", "walks from the input", expect=r"on dead should be '2', got '0'",
           replace=[("zip(reversed(layers), reversed(norms), strict=True)", "zip(layers, norms, strict=True)")], caught_by="visible", msgid="debug.vanish_value"),
    Mutant("debug_vanishing", "compares with the first layer", expect=r"on dead should be '2', got None",
           replace=[("if norm < ratio * norms[-1]:", "if norm < ratio * norms[0]:")], caught_by="visible", msgid="debug.vanish_value"),
    Mutant("debug_vanishing", "keeps stale gradients", expect=r"stale gradients should be '2', got None.*zero_grad",
           replace=[("    model.zero_grad()\n", "")], caught_by="hidden", msgid="debug.vanish_value"),
]
