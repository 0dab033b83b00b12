"""Each graded check's name: its test cell's docstring (written by tools/msgify.py from solutions/; edit the docstring, then re-run it)."""

MESSAGES = {
    'env_pick_device_here.title': 'pick_device() returns a torch.device that matches this machine.',
    'env_pick_device_priority.title': 'pick_device() prefers CUDA, then MPS, then the CPU (checked by pretending each exists).',
    'env_environment_report_keys.title': 'environment_report() has every key, and values that are results, not functions.',
    'env_environment_report_values.title': "environment_report() values agree with PyTorch's own answers.",
    'env_diagnose_cases.title': "diagnose() gives the table's answer for each situation.",
    'env_diagnose_uses_report.title': 'diagnose() reads the report it is given, including other CUDA versions.',
    'env_version_at_least_basic.title': 'version_at_least() compares this PyTorch and a few plain versions.',
    'env_version_at_least_numeric.title': 'version_at_least() compares numbers, not strings, and ignores build tags.',
    'tensors_make_grid_basic.title': 'make_grid(3, 4) is a float32 (3, 4) tensor holding 0 to 11 row by row.',
    'tensors_make_grid_sizes.title': 'make_grid() works for other sizes, including a single row or column.',
    'tensors_sqdist_shape.title': 'pairwise_sq_dists() turns (4, 3) and (5, 3) points into a (4, 5) table.',
    'tensors_sqdist_values.title': 'pairwise_sq_dists() is right on a small example worked out by hand.',
    'tensors_sqdist_vs_cdist.title': 'pairwise_sq_dists() agrees with torch.cdist(a, b) ** 2 on fresh random points.',
    'tensors_zero_negatives_basic.title': 'zero_negatives() zeroes the negatives of a small tensor and counts them.',
    'tensors_zero_negatives_input_kept.title': 'zero_negatives() leaves its input alone and works on any shape.',
    'tensors_flatten_basic.title': 'flatten_images() turns a (2, 3, 4, 5) batch into (2, 60), like torch.flatten(x, start_dim=1).',
    'tensors_flatten_non_contiguous.title': 'flatten_images() works for any sizes and for a permuted (non-contiguous) batch.',
    'tensors_shares_memory_check.title': 'shares_memory() tells views (including ones that start further in) from copies with equal values.',
    'tensors_view_or_copy_answers.title': "Every answer in SHARES_WITH_X is right: views share x's memory, copies do not.",
    'tensors_shares_memory_fresh.title': ('shares_memory() is right on fresh tensors: 3-D permutes, offset slices, expand, detach, NumPy, '
     'dtype changes.'),
    'tensors_apply_weights_here.title': "apply_weights() multiplies int64 counts by float32 weights on this notebook's device.",
    'tensors_apply_weights_follows_weights.title': ("apply_weights() follows the weights' dtype (float64) and device ('meta' weights stand in for a "
     'GPU).'),
    'autograd_classic_grad_example.title': 'classic_grad() gives [7., 9.] at x = [2., 3.].',
    'autograd_classic_grad_fresh.title': 'classic_grad() matches 2x + 3 on fresh points, runs backward(), and gives the same answer twice.',
    'autograd_batch_grads_separate.title': "batch_grads() returns each batch's own gradient, as separate tensors.",
    'autograd_batch_grads_stale.title': 'batch_grads() ignores an old gradient left in w.grad (fresh data).',
    'autograd_mse_grad_matches.title': 'mse_grad() matches autograd on a small problem (N = 8 samples, D = 3 weights).',
    'autograd_mse_grad_fresh.title': 'mse_grad() matches autograd on fresh shapes, and works inside torch.no_grad().',
    'autograd_softplus_values.title': 'softplus() matches F.softplus without overflowing, in float32 and float64.',
    'autograd_softplus_gradient.title': ('softplus() stays in the graph; its gradient is sigmoid(x): finite, right at 0 and at the '
     'overflow edges.'),
    'autograd_softplus_gradcheck.title': ('softplus() has gradient 0.5 at 0 and sigmoid(x) past the overflow edges, and passes gradcheck '
     '(float64, zeros included).'),
    'autograd_stop_gradient_example.title': 'stop_gradient_loss() is a scalar tensor whose gradient flows through the prediction only.',
    'autograd_stop_gradient_fresh.title': 'stop_gradient_loss() gives the prediction-only gradient on fresh data.',
    'autograd_grow_until_example.title': 'grow_until([3., 4.], 100.) doubles 5 times: result [96., 128.], gradient 32.',
    'autograd_grow_until_depends_on_data.title': 'grow_until() doubles as many times as each input needs (including zero times and a tie).',
    'modules_mlp_shape.title': 'MLP(4, 8, 3) is an nn.Module whose output has shape (batch, 3) and takes part in autograd.',
    'modules_mlp_parameters.title': 'MLP registers exactly the weights and biases of its two linear layers.',
    'modules_mlp_forward.title': 'MLP computes Linear -> ReLU -> Linear, with no ReLU on the output.',
    'modules_deep_registered.title': 'DeepMLP registers every layer (a weight and a bias each) and gives the right output shape.',
    'modules_deep_forward.title': 'DeepMLP computes Linear -> ReLU -> ... -> Linear for other sizes, with no ReLU on the output.',
    'modules_standardize_registered.title': 'Standardize keeps mean and std as buffers and gain and bias as parameters, all in state_dict.',
    'modules_standardize_forward.title': 'Standardize computes (x - mean) / std * gain + bias, follows .to(), and trains only gain and bias.',
    'modules_count_basic.title': 'count_parameters() counts the elements of every weight and bias.',
    'modules_count_frozen.title': 'count_parameters() skips frozen parameters unless asked, and never counts buffers.',
    'modules_clone_outputs.title': ('The clone is a fresh make_model(), loaded from a state_dict file at path: same state (buffers '
     'too), same outputs.'),
    'modules_clone_independent.title': ('With a fresh architecture and a path given as a string, the clone shares no tensor with the '
     'original: training one leaves the other unchanged.'),
    'modules_predict_deterministic.title': 'predict() gives the eval-mode outputs, the same on every call, without a gradient graph.',
    'modules_predict_mode.title': "predict() leaves the model in the mode it found it, and does not touch BatchNorm's statistics.",
    'linreg_make_data_shapes.title': 'make_data() returns two (n, 1) float32 columns on the line y = 3x + 2, with noise 0.1.',
    'linreg_make_data_fresh.title': ('make_data() honours every argument: other slopes, ranges and noise; the generator makes it '
     'reproducible.'),
    'linreg_train_two_steps.title': 'train() takes two exact gradient-descent steps on a tiny problem and reports their losses.',
    'linreg_train_fresh_steps.title': 'train() takes exact gradient-descent steps on fresh data, with another lr and number of epochs.',
    'linreg_train_converges.title': 'train() with a good lr and enough epochs reaches the least-squares line, its loss never rising.',
    'linreg_hyperparameters_recipe.title': 'pick_hyperparameters() fixes the recipe: the y = 3x + 2 data reach the least-squares line.',
    'linreg_hyperparameters_fresh.title': 'pick_hyperparameters() also converges on fresh data: another line, fewer points, a far start.',
    'linreg_standardise_basic.title': ('standardise() gives z with mean 0 and std 1 without touching x; to_original_units() keeps the '
     'same line.'),
    'linreg_standardise_far.title': 'standardise() works for x far from 0 and of another spread; x is left unchanged.',
    'linreg_standardise_fit.title': "Standardise, fit on z (least squares and SGD), convert back: the raw data's least-squares line.",
    'data_pair_dataset_items.title': ('TensorPairDataset has the right length and returns the same (features, label) tuples as '
     'TensorDataset.'),
    'data_pair_dataset_transform.title': 'The transform is applied to the features only, each time an item is read.',
    'data_mnist_transform_shape.title': 'make_mnist_transform() gives float32 tensors of shape (1, 28, 28) from the bundled MNIST.',
    'data_mnist_transform_values.title': 'make_mnist_transform() scales to [0, 1] and normalises with mean 0.1307 and std 0.3081.',
    'data_make_loader_batches.title': 'make_loader() gives shuffled full batches of the requested size and drops the last partial one.',
    'data_make_loader_seeded.title': ('The same seed gives the same order, different seeds differ, and the global random state is '
     'untouched.'),
    'data_make_loader_epoch.title': 'Every sample appears exactly once per epoch, and a new epoch gets a new order.',
    'data_pad_collate_batch.title': 'pad_collate() pads a small batch exactly like torch.nn.utils.rnn.pad_sequence(batch_first=True).',
    'data_pad_collate_dtypes.title': "pad_collate() keeps the sequences' dtype and returns lengths and labels as int64 tensors.",
    'data_pad_collate_loader.title': "Used as a DataLoader's collate_fn, pad_collate() pads each batch to its own longest sequence.",
    'cnn_prepare_images_matches.title': "prepare_images() gives, image by image, what torchvision's transforms give.",
    'cnn_prepare_images_any_size.title': 'prepare_images() works for any number and size of images, like the transforms do.',
    'cnn_conv_output_size_recipe.title': "conv_output_size() reproduces the recipe's sizes: 28 → 26 → 13 → 11 → 5.",
    'cnn_conv_output_size_pytorch.title': "conv_output_size() agrees with what PyTorch's Conv2d and MaxPool2d compute, for many settings.",
    'cnn_simple_cnn_recipe.title': ('SimpleCNN() sizes fc1 for what the conv layers really produce, and gives 10 scores per image '
     '(channels_last too).'),
    'cnn_simple_cnn_other_sizes.title': "SimpleCNN computes fc1's size for other channel counts and image sizes (checked against PyTorch).",
    'cnn_simple_cnn_forward.title': "SimpleCNN.forward applies its layers in the recipe's order, ReLUs included, for any batch size.",
    'cnn_train_one_epoch_returns.title': ('train_one_epoch() updates the weights, steps the scheduler once per batch, and returns the mean '
     'batch loss.'),
    'cnn_train_one_epoch_train_mode.title': 'train_one_epoch() puts the model in training mode, even if it was left in eval mode.',
    'cnn_train_one_epoch_device.title': 'train_one_epoch() moves inputs and targets to `device` and uses the moved copies.',
    'cnn_train_one_epoch_zero_grad.title': 'At every optimizer.step(), the gradients are those of the current batch alone.',
    'cnn_train_one_epoch_logits.title': "train_one_epoch() hands the model's raw outputs (logits) to loss_fn, unchanged.",
    'cnn_evaluate_accuracy.title': 'evaluate() returns the fraction of correctly classified samples, batches of any size included.',
    'cnn_evaluate_eval_mode.title': 'evaluate() puts the model in eval mode: with dropout in the model, the answer no longer varies.',
    'cnn_evaluate_no_grad.title': 'evaluate() runs the model inside torch.no_grad(): no autograd graph is built.',
    'cnn_evaluate_device.title': 'evaluate() moves each batch to `device` before the model sees it.',
    'cnn_make_optimizer_schedule.title': ("make_optimizer() returns an optimizer over the model's parameters and a schedule that lasts "
     'every step.'),
    'cnn_make_optimizer_learns.title': "With make_optimizer()'s settings, a tiny CNN's loss falls clearly in 30 steps on 320 digits.",
    'cnn_trained_accuracy.title': 'The CNN trained above classifies at least 97 % of the 1,000 test digits correctly.',
    'ckpt_save_load_roundtrip.title': 'The checkpoint holds the five entries, loads with weights_only=True, and restores the weights.',
    'ckpt_resume_exact.title': ('4 epochs straight == 2 epochs, checkpoint, fresh objects, load, 2 more epochs (torch.equal on '
     'every weight).'),
    'ckpt_resume_exact_sgd.title': 'Resuming is exact with another set-up too: SGD with momentum, a step schedule, 3 + 2 epochs.',
    'ckpt_best_keeper_min.title': "With mode='min' (a loss), only improvements are saved and the file holds the best epoch's weights.",
    'ckpt_best_keeper_max.title': ("With mode='max' (an accuracy) higher is better, even when every value is negative; bad modes "
     'raise.'),
    'ckpt_trusted_config_loads.title': 'A TrainConfig is allowed; a checkpoint with another class in it is refused.',
    'ckpt_trusted_config_scoped.title': 'The allow-list is the same after the call; other unexpected objects are refused too.',
    'repro_set_seed_repeats.title': "After set_seed(s), Python's random, NumPy and torch repeat the same numbers.",
    'repro_set_seed_uses_seed.title': 'Different seeds give different numbers, for each generator; the same seed still repeats.',
    'repro_run_same_seed.title': 'run(7) twice gives exactly the same losses, even if other code draws random numbers in between.',
    'repro_run_seed_matters.title': 'Different seeds give different runs; the epochs argument is used.',
    'repro_log_epoch_row.title': 'log_epoch() has every key, plain floats, the scheduled learning rate, seconds and MiB.',
    'repro_log_epoch_cuda.title': 'On a CUDA device (pretended here): synchronise before reading the clock, peak GPU memory in MiB.',
    'devices_move_to_nested.title': 'move_to() puts every tensor of a nested batch on the meta device and keeps the structure.',
    'devices_move_to_copy.title': 'move_to() leaves the batch it is given untouched and returns unchanged non-tensors as they are.',
    'devices_move_to_deep.title': 'move_to() recurses to any depth and also accepts a single tensor.',
    'devices_standardize_buffers.title': 'Standardize keeps mean and std as buffers: moved by .to(), saved in state_dict(), not parameters.',
    'devices_standardize_values.title': 'Standardize accepts lists or tensors, stores float32 buffers, and broadcasts over a batch.',
    'devices_place_all.title': 'place() moves every parameter, every buffer and every batch tensor to the meta device.',
    'devices_place_runs.title': "After place(model, batch, device), the model runs on the batch and gives the CPU's answer.",
    'devices_devices_used_mixed.title': 'devices_used() finds a layer left behind, in a model and a batch on different devices.',
    'devices_devices_used_hidden_places.title': 'devices_used() looks at buffers and at tensors nested deep in the batch.',
    'devices_loader_for_pin.title': 'loader_for() pins memory for CUDA devices only, and iterating it here prints no warning.',
    'devices_loader_for_devices.title': 'loader_for() reads the device it is given: strings, CUDA indices, MPS and meta included.',
    'amp_float16_problems_basic.title': ('float16_problems() counts values that overflow and underflow in float16, and leaves the edge '
     'cases out.'),
    'amp_float16_problems_edges.title': ('float16_problems() gets the rounding edges right: 65519 survives, 3e-5 and 6e-8 survive, inf and '
     '0 are not counted.'),
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
    'amp_predict_outputs.title': "amp_predict() returns float32 outputs, close to the float32 model's but computed in bfloat16.",
    'amp_predict_mode.title': ('Inside amp_predict(), the model runs in eval mode, without gradients, under autocast, with '
     'float32 weights.'),
    'compile_time_call_median.title': 'time_call() skips the warm-up calls and returns the median of the timed ones.',
    'compile_time_call_fresh.title': 'time_call() on other warm-up and repeat counts, passing every argument through.',
    'compile_time_call_sync.title': 'On a GPU, time_call() waits with torch.cuda.synchronize() before reading the clock (simulated).',
    'compile_pays_off_cases.title': 'compile_pays_off() on a long run, a short run and a compiled step that is slower.',
    'compile_pays_off_edges.title': 'compile_pays_off() on fresh numbers, equal step times, and either side of the break-even point.',
    'compile_plan_mixed.title': 'Three sizes, one slower when compiled: compile, and route only the faster sizes to it.',
    'compile_plan_worth_it.title': 'The savings decide together whether one compilation is worth it, not each size alone.',
    'compile_plan_fresh.title': 'Fresh sizes and numbers: ties, sizes never called, a free compilation.',
    'compile_no_breaks_zero.title': 'torch._dynamo.explain finds zero graph breaks in scaled_residual.',
    'compile_no_breaks_same.title': "scaled_residual gives the original's results, with large and with small values.",
    'compile_no_breaks_shapes.title': 'scaled_residual on 2-D float64 inputs: same results, same dtype, still no graph break.',
    'memory_training_bytes_rule.title': '2P for SGD, 3P with momentum, 4P for Adam on a float32 MLP, checked against real optimizer states.',
    'memory_training_bytes_real.title': 'Buffers and frozen parameters count once: checked against the real tensors after one step.',
    'memory_training_bytes_dtype.title': 'The bytes per element come from the dtype: bfloat16 and float64 models.',
    'memory_saved_bytes_tiny.title': 'The tiny Linear-ReLU-Linear saves x and the ReLU output: 3,072 bytes.',
    'memory_saved_bytes_reference.title': 'Other models, views and an input that requires grad agree with a reference measurement.',
    'memory_fit_budget_exact.title': 'A residual MLP with Adam: the largest batch within an exact budget, from candidates in any order.',
    'memory_fit_budget_optimizer.title': ('The optimizer changes the answer; a budget below the fixed part gives None; a large one the '
     'largest candidate.'),
    'memory_fit_budget_fresh.title': 'A small CNN on 3×10×10 images, other optimizers and budgets.',
    'memory_checkpointed_same_results.title': 'Same outputs and same gradients for every weight as the plain model, and no warning.',
    'memory_checkpointed_saves_memory.title': ('Checkpointing each block saves far fewer bytes for backward; gradients still match on a deeper '
     'model.'),
    'memory_accumulation_matches_full_batch.title': ('One step, with the full-batch gradient, for equal (12 = 3×4) and unequal (10 = 3+3+2+2) '
     'micro-batches.'),
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
    'debug_classifier_digits.title': 'Classifier gives one row of 10 scores per digit for a (4, 1, 28, 28) batch.',
    'debug_classifier_any_batch.title': 'Classifier works for a batch of one, colour images of other sizes, and non-contiguous batches.',
    'debug_prepare_batch_dtypes.title': 'prepare_batch() gives float32 features and int64 labels that Linear and CrossEntropyLoss accept.',
    'debug_prepare_batch_values.title': 'prepare_batch() keeps the values: every feature column, and the labels from the last column.',
    'debug_class_index_svhn.title': "to_class_index() maps SVHN's labels to 0..9 keeping each digit, so CrossEntropyLoss accepts them.",
    'debug_class_index_general.title': ('to_class_index() handles ids with gaps, leaves its input alone and raises ValueError on unknown '
     'labels.'),
    'debug_clipped_step_finite.title': 'With clipped_step(), SGD at lr=0.1 on the unnormalised regression stays finite and the loss falls.',
    'debug_clipped_step_order.title': ("At optimizer.step() the gradients are this batch's, clipped to max_norm (clip after backward, "
     'before step).'),
    'debug_no_gradient_detach.title': 'parameters_without_gradient() names the layer a .detach() cut off, and nothing in a healthy model.',
    'debug_no_gradient_cases.title': ('parameters_without_gradient() counts all-zero gradients, skips frozen parameters, and works '
     'before any backward.'),
    'debug_tracked_net_learns.title': ('TrackedNet trains for many steps without error, the encoder gets gradients, and the loss falls '
     "well below the detached version's."),
    'debug_tracked_net_buffer.title': 'The running mean is a detached buffer with the right value, and the output uses the updated mean.',
    'debug_vanishing_found.title': ("vanishing_layer() names the dead layer of `dead` and the point where `deep`'s gradient dies; "
     'None for `healthy`.'),
    'debug_vanishing_fresh.title': ('On fresh networks (sigmoid towers, a dead layer, stale gradients), vanishing_layer() matches a '
     'reference.'),
    'capstone_precision_rules.title': ('choose_precision() follows the rule: float16 + scaler on CUDA, bfloat16 on a CPU only when 10 % '
     'faster.'),
    'capstone_precision_edges.title': 'choose_precision() on the 10 % edge, for MPS and CUDA with any timings.',
    'capstone_checkpoint_restores.title': ('The checkpoint loads with weights_only=True and restores model, optimizer, scheduler, scaler and '
     'both generators.'),
    'capstone_checkpoint_fresh.title': 'The same for another optimizer and schedule (SGD with momentum, StepLR) saved after epoch 4.',
    'capstone_fit_trains.title': ('fit() trains under autocast in training mode through the scaler, steps the schedule and '
     'checkpoints every epoch.'),
    'capstone_fit_resumes.title': ('A run that crashes in epoch 1 and is resumed by a fresh process ends with the uninterrupted '
     "run's weights."),
    'capstone_fit_resumes_fresh.title': ('Exact resumption with bfloat16 autocast, SGD with momentum, a step schedule and a crash in the '
     'last epoch.'),
    'capstone_deploy_file.title': ("deploy() writes one file, without warnings, with input 'pixels', output 'logits', a free batch, "
     'and the true gap.'),
    'capstone_deploy_fresh.title': 'deploy() works for another trained model, a path given as a string and a batch of another size.',
    'capstone_report_numbers.title': ('report() gives the accuracy from one call, and the median latency of a batch of one after a '
     'warm-up.'),
    'capstone_report_fresh.title': 'report() reads the input name from the session, and works for other data and repeat counts.',
}
