"""Messages of day3/07_debugging."""

MESSAGES = {
    # Exercise 1: Classifier (shape mismatch)
    "debug.shape_error": (
        "Classifier on {what} of shape {shape} raised: {error}. Flatten every dimension but the "
        "first (the batch) so each image becomes one row of in_features numbers: "
        "torch.flatten(images, start_dim=1). Do not hard-code 784, and keep dimension 0."
    ),
    "debug.shape_view": (
        "Classifier on {what} of shape {shape} raised: {error}. .view() cannot flatten a "
        "non-contiguous batch (one made with .permute, for instance); torch.flatten(images, 1) "
        "or .reshape(...) copy when they must."
    ),
    # Exercise 2: prepare_batch (dtype mismatch)
    "debug.prepare_pair": "prepare_batch() should return the pair (features, labels), got {got_type}.",
    "debug.prepare_features_dtype": (
        "The features should be float32, the dtype of the model's weights, got {got}: "
        "convert them with .float() (otherwise: mat1 and mat2 must have the same dtype)."
    ),
    "debug.prepare_labels_float": (
        "The labels are {got}, but CrossEntropyLoss wants class indices as int64: use .long(), "
        "not .float() (float targets are for MSELoss or BCELoss)."
    ),
    "debug.prepare_labels_dtype": (
        "The labels should be int64 (torch.long), got {got}: CrossEntropyLoss accepts only int64 "
        "class indices (int32, which NumPy gives on some platforms, is refused too). Use .long()."
    ),
    "debug.prepare_labels_shape": (
        "The labels should have shape ({n},), one class index per sample, got {got}: take the last "
        "column as table[:, -1], not table[:, -1:] (CrossEntropyLoss refuses a (N, 1) target)."
    ),
    "debug.prepare_features_shape": (
        "The features should have shape ({n}, {f}), got {got}: every column but the last "
        "(table[:, :-1]); the last one is the label."
    ),
    "debug.prepare_labels_values": (
        "The labels should be the last column of the table, {expected}, got {got}."
    ),
    "debug.prepare_loss_failed": (
        "CrossEntropyLoss on your features and labels failed: {error}."
    ),
    # Exercise 3: to_class_index (class index out of range)
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
    # Exercise 4: clipped_step (NaN loss)
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
    # Exercise 5: parameters_without_gradient
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
    # Exercise 6: TrackedNet (detach in the right place)
    "debug.tracked_graph_kept": (
        "Training failed on a later step: {error}... The running mean kept this batch's graph: "
        "detach the batch mean before adding it to feature_mean (hidden.detach().mean(dim=0))."
    ),
    "debug.tracked_output_detached": (
        "backward() found nothing to differentiate: the output was detached. Detach only the "
        "statistic that goes into feature_mean, never the output or the features."
    ),
    "debug.tracked_encoder_no_grad": (
        "After training, {names} received no gradient: the features were detached (or computed "
        "under torch.no_grad()). Keep hidden = self.encoder(x) in the graph and detach only the "
        "batch mean used for the running statistic."
    ),
    "debug.tracked_no_progress": (
        "After 150 steps the loss is {last:.3f}, not clearly below the detached version's "
        "{broken:.3f}: does the encoder learn (hidden kept in the graph)?"
    ),
    "debug.tracked_not_buffer": (
        "feature_mean is no longer a buffer of the model: assign a tensor to self.feature_mean "
        "(register_buffer keeps it a buffer), do not delete or rename it."
    ),
    "debug.tracked_mean_graph": (
        "After a forward, feature_mean requires grad: it holds on to this batch's autograd graph "
        "(memory grows, and the next backward fails). Detach the batch mean before the update."
    ),
    # Exercise 7: vanishing_layer
    "debug.vanish_value": (
        "vanishing_layer() on {what} should be {expected!r}, got {got!r}: {hint}. For every nn.Linear "
        "module, take the norm of the gradients of all its parameters (weight and bias), then walk "
        "from the output towards the input and return the first whose norm is below ratio times the "
        "last Linear layer's."
    ),
}
