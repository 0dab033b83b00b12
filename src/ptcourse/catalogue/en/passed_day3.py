"""The success lines of day3's visible test cells (tools/msgify.py keeps them; edit freely)."""

MESSAGES = {
    'devices_move_to_nested.passed': 'every tensor of the nested batch is on meta; dicts, lists, tuples and the rest kept',
    'devices_place_all.passed': 'place(): 4 parameters, 4 buffers and both batch tensors are on meta',
    'devices_devices_used_mixed.passed': 'devices_used() spotted the layer on meta next to the rest on the CPU',
    'devices_devices_used_hidden_places.passed': 'devices_used() found the buffer left on the CPU',
    'amp_make_tools_cpu.passed': 'on the CPU: bfloat16, scaler off; on this machine ({device}): {here_dtype}, scaler on: {scaler_on}',
    'amp_make_tools_cuda.passed': "make_amp_tools() gives float16 and an enabled CUDA scaler for 'cuda' and 'cuda:0' (CUDA simulated)",
    'amp_train_step_runs.passed': 'amp_train_step() took one bfloat16 step (loss {result:.4f}); the weights are still float32',
    'amp_train_step_autocast.passed': ("the forward pass ran under torch.autocast('cpu', dtype=torch.float16), and under "
     "autocast('cuda') on a pretend GPU, with float32 weights"),
    'amp_train_step_scaler.passed': ('with an enabled scaler (scale 1024) the calls were {calls_seen}, and the optimizer got the true '
     'gradients'),
    'amp_train_step_skips.passed': 'an inf gradient: the step was skipped and the scale went from 256 to 128',
    'amp_train_step_zero_grad.passed': "over 3 steps, each optimizer step saw only its own batch's gradient",
    'amp_train_step_clip.passed': 'the gradient norm {norm_before:.3g} was clipped to 0.05 after unscale_, with the scale at 1024',
    'compile_plan_mixed.passed': "compile_plan(): compile once, send 'medium' and 'large' to it, keep 'tiny' eager: 17 s saved",
    'compile_plan_worth_it.passed': '15 s of savings: not worth a 20 s compilation (nothing compiled), worth a 12 s one (3 s saved)',
    'memory_training_bytes_rule.passed': '{rule_numbers:,} parameters: SGD {value:,}, momentum {value2:,}, Adam {value3:,} bytes',
    'memory_training_bytes_real.passed': "a frozen weight and BatchNorm's buffers are counted once, as after a real step",
    'memory_fit_budget_exact.passed': 'batch 64 fits in 414,720 bytes exactly (267,264 fixed + 147,456 of activations); 128 would not',
    'memory_fit_budget_optimizer.passed': 'SGD fits batch 128 where Adam fits 64; nothing fits below the fixed part',
    'memory_checkpointed_same_results.passed': "CheckpointedMLP gives the plain model's outputs and gradients",
    'memory_checkpointed_saves_memory.passed': ('peak memory of forward + backward: {ck:.2f} MiB with a checkpoint per block, {plain:.2f} MiB '
     'without'),
    'memory_accumulation_matches_full_batch.passed': 'accumulation_step(): one step with the full-batch gradient, for equal and unequal micro-batches',
    'ddp_settings_cpu.passed': 'ddp_settings() reads RANK/LOCAL_RANK/WORLD_SIZE and chooses Gloo on the CPU',
    'ddp_average_two.passed': "the mean of the two halves' gradients is the gradient of the whole batch",
    'ddp_script_runs.passed': 'train.py ran on {world} processes and finished in {seconds:.1f} s (most of it starting PyTorch)',
    'ddp_script_shards.passed': 'every epoch the {n_samples} samples were split {join_map_str} between the ranks',
    'ddp_script_set_epoch.passed': 'each epoch brought a new order on every rank',
    'ddp_script_same_weights.passed': 'rank 0 and rank 1 hold the same {numel} weights (largest difference {gap:.1e})',
    'ddp_script_checkpoint.passed': 'one checkpoint, {next_iter_checkpoints}, written by rank 0; every rank waited at the barrier',
    'export_predict_eval_mode.passed': 'predict() is deterministic, matches eval mode, and returns an inference tensor',
    'export_program_batches.passed': 'the exported program runs batches of 7 and 1 and matches the model in eval mode',
    'export_onnx_interface.passed': '{name}: {input_names} {shape} → {output_names} {shape2}; batches of 1 and 7 within 1e-4 of PyTorch',
    'export_compare_verdicts.passed': 'a faithful file matches, a file shifted by 0.5 does not',
    'capstone_precision_decides.passed': 'float16 + scaler on CUDA; bfloat16 on the CPU only where it was at least 10 % faster',
    'capstone_checkpoint_restores.passed': 'the checkpoint restores all eight entries, and load_checkpoint() returns epoch 1 to run next',
    'capstone_fit_trains.passed': ('2 epochs of {len_loader} bfloat16 batches, losses {losses:.3f} → {losses2:.3f}, a checkpoint '
     'after each; called again, fit() finds both epochs done'),
    'capstone_fit_resumes.passed': ('crashed in epoch 1, resumed from the epoch-0 checkpoint: the final weights are identical bit for '
     'bit'),
    'capstone_deploy_file.passed': '{name} ({value:.0f} KiB): pixels {shape} → logits {shape2}; largest gap from PyTorch {gap:.1e}',
}
