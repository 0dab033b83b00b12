"""第 1 天每项评分检查的名称（en/titles_day1.py 的译文，即测试单元格文档字符串的译文）。"""

MESSAGES = {
    "env_pick_device_here.title": "pick_device() 返回与这台机器相符的 torch.device。",
    "env_pick_device_priority.title": "pick_device() 优先选 CUDA，其次 MPS，最后 CPU（逐一假装它们存在来检查）。",
    "env_environment_report_keys.title": "environment_report() 每个键都有，值是结果而不是函数。",
    "env_environment_report_values.title": "environment_report() 的值与 PyTorch 自己的回答一致。",
    "env_diagnose_cases.title": "diagnose() 对每种情况给出表格中的答案。",
    "env_diagnose_uses_report.title": "diagnose() 读取传给它的报告，包括其他 CUDA 版本。",
    "env_version_at_least_basic.title": "version_at_least() 比较当前的 PyTorch 和几个普通版本号。",
    "env_version_at_least_numeric.title": "version_at_least() 按数字而不是字符串比较，并忽略构建标签。",
    "tensors_make_grid_basic.title": "make_grid(3, 4) 是一个 float32、形状为 (3, 4) 的张量，按行存放 0 到 11。",
    "tensors_make_grid_sizes.title": "make_grid() 对其他尺寸也正确，包括只有一行或一列的情况。",
    "tensors_sqdist_shape.title": "pairwise_sq_dists() 把 (4, 3) 和 (5, 3) 的点变成一张 (4, 5) 的表。",
    "tensors_sqdist_values.title": "pairwise_sq_dists() 在一个手算的小例子上正确。",
    "tensors_sqdist_vs_cdist.title": "pairwise_sq_dists() 在新的随机点上与 torch.cdist(a, b) ** 2 一致。",
    "tensors_zero_negatives_basic.title": "zero_negatives() 把一个小张量中的负数置零并计数。",
    "tensors_zero_negatives_input_kept.title": "zero_negatives() 不改动输入，对任意形状都适用。",
    "tensors_flatten_basic.title": (
        "flatten_images() 把形状为 (2, 3, 4, 5) 的批次变成 (2, 60)，与 torch.flatten(x, start_dim=1) 相同。"
    ),
    "tensors_flatten_non_contiguous.title": "flatten_images() 对任意尺寸以及经过 permute 的（非连续的）批次都适用。",
    "tensors_shares_memory_check.title": "shares_memory() 能区分视图（包括从中间开始或互不重叠的视图）和值相同的副本。",
    "tensors_view_or_copy_answers.title": "SHARES_WITH_X 中的每个答案都正确：视图与 x 共享内存，副本不共享。",
    "tensors_shares_memory_fresh.title": (
        "shares_memory() 在新的张量上正确：三维 permute、带偏移的切片、expand、detach、NumPy、数据类型转换。"
    ),
    "tensors_apply_weights_here.title": "apply_weights() 在权重所在的设备上用 float32 权重乘以 int64 计数：本笔记本的设备，以及一块模拟的 GPU。",
    "tensors_apply_weights_follows_weights.title": (
        "apply_weights() 跟随权重的数据类型（float64）和设备（用 'meta' 权重代替 GPU）。"
    ),
    "autograd_classic_grad_example.title": "classic_grad() 在 x = [2., 3.] 处给出 [7., 9.]。",
    "autograd_classic_grad_fresh.title": "classic_grad() 在新的点上与 2x + 3 一致，调用了 backward()，两次调用结果相同。",
    "autograd_batch_grads_separate.title": "batch_grads() 以各自独立的张量返回每个批次自己的梯度。",
    "autograd_batch_grads_stale.title": "batch_grads() 不受 w.grad 中残留的旧梯度影响（新数据）。",
    "autograd_mse_grad_matches.title": "mse_grad() 在一个小问题上（N = 8 个样本，D = 3 个权重）与自动求导一致。",
    "autograd_mse_grad_fresh.title": "mse_grad() 在新的形状上与自动求导一致，在 torch.no_grad() 中也能用。",
    "autograd_softplus_values.title": "softplus() 与 F.softplus 一致且不会上溢，float32 和 float64 都是如此。",
    "autograd_softplus_gradient.title": "softplus() 留在计算图中；它的梯度是 sigmoid(x)：有限，在 0 处和上溢边缘都正确。",
    "autograd_softplus_gradcheck.title": (
        "softplus() 在 0 处梯度为 0.5，越过上溢边缘后为 sigmoid(x)，并通过 gradcheck（float64，包括零）。"
    ),
    "autograd_stop_gradient_example.title": "stop_gradient_loss() 是一个标量张量，梯度只流经预测值。",
    "autograd_stop_gradient_fresh.title": "stop_gradient_loss() 在新数据上给出只经过预测值的梯度。",
    "autograd_grow_until_example.title": "grow_until([3., 4.], 100.) 翻倍 5 次：结果为 [96., 128.]，梯度为 32。",
    "autograd_grow_until_depends_on_data.title": "grow_until() 按每个输入的需要决定翻倍次数（包括零次和恰好相等的情况）。",
    "modules_mlp_shape.title": "MLP(4, 8, 3) 是一个 nn.Module，输出形状为 (batch, 3)，并参与自动求导。",
    "modules_mlp_parameters.title": "MLP 恰好注册了两个线性层的权重和偏置。",
    "modules_mlp_forward.title": "MLP 计算 Linear -> ReLU -> Linear，输出上没有 ReLU。",
    "modules_deep_registered.title": "DeepMLP 注册了每一层（各有一个权重和一个偏置），输出形状正确。",
    "modules_deep_forward.title": "DeepMLP 对其他尺寸计算 Linear -> ReLU -> ... -> Linear，输出上没有 ReLU。",
    "modules_standardize_registered.title": "Standardize 把 mean 和 std 作为缓冲区，把 gain 和 bias 作为参数，全部在 state_dict 中。",
    "modules_standardize_forward.title": "Standardize 计算 (x - mean) / std * gain + bias，跟随 .to()，只训练 gain 和 bias。",
    "modules_count_basic.title": "count_parameters() 统计每个权重和偏置的元素个数。",
    "modules_count_frozen.title": "count_parameters() 默认跳过冻结的参数，并且从不统计缓冲区。",
    "modules_clone_outputs.title": (
        "副本是一个新的 make_model()，从 path 处的 state_dict 文件加载：状态相同（包括缓冲区），输出相同。"
    ),
    "modules_clone_independent.title": (
        "使用新的网络结构、以字符串给出 path 时，副本与原模型不共享任何张量：训练其中一个不会改变另一个。"
    ),
    "modules_predict_deterministic.title": "predict() 给出 eval 模式的输出，每次调用都相同，且不构建梯度计算图。",
    "modules_predict_mode.title": "predict() 让模型保持它原来的模式，也不改动 BatchNorm 的统计量。",
}
