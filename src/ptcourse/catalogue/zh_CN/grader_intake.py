"""收件：教师保存的名单和延期文件、提交时间、延期和截止时间（en/grader_intake.py 的译文）。"""

MESSAGES = {
    "grader.textfile.workbook": (
        "{file} 是电子表格工作簿（Excel 或 LibreOffice），不是 CSV 文件：请打开它，另存为"
        "“CSV UTF-8（逗号分隔）”，再提供那个文件。"
    ),
    "grader.textfile.bad_utf16": (
        "{file} 的开头像 UTF-16 文本（Excel 的“Unicode 文本”），但第 {line} 行不是 UTF-16：请重新另存为"
        "“CSV UTF-8（逗号分隔）”，再提供那个文件。"
    ),
    "grader.textfile.unknown": (
        "{file} 既不是 UTF-8、UTF-16、Windows-1252，也不是 GBK 文本：第 {line} 行的字节 {byte} 在那里这几种编码都读不了。"
        "请用 Excel 或 LibreOffice 打开，另存为“CSV UTF-8（逗号分隔）”，再提供那个文件。"
    ),
    "grader.textfile.unreadable": "无法读取 {file}：{reason}。",
    "grader.textfile.too_big": "{file} 大于 {limit} MB，不像一份名单：请提供平台导出的 CSV 文件。",
    "grader.textfile.binary": (
        "{file} 第 {line} 行有 NUL 字节，所以它不是文本表格：请另存为“CSV UTF-8（逗号分隔）”，再提供那个文件。"
    ),
    "grader.textfile.csv_error": (
        "{file}，第 {line} 行：评分程序无法读取这份 CSV（{error}）。请用 Excel 或 LibreOffice 打开，"
        "另存为“CSV UTF-8（逗号分隔）”，再提供那个文件。"
    ),
    "grader.textfile.read_as": "{file} 按 {encoding} 读取。",
    "grader.due.gap": (
        "{local} 在 {zone} 不存在：夏令时开始时时钟跳过了这段时间。它可能指 {first}，也可能指 {second}；"
        "请用 UTC 写出你指的那一个，或者选一个不在跳变中的时间。"
    ),
    "grader.due.fold": (
        "{local} 在 {zone} 出现两次（夏令时结束时）：第一次是 {first}，第二次是 {second}。"
        "请用 UTC 写出你指的那一个，或者选一个不在重复那一小时里的时间。"
    ),
    "grader.extensions.extra_empty": "没有给出延长的时间",
    "grader.extensions.extra_bad": "“{text}”不是一段时间：请写数字和单位，例如“2 days”、“36 hours”、“90 min”或“2天”",
    "grader.extensions.columns": (
        "延期文件 {file} 需要一列“student”，以及一列“due”（新的截止时间）或一列“extra”（延长的时间，例如“2 days”）；"
        "它的第一行是：{found}"
    ),
    "grader.extensions.both": "同时给出了新的截止时间和延长的时间：请只保留一个",
    "grader.extensions.neither": "既没有新的截止时间，也没有延长的时间",
    "grader.extensions.no_class_due": "延长时间需要作业的截止时间，而这份作业没有：请改为给出新的截止时间",
    "grader.extensions.twice": "延期文件中有 {count} 行指向这名学生（第 {lines} 行）：都没有采用",
    "grader.extensions.several": "“{name}”符合多名已评分的学生（{students}）：请写 grades.csv 中该学生的编号",
    "grader.intake.time_missing": "没有提交时间（没有 timestamp.txt）：无法判断迟交扣分",
    "grader.intake.time_garbled": (
        "提交时间“{text}”（timestamp.txt）不是日期：评分时未扣迟交分；请查明实际提交时间"
    ),
    "grader.intake.time_future": (
        "提交时间“{text}”（timestamp.txt）在未来（评分开始于 {now}）：评分时未扣迟交分；请查明实际提交时间"
    ),
    "grader.intake.extension": "延期：截止时间为 {due}，而不是 {class_due}（{file}，第 {line} 行）",
    "grader.intake.extension_bad": (
        "延期未采用：{file}，第 {line} 行：{why}。已按作业的截止时间评分；请改正这一行后重新评分"
    ),
    "grader.intake.extension_nobody": "{file}，第 {line} 行：“{name}”不是任何一名已评分的学生，所以这项延期没有给任何人",
    "grader.intake.no_due": "无",
    "grader.intake.learner_time_garbled": "无法读取你的提交时间，因此没有扣迟交分；你的老师会核实你的提交时间。",
    "grader.intake.learner_time_future": "你的提交时间晚于评分时间，因此没有扣迟交分；你的老师会核实你的提交时间。",
    "grader.intake.learner_extension": "你获得了延期：你的截止时间是 {due}。",
    "grader.report.intake": "提交时间与延期",
    "grader.report.intake_human": "{count} 名学生需要人工处理：其提交时间或延期无法使用。班上其他人已正常评分。",
    "grader.report.stale": (
        "有 {count} 份笔记本曾在之前的运行中评分并记入这个成绩簿，但不在本次的提交中（已被移除，或已无法读取）：{which}。"
        "它们之前的成绩仍在 grades.csv、报告和导出文件中。如果它们不应计入，请用新的 --out 和 --gradebook 重新评分。"
    ),
    "grader.report.roster_read_as": "名单 {file} 按 {encoding} 读取。",
    "grader.report.anonymous": (
        "有 {count} 份已评分的提交只有匿名编号（平台的匿名评分），因此无法判断名单上哪一行没有提交："
        "没有任何一行被记为 0 分或列为未提交。请在平台显示学生身份后再录入这些成绩。"
    ),
    "grader.report.scaled": (
        "{roster} 中该作业的满分是 {platform} 分，而本课程的满分是 {course} 分：{file} 中的成绩已按此换算"
        "（得分 × {platform}/{course}，保留 2 位小数），这样平台会接收每一个成绩。grades.csv 仍保留课程的原始分数。"
    ),
    "grader.gradescope.visible_total": (
        "{day}：目前显示的检查得 {score:g} / {max_score:g} 分。还有其他检查已经评分；"
        "老师公布成绩后会显示它们及其分数。"
    ),
    "grader.gradescope.visible_points": "目前显示的检查得 {score:g} / {max_score:g} 分",
}
