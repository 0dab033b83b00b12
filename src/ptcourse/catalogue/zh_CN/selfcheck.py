"""学习者自查（:mod:`ptcourse.selfcheck`）和课程主页进度表（:mod:`ptcourse.progress`）的提示信息（简体中文）。"""

MESSAGES = {
    "selfcheck.usage": "用法：python -m ptcourse.selfcheck NOTEBOOK   （例如 day1/01_tensors.ipynb）",
    "selfcheck.no_notebook": "错误：{path} 处没有笔记本",
    "selfcheck.unreadable": "错误：无法把 {path} 作为笔记本读取（{why}）",
    "selfcheck.no_tests": "{name}：这个笔记本没有可运行的测试单元格。",
    "selfcheck.running": "正在一个新的内核里运行 {name}（只运行可见测试）…",
    "selfcheck.header": "\n{name}：{total} 项可见检查中通过了 {passed} 项（{seconds:.0f} 秒）",
    "selfcheck.pass": "  ✔ {title}（{points:g}/{points:g}）",
    "selfcheck.fail": "  ✘ {title}（0/{points:g}）：{message}",
    "selfcheck.hidden_line": "  · {title}（?/{points:g}）：{message}",
    "selfcheck.hidden_only": "只有隐藏测试：老师评分时才会运行",
    "selfcheck.not_done": "尚未完成（这个练习仍然抛出 NotImplementedError）",
    "selfcheck.not_run": "没有运行：之前的某个单元格让内核停止了，或者超时了",
    "selfcheck.kernel_died": "运行笔记本时内核停止了（{why}）",
    "selfcheck.hidden": (
        "这些只是可见测试：隐藏测试会在老师评分时、在新的输入上运行，"
        "所以只适用于可见示例的代码仍然可能丢分。"
    ),
    "selfcheck.recorded": "你的结果已保存，供课程主页（HOME.ipynb）显示；不会发送到任何地方。",
    "progress.title": "**你的进度**（每个笔记本最近一次的自查结果；不会发送到任何地方）",
    "progress.header": "| 笔记本 | 最近一次自查 |\n|---|---|",
    "progress.row": "| {notebook} | {result} |",
    "progress.result": "通过 {passed}/{total} 项检查，最近检查于 {when}",
    "progress.result_graded": "通过 {passed}/{total} 项检查（含隐藏测试得 {score:g}/{max_score:g} 分），"
                              "最近检查于 {when}",
    "progress.never": "尚未检查",
    "progress.how": "在终端里检查一个笔记本：`make check NB={example}`，然后再次运行这个单元格。",
    # the student edition's Makefile (tools/edition.py writes it in the edition's language)
    "edition.makefile.header": (
        "三天学会 PyTorch（学生版）：所有的安装和检查都通过这个文件完成。\n"
        "  make lab              需要时安装到 .venv，然后在课程主页上打开 JupyterLab\n"
        "  make check NB=...     运行一个笔记本的可见测试：make check NB=day1/01_tensors.ipynb\n"
        "  8888 端口被占用？     make lab LAB_ARGS=--port=8889（jupyter lab list 列出正在运行的服务器）\n"
        "\n"
        "如果已经激活了一个 Python 环境（conda，或设置了 VIRTUAL_ENV），就直接使用它，什么也不安装。"
    ),
    "edition.makefile.usage": "用法：make check NB=day1/01_tensors.ipynb",
    # the comment of an answer stub in the translated notebooks (tools/i18n.py); English: nbgrader's own
    "edition.code_stub": "# 在这里写你的代码（YOUR CODE HERE）",
}
