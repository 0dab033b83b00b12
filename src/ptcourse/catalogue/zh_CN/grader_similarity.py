"""相似答案报告（grader/results/similarity.py、grader/results/similarity_page.py；en/grader_similarity.py 的译文），给教师看。"""

MESSAGES = {
    "grader.similarity.title": "{day}：相似的答案",
    "grader.similarity.verdict": (
        "相似只是值得查看的理由，不是结论。学生可能按允许的方式一起学习过、参考了课程里的同一个例子，"
        "或者想到了同一个简短的答案。请并排阅读两份答案，并在做出任何决定之前与学生谈一谈。"
    ),
    "grader.similarity.method": (
        "每道练习的答案单元格都用 copydetect 做了比较（winnowing 指纹，即 MOSS 的方法）：名称、注释和排版"
        "不计入，所以改了变量名或调换了行的位置仍然会匹配。起始代码、参考答案以及全班大多数人共有的代码"
        "已被排除。英文版和中文版作为同一份作业比较。当一份答案中至少 {threshold:.0%} 的内容也出现在另一份中时，"
        "这一对会被列出。"
    ),
    "grader.similarity.section": "相似的答案",
    "grader.similarity.summary": "有 {pairs} 对答案值得查看，分布在 {exercises} 道练习中。",
    "grader.similarity.link": "并排显示的匹配行：",
    "grader.similarity.col_pair": "相似之处",
    "grader.similarity.compared": "比较了 {compared} 份答案。",
    "grader.similarity.pair": "{a} 和 {b}：{a} 的答案中有 {share_a:.0%} 也出现在 {b} 的答案中，反过来是 {share_b:.0%}。",
    "grader.similarity.matched": "高亮：相互匹配的行",
    "grader.similarity.nothing": "没有任何练习有超过阈值的答案对。",
}
