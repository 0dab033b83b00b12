"""Gradescope 自动评分器对学习者说的话（grader/run/gradescope.py；en/grader_gradescope.py 的译文）。"""

MESSAGES = {
    "grader.gradescope.total": "{day}：{score:g} / {max_score:g} 分。",
    "grader.gradescope.missing": "这次提交中没有 {notebook}.ipynb：它的检查记 0 分。",
    "grader.gradescope.no_notebook": (
        "这次提交中没有找到笔记本（.ipynb 文件）。请上传这一天在 JupyterLab 中保存的笔记本，然后重新提交。"
    ),
}
