"""The success lines of day2's visible test cells (tools/msgify.py keeps them; edit freely)."""

MESSAGES = {
    'linreg_make_data_shapes.passed': 'make_data(): x, y of shape (1000, 1); least squares finds w = {fit_w:.3f}, b = {fit_b:.3f}',
    'linreg_train_two_steps.passed': ('train(): two exact SGD steps, w = {got_w:.4f}, b = {got_b:.4f}, losses {tiny_losses:.4f} → '
     '{tiny_losses2:.4f}'),
    'linreg_hyperparameters_recipe.passed': ('lr = {chosen_lr}, {chosen_epochs} epochs: w = {rw:.4f}, b = {rb:.4f} (least squares {ls_w:.4f}, '
     '{ls_b:.4f})'),
    'linreg_standardise_basic.passed': ('standardise(): z has mean {float_mean:.1e}, std {float_std:.3f}; w_z = 0.87, b_z = 2.0 → w = '
     '{float_unit_w:.3f}, b = {float_unit_b:.3f}'),
    'data_pair_dataset_items.passed': 'TensorPairDataset has 5 samples and returns (features, label) tuples',
    'data_pair_dataset_transform.passed': 'the transform ran on the features at each of 2 reads; the label stayed as it was',
    'data_mnist_transform_shape.passed': 'an MNIST digit is now a {tuple_shape} {dtype} tensor (label {label0})',
    'data_mnist_transform_values.passed': 'digit 0 runs from {float_min:.3f} (black) to {float_max:.3f} (white)',
    'data_make_loader_batches.passed': '10 items in batches of 4: {len_batches} full batches, order {seen}',
    'data_make_loader_seeded.passed': 'seed 1 gave the same order twice, seed 2 another, and the global random state was left alone',
    'data_make_loader_epoch.passed': 'one epoch over 8 samples saw each once: {epoch_ids}',
    'data_pad_collate_batch.passed': 'padded to {got_shape}, lengths {tolist}',
    'data_pad_collate_dtypes.passed': 'the padded batch kept float32; lengths and labels are int64',
    'cnn_prepare_images_matches.passed': 'prepare_images() matches ToImage + ToDtype(scale=True) + Normalize on 8 training digits',
    'cnn_conv_output_size_recipe.passed': '28 → 26 → 13 → 11 → 5: fc1 needs 64 · 5 · 5 = 1600 inputs, not 64 · 12 · 12 = 9216',
    'cnn_simple_cnn_recipe.passed': 'SimpleCNN(): 28 → 26 → 13 → 11 → 5, so fc1 takes 64 · 5 · 5 = 1600 features',
    'cnn_train_one_epoch_returns.passed': 'train_one_epoch() returned the mean of 4 batch losses, {result:.4f}',
    'cnn_train_one_epoch_train_mode.passed': 'train_one_epoch() switched a model left in eval mode back to training mode',
    'cnn_train_one_epoch_device.passed': 'train_one_epoch() gave the model and the loss the moved copies of every batch',
    'cnn_train_one_epoch_zero_grad.passed': "at each of the 3 optimizer.step() calls, .grad held that batch's gradient alone",
    'cnn_train_one_epoch_logits.passed': "loss_fn received the model's raw scores, unchanged, for both batches",
    'cnn_evaluate_accuracy.passed': 'evaluate() = {got_accuracy} ({right} of 10 samples, in batches of 4, 4 and 2)',
    'cnn_evaluate_eval_mode.passed': 'evaluate() switched a model in training mode to eval mode: {first_run} both times',
    'cnn_evaluate_no_grad.passed': 'evaluate() ran the model with gradient tracking off, for both batches',
    'cnn_evaluate_device.passed': 'evaluate() gave the model the moved copy of both batches',
    'cnn_make_optimizer_schedule.passed': '{name}, learning rate {rates:.2g} → {max_rates:.2g} → {rates2:.2g} over 3 epochs of 5 steps',
    'ckpt_save_load_roundtrip.passed': 'checkpoint with {join_sorted_raw}; load_checkpoint() returns {start}',
    'ckpt_resume_exact.passed': 'the resumed run ends with exactly the weights of the uninterrupted one',
    'ckpt_load_gpu_checkpoint.passed': 'a checkpoint written on a GPU machine loaded on the CPU, every weight restored',
    'ckpt_best_keeper_min.passed': 'best loss {best:.2f} kept from epoch {best_epoch}',
    'ckpt_trusted_config_loads.passed': 'TrainConfig loads; a checkpoint with an Intruder object is refused',
    'repro_set_seed_repeats.passed': 'set_seed(5) twice gives the same numbers from random, NumPy and torch',
    'repro_run_same_seed.passed': 'run(7) gave {value} both times, and the same batch order with a bigger model',
    'repro_run_trains.passed': ("run(7, epochs=2) zeroed, back-propagated and stepped on every batch, and returned its epochs' "
     'mean losses {value}'),
    'repro_log_epoch_row.passed': 'log_epoch() row: {row}',
    'repro_log_epoch_cuda.passed': 'on CUDA, log_epoch() synchronised before timing and logged the peak GPU memory, 300 MiB',
}
