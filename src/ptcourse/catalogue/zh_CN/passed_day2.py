"""第 2 天可见测试单元格的通过提示（en/passed_day2.py 的译文）。"""

MESSAGES = {
    "linreg_make_data_shapes.passed": "make_data()：x、y 的形状为 (1000, 1)；最小二乘得到 w = {fit_w:.3f}，b = {fit_b:.3f}",
    "linreg_train_two_steps.passed": (
        "train()：两步精确的 SGD，w = {got_w:.4f}，b = {got_b:.4f}，损失 {tiny_losses:.4f} → {tiny_losses2:.4f}"
    ),
    "linreg_hyperparameters_recipe.passed": (
        "lr = {chosen_lr}，{chosen_epochs} 轮：w = {rw:.4f}，b = {rb:.4f}（最小二乘 {ls_w:.4f}，{ls_b:.4f}）"
    ),
    "linreg_standardise_basic.passed": (
        "standardise()：z 的均值为 {float_mean:.1e}，标准差为 {float_std:.3f}；w_z = 0.87，b_z = 2.0 → "
        "w = {float_unit_w:.3f}，b = {float_unit_b:.3f}"
    ),
    "data_pair_dataset_items.passed": "TensorPairDataset 有 5 个样本，返回 (features, label) 元组",
    "data_mnist_transform_shape.passed": "一个 MNIST 数字现在是形状为 {tuple_shape}、{dtype} 的张量（标签 {label0}）",
    "data_make_loader_batches.passed": "10 个样本、批大小 4：{len_batches} 个完整批次，顺序 {seen}",
    "data_pad_collate_batch.passed": "填充到 {got_shape}，长度 {tolist}",
    "cnn_prepare_images_matches.passed": "prepare_images() 在 8 个训练数字上与 ToImage + ToDtype(scale=True) + Normalize 一致",
    "cnn_conv_output_size_recipe.passed": "28 → 26 → 13 → 11 → 5：fc1 需要 64 · 5 · 5 = 1600 个输入，而不是 64 · 12 · 12 = 9216",
    "cnn_simple_cnn_recipe.passed": "SimpleCNN()：28 → 26 → 13 → 11 → 5，所以 fc1 接收 64 · 5 · 5 = 1600 个特征",
    "cnn_train_one_epoch_returns.passed": "train_one_epoch() 返回了 4 个批次损失的平均值 {result:.4f}",
    "cnn_train_one_epoch_train_mode.passed": "train_one_epoch() 把停留在 eval 模式的模型切回了训练模式",
    "cnn_train_one_epoch_device.passed": "train_one_epoch() 把每个批次移动后的副本交给了模型和损失函数",
    "cnn_train_one_epoch_zero_grad.passed": "3 次 optimizer.step() 调用时，.grad 中都只有该批次自己的梯度",
    "cnn_train_one_epoch_logits.passed": "两个批次中，loss_fn 收到的都是模型原样输出的分数",
    "cnn_evaluate_accuracy.passed": "evaluate() = {got_accuracy}（10 个样本中对了 {right} 个，批次大小为 4、4 和 2）",
    "cnn_make_optimizer_schedule.passed": "{name}，3 轮、每轮 5 步中学习率 {rates:.2g} → {max_rates:.2g} → {rates2:.2g}",
    "ckpt_save_load_roundtrip.passed": "检查点包含 {join_sorted_raw}；load_checkpoint() 返回 {start}",
    "ckpt_resume_exact.passed": "恢复后的训练最终得到的权重与未中断的训练完全相同",
    "ckpt_load_gpu_checkpoint.passed": "在 GPU 机器上写出的检查点在 CPU 上加载成功，每个权重都已恢复",
    "ckpt_best_keeper_min.passed": "保留了第 {best_epoch} 轮的最佳损失 {best:.2f}",
    "ckpt_trusted_config_loads.passed": "TrainConfig 可以加载；含有 Intruder 对象的检查点被拒绝",
    "repro_set_seed_repeats.passed": "两次 set_seed(5) 让 random、NumPy 和 torch 给出相同的数",
    "repro_run_same_seed.passed": "run(7) 两次都得到 {value}，换成更大的模型时批次顺序也相同",
    "repro_run_trains.passed": "run(7, epochs=2) 在每个批次上都清零了梯度、做了反向传播和更新，并返回了各轮的平均损失 {value}",
    'data_pair_dataset_transform.passed': '两次读取时变换都作用在了特征上；标签保持原样',
    'data_mnist_transform_values.passed': '数字 0 的取值从 {float_min:.3f}（黑）到 {float_max:.3f}（白）',
    'data_make_loader_seeded.passed': '种子 1 两次给出相同的顺序，种子 2 给出另一种顺序，全局随机状态没有被改动',
    'data_make_loader_epoch.passed': '在 8 个样本上跑一轮，每个样本恰好出现一次：{epoch_ids}',
    'data_pad_collate_dtypes.passed': '填充后的批次保持 float32；长度和标签是 int64',
    'cnn_evaluate_eval_mode.passed': 'evaluate() 把处于训练模式的模型切换到了评估模式：两次都是 {first_run}',
    'cnn_evaluate_no_grad.passed': 'evaluate() 在关闭梯度跟踪的情况下运行模型，两个批次都是如此',
    'cnn_evaluate_device.passed': 'evaluate() 把两个批次移动后的副本交给了模型',
    "debug_class_index_svhn.passed": "标签 {tolist} → 类别 {tolist2}；损失为 {loss_value:.3f}",
    'debug_class_index_general.passed': '编号 2、4、7 变成了类别 0、1、2，未知标签 3 引发了 ValueError',
    "debug_shape_fix_runs.passed": "数字 {tuple_shape} → 分数 {tuple_shape2}；fc1 接收 {fc1_in} 个特征",
    "debug_shape_cause.passed": "批次按每张图像展平了（4 行，每行 1600）；fc1 期望的是 9216 = 64 · 12 · 12",
    "debug_dtype_fix_batch.passed": "特征 {dtype}，标签 {dtype2}；损失为 {ready_loss:.3f}",
    "debug_dtype_cause.passed": "1：把数据转为 float32，而不是把模型转为 float64；2：类别标签用 int64；3：BCE 的目标用浮点数",
    "debug_device_fix_moved.passed": "准确率 {probe_value:.2f}，模型、图像和标签都在设备上",
    "debug_device_cause.passed": "model.to(device) 就地移动模型；images.to(device) 返回一个新张量，而它被丢掉了",
    "debug_oom_fix_fits.passed": "{len_val_batches} 个批次的平均损失 {oom_value:.4f}，没有超出 1 MB",
    "debug_oom_cause.passed": "total += loss 让每个批次的计算图一直存活；loss.item() 和 torch.no_grad() 不保留任何计算图",
    "debug_cudnn_fix_fits.passed": "在 1.5 MB 之内得到了所有照片的分数 {tuple_shape}",
    "debug_cudnn_cause.passed": "关掉 cuDNN 后错误变成了显存不足，而更小的批次能运行：这是伪装起来的显存不足",
}
