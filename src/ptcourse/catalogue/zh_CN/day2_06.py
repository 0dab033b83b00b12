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
