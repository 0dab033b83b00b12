"""计时辅助函数（:mod:`ptcourse.timing`）的提示信息（简体中文）。"""

MESSAGES = {
    "timing.busy": (
        "⚠ 这台机器太忙了，这些计时说明不了多少问题：{what} 的多次重复相对中位数的离散程度达到 "
        "{spread:.0%}（超过 {limit:.0%} 就是噪声；负载为每个 CPU {load:.1f} 个进程），共有 {count} "
        "项测量这样不稳定。有别的程序在占用 CPU。关闭其他笔记本的内核，再运行一次这个单元格，"
        "并且只相信远大于这个离散程度的差别。"
    ),
    "timing.busy_unnamed": (
        "⚠ 这台机器太忙了，这些计时意义不大：同一次测量的各次重复之间相差其中位数的 {spread:.0%}"
        "（超过 {limit:.0%} 就是噪声），负载为每个 CPU {load:.1f} 个进程。有其他程序（或其他笔记本的内核）"
        "在占用 CPU。请在机器空闲时重新运行这个单元格，只有两次得到差不多的比值时才可信。"
    ),
    "timing.bf16_native": (
        "这个 CPU 有原生的 bfloat16 指令（{flags}；PyTorch 使用 {capability}）：在这里，bfloat16 "
        "矩阵乘法可能比 float32 更快。"
    ),
    "timing.bf16_emulated": (
        "这个 CPU 没有原生的 bfloat16 指令（没有 avx512_bf16 或 amx_bf16 标志；PyTorch 使用 "
        "{capability}）：每个 bfloat16 运算都要先转换成 float32 再转换回来，所以在这里 bfloat16 autocast "
        "通常比 float32 更慢。它算出的结果仍然是正确的。"
    ),
}
