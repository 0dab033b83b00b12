"""The name of each graded check of day3: its test cell's docstring (written by tools/msgify.py from solutions/; edit the docstring, then re-run it)."""

MESSAGES = {
    'devices_move_to_nested.title': 'move_to() puts every tensor of a nested batch on the meta device and keeps the structure.',
    'devices_move_to_copy.title': 'move_to() leaves the batch it is given untouched and returns unchanged non-tensors as they are.',
    'devices_move_to_deep.title': 'move_to() recurses to any depth and also accepts a single tensor.',
    'devices_place_all.title': 'place() moves every parameter, every buffer and every batch tensor to the meta device.',
    'devices_place_runs.title': "After place(model, batch, device), the model runs on the batch and gives the CPU's answer.",
    'devices_devices_used_mixed.title': 'devices_used() finds a layer left behind, in a model and a batch on different devices.',
    'devices_devices_used_hidden_places.title': 'devices_used() looks at buffers and at tensors nested deep in the batch.',
    'amp_make_tools_cpu.title': "make_amp_tools('cpu') gives bfloat16 and a disabled GradScaler.",
    'amp_make_tools_cuda.title': ('make_amp_tools() gives float16 and an enabled CUDA GradScaler for any CUDA device, judged from '
     'its argument.'),
    'amp_train_step_runs.title': ('amp_train_step() updates a float32 model under bfloat16 autocast on the CPU and returns the loss '
     'as a float.'),
    'amp_train_step_autocast.title': 'The forward pass runs under autocast for the given device type and dtype, with float32 weights.',
    'amp_train_step_scaler.title': ('backward() runs on scaler.scale(loss); then scaler.step(optimizer) and scaler.update() are '
     'called, in that order.'),
    'amp_train_step_skips.title': "A step whose gradients hold inf is skipped (weights unchanged) and the scaler's scale is halved.",
    'amp_train_step_zero_grad.title': 'At every optimizer step, the gradients are those of the current batch alone.',
    'amp_train_step_clip.title': 'With max_norm, the gradients reaching the optimizer have norm max_norm: clipped after unscale_.',
    'compile_plan_mixed.title': 'Three sizes, one slower when compiled: compile, and route only the faster sizes to it.',
    'compile_plan_worth_it.title': 'The savings decide together whether one compilation is worth it, not each size alone.',
    'compile_plan_fresh.title': 'Fresh sizes and numbers: ties, sizes never called, a free compilation.',
    'memory_training_bytes_rule.title': '2P for SGD, 3P with momentum, 4P for Adam on a float32 MLP, checked against real optimizer states.',
    'memory_training_bytes_real.title': 'Buffers and frozen parameters count once: checked against the real tensors after one step.',
    'memory_training_bytes_dtype.title': 'The bytes per element come from the dtype: bfloat16 and float64 models.',
    'memory_fit_budget_exact.title': 'A residual MLP with Adam: the largest batch within an exact budget, from candidates in any order.',
    'memory_fit_budget_optimizer.title': ('The optimizer changes the answer; a budget below the fixed part gives None; a large one the '
     'largest candidate.'),
    'memory_fit_budget_fresh.title': 'A small CNN on 3×10×10 images, other optimizers and budgets.',
    'memory_checkpointed_same_results.title': 'Same outputs and same gradients for every weight as the plain model, and no warning.',
    'memory_checkpointed_saves_memory.title': ('Checkpointing each block lowers the peak memory of forward + backward; gradients still match on '
     'a deeper model.'),
    'memory_accumulation_matches_full_batch.title': ('One step, with the full-batch gradient and loss, for equal (12 = 3×4) and unequal (10 = 3+3+2+2) '
     'micro-batches, whatever .grad held.'),
    'memory_accumulation_step_and_loss.title': ('The weights after the step equal one big-batch step (Adam, cross-entropy); the loss returned is '
     "the full batch's."),
    'memory_accumulation_edge_cases.title': 'Old gradients are cleared first; one micro-batch and one sample per micro-batch work too.',
    'ddp_settings_cpu.title': ("ddp_settings() reads torchrun's variables as ints, falls back to one process, and picks Gloo on "
     'a CPU.'),
    'ddp_settings_gpu.title': ('With CUDA, ddp_settings() picks NCCL and the GPU numbered LOCAL_RANK (checked by pretending CUDA '
     'exists).'),
    'ddp_average_two.title': ("Two replicas, each on half a batch: after averaging, both hold the full batch's gradient "
     '(autograd).'),
    'ddp_average_step.title': ('Three replicas: averaged gradients, then one SGD step each, give identical models equal to one '
     'full-batch step.'),
    'ddp_script_runs.title': 'torchrun starts train.py on 2 processes; it finishes and each rank writes its report.',
    'ddp_script_shards.title': 'In every epoch the two ranks read disjoint shares of the dataset that together cover all of it.',
    'ddp_script_set_epoch.title': ('Each rank reads its samples in a new order every epoch (sampler.set_epoch), as '
     'DistributedSampler gives them.'),
    'ddp_script_same_weights.title': 'Both ranks end with identical weights: DDP averaged the gradients, so the copies never drifted.',
    'ddp_script_checkpoint.title': ('Exactly one checkpoint, saved once by rank 0 only; it loads into the plain model and holds the '
     'final weights.'),
    'export_predict_eval_mode.title': 'predict() switches dropout off, matches the model in eval mode, and records no autograd graph.',
    'export_predict_batchnorm.title': "predict() uses BatchNorm's running statistics: one sample works, rows match, nothing is updated.",
    'export_program_batches.title': ('export_program() gives an ExportedProgram that runs batches of 7 and 1 like the model in eval '
     'mode.'),
    'export_program_fresh.title': 'export_program() works for another model and example size, for several batch sizes.',
    'export_onnx_interface.title': ("export_onnx() writes, without warnings, a file with input 'features', output 'logits' and a free "
     'batch size.'),
    'export_onnx_fresh.title': 'export_onnx() works for another model, a path given as a string, and any batch size.',
    'export_compare_verdicts.title': ('onnx_matches_eager() says True for a faithful file, even given a model in training mode, and '
     'False for a shifted one.'),
    'export_compare_atol.title': 'onnx_matches_eager() uses atol, reads the input name from the file, and works for any batch size.',
    'capstone_precision_decides.title': ('choose_precision() picks float16 + scaler on CUDA, and bfloat16 on other devices only when it is '
     '10 % faster.'),
    'capstone_checkpoint_restores.title': ('The checkpoint loads with weights_only=True, restores model, optimizer, scheduler, scaler, the '
     "loader's and the global generators (CPU and a pretend GPU), and survives a crash mid-save."),
    'capstone_checkpoint_fresh.title': 'The same for another optimizer and schedule (SGD with momentum, StepLR) saved after epoch 4.',
    'capstone_fit_trains.title': ("fit() moves batches to the run's device, autocasts there (off for float32), steps via the "
     'scaler, checkpoints, returns true mean losses.'),
    'capstone_fit_resumes.title': ('A run that crashes in epoch 1 and is resumed by a fresh process ends with the uninterrupted '
     "run's weights."),
    'capstone_fit_resumes_fresh.title': ('Exact resumption with bfloat16 autocast, SGD with momentum, a step schedule and a crash in the '
     'last epoch.'),
    'capstone_deploy_file.title': ("deploy() writes one file, without warnings, with input 'pixels', output 'logits', a free batch, "
     'and the true gap.'),
    'capstone_deploy_fresh.title': 'deploy() works for another trained model, a path given as a string and a batch of another size.',
}
