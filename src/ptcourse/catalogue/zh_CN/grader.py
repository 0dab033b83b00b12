"""班级评分器（``python -m grader``）中学习者会看到的提示信息（简体中文）：修复、完整性、限制。"""

MESSAGES = {
    "grader.ordinal.1": "一",
    "grader.ordinal.2": "二",
    "grader.ordinal.3": "三",
    "grader.ordinal.4": "四",
    "grader.ordinal.5": "五",
    # 修复步骤（grader/intake/repair.py）：无心之失不扣分，并告诉学习者。
    "grader.repair.duplicate_answer": (
        "{exercise}：答案单元格在你的笔记本里出现了 {times} 次；评分的是第{which}份"
        "（你最后修改的那一份）。"
    ),
    "grader.repair.duplicate_answer_stub": (
        "{exercise}：答案单元格在你的笔记本里出现了 {times} 次；评分的是第{which}份，也就是写有你答案的那一份"
        "（其他几份仍是未动过的练习原样）。"
    ),
    "grader.repair.duplicate_check": (
        "检查单元格 '{check}' 出现了 {times} 次；多出来的副本被忽略了（检查总是按课程原来的写法运行）。"
    ),
    "grader.repair.unknown_cells": (
        "你的笔记本里有本课程不认识的评分单元格（{ids}）；它们没有被评分，其中的代码作为你的普通单元格运行了。"
    ),
    "grader.repair.lost_metadata": (
        "有 {count} 个答案单元格丢失了课程的单元格信息（有些编辑器会把它删掉）；"
        "它们是根据其中定义的函数或类识别出来的。"
    ),
    "grader.repair.answer_by_position": (
        "{exercise}：答案单元格丢失了它的单元格信息，是根据它在笔记本中的位置识别出来的。"
    ),
    "grader.repair.missing_checks": (
        "你的笔记本里缺少这些检查，评分前已从课程中把它们放回去了：{ids}。"
    ),
    "grader.repair.cell_type": (
        "{exercise}：答案单元格被改成了文本单元格；它被当作代码运行了。"
    ),
    "grader.repair.reordered": (
        "你的笔记本里有些课程单元格的顺序被调换了；评分时按课程的顺序进行，每个答案都在它的检查之前。"
    ),
    "grader.validate.title": "笔记本结构（不会因此丢分，但值得修一修）",
    "grader.validate.intro": "评分器会在评分前修复这些问题：",
    # 完整性（grader/judge/guard.py）：只有证明按原样运行过的检查才计分。
    "grader.integrity.not_attested": (
        "这项检查没有回报它已按课程的写法运行到底，所以不得分。"
    ),
    "grader.integrity.unverified": (
        "评分器无法在这项检查之前恢复到干净的状态，所以它不得分。"
    ),
    "grader.integrity.changed_during": (
        "这项检查运行期间，你的代码替换了 {what}；这项检查不得分。"
    ),
    "grader.integrity.settings": (
        "你的笔记本更改了检查所依赖的设置（{what}）。检查按课程自己的设置运行，也就是计算标准答案时所用的设置；这不会让你失分。"
    ),
    "grader.integrity.restored": (
        "你的笔记本替换了 {what}；在检查运行之前，原来的版本已被放回，所以评分的只是你真正完成的工作。"
    ),
    "grader.integrity.machinery": (
        "你的笔记本改变了笔记本运行单元格或报告错误的方式（{what}）；检查运行期间这一改动已被关闭。"
    ),
    "grader.integrity.tampered_note": (
        "有些检查没有得分，因为评分器无法证明它们是按原样运行的。你的老师已经收到通知。"
    ),
    # 第二把钥匙（grader/judge/observations.py）：答案在新输入上的输出，由评分器比较。
    "grader.observe.differs": (
        "你的答案在一个新输入上的输出与预期不同（{name}）：形状 {shapes}（你的与预期的），最大差值 {diff}。这项检查不得分。"
    ),
    "grader.observe.shape": (
        "你的答案在一个新输入上的输出形状不对（{name}）：形状 {shapes}（你的与预期的）。这项检查不得分。"
    ),
    "grader.observe.dtype": (
        "你的答案在一个新输入上的输出的 dtype 是 {got}，预期是 {expected}（{name}）。这项检查不得分。"
    ),
    "grader.observe.value": (
        "你的答案在一个新输入上的输出与预期不同（{name}）：{got} 与 {expected}（你的与预期的）。这项检查不得分。"
    ),
    "grader.observe.kind": (
        "你的答案在一个新输入上的输出是 {got}，预期是 {expected}（{name}）。这项检查不得分。"
    ),
    "grader.observe.extra": (
        "评分器收到了一个这项检查不会发送的输出（{name}）：报告它的不是课程的检查。这项检查不得分。"
    ),
    "grader.observe.refused": (
        "评分器没有读取你的答案在新输入上的输出（{name}）：它比评分器读取的上限更大或嵌套更深。这项检查不得分。"
    ),
    # 评分器根据权重自行评判的模型级检查（grader/judge/model_checks.py）。
    "grader.model.accuracy": (
        "评分器根据你训练好的模型的权重，自行在 {total} 张测试数字上评估：正确率 {got}，低于这项检查要求的 {want}。"
        "这项检查不得分。"
    ),
    "grader.model.not_finite": (
        "评分器根据你训练好的模型的权重自行评估：它的得分不是有限数（NaN 或无穷大）。这项检查不得分。"
    ),
    "grader.model.no_progress": (
        "评分器自行计算了小型 CNN 在你的优化器和调度器运行 30 步之前和之后的损失：{first}，然后 {last}，"
        "没有明显下降（低于起始值的 90 %）。这项检查不得分。"
    ),
    "grader.model.weights_missing": (
        "评分器没有按课程所写的方式从这项检查收到模型的权重，因此无法自行评判模型。这项检查不得分。"
    ),
    "grader.observe.missing": (
        "评分器没有收到你的答案在新输入上的输出（{name}）：这项检查没有按课程写的方式报告它。这项检查不得分。"
    ),
    # 评分器停止了什么，用浅显的话说。
    "grader.stopped.memory": "内核使用的内存超过了 {limit}，已被停止。",
    "grader.bounds.message": (
        "[评分程序] 这个单元格发给评分器的消息大于 {mb} MB，或嵌套超过 {depth} 层：它没有被读取，这个单元格不得分。"
    ),
    "grader.output_capped": "[评分程序] 这个单元格的输出超过了 {kb} KB：其余输出已被丢弃，单元格已被中断。",
    "grader.stopped.disk": "内核写入的文件超过了 {limit}，已被停止。",
    "grader.stopped.died": "内核停止了（os._exit()、崩溃，或被终止）。",
    "grader.stopped.tasks": "内核同时运行的进程和线程超过了 {limit} 个（是不是有个循环在不停地启动进程？），已被停止。",
    "grader.stopped.stuck": (
        "有一个单元格运行超过了 {seconds} 秒的时限，中断后也没有停下来，所以内核被停止了。"
    ),
    "grader.stopped.cell_stuck": (
        "这个单元格运行超过了时限，中断后也没有停下来；之后的单元格都没有运行。"
    ),
    "grader.stopped.not_run": "没有运行，因为之前的某个单元格让内核停止了：{why}",
    "grader.stopped.timeout": "笔记本没有在 {seconds} 秒内运行完，已被停止。",
    "grader.error.internal": (
        "这个笔记本无法自动评分。什么都不会丢失：你的老师已经收到通知，会亲自查看。"
    ),
    "grader.file.link": (
        "'{file}' 是指向另一个文件的链接，而不是笔记本：它没有被读取。请提交笔记本文件本身。"
    ),
    "grader.file.special": "'{file}' 不是普通文件：它没有被读取。",
    "grader.file.too_big": (
        "'{file}' 有 {size} MB，超过了 {limit} MB 的上限：它没有被读取。请清除输出"
        "（Edit > Clear Outputs of All Cells），保存后重新提交。"
    ),
}
