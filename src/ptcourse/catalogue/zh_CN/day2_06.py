"""day2/06_debugging 的提示信息（简体中文）。"""

MESSAGES = {
    # 练习 1：to_class_index（类别下标越界）
    "debug.index_dtype": "to_class_index() 应该返回一个 int64 张量，实际得到 {got}。",
    "debug.index_values": (
        "对于标签 {labels} 和类别 {classes}，to_class_index() 应该给出 {expected}，实际得到 "
        "{got}。每个标签都要变成它在 `classes` 中的位置（classes.index(label)）；减 1 或者截断"
        "只会把坏标签挪到别处，还会改变其他标签的含义。"
    ),
    "debug.index_in_place": (
        "to_class_index() 修改了传给它的张量（从 {before} 变成了 {after}）：请新建一个张量，"
        "不要动原始标签。"
    ),
    "debug.index_no_error": (
        "标签 {label} 不在类别 {classes} 中，所以 to_class_index() 应该抛出 ValueError"
        "（在 CPU 上大声报错，而不是到 GPU 上变成 device-side assert），但它却正常返回了。"
    ),
    "debug.index_error_names": (
        "ValueError 应该指出那个未知的标签，让读者知道该修什么；实际得到的消息是 {message!r}。"
    ),
    # 练习 2：clipped_step（损失变成 NaN）
    "debug.clip_return_type": (
        "clipped_step() 应该以 Python float 返回损失，实际得到 {got_type}：loss.item()。"
    ),
    "debug.clip_not_finite": (
        "损失在第 {step} 步变成了 {value}：更新之前梯度没有被裁剪。请在 loss.backward() 和 "
        "optimizer.step() 之间调用 torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)。"
    ),
    "debug.clip_no_progress": (
        "60 步之内，损失从 {first:.3g} 变成了 {last:.3g}：它应该降到原来的十分之一以下。"
        "clipped_step() 有没有在裁剪之后调用一次 optimizer.step()？"
    ),
    "debug.clip_no_step": (
        "调用 clipped_step() {expected} 次之后，optimizer.step() 被调用了 {calls} 次："
        "每一步恰好调用它一次。"
    ),
    "debug.clip_grad_missing": (
        "在 optimizer.step() 时，有些参数没有梯度：请在更新之前调用 loss.backward()。"
    ),
    "debug.clip_norm": (
        "在 optimizer.step() 时（第 {step} 步），梯度的总范数是 {norm:.3g}，超过了 "
        "max_norm={max_norm}：请在 backward() 之后、step() 之前裁剪；在更新之后裁剪，"
        "或者逐个值裁剪（clip_grad_value_），都会让过大的更新漏过去。"
    ),
    "debug.clip_stale_grads": (
        "在 optimizer.step() 时（第 {step} 步），梯度不只是这个批次的（裁剪后的）梯度："
        "里面还有之前批次的。请在每一步开始时调用 optimizer.zero_grad()。"
    ),
    "debug.clip_return_value": (
        "clipped_step() 应该返回这一步更新之前的损失 {expected:.6g}，实际得到 {got}。"
    ),
    "debug.clip_scaled_up": (
        "梯度的总范数是 {norm:.3g}，低于 max_norm={max_norm:g}，但在 optimizer.step() 时却变成了 {got:.3g}："
        "裁剪只缩小范数超过 max_norm 的梯度，较小的梯度保持不变。把每个梯度都缩放到 max_norm 会把小梯度放大；"
        "torch.nn.utils.clip_grad_norm_ 的做法才是对的。"
    ),
    "debug.clip_scaled_grads": (
        "在 optimizer.step() 时梯度的总范数只有 {norm:.3g}，远低于 max_norm={max_norm:g}："
        "裁剪时梯度还乘着缩放器的缩放因子（{scale:g}），之后才被除回去。先反缩放"
        "（scaler.unscale_(optimizer)），再裁剪，这样 max_norm 作用于真实的梯度。"
    ),
    "debug.clip_scaler_unused": (
        "clipped_step() 收到了一个 GradScaler，却从没有调用 {missing}：有缩放器时，损失要先经过 "
        "scaler.scale(loss) 再 backward()，并由 scaler.step(optimizer) 和随后的 scaler.update() "
        "代替 optimizer.step()。"
    ),
    # 练习 3：parameters_without_gradient
    "debug.nograd_type": "parameters_without_gradient() 应该返回一个列表，实际得到 {got_type}。",
    "debug.nograd_names": (
        "parameters_without_gradient() 应该列出 model.named_parameters() 中的名字（str），"
        "实际得到的元素类型是 {got_type}。"
    ),
    "debug.nograd_value": (
        "parameters_without_gradient() 应该给出 {expected}，实际得到 {got}：请按顺序列出 "
        ".grad 为 None 或全为零的可训练参数。"
    ),
    "debug.nograd_zeros": (
        "在一次只带来零梯度的反向传播之后，每个参数都应该被列出，实际得到 {got}："
        "全为零的梯度也算没有梯度（检查 not p.grad.any()）。"
    ),
    "debug.nograd_frozen": (
        "故意冻结的层（requires_grad=False）不应该被列出，实际得到 {got}："
        "请跳过 requires_grad 为 False 的参数。"
    ),
    "debug.nograd_none_crash": (
        "parameters_without_gradient() 崩溃了：{error}。梯度没有到达的参数，"
        "p.grad 为 None：在查看它的值之前先检查 `p.grad is None`。"
    ),
    # 练习 4：vanishing_layer
    "debug.vanish_value": (
        "在 {what} 上，vanishing_layer() 应该是 {expected!r}，实际得到 {got!r}：{hint}。对每个 nn.Linear "
        "模块，取它所有参数（权重和偏置）梯度的范数，然后从输出往输入方向走，返回第一个范数小于"
        "最后一个 Linear 层范数的 ratio 倍的层。"
    ),
    # demonstration cells (say)
    "debug.demo_label_range": "标签从 {low} 到 {high}，但 {classes} 个类别意味着下标只能是 0 到 {last}",
    "debug.demo_cpu_only": "这里只有 CPU：每个张量都在同一个设备上，所以这个错误不会发生。",
    "debug.demo_first_try": "第一次尝试，RuntimeError：",
    "debug.demo_with_detach": "加了 detach 之后：损失",
    "debug.demo_no_gradient": "没有梯度到达的参数：",
    "debug.demo_repaired": "修复之后：损失",
    "debug.demo_vanishes": "{kind} 梯度消失的位置：",
}
