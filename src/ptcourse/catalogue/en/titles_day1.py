"""The name of each graded check of day1: its test cell's docstring (written by tools/msgify.py from solutions/; edit the docstring, then re-run it)."""

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
    'tensors_shares_memory_check.title': ('shares_memory() tells views (including ones that start further in or do not overlap) from copies '
     'with equal values.'),
    'tensors_view_or_copy_answers.title': "Every answer in SHARES_WITH_X is right: views share x's memory, copies do not.",
    'tensors_shares_memory_fresh.title': ('shares_memory() is right on fresh tensors: 3-D permutes, offset slices, expand, detach, NumPy, '
     'dtype changes.'),
    'tensors_apply_weights_here.title': ("apply_weights() multiplies int64 counts by float32 weights on the weights' device: this "
     "notebook's, and a pretend GPU."),
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
}
