"""通用检查函数（:mod:`ptcourse.checks`）和初始化步骤的提示信息（简体中文）。"""

MESSAGES = {
    "check.passed": "✔ {what}",
    "check.failed": "✘ {message}",
    "check.not_tensor": "`{name}` 应该是 torch.Tensor，实际得到 {got_type}。",
    "check.wrong_type": "`{name}` 应该是 {expected}，实际得到 {got_type}。",
    "check.shape": "`{name}` 的形状应该是 {expected}，实际得到 {got}。",
    "check.dtype": "`{name}` 的数据类型（dtype）应该是 {expected}，实际得到 {got}。",
    "check.device": "`{name}` 应该在设备 '{expected}' 上，实际在 '{got}' 上。",
    "check.requires_grad": "`{name}`.requires_grad 应该是 {expected}，实际得到 {got}。",
    "check.values": (
        "`{name}` 的形状对了，但数值不对："
        "最大差值 {max_diff:.3g}，出现在索引 {where} "
        "（期望 {expected_value}，实际得到 {got_value}）。"
    ),
    "check.equal": "`{name}` 应该是 {expected!r}，实际得到 {got!r}。",
    "check.not_none": (
        "`{name}` 是 None：是不是函数忘了写 `return`，或者某个 `.grad` 没有收到梯度？"
    ),
    "check.finite": "`{name}` 里有 NaN 或无穷大。",
    "data.mnist_missing": "课程自带的 MNIST 样本不在 {folder} 中。它随课程一起提供：请重新获取一份完整的课程文件夹（学习过程中不会下载任何内容）。",
    "data.mnist_unavailable": (
        "无法在 {folder} 中读取或获取 MNIST（已设置 PTCOURSE_MNIST_ROOT：完整数据集会下载到那里一次，这需要网络连接）：{error}。"
        "取消设置 PTCOURSE_MNIST_ROOT 即可使用课程自带的样本。"
    ),
    "setup.summary": "torch {torch} | 设备: {device} | 线程数: {threads} | 随机种子: {seed}",
}
