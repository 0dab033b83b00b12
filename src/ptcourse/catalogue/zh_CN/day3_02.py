"""day3/02_mixed_precision 的提示信息（简体中文）。"""

MESSAGES = {
    # 练习 1：make_amp_tools
    "amp.tools_pair": "make_amp_tools() 应该返回一个二元组 (dtype, scaler)，实际得到 {got!r}。",
    "amp.tools_dtype": (
        "make_amp_tools({device!r}) 应该选择 {expected}，实际得到 {got}。在 CUDA 上用 "
        "torch.float16（配一个缩放器）：每一块 CUDA GPU 都能运行它，而 bfloat16 需要 Ampere 或更新的 GPU；"
        "在 CPU 及其他任何设备上用 torch.bfloat16。要根据传给你的设备"
        "（torch.device(device).type）来判断，而不是根据 torch.cuda.is_available()；"
        "还要记住 'cuda:0' 也是 CUDA 设备。"
    ),
    "amp.tools_scaler_type": (
        "make_amp_tools() 返回的第二项应该是 torch.amp.GradScaler，实际得到 {got_type}。"
    ),
    "amp.tools_cpu_enabled": (
        "在 CPU 上，缩放器应该是关闭的：bfloat16 有 float32 的范围，它的梯度不会下溢。"
        "请用 torch.amp.GradScaler(device_type, enabled=False) 创建它。"
    ),
    "amp.tools_cuda_disabled": (
        "对于 {device!r}，缩放器是关闭的，但没有缩放器，float16 梯度会下溢："
        "请返回 torch.amp.GradScaler('cuda')（默认就是启用的）。"
    ),
    "amp.tools_cuda_kind": (
        "对于 CUDA 设备，缩放器应该是为 'cuda' 创建的，实际得到的是为 {got!r} 创建的："
        "torch.amp.GradScaler('cuda')。"
    ),
    # 练习 2：amp_train_step
    "amp.step_return_type": (
        "amp_train_step() 应该以 Python float 返回损失，实际得到 {got_type}：请返回 loss.item()。"
    ),
    "amp.step_loss_calls": "amp_train_step() 每一步应该调用 loss_fn 一次，实际调用了 {got} 次。",
    "amp.step_return_value": (
        "amp_train_step() 返回了 {got!r}，但这个批次的损失是 {expected!r}：请返回这一步计算出的"
        "损失的 loss.item()。"
    ),
    "amp.step_return_scaled": (
        "amp_train_step() 返回了 {got:.6g}，这是损失（{expected:.6g}）乘以缩放因子 "
        "{scale} 的结果：那是缩放后的损失。请返回 loss.item()，而不是 scaler.scale(loss)。"
    ),
    "amp.step_params_cast": (
        "参数 {name} 是 {got}，但权重应该保持 torch.float32：autocast 会为每个运算转换副本。"
        "不要在 amp_train_step() 里调用 model.half()、model.to(dtype) 或 model.bfloat16()。"
    ),
    "amp.step_no_update": (
        "amp_train_step() 之后，模型的参数没有变化：请在反向传播之后调用 scaler.step(optimizer)。"
    ),
    "amp.step_forward_calls": "模型的 forward() 运行了 {got} 次；它应该恰好运行一次。",
    "amp.step_no_autocast": (
        "在 model.forward() 内部，针对 'cpu' 的 autocast 是关闭的：前向传播以 float32 运行了。"
        "请用传给你的 device_type 把它包进 torch.autocast(device_type, dtype=dtype)"
        "（针对 'cuda' 的 autocast 对 CPU 张量不起作用），也不要用 enabled=scaler.is_enabled() "
        "把它关掉（在 CPU 上缩放器是关闭的，但 autocast 不应该关闭）。期望的数据类型：{dtype}。"
    ),
    "amp.step_autocast_dtype": (
        "在 autocast 区域内，低精度数据类型是 {got}，期望 {expected}：请给 torch.autocast 传入 "
        "dtype=dtype，而不是一个写死的数据类型。"
    ),
    "amp.step_no_scale": (
        "缩放器的 scale() 从未被调用（缩放器调用记录：{calls}）：请对缩放后的损失做反向传播，"
        "即 scaler.scale(loss).backward()，而不是 loss.backward()。"
    ),
    "amp.step_no_scaler_step": (
        "scaler.step(optimizer) 从未被调用（缩放器调用记录：{calls}）。请通过缩放器更新参数，"
        "而不是调用 optimizer.step()：它会取消梯度的缩放，并在梯度含有 inf 或 NaN 时跳过这一步。"
    ),
    "amp.step_scaler_error": (
        "GradScaler 报错停止：{error}（缩放器调用记录：{calls}）。正确的顺序是 "
        "scaler.scale(loss).backward()、[scaler.unscale_(optimizer)]、scaler.step(optimizer)、"
        "scaler.update()。"
    ),
    "amp.step_no_update_call": (
        "scaler.update() 从未被调用（缩放器调用记录：{calls}）：没有它，缩放因子永远不会调整。"
        "每一步在 scaler.step(optimizer) 之后调用它一次。"
    ),
    "amp.step_update_order": (
        "scaler.update() 出现在 scaler.step(optimizer) 之前（缩放器调用记录：{calls}）："
        "请在更新参数之后再更新缩放因子。"
    ),
    "amp.step_count": (
        "每个批次调用一次 amp_train_step()，应该计算一次损失、让优化器更新一次；"
        "这里优化器对 {losses} 个损失更新了 {steps} 次。"
    ),
    "amp.step_unscaled_backward": (
        "到达优化器的梯度是真实梯度的 {ratio:.3g} 倍，约为 1/{scale}：backward() 是在未缩放的"
        "损失上运行的，而缩放器随后照样除以了它的缩放因子。请调用 scaler.scale(loss).backward()——"
        "在缩放后的损失上做反向传播。"
    ),
    "amp.step_grad_ratio": (
        "到达优化器的梯度是这个批次真实梯度的 {ratio:.3g} 倍（缩放因子为 {scale}）。"
        "请只调用一次 scaler.scale(loss).backward()，然后让 scaler.step(optimizer) 取消缩放。"
    ),
    "amp.step_applied_inf": (
        "在一个梯度含有 inf 的步骤之后，模型的权重含有 inf 或 NaN：这一步被执行了。"
        "请调用 scaler.step(optimizer)，而不是 optimizer.step()：缩放器会跳过梯度含 inf/NaN 的步骤。"
    ),
    "amp.step_not_skipped": (
        "这一步的梯度含有 inf，权重却变了：请使用 scaler.step(optimizer)，它会跳过这样的步骤。"
    ),
    "amp.step_scale_not_updated": (
        "在一个梯度含 inf 的步骤之后，缩放因子应该从 {before:g} 降到 {expected:g}，"
        "但 scaler.get_scale() 是 {got:g}：是不是忘了在 scaler.step(optimizer) 之后调用 "
        "scaler.update()？"
    ),
    "amp.step_accumulated": (
        "在第 {step} 步，优化器使用的梯度不只来自这一个批次：它们一步比一步大。"
        "请在 amp_train_step() 开头调用 optimizer.zero_grad()。"
    ),
    "amp.clip_setup": (
        "测试用的批次应该给出大于 max_norm 的梯度范数，实际得到 {true_norm:.3g}："
        "模型计算出的损失不对（请看本练习的其他测试）。"
    ),
    "amp.clip_not_applied": (
        "在 max_norm={max_norm} 时，到达优化器的梯度范数是 {got:.4g}：梯度没有被裁剪。"
        "请在反向传播之后调用 scaler.unscale_(optimizer)，"
        "然后调用 torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)。"
    ),
    "amp.clip_scaled": (
        "在 max_norm={max_norm} 时，到达优化器的梯度范数是 {got:.4g}，而不是 "
        "{max_norm}。如果它约等于 {scaled_result:.3g}（max_norm / 缩放因子 {scale}），说明你裁剪的是"
        "缩放后的梯度：请在 clip_grad_norm_ 之前调用 scaler.unscale_(optimizer)。"
    ),
    # 缩放器的图（第 4 节）
    "amp.fig_scale_title": "GradScaler 的校准过程：CPU 上的 float16，从 2²⁴ 开始",
    "amp.fig_scale_xlabel": "训练步数",
    "amp.fig_scale_ylabel": "使用的缩放因子 S（log₂ 坐标）",
    "amp.fig_scale_skipped": "已跳过（梯度含 inf/NaN）",
    "amp.fig_scale_stepped": "已更新",
    # 演示单元格打印的标签（ptcourse.messages.say）和图中的文字
    "amp.table_operation": "运算",
    "amp.demo_finfo": "{dtype:15} 最大值 {max:10.4g}   最小正规数 {tiny:10.4g}   eps {eps:.3g}",
    "amp.demo_float16_gradient": "float16 梯度：            ",
    "amp.demo_scaled": "乘以 2**16 后的 float16：",
    "amp.demo_unscaled": "在 float32 中还原缩放后：",
    "amp.demo_step": "第 {step:2} 步  缩放因子 {scale:>10.0f}  {what}  损失 {loss:.4f}",
    "amp.demo_skipped": "已跳过（梯度含 inf/NaN）",
    "amp.demo_stepped": "已更新",
    "amp.demo_skipped_in_all": "……{steps} 步中共跳过 {skipped} 步；现在的缩放因子为 {scale:g}",
    "amp.demo_training_on": "在 {device} 上用 {dtype} 训练，缩放器是否开启：{scaler}",
    "amp.demo_epoch": "第 {epoch} 轮：平均损失 {loss:.4f}   缩放因子 {scale:g}   权重 {dtype}",
    "amp.demo_fp32_time": "float32：          每步 {ms:6.2f} 毫秒（9 次的中位数，单线程）",
    "amp.demo_bf16_time": "bfloat16 autocast：每步 {ms:6.2f} 毫秒",
    "amp.demo_time_ratio": "bfloat16 / float32 时间比：{ratio:.2f}（在这里{verdict}）",
    "amp.demo_slower": "更慢",
    "amp.demo_faster": "更快",
    "amp.demo_predictions": "{dtype} | 权重仍是 {weights} | 预测 {predicted}",
    "amp.demo_inside_forward": "  在 forward 内：输入 {dtype} | autocast 是否开启：{on}",
    "amp.demo_linear_output": "线性层输出：",
    "amp.demo_custom_output": "自定义运算的输出：",
    "amp.demo_gradient_reached": "到达输入的梯度：",
}
