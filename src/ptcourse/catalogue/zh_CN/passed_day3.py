"""第 3 天可见测试单元格的通过提示（en/passed_day3.py 的译文）。"""

MESSAGES = {
    "devices_move_to_nested.passed": "嵌套批次中的每个张量都在 meta 上；字典、列表、元组和其他内容都保留了",
    "devices_place_all.passed": "place()：4 个参数、4 个缓冲区和批次中的两个张量都在 meta 上",
    "devices_devices_used_mixed.passed": "devices_used() 发现了在 meta 上的那一层，其余的都在 CPU 上",
    "amp_make_tools_cpu.passed": "在 CPU 上：bfloat16，不用缩放器；在这台机器（{device}）上：{here_dtype}，启用缩放器：{scaler_on}",
    "amp_make_tools_cuda.passed": "make_amp_tools() 对 'cuda' 和 'cuda:0' 给出 float16 和启用的 CUDA 缩放器（模拟 CUDA）",
    "amp_train_step_runs.passed": "amp_train_step() 走了一步 bfloat16（损失 {result:.4f}）；权重仍是 float32",
    "amp_train_step_autocast.passed": "前向传播在 torch.autocast('cpu', dtype=torch.float16) 下运行，在假装的 GPU 上则在 autocast('cuda') 下运行，权重为 float32",
    "amp_train_step_scaler.passed": "启用缩放器（缩放系数 1024）时，调用顺序是 {calls_seen}，优化器得到了真实的梯度",
    "amp_train_step_skips.passed": "梯度中有 inf：这一步被跳过，缩放系数从 256 变为 128",
    "amp_train_step_zero_grad.passed": "3 步中，每次优化器更新都只看到本批次的梯度",
    "amp_train_step_clip.passed": "梯度范数 {norm_before:.3g} 在 unscale_ 之后被裁剪到 0.05，缩放系数为 1024",
    "compile_plan_mixed.passed": "compile_plan()：编译一次，把 'medium' 和 'large' 交给编译版本，'tiny' 保持 eager：节省 17 秒",
    "compile_plan_worth_it.passed": "节省 15 秒：不值得花 20 秒编译（什么都不编译），值得花 12 秒编译（节省 3 秒）",
    "memory_training_bytes_rule.passed": "{rule_numbers:,} 个参数：SGD {value:,}、动量 {value2:,}、Adam {value3:,} 字节",
    "memory_training_bytes_real.passed": "冻结的权重和 BatchNorm 的缓冲区各只算一次，与真实的一步相同",
    "memory_fit_budget_exact.passed": "批大小 64 恰好放进 414,720 字节（固定部分 267,264 + 激活值 147,456）；128 放不下",
    "memory_fit_budget_optimizer.passed": "SGD 能放下批大小 128，而 Adam 只能放下 64；低于固定部分时什么都放不下",
    "memory_checkpointed_same_results.passed": "CheckpointedMLP 给出与普通模型相同的输出和梯度",
    "memory_checkpointed_saves_memory.passed": "前向加反向传播的内存峰值：每个块一个检查点时为 {ck:.2f} MiB，不用检查点时为 {plain:.2f} MiB",
    "memory_accumulation_matches_full_batch.passed": "accumulation_step()：一步使用整批的梯度，小批量大小相等或不等时都如此",
    "ddp_settings_cpu.passed": "ddp_settings() 读取 RANK/LOCAL_RANK/WORLD_SIZE，并在 CPU 上选择 Gloo",
    "ddp_average_two.passed": "两半批次梯度的平均值就是整批的梯度",
    "ddp_script_runs.passed": "train.py 在 {world} 个进程上运行，用时 {seconds:.1f} 秒（大部分花在启动 PyTorch 上）",
    "ddp_script_shards.passed": "每一轮中 {n_samples} 个样本按 {join_map_str} 分给各个进程",
    "ddp_script_set_epoch.passed": "每一轮每个进程上的顺序都是新的",
    "ddp_script_same_weights.passed": "进程 0 和进程 1 持有相同的 {numel} 个权重（最大差距 {gap:.1e}）",
    "ddp_script_checkpoint.passed": "一个检查点 {next_iter_checkpoints}，由进程 0 写入；每个进程都在屏障处等待了",
    "export_predict_eval_mode.passed": "predict() 的结果是确定的，与 eval 模式一致，并返回推理张量",
    "export_program_batches.passed": "导出的程序能运行大小为 7 和 1 的批次，并与 eval 模式下的模型一致",
    "export_onnx_interface.passed": (
        "{name}：{input_names} {shape} → {output_names} {shape2}；大小为 1 和 7 的批次与 PyTorch 相差在 1e-4 以内"
    ),
    "export_compare_verdicts.passed": "忠实的文件判为一致，偏移了 0.5 的文件判为不一致",
    "capstone_checkpoint_restores.passed": "检查点恢复了全部八项内容，load_checkpoint() 返回下一个要运行的轮次 1",
    "capstone_fit_trains.passed": (
        "2 轮、每轮 {len_loader} 个 bfloat16 批次，损失 {losses:.3f} → {losses2:.3f}，每轮之后一个检查点；"
        "再次调用时，fit() 发现两轮都已完成"
    ),
    "capstone_fit_resumes.passed": "在第 1 轮崩溃，从第 0 轮的检查点恢复：最终权重逐位相同",
    "capstone_precision_decides.passed": "CUDA 上用 float16 加缩放器；CPU 上只有 bfloat16 至少快 10 % 时才用它",
    "capstone_deploy_file.passed": "{name}（{value:.0f} KiB）：像素 {shape} → logits {shape2}；与 PyTorch 的最大差距 {gap:.1e}",
    'devices_devices_used_hidden_places.passed': 'devices_used() 找到了留在 CPU 上的缓冲区（buffer）',
}
