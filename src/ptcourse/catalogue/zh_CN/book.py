"""课程网页书（tools/book.py，``make book``）的提示信息（简体中文）：语言切换，以及每页上说明怎样动手练习这个笔记本的方框。"""

MESSAGES = {
    "book.title": "三天学会 PyTorch",
    "book.day": "第 {n} 天",
    "book.reference": "参考",
    "book.switch": "English",
    "book.switch_label": "阅读本页的英文版",
    "book.practise": "动手练习这个笔记本",
    "book.download": "下载这个笔记本（{name}）",
    "book.binder": "在 Binder 上打开：在浏览器里运行，无需安装",
    "book.local": "或者在你的电脑上（需要 Python 3.11、make 和 git，约 6 GB 磁盘空间），然后打开 {path}：",
    "book.outputs": (
        "单元格的输出来自构建网站时运行的这份学习者副本。"
        "练习还是空的，所以它们的检查，以及需要练习答案的单元格，都没有输出。"
    ),
}
