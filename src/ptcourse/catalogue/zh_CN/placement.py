"""设备放置检查（:mod:`ptcourse.placement`）的提示信息（简体中文）。"""

MESSAGES = {
    "placement.data_not_moved": (
        "数据没有经过 .to(device) 就进入了模型：{op}() 收到的 {tensor} 仍在 CPU 上，而其他张量在 {device} "
        "设备上。在真正的 {device} 设备上，这会以 \"Expected all tensors to be on the same device\" 报错停止。"
        "请先移动每个批次，例如 images, labels = images.to(device), labels.to(device)，并使用 .to() 返回的张量。"
    ),
    "placement.model_not_moved": (
        "模型没有移到设备上：{op}() 收到的 {tensor} 仍在 CPU 上，而数据在 {device} 设备上。"
        "请在训练之前把模型移动一次：model.to(device)。"
    ),
    "placement.autocast_device": (
        "autocast 使用的 device_type 是 '{got}'，但模型和数据在 '{device}' 上：为另一种设备开启的 autocast "
        "在这里不起任何作用。请从设备取得它，而不是手写：torch.autocast(device.type, ...)。"
    ),
    "placement.autocast_not_disabled": (
        "这次运行要求普通 float32（amp_dtype 为 None），但 autocast 仍然开启了（dtype {got}）：请传入 "
        "enabled=amp_dtype is not None，让同样的几行代码关闭混合精度。"
    ),
    "placement.autocast_missing": (
        "前向传播没有在 '{device}' 设备上、dtype 为 {dtype} 的已开启 autocast 中运行：请把前向传播和损失放进 "
        "torch.autocast(device.type, dtype=..., enabled=...) 中。"
    ),
    "placement.autocast_dtype": (
        "autocast 使用的 dtype 是 {got}，应为 {expected}：请传入这次运行的 dtype（dtype=amp_dtype），"
        "而不是手写一个。"
    ),
}
