"""Messages of day3/07_capstone."""

MESSAGES = {
    # Exercise 1: choose_precision
    "capstone.precision_pair": "choose_precision() should return a pair (amp_dtype, use_scaler), got {got!r}.",
    "capstone.precision_cuda": (
        "On 'cuda' (float32 {fp32} ms, bfloat16 {bf16} ms) choose_precision() should return "
        "(torch.float16, True) whatever the timings, got {got}: float16 is what CUDA autocast is for (every "
        "CUDA GPU runs it; bfloat16 needs an Ampere or newer one), and its small gradients need the GradScaler."
    ),
    "capstone.precision_faster": (
        "On '{device}' bfloat16 took {bf16} ms against float32's {fp32} ms: at least 10 % faster, so "
        "choose_precision() should return (torch.bfloat16, False), got {got}. bfloat16 has float32's range: "
        "no scaler. The test is bf16_ms <= 0.9 * fp32_ms."
    ),
    "capstone.precision_not_faster": (
        "On '{device}' bfloat16 took {bf16} ms against float32's {fp32} ms: not 10 % faster, so "
        "choose_precision() should return (None, False), plain float32, got {got}. Use bfloat16 only when "
        "bf16_ms <= 0.9 * fp32_ms."
    ),
    # Exercise 2: save_checkpoint / load_checkpoint
    "capstone.ckpt_no_file": "save_checkpoint() left no file at {path}: torch.save the dictionary, then rename the temporary file to path.",
    "capstone.ckpt_not_weights_only": (
        "The checkpoint does not load with torch.load(path, weights_only=True) ({error}). Save state_dict()s, "
        "generator states and plain numbers, not the model, optimizer or scaler objects themselves."
    ),
    "capstone.ckpt_not_atomic": (
        "A crash in the middle of torch.save destroyed the checkpoint that was already at path: afterwards it "
        "reads {got!r} instead of the previous epoch 0. Save to a temporary file beside path, then rename it "
        "over path (Path.replace or os.replace): a rename is all or nothing."
    ),
    "capstone.ckpt_keys": (
        "The checkpoint should be a dictionary with an 'epoch' entry, the epoch just finished (fit() and the "
        "later cells read it), got {got}. The other entries are yours to choose."
    ),
    "capstone.ckpt_saved_epoch": (
        "The checkpoint stores epoch {got}, but save_checkpoint() was given epoch={expected}: store the epoch "
        "just finished as it is, and add one only when loading."
    ),
    "capstone.ckpt_next_epoch": (
        "load_checkpoint() should return the next epoch to run, {expected} (the saved epoch {saved} plus one), "
        "got {got}. Returning the saved epoch repeats an epoch that was already trained."
    ),
    "capstone.ckpt_model": (
        "After load_checkpoint(), the model's {names} differ from the saved ones: call "
        "run.model.load_state_dict(state['model'])."
    ),
    "capstone.ckpt_optimizer": (
        "After load_checkpoint(), the optimizer's {what} is missing or differs from the saved one. Adam and SGD "
        "with momentum keep running averages of the gradients: save run.optimizer.state_dict() and restore it "
        "with run.optimizer.load_state_dict(...)."
    ),
    "capstone.ckpt_scheduler": (
        "After load_checkpoint(), the scheduler is at last_epoch={got} instead of {expected}: the learning-rate "
        "schedule would start again. Save run.scheduler.state_dict() and restore it with load_state_dict(...)."
    ),
    "capstone.ckpt_scaler": (
        "After load_checkpoint(), the GradScaler's scale is {got} instead of the saved {expected}: save "
        "run.scaler.state_dict() and restore it with run.scaler.load_state_dict(...), or float16 training "
        "recalibrates (and skips steps) after every resume."
    ),
    "capstone.ckpt_generator": (
        "After load_checkpoint(), the loader's shuffling generator is not in its saved state, so the resumed "
        "epochs see the batches in another order. Save run.generator.get_state() and restore it with "
        "run.generator.set_state(...)."
    ),
    "capstone.ckpt_rng": (
        "After load_checkpoint(), PyTorch's global random generator is not in the state it had when the "
        "checkpoint was saved, so dropout draws other masks in the resumed epochs. Save torch.get_rng_state() "
        "and restore it with torch.set_rng_state(...)."
    ),
    "capstone.ckpt_cuda_rng": (
        "On a machine with CUDA GPUs, the checkpoint did not bring back their random generators ({error}), so "
        "dropout on a GPU draws other masks after a resume. Where torch.cuda.is_available(), save "
        "torch.cuda.get_rng_state_all() (one state per GPU) and restore it with torch.cuda.set_rng_state_all(...); "
        "on a machine without CUDA, save an empty list and restore nothing."
    ),
    # Exercise 3: fit
    "capstone.fit_losses": (
        "fit(run, {epochs}, path) on a fresh run should return a list of {epochs} Python floats, the mean loss "
        "of each epoch it ran, got {got!r}."
    ),
    "capstone.fit_batches": (
        "fit() ran the model on {got} batches, expected {expected} (every batch of run.loader, once per epoch)."
    ),
    "capstone.fit_not_training": (
        "The model was in evaluation mode while fit() trained it (dropout off). Call run.model.train() at the "
        "start of every epoch: the model may come in evaluation mode."
    ),
    "capstone.fit_no_autocast": (
        "With run.amp_dtype={dtype}, the forward pass did not run under autocast (the last layer gave {got}). "
        "Compute the scores and the loss inside torch.autocast(run.device.type, dtype=run.amp_dtype, "
        "enabled=run.amp_dtype is not None)."
    ),
    "capstone.fit_no_scale": (
        "run.scaler.scale(loss) was called {got} times for {batches} batches: call "
        "run.scaler.scale(loss).backward() in every step, not loss.backward(). (A disabled scaler returns the "
        "loss unchanged, so the same line works without one.)"
    ),
    "capstone.fit_no_scaler_step": (
        "For {batches} batches, run.scaler.step(optimizer) was called {steps} times and run.scaler.update() "
        "{updates} times: step through the scaler, not with optimizer.step(), then update it, in every batch."
    ),
    "capstone.fit_scheduler": (
        "After {epochs} epochs the scheduler is at last_epoch={got}: call run.scheduler.step() once per epoch, "
        "at its end (not per batch)."
    ),
    "capstone.fit_checkpoints": (
        "fit() saved checkpoints after the epochs {got}, expected {expected}: call save_checkpoint(ckpt_path, "
        "run, epoch) at the end of every epoch, so a crash loses one epoch at most."
    ),
    "capstone.fit_no_resume_done": (
        "Called again with the checkpoint of a finished 2-epoch run, fit() should find nothing left to do and "
        "return [], got {got!r}. If ckpt_path exists, load it first and start at the epoch load_checkpoint() "
        "returns (the saved epoch plus one)."
    ),
    "capstone.fit_swallowed_crash": (
        "A SimulatedCrash raised by the loader did not come out of fit(): don't catch exceptions in fit(), a "
        "crashed run must stop (the checkpoint is what survives)."
    ),
    "capstone.fit_no_checkpoint": (
        "After a crash in epoch 1 there is no checkpoint at {path}: save one at the end of every epoch, not "
        "only when training is over."
    ),
    "capstone.fit_checkpoint_epoch": (
        "After a crash, the checkpoint on disk says epoch {got}, expected {expected} (the last epoch that "
        "finished). Save at the end of each epoch, with the number of that epoch."
    ),
    "capstone.fit_resumed_epochs": (
        "Resumed after the crash, fit() should run only the epochs that were missing and return their losses, "
        "got {got!r}. Load the checkpoint if ckpt_path exists and start at the epoch it returns."
    ),
    "capstone.fit_resume_differs": (
        "The resumed run ends with other weights than the uninterrupted one ({names} differ): something that "
        "changes during training is not saved or not restored, or the resumed run does different steps "
        "(zero_grad missing, an epoch repeated or skipped, a checkpoint saved before the epoch's "
        "scheduler step, which resumes with the old learning rate)."
    ),
    "capstone.fit_loss_value": (
        "fit() returned {got} as the mean loss of epoch {epoch}, but that epoch's batch losses, each weighted by "
        "its number of images, average {expected}. Per batch add loss.item() * len(labels) to the total and "
        "len(labels) to the count; at the end of the epoch append total / count."
    ),
    "capstone.fit_loss_differs": (
        "The resumed run's last epoch has mean loss {got}, the uninterrupted run's {expected}: the same epoch "
        "on the same state should give the same loss."
    ),
    # Exercise 4: deploy
    "capstone.deploy_raised": (
        "deploy() raised {error}. Export with torch.onnx.export(model, (example,), path, dynamo=True, "
        "external_data=False, input_names=['pixels'], output_names=['logits'], dynamic_shapes=({{0: batch}},)) "
        "where batch = torch.export.Dim('batch')."
    ),
    "capstone.deploy_warned": (
        "deploy() printed warnings: {warnings}. Call model.eval() before exporting, and declare the dynamic "
        "batch with dynamic_shapes, not the old dynamic_axes."
    ),
    "capstone.deploy_train_mode": (
        "After deploy() the model is still in training mode: call model.eval() before exporting and comparing "
        "(the mode is frozen into the exported graph, and dropout makes the comparison random)."
    ),
    "capstone.deploy_no_file": "deploy() wrote no file at {path}: pass path to torch.onnx.export.",
    "capstone.deploy_external_data": (
        "deploy() wrote extra files beside the model ({files}): the weights went to a separate .data file. "
        "Pass external_data=False to get one file to ship."
    ),
    "capstone.deploy_names": (
        "The exported file's (inputs, outputs) are named {got}, expected (['pixels'], ['logits']): pass "
        "input_names=['pixels'] and output_names=['logits']."
    ),
    "capstone.deploy_fixed_batch": (
        "The exported file refused a batch of {batch} ({error}): only the example's batch size works. Mark "
        "dimension 0 as dynamic: dynamic_shapes=({{0: torch.export.Dim('batch')}},)."
    ),
    "capstone.deploy_differs": (
        "On a batch of {batch}, the exported file differs from the model in evaluation mode by {diff:.3g} "
        "(more than 1e-4): export the model after model.eval()."
    ),
    "capstone.deploy_gap_type": "deploy() should return a Python float (use float(...)), got {got_type}.",
    "capstone.deploy_gap": (
        "deploy() returned {got}, but the largest absolute difference between ONNX Runtime and PyTorch (in "
        "evaluation mode, on example) is {expected}. Return float(np.abs(onnx_output - torch_output).max())."
    ),
    # Printed by the demonstration cells (ptcourse.messages.say) and figure texts
    "capstone.demo_pixel_values": "pixel values from {low:.2f} to {high:.2f}",
    "capstone.demo_one_step": "one step on the CPU (one thread, median of 5 after a warm-up): float32 {fp32:.1f} ms, bfloat16 autocast {bf16:.1f} ms ({ratio:.2f}x)",
    "capstone.demo_on_device": "on {device}: amp_dtype={dtype}, GradScaler on: {scaler}",
    "capstone.demo_resumed": "resumed: epochs 1 and 2, mean losses",
    "capstone.demo_uninterrupted": "uninterrupted: mean losses",
    "capstone.demo_resume_losses": "epoch {epoch}, mean loss: uninterrupted {straight:.10f}, resumed {resumed:.10f}",
    "capstone.demo_resume_differ": "parameters that differ at the end:",
    "capstone.demo_resume_same": "parameters that differ at the end: none",
    "capstone.demo_differ": "parameters that differ between the two:",
    "capstone.demo_none": "none",
    "capstone.demo_three_runs": "three runs, about {epochs:.0f} epochs of training, in {seconds:.1f} s",
    "capstone.demo_crash": "crash during epoch 1 ({crash}); the checkpoint on disk is from epoch",
    "capstone.demo_table_header": "                accuracy  latency, 1 image",
    "capstone.demo_folder": "checkpoints and exported files of this notebook go to",
}
