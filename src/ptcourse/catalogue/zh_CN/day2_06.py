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
    # 错误表：形状、数据类型、设备、显存不足、cuDNN（修复并说出原因）
    "debug.cause_unknown": "{name} 应当是 {options} 之一；得到的是 {got!r}。",
    "debug.shape_still_fails": (
        "FixedCNN()(digits) 仍然出错：{error}。让一张 28 x 28 的图像逐层走一遍：每个不带填充的 3 x 3 卷积让边长减 2，"
        "每次池化让边长减半；fc1 接收的是到达它的张量的 通道数 x 高 x 宽。"
    ),
    "debug.shape_output": "FixedCNN()(digits) 给出的分数形状应当是 {expected}，得到的是 {got}。",
    "debug.shape_in_features": (
        "fc1 应当是一个 Linear 层，接收第二次池化之后每张图像的 64 x 5 x 5 = 1600 个特征，输出 128 个；"
        "它的 in_features 是 {got}。让层去适应数据，而不是让数据去适应层（缩放特征图或重塑批次会改变网络看到的东西）。"
    ),
    "debug.shape_why_not_flattened": (
        "如果没有展平，mat1 的行数会远多于图像数（Linear 层把除最后一维以外的所有维度都当作行）；"
        "mat1 是 4x1600：4 行，每张图像一行，所以展平是对的。"
    ),
    "debug.shape_why_batch_mixed": (
        "如果把批次混进了特征，mat1 只会有 1 行（1x6400）；mat1 是 4x1600：每张图像一行，所以批次维度保留了下来。"
        "对不上的数字是 1600 和 9216。"
    ),
    "debug.dtype_features": "prepare_batch() 应当返回 float32 的特征，以配合 float32 的权重；得到的是 {got}。",
    "debug.dtype_labels": "prepare_batch() 应当返回 int64 的标签（给 CrossEntropyLoss 的类别下标）；得到的是 {got}。",
    "debug.dtype_feature_values": "prepare_batch() 应当返回表格的前几列，除了数据类型之外不做改变；得到的是 {got}。",
    "debug.dtype_label_values": "prepare_batch() 应当把最后一列作为标签 [2, 0, 1, 2, 0] 返回；得到的是 {got}。",
    "debug.dtype_still_fails": "模型和损失在 prepare_batch(table) 上仍然出错：{error}",
    "debug.dtype_why_1": (
        "错误 1（Double 和 Float）：mat1，也就是输入，是 float64（NumPy 的默认类型），权重是 float32。"
        "应当转换数据，features.float()；不是 {got}（model.double() 也能运行，但显存翻倍，在多数 GPU 上慢很多倍，"
        "而且每个检查点都会改变）。"
    ),
    "debug.dtype_why_2": (
        "错误 2（expected target dtype Long，got Double）：CrossEntropyLoss 要求类别下标是 int64：labels.long()，不是 {got}。"
    ),
    "debug.dtype_why_3": (
        "错误 3（Found dtype Long but expected Float）：binary_cross_entropy 把概率和浮点目标相比较，"
        "而目标 tensor([0, 1, 1, 0]) 是 int64：targets.float()，不是 {got}。"
    ),
    "debug.device_model_elsewhere": "调用 accuracy() 之后，模型的参数应当在 {device} 设备上：model.to(device)。",
    "debug.device_value": "accuracy() 应当以 Python float 返回 {expected}，得到的是 {got}。",
    "debug.device_why_model_not_moved": (
        "nn.Module.to() 就地移动模块的参数，并返回模块本身，所以不赋值的 model.to(device) 也有效。"
        "Tensor.to() 返回一个新张量，旧的留在原处：没有 images = ... 的 images.to(device) 什么也没移动。"
    ),
    "debug.device_why_made_in_forward": (
        "这个模型只是一个 nn.Linear：它的 forward 不创建任何张量。被记录的调用收到的 images 和 labels 来自 CPU："
        "看看本该移动它们的那几行。"
    ),
    "debug.oom_still_fails": (
        "mean_loss() 仍然超出了模拟 GPU 的 1 MB：{error}。有东西让每个批次的内存一直存活：total += loss 抓住了什么？"
    ),
    "debug.oom_type": "mean_loss() 应当返回 Python float，得到的是 {got_type}：loss.item()。",
    "debug.oom_value": "mean_loss() 应当返回各批次损失的平均值 {expected:.5f}；得到的是 {got}。",
    "debug.oom_why_batch_too_large": (
        "单独一个批次只占大约三分之一的内存，而错误出现在几个批次之后：批次并不太大。更小的批次会以同样的方式出错，只是晚一些。"
    ),
    "debug.oom_why_cache": (
        "empty_cache() 只归还不再被任何东西使用的内存；这里每个批次的计算图仍被 total 引用着，所以没有什么可以归还。"
    ),
    "debug.cudnn_still_fails": (
        "predict() 在模拟的 1.5 MB GPU 上仍然出错：{error}。每次只给几张图像打分（images.split(...)），"
        "放在 torch.no_grad() 之下，再用 torch.cat 把分数拼起来。"
    ),
    "debug.cudnn_shape": "predict(tagger, photos) 应当返回形状为 (64, 10) 的张量，得到的是 {got}。",
    "debug.cudnn_why_earlier_assert": (
        "之前的 device-side assert 在关掉 cuDNN 或在 CPU 上时会显示为更清楚的错误（IndexError）；"
        "这里关掉 cuDNN 后变成了显存不足，而更小的批次能运行。"
    ),
    "debug.cudnn_why_unsupported": (
        "不受支持的输入在 8 张图像的批次上也会出错；photos[:8] 能运行，而关掉 cuDNN 后错误变成了显存不足。"
    ),
    "debug.cudnn_why_install": (
        "损坏的安装在每个批次上都会出错，小批次也一样；photos[:8] 能运行，而关掉 cuDNN 后错误变成了显存不足。"
    ),
    "debug.demo_mix": (
        "{op}() 收到的 {host} 仍在 CPU 上，而其他张量在 GPU 上：在真正的 GPU 上会报 RuntimeError: "
        "Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu!"
    ),
    "debug.demo_one_batch": "单独一个批次最多需要 {mib:.2f} MiB",
    "debug.demo_it_ran": "运行成功",
    "debug.label_images": "images（图像）",
    "debug.label_labels": "labels（标签）",
}
