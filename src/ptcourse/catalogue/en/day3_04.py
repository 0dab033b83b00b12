"""Messages of day3/04_memory."""

MESSAGES = {
    # Exercise 1: training_memory_bytes
    "memory.bytes_type": "training_memory_bytes() should return a whole number of bytes (an int), got {got_type}.",
    "memory.bytes_per_element": (
        "For every optimizer, training_memory_bytes() gives exactly half the bytes expected ('adam': "
        "{got:,} instead of {expected:,}): your count uses 2 bytes per number, but a float32 takes 4. Use "
        "p.numel() * p.element_size(), which asks the dtype."
    ),
    "memory.training_bytes": (
        "For a float32 MLP whose parameters take P = {p_bytes:,} bytes, training_memory_bytes(model, "
        "'{name}') should be {expected:,} bytes ({want_ratio}×P), got {got:,} ({got_ratio:.2f}×P). "
        "Count the weights (1×P) and the gradients (1×P), plus the optimizer's buffers: none for 'sgd', "
        "momentum_buffer for 'sgd_momentum', exp_avg and exp_avg_sq for 'adam'."
    ),
    "memory.training_vs_real": (
        "training_memory_bytes(model, '{name}') gave {got:,} bytes, but after one real optimizer step the "
        "weights, gradients and optimizer.state tensors take {real:,} bytes."
    ),
    "memory.training_real_model": (
        "For a model with {frozen} frozen parameter(s) and BatchNorm buffers, training_memory_bytes(model, "
        "'{name}') gave {got:,} bytes, but the real tensors after one optimizer step take {real:,} bytes "
        "(weights and buffers {weights:,}, gradients {grads:,}, optimizer state {state:,}). Buffers and "
        "frozen parameters (requires_grad=False) are stored once: no gradient, no optimizer state."
    ),
    "memory.training_dtype": (
        "For a {dtype} model ({size} bytes per number), training_memory_bytes(model, '{name}') should be "
        "{expected:,} bytes, got {got:,}. Don't assume 4 bytes per number: use element_size()."
    ),
    "memory.fig_title": "Training memory of the MLP against batch size (Adam, float32)",
    "memory.fig_xlabel": "batch size",
    "memory.fig_ylabel": "memory (MiB)",
    "memory.fig_activations": "activations (measured)",
    "memory.fig_total": "fixed + activations",
    "memory.fig_fixed": "fixed: weights, gradients, Adam state",
    "memory.fig_budget": "budget",
    # Exercise 2: largest_batch_that_fits
    "memory.fit_type": (
        "largest_batch_that_fits() should return one of the candidate batch sizes (a Python int) or "
        "None, got {got!r}."
    ),
    "memory.fit_no_fixed": (
        "largest_batch_that_fits() chose batch {got}, but only {expected} fits in {budget:,} bytes: at "
        "{got} the activations alone fit, but the weights, gradients and optimizer state "
        "({fixed:,} bytes, training_memory_bytes(model, optimizer_name)) come on top. Add them."
    ),
    "memory.fit_no_activations": (
        "largest_batch_that_fits() chose batch {got}, the largest candidate, but only {expected} fits in "
        "{budget:,} bytes: the activations grow with the batch and must be counted. Measure them for each "
        "candidate with saved_activation_bytes(model, torch.randn(b, *sample_shape)), with autograd on "
        "(not under torch.no_grad(), where nothing is saved)."
    ),
    "memory.fit_smallest": (
        "largest_batch_that_fits() chose batch {got}, the smallest one that fits; the question is the "
        "LARGEST that fits in {budget:,} bytes: {expected}."
    ),
    "memory.fit_strict": (
        "largest_batch_that_fits() chose batch {got}, but batch {expected} needs exactly {budget:,} bytes, "
        "the budget itself: a total equal to the budget fits (at most the budget, <=)."
    ),
    "memory.fit_order": (
        "largest_batch_that_fits() chose batch {got}, the last candidate that fits in the order given "
        "({candidates}); candidates may come in any order: return the largest that fits, {expected}."
    ),
    "memory.fit_optimizer": (
        "With optimizer_name='{name}' and a budget of {budget:,} bytes, the largest batch that fits is "
        "{expected}, got {got!r}: the fixed part depends on the optimizer (2P, 3P, 4P), so pass "
        "optimizer_name on to training_memory_bytes()."
    ),
    "memory.fit_none": (
        "With a budget of {budget:,} bytes not even the fixed part ({fixed:,} bytes) fits, so no batch "
        "does: largest_batch_that_fits() should return None, got {got!r}."
    ),
    "memory.fit_none_raised": (
        "When no candidate fits, largest_batch_that_fits() should return None, but it raised {error}. "
        "max() of an empty sequence raises: give it default=None."
    ),
    "memory.fit_batch": (
        "For {what} and a budget of {budget:,} bytes, the largest batch in {candidates} that fits is "
        "{expected}, got {got!r}. Memory = training_memory_bytes(model, optimizer_name) + "
        "saved_activation_bytes(model, torch.randn(b, *sample_shape)); it fits if it is at most the budget "
        "(this uses your training_memory_bytes of Exercise 1: make its tests pass first)."
    ),
    # Exercise 3: CheckpointedMLP
    "memory.ckpt_no_graph": (
        "The CheckpointedMLP's output does not require grad, so backward() cannot reach any weight. "
        "torch.no_grad() or .detach() cut the graph, and so does checkpoint(..., use_reentrant=True) when "
        "the input does not require grad. Use checkpoint(block, x, use_reentrant=False)."
    ),
    "memory.ckpt_warning": (
        "Running the CheckpointedMLP printed a warning: \"{warning}\". Pass use_reentrant=False "
        "explicitly: checkpoint(block, x, use_reentrant=False)."
    ),
    "memory.ckpt_missing_grad": (
        "After backward(), '{name}' has no gradient: something in forward cuts the graph before that "
        "block (a .detach(), or torch.no_grad()). Feed each block's output straight into the next checkpoint."
    ),
    "memory.ckpt_peak_not_lower": (
        "During forward and backward, at most {ck:,} bytes of tensors were alive at once with your "
        "CheckpointedMLP, and {plain:,} without checkpointing: the peak, the number that decides whether "
        "training fits, did not fall within the budget (half the plain peak here, two thirds in the hidden "
        "test). A checkpoint around the whole stack recomputes every block at once in backward and keeps all "
        "their insides again; the smaller the checkpointed segments, the less is alive at once."
    ),
    # Exercise 4: accumulation_step
    "memory.accum_steps": (
        "optimizer.step() was called {steps} time(s) for {k} micro-batches. Accumulate the gradients of "
        "all micro-batches first, then call step() exactly once."
    ),
    "memory.accum_unscaled": (
        "At optimizer.step(), the gradient is the plain sum of the {k} micro-batch gradients, {ratio:.1f}× "
        "the full-batch one: you forgot to scale each micro-batch's loss. Multiply it by len(xb) / len(x) "
        "before backward() (for equal micro-batches, that is dividing by {k})."
    ),
    "memory.accum_last_only": (
        "At optimizer.step(), the gradient is the last micro-batch's only: a zero_grad() inside the loop "
        "wipes what the earlier micro-batches added. Call optimizer.zero_grad() once, before the loop."
    ),
    "memory.accum_equal_weights": (
        "With micro-batches of sizes {sizes}, giving each the weight 1/{k} is not the full-batch mean: "
        "the small ones count too much. Scale each micro-batch's loss by len(xb) / len(x)."
    ),
    "memory.accum_stale": (
        "The gradient at optimizer.step() includes what was in .grad before the call: call "
        "optimizer.zero_grad() before the first micro-batch."
    ),
    "memory.accum_grad": (
        "With {n} samples in micro-batches of sizes {sizes} (micro_batches={k}), the gradient at "
        "optimizer.step() differs from the full-batch gradient (largest difference {diff:.3g}). Use every "
        "sample once (torch.tensor_split(x, micro_batches)), scale each micro-batch's mean loss by "
        "len(xb) / len(x), zero_grad() once before the loop and step() once after it."
    ),
    "memory.accum_loss_type": "accumulation_step() should return the loss as a Python float (use .item()), got {got_type}.",
    "memory.accum_loss": (
        "accumulation_step(..., micro_batches={k}) should return the full batch's mean loss, {expected:.6f}, "
        "got {got:.6f}: add up the scaled micro-batch losses (their .item())."
    ),
    # Printed by the demonstration cells (ptcourse.messages.say) and figure texts
    "memory.name_gradient_of": "the gradient of {name}",
    "memory.name_after_accumulation": "'{name}' after accumulation_step (vs one big-batch Adam step)",
    "memory.demo_bytes_per_element": "{dtype:15} {size} byte(s) per element",
    "memory.demo_state_of_one_weight": "state of one weight {shape} after one step:",
    "memory.demo_weights": "\nweights    {mib:7.3f} MiB  ({n:,} parameters)",
    "memory.demo_gradients": "gradients  {mib:7.3f} MiB",
    "memory.demo_step_counters": "step counters {steps} bytes (one 0-d float32 tensor per parameter tensor)",
    "memory.demo_for_a_model": "{name:13} {mib:6.2f} MiB for a model of {weights:.2f} MiB",
    "memory.demo_tiny_saves": "the tiny network above saves {n} bytes of activations",
    "memory.demo_batch_activations": "  batch {batch:3}: activations {mib:6.2f} MiB",
    "memory.demo_cnn_activations": "  CNN, 8 images {side}×{side}: activations {mib:6.2f} MiB",
    "memory.demo_under_no_grad": "  batch 256 under no_grad: {n} bytes",
    "memory.demo_under_autocast": "  batch 256 under bfloat16 autocast: {mib:.2f} MiB",
    "memory.demo_largest_batch": "{name:13} fixed {mib:5.2f} MiB -> largest batch in 4 MiB: {chosen}",
    "memory.demo_parameter": "parameter {name}",
    "memory.demo_activation": "activation",
    "memory.demo_saved": "saved {shape:9} {n:5} bytes  storage #{storage}  {what}",
    "memory.demo_mlp_weights": "MLP weights: {weights:.2f} MiB (Adam, 4P: {adam:.2f} MiB)",
    "memory.demo_cuda_report": "{when:34} allocated {allocated:8.1f} MiB   reserved {reserved:8.1f} MiB",
    "memory.demo_when_start": "start",
    "memory.demo_when_big_tensor": "after a 64 MiB tensor",
    "memory.demo_when_del": "after del",
    "memory.demo_when_empty_cache": "after empty_cache()",
    "memory.demo_when_model": "model on the GPU",
    "memory.demo_when_forward": "after forward (activations kept)",
    "memory.demo_when_backward": "after backward (grads, no activations)",
    "memory.demo_when_step": "after step (Adam state)",
    "memory.demo_4p_rule": "4P rule: {rule:.1f} MiB;  peak allocated {peak:.1f} MiB",
    "memory.demo_no_cuda": "No CUDA GPU here (device: {device}): the CUDA memory tools have nothing to report.\nOn CPU, count tensors as in this notebook; the process's memory is in top, htop or the task manager.",
}
