"""内存检查（:mod:`ptcourse.memory`）的提示信息（简体中文），由初始化单元格显示。"""

MESSAGES = {
    "memory.tight": (
        "⚠ 内存开始紧张了：这个会话用了 {limit} 中的 {used}（{percent} %）。{others}"
    ),
    "memory.critical": (
        "⚠ 内存快满了：这个会话用了 {limit} 中的 {used}（{percent} %）。{others}"
        "一旦超过上限，内核就会被停止，它在内存里保存的一切都会丢失。"
    ),
    "memory.others_one": (
        "还有 1 个其他笔记本的内核在运行：JupyterLab 会保留你打开过的每个笔记本的内核，即使你已经去看别的笔记本了。"
    ),
    "memory.others_many": (
        "还有 {n} 个其他笔记本的内核在运行：JupyterLab 会保留你打开过的每个笔记本的内核，即使你已经去看别的笔记本了。"
    ),
    "memory.how_to_free": (
        "要释放内存，请关闭你已经学完的那些笔记本的内核：打开 Running 面板（左侧边栏，圆圈里有个方块的图标），"
        "点击每个这样的笔记本旁边的 Shut Down；或者在那个笔记本里选择 Kernel → Shut Down Kernel。"
        "你已保存的笔记本不会受影响；丢掉的只是它们的内核在内存里保存的东西（重新运行它们的单元格就能找回来）。"
    ),
}
