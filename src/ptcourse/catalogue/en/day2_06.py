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
    # Exercise 2: clipped_step (NaN loss)
    "debug.clip_return_type": (
        "clipped_step() should return the loss as a Python float, got {got_type}: loss.item()."
    ),
    "debug.clip_not_finite": (
        "The loss became {value} at step {step}: the gradients were not clipped before the update. "
        "Call torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm) between loss.backward() "
        "and optimizer.step()."
    ),
    "debug.clip_no_progress": (
        "The loss went from {first:.3g} to {last:.3g} in 60 steps: it should fall to below a "
        "tenth. Does clipped_step() call optimizer.step(), once, after clipping?"
    ),
    "debug.clip_no_step": (
        "optimizer.step() was called {calls} time(s) after {expected} call(s) of clipped_step(): "
        "call it exactly once per step."
    ),
    "debug.clip_grad_missing": (
        "At optimizer.step() some parameters had no gradient: call loss.backward() before the step."
    ),
    "debug.clip_norm": (
        "At optimizer.step() (step {step}) the gradients' total norm was {norm:.3g}, above "
        "max_norm={max_norm}: clip after backward() and before step(); clipping after the step, "
        "or clipping each value (clip_grad_value_), lets the large step through."
    ),
    "debug.clip_stale_grads": (
        "At optimizer.step() (step {step}) the gradients were not this batch's (clipped): they "
        "included earlier batches. Call optimizer.zero_grad() at the start of every step."
    ),
    "debug.clip_return_value": (
        "clipped_step() should return this step's loss before the update, {expected:.6g}, got {got}."
    ),
    "debug.clip_scaled_up": (
        "The gradients' total norm was {norm:.3g}, below max_norm={max_norm:g}, but at optimizer.step() "
        "it was {got:.3g}: clipping only shrinks gradients whose norm is above max_norm and leaves "
        "smaller ones unchanged. Rescaling every gradient to max_norm scales small gradients up; "
        "torch.nn.utils.clip_grad_norm_ does it right."
    ),
    "debug.clip_scaled_grads": (
        "At optimizer.step() the gradients' total norm was only {norm:.3g}, far below max_norm={max_norm:g}: "
        "they were clipped while still multiplied by the scaler's scale ({scale:g}), and divided by it "
        "afterwards. Unscale first (scaler.unscale_(optimizer)), then clip, so that max_norm applies to "
        "the true gradients."
    ),
    "debug.clip_scaler_unused": (
        "clipped_step() was given a GradScaler but never called {missing}: with a scaler, the loss goes "
        "through scaler.scale(loss) before backward(), and scaler.step(optimizer) then scaler.update() "
        "take the place of optimizer.step()."
    ),
    # Exercise 3: parameters_without_gradient
    "debug.nograd_type": "parameters_without_gradient() should return a list, got {got_type}.",
    "debug.nograd_names": (
        "parameters_without_gradient() should list names (str) from model.named_parameters(), got "
        "{got_type} elements."
    ),
    "debug.nograd_value": (
        "parameters_without_gradient() should give {expected}, got {got}: list, in order, the "
        "trainable parameters whose .grad is None or all zeros."
    ),
    "debug.nograd_zeros": (
        "After a backward that brought only zeros, every parameter should be listed, got {got}: a "
        "gradient that is all zeros counts as no gradient (check not p.grad.any())."
    ),
    "debug.nograd_frozen": (
        "A layer frozen on purpose (requires_grad=False) should not be listed, got {got}: skip "
        "parameters whose requires_grad is False."
    ),
    "debug.nograd_none_crash": (
        "parameters_without_gradient() crashed: {error}. A parameter that no gradient reached has "
        "p.grad None: check `p.grad is None` before looking at its values."
    ),
    # Exercise 4: vanishing_layer
    "debug.vanish_value": (
        "vanishing_layer() on {what} should be {expected!r}, got {got!r}: {hint}. For every nn.Linear "
        "module, take the norm of the gradients of all its parameters (weight and bias), then walk "
        "from the output towards the input and return the first whose norm is below ratio times the "
        "last Linear layer's."
    ),
    # demonstration cells (say)
    "debug.demo_label_range": "labels from {low} to {high}, but {classes} classes means indices 0 to {last}",
    "debug.demo_cpu_only": "Only a CPU here: every tensor is on the same device, so this error cannot happen.",
    "debug.demo_first_try": "first try, RuntimeError:",
    "debug.demo_with_detach": "with the detach: loss",
    "debug.demo_no_gradient": "no gradient reached:",
    "debug.demo_repaired": "repaired: loss",
    "debug.demo_vanishes": "{kind} the gradient vanishes at:",
}
