"""平台下载的目录结构、上传的压缩包与小组（grader/intake/submissions.py、grader/lms/groups.py）。"""

MESSAGES = {
    "grader.intake.default_group": (
        "“{file}”位于 Moodle 的“Default group”文件夹中：其中是某位未分组学生的文件，但没有写明是谁的，所以没有评分。"
        "请把该学生分入小组，或人工评分。"
    ),
    "grader.intake.bad_archive": (
        "“{file}”是一个无法打开的 zip 文件（已损坏、并非真正的 zip，或解压后超出评分程序的限制），"
        "所以其中的内容都没有评分。请让学生直接提交笔记本文件。"
    ),
    "grader.intake.archive_no_notebook": "“{file}”是一个 zip 文件，但其中没有笔记本（.ipynb），所以没有评分。",
    "grader.intake.member_skipped": "“{archive}”中的“{file}”无法解压（{why}），所以没有评分。请自己打开这个 zip 文件查看该文件。",
    "grader.intake.skip.link": "它是一个链接或特殊文件，不含文件内容",
    "grader.intake.skip.unsafe": "它的名称指向 zip 解压目标文件夹之外",
    "grader.intake.skip.damaged": "它已损坏、已加密，或使用了评分程序无法读取的压缩方式",
    "grader.intake.names_read_as": (
        "“{archive}”中的文件名没有标明为 UTF-8，因此评分程序推断了其编码：按 {encoding} 读取。"
        "如果 grades.csv 中某位学生的名字看起来不对，请自己解压下载的文件，再传入解压后的文件夹。"
    ),
    "grader.group.by_member": "按小组的提交评分，由 {member} 提交（小组“{group}”）。",
    "grader.group.team": "按小组“{group}”的提交评分（下载中只写明了小组，没有写明由谁提交）。",
}
