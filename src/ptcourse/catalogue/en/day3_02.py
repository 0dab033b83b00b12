"""Messages of day3/02_mixed_precision."""

MESSAGES = {
    # Exercise 1: make_amp_tools
    "amp.tools_pair": "make_amp_tools() should return a pair (dtype, scaler), got {got!r}.",
    "amp.tools_dtype": (
        "make_amp_tools({device!r}) should choose {expected}, got {got}. On CUDA use "
        "torch.float16 (with a scaler): every CUDA GPU runs it, while bfloat16 needs an Ampere "
        "or newer one; on the CPU, and any other device, torch.bfloat16. Decide "
        "from the device you are given (torch.device(device).type), not from "
        "torch.cuda.is_available(), and remember that 'cuda:0' is a CUDA device too."
    ),
    "amp.tools_scaler_type": (
        "The second item returned by make_amp_tools() should be a torch.amp.GradScaler, got "
        "{got_type}."
    ),
    "amp.tools_cpu_enabled": (
        "On the CPU the scaler should be disabled: bfloat16 has float32's range, so its "
        "gradients do not underflow. Create it with torch.amp.GradScaler(device_type, "
        "enabled=False)."
    ),
    "amp.tools_cuda_disabled": (
        "For {device!r} the scaler is disabled, but float16 gradients underflow without one: "
        "return torch.amp.GradScaler('cuda') (enabled is the default)."
    ),
    "amp.tools_cuda_kind": (
        "For a CUDA device the scaler should be made for 'cuda', got one for {got!r}: "
        "torch.amp.GradScaler('cuda')."
    ),
    # Exercise 2: amp_train_step
    "amp.step_return_type": (
        "amp_train_step() should return the loss as a Python float, got {got_type}: return "
        "loss.item()."
    ),
    "amp.step_loss_calls": "amp_train_step() should call loss_fn once per step, it called it {got} times.",
    "amp.step_return_value": (
        "amp_train_step() returned {got!r}, but the loss of this batch was {expected!r}: return "
        "loss.item() of the loss computed in this step."
    ),
    "amp.step_return_scaled": (
        "amp_train_step() returned {got:.6g}, which is the loss ({expected:.6g}) times the scale "
        "{scale}: that is the scaled loss. Return loss.item(), not scaler.scale(loss)."
    ),
    "amp.step_params_cast": (
        "The parameter {name} is {got}, but the weights should stay torch.float32: autocast "
        "casts copies for each operation. Do not call model.half(), model.to(dtype) or "
        "model.bfloat16() in amp_train_step()."
    ),
    "amp.step_no_update": (
        "After amp_train_step() the model's parameters have not changed: call "
        "scaler.step(optimizer) after the backward pass."
    ),
    "amp.step_forward_calls": "The model's forward() ran {got} times; it should run exactly once.",
    "amp.step_no_autocast": (
        "Inside model.forward(), autocast for 'cpu' was off: the forward pass ran in float32. "
        "Wrap it in torch.autocast(device_type, dtype=dtype) with the device_type you are given "
        "(autocast for 'cuda' does nothing to CPU tensors), and do not switch it off with "
        "enabled=scaler.is_enabled() (on the CPU the scaler is off, autocast should not be). "
        "Expected dtype: {dtype}."
    ),
    "amp.step_autocast_dtype": (
        "Inside the autocast region the low-precision dtype was {got}, expected {expected}: pass "
        "dtype=dtype to torch.autocast instead of a fixed dtype."
    ),
    "amp.step_no_scale": (
        "The scaler's scale() was never called (scaler calls: {calls}): run the backward pass "
        "on the scaled loss, scaler.scale(loss).backward(), not loss.backward()."
    ),
    "amp.step_no_scaler_step": (
        "scaler.step(optimizer) was never called (scaler calls: {calls}). Step through the "
        "scaler instead of calling optimizer.step(): it unscales the gradients and skips the "
        "step when they hold inf or NaN."
    ),
    "amp.step_scaler_error": (
        "The GradScaler stopped with: {error} (scaler calls: {calls}). The order is "
        "scaler.scale(loss).backward(), [scaler.unscale_(optimizer)], scaler.step(optimizer), "
        "scaler.update()."
    ),
    "amp.step_no_update_call": (
        "scaler.update() was never called (scaler calls: {calls}): without it the scale never "
        "adapts. Call it once per step, after scaler.step(optimizer)."
    ),
    "amp.step_update_order": (
        "scaler.update() came before scaler.step(optimizer) (scaler calls: {calls}): update the "
        "scale after the step."
    ),
    "amp.step_count": (
        "One call of amp_train_step() per batch should compute the loss once and step the "
        "optimizer once; here the optimizer stepped {steps} time(s) for {losses} loss(es)."
    ),
    "amp.step_unscaled_backward": (
        "The gradients reaching the optimizer were {ratio:.3g} times the true ones, about "
        "1/{scale}: backward() ran on the unscaled loss, and the scaler then divided by its "
        "scale anyway. Call scaler.scale(loss).backward() — backward on the scaled loss."
    ),
    "amp.step_grad_ratio": (
        "The gradients reaching the optimizer were {ratio:.3g} times the true gradient of this "
        "batch (the scale was {scale}). Use scaler.scale(loss).backward() once, and let "
        "scaler.step(optimizer) unscale them."
    ),
    "amp.step_applied_inf": (
        "After a step whose gradients held inf, the model's weights contain inf or NaN: the step "
        "was applied. Call scaler.step(optimizer), not optimizer.step(): the scaler skips steps "
        "with inf/NaN gradients."
    ),
    "amp.step_not_skipped": (
        "The gradients of this step held inf, yet the weights changed: use "
        "scaler.step(optimizer), which skips such steps."
    ),
    "amp.step_scale_not_updated": (
        "After a step with inf gradients the scale should fall from {before:g} to {expected:g}, "
        "but scaler.get_scale() is {got:g}: did you forget scaler.update() after "
        "scaler.step(optimizer)?"
    ),
    "amp.step_accumulated": (
        "At step {step}, the gradients the optimizer used were not those of that batch alone: "
        "they kept growing from step to step. Call optimizer.zero_grad() at the start of "
        "amp_train_step()."
    ),
    "amp.clip_setup": (
        "The test's batch should give a gradient norm above max_norm, got {true_norm:.3g}: the "
        "loss the model computed is off (see the other tests of this exercise)."
    ),
    "amp.clip_not_applied": (
        "With max_norm={max_norm}, the gradients reaching the optimizer had norm {got:.4g}: "
        "they were not clipped. After the backward pass, call scaler.unscale_(optimizer) and "
        "then torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)."
    ),
    "amp.clip_scaled": (
        "With max_norm={max_norm}, the gradients reaching the optimizer had norm {got:.4g}, not "
        "{max_norm}. If it is about {scaled_result:.3g} (max_norm / scale {scale}), you clipped "
        "the scaled gradients: call scaler.unscale_(optimizer) before clip_grad_norm_."
    ),
    # The scaler figure (section 4)
    "amp.fig_scale_title": "A GradScaler calibrating: float16 on the CPU, started at 2²⁴",
    "amp.fig_scale_xlabel": "training step",
    "amp.fig_scale_ylabel": "scale S used (log₂ axis)",
    "amp.fig_scale_skipped": "skipped (inf/NaN gradients)",
    "amp.fig_scale_stepped": "step taken",
    # Printed by the demonstration cells (ptcourse.messages.say) and figure texts
    "amp.table_operation": "operation",
    "amp.demo_finfo": "{dtype:15} max {max:10.4g}   smallest normal {tiny:10.4g}   eps {eps:.3g}",
    "amp.demo_float16_gradient": "float16 gradient          :",
    "amp.demo_scaled": "scaled by 2**16 in float16:",
    "amp.demo_unscaled": "unscaled again in float32 :",
    "amp.demo_step": "step {step:2}  scale {scale:>10.0f}  {what}  loss {loss:.4f}",
    "amp.demo_skipped": "SKIPPED (inf/NaN gradients)",
    "amp.demo_stepped": "stepped",
    "amp.demo_skipped_in_all": "... {skipped} of {steps} steps skipped in all; scale now {scale:g}",
    "amp.demo_training_on": "training on {device} with {dtype}, scaler on: {scaler}",
    "amp.demo_epoch": "epoch {epoch}: mean loss {loss:.4f}   scale {scale:g}   weights {dtype}",
    "amp.demo_fp32_time": "float32          : {ms:6.2f} ms per step (median of 9, one thread)",
    "amp.demo_bf16_time": "bfloat16 autocast: {ms:6.2f} ms per step",
    "amp.demo_time_ratio": "bfloat16 / float32 time: {ratio:.2f}  ({verdict} here)",
    "amp.demo_slower": "slower",
    "amp.demo_faster": "faster",
    "amp.demo_predictions": "{dtype} | weights still {weights} | predicted {predicted}",
    "amp.demo_inside_forward": "  inside forward: input {dtype} | autocast on: {on}",
    "amp.demo_linear_output": "linear output:",
    "amp.demo_custom_output": "custom op output:",
    "amp.demo_gradient_reached": "gradient reached the input:",
}
