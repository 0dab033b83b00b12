"""The name of each graded check of day2: its test cell's docstring (written by tools/msgify.py from solutions/; edit the docstring, then re-run it)."""

MESSAGES = {
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
    'ckpt_load_gpu_checkpoint.title': ('A checkpoint written on a GPU machine (pretended) loads here: load_checkpoint() maps it to the '
     'CPU.'),
    'ckpt_best_keeper_min.title': "With mode='min' (a loss), only improvements are saved and the file holds the best epoch's weights.",
    'ckpt_best_keeper_max.title': ("With mode='max' (an accuracy) higher is better, even when every value is negative; bad modes "
     'raise.'),
    'ckpt_trusted_config_loads.title': 'A TrainConfig is allowed; a checkpoint with another class in it is refused.',
    'ckpt_trusted_config_scoped.title': 'The allow-list is the same after the call; other unexpected objects are refused too.',
    'repro_set_seed_repeats.title': "After set_seed(s), Python's random, NumPy and torch repeat the same numbers.",
    'repro_set_seed_uses_seed.title': 'Different seeds give different numbers, for each generator; the same seed still repeats.',
    'repro_run_same_seed.title': 'run(7) twice gives exactly the same losses, even if other code draws random numbers in between.',
    'repro_run_seed_matters.title': 'Different seeds give different runs; the epochs argument is used.',
    'repro_run_trains.title': "run() takes every step of a training loop on every batch, and returns each epoch's mean loss.",
    'debug_shape_fix_runs.title': 'FixedCNN gives 10 scores per image for a batch of 28 x 28 digits, with fc1 sized for the data.',
    'debug_shape_cause.title': "SHAPE_CAUSE names what the message's 4x1600 and 9216x128 say went wrong.",
    'debug_dtype_fix_batch.title': ('prepare_batch() gives float32 features and int64 labels, so the model and CrossEntropyLoss '
     'accept the table.'),
    'debug_dtype_cause.title': 'DTYPE_REPAIRS gives each of the three dtype errors its repair: the argument whose dtype is wrong.',
    'debug_class_index_svhn.title': "to_class_index() maps SVHN's labels to 0..9 keeping each digit, so CrossEntropyLoss accepts them.",
    'debug_class_index_general.title': ('to_class_index() handles ids with gaps, leaves its input alone and raises ValueError on unknown '
     'labels.'),
    'debug_device_fix_moved.title': ('accuracy() moves the model, the images and the labels to the device, and returns the right '
     'fraction.'),
    'debug_device_cause.title': 'DEVICE_CAUSE names which unassigned .to() was the bug: a module moves itself, a tensor does not.',
    'debug_oom_fix_fits.title': 'mean_loss() fits in the pretend 1 MB GPU and returns the mean loss as a float.',
    'debug_oom_cause.title': "OOM_CAUSE names why one batch fits and twelve do not: each batch's graph is kept alive.",
    'debug_cudnn_fix_fits.title': ('predict() scores all 64 photos on the pretend 1.5 MB GPU with cuDNN on, the same scores as one '
     'batch.'),
    'debug_cudnn_cause.title': 'CUDNN_CAUSE names what the two experiments showed behind the cuDNN error.',
}
