"""day3/06_export 的提示信息（简体中文）。"""

MESSAGES = {
    # 练习 1：predict
    "export.predict_random": (
        "对同一个输入，predict() 两次给出了不同的输出（最大差异 {diff:.3g}）：Dropout（随机失活）仍然处于激活状态。"
        "请在前向传播之前调用 model.eval()（别漏了括号）。"
    ),
    "export.predict_grad": (
        "predict() 的输出 requires_grad=True：自动求导记录了前向传播。请在 "
        "`with torch.inference_mode():` 之内运行它。"
    ),
    "export.predict_not_inference": (
        "predict() 的输出不是在 torch.inference_mode() 之内计算的（tensor.is_inference() 为 False）。"
        "torch.no_grad() 也能阻止梯度，但对只被读取的输出，inference_mode 还会跳过自动求导的记账工作："
        "请使用 `with torch.inference_mode():`。"
    ),
    "export.predict_single_sample": (
        "在单个样本上调用 predict() 抛出了 {error}。训练模式下的 BatchNorm 要计算批次的统计量，"
        "而只有一个样本的批次算不出来：请先调用 model.eval()。"
    ),
    "export.predict_updated_stats": (
        "predict() 改变了 BatchNorm 的 running_mean：前向传播是在训练模式下运行的，即使没有梯度，"
        "它也会更新滑动统计量。请先调用 model.eval()。"
    ),
    # 练习 2：export_program
    "export.ep_raised": (
        "export_program() 抛出了 {error}。请调用 torch.export.export(model, (example,), "
        "dynamic_shapes=({{0: batch}},))：示例输入要放在元组里，dynamic_shapes 每个输入对应一项，"
        "这里是一个用 torch.export.Dim 标记第 0 维（批次）的字典。"
    ),
    "export.ep_type": (
        "export_program() 应该返回 torch.export.export 给出的 ExportedProgram，实际得到 {got_type}。"
        "请返回程序本身；.module() 是用来运行它的。"
    ),
    "export.ep_fixed_batch": (
        "导出的程序拒绝了大小为 {batch} 的批次（{error}）：它只接受示例的批大小 "
        "{example_batch}。请把批次维度标记为动态的："
        "dynamic_shapes=({{0: torch.export.Dim('batch')}},)。"
    ),
    "export.ep_differs": (
        "对于大小为 {batch} 的批次，program.module()(x) 与评估模式下的模型相差 {diff:.3g}。"
        "计算图很可能是在训练模式下捕获的（Dropout 处于激活状态，BatchNorm 使用批次统计量）："
        "请在 torch.export.export 之前调用 model.eval()，因为导出的程序之后无法再切换到 eval()。"
    ),
    # 练习 3：export_onnx
    "export.onnx_raised": (
        "export_onnx() 抛出了 {error}。请调用 torch.onnx.export(model, (example,), path, dynamo=True, "
        "input_names=[...], output_names=[...], dynamic_shapes=...)，示例要放在元组里。"
    ),
    "export.onnx_warned": (
        "torch.onnx.export 在导出时发出了警告：{warnings}。请先把模型设为评估模式（model.eval()），"
        "并用 dynamic_shapes=({{0: torch.export.Dim('batch')}},) 标记批次维度，"
        "而不是用旧的 dynamic_axes。"
    ),
    "export.onnx_train_mode": (
        "export_onnx() 之后模型仍处于训练模式：请在导出之前调用 model.eval()。"
    ),
    "export.onnx_no_file": "export_onnx() 没有在 {path} 写出文件：请把 path 传给 torch.onnx.export。",
    "export.onnx_input_names": (
        "ONNX 文件的输入名为 {got}，期望 ['features']：请给 torch.onnx.export 传入 "
        "input_names=['features']。"
    ),
    "export.onnx_output_names": (
        "ONNX 文件的输出名为 {got}，期望 ['logits']：请给 torch.onnx.export 传入 "
        "output_names=['logits']。"
    ),
    "export.onnx_fixed_batch": (
        "ONNX Runtime 拒绝了大小为 {batch} 的批次（{error}）：这个文件只接受示例的批大小 "
        "{example_batch}。请用 dynamic_shapes=({{0: torch.export.Dim('batch')}},) 导出，"
        "让批次维度变成动态的。"
    ),
    "export.onnx_differs": (
        "对于大小为 {batch} 的批次，ONNX Runtime 的输出与评估模式下的模型相差 "
        "{diff:.3g}（超过 1e-4）。请在评估模式下、用示例输入导出模型本身。"
    ),
    # 练习 4：onnx_matches_eager
    "export.compare_raised": (
        "onnx_matches_eager() 抛出了 {error}。ONNX Runtime 的 session.run(None, {{name: array}}) 接收一个字典："
        "键是输入的名字（用 session.get_inputs()[0].name 读取），值是一个 NumPy float32 数组"
        "（x.detach().cpu().numpy()）；它返回一个数组列表，每个输出一个。"
    ),
    "export.compare_type": (
        "onnx_matches_eager() 应该返回 True 或 False，实际得到 {got_type}：请把最大差异与 atol 比较，"
        "例如 bool(np.abs(got - expected).max() <= atol)。"
    ),
    "export.compare_false_negative": (
        "对一份忠实的导出，onnx_matches_eager() 却说 False。传给你的模型处于训练模式："
        "请在计算即时执行的参照输出之前调用 model.eval()（否则 Dropout 会改变它），"
        "再把 ONNX Runtime 的第一个输出 session.run(...)[0] 与它比较。"
    ),
    "export.compare_false_positive": (
        "对一个输出处处相差 {delta} 的文件，在 atol={atol} 时，onnx_matches_eager() 却说 True。"
        "请把最大绝对差与参数 atol 比较。"
    ),
    "export.compare_one_output": (
        "对于一个只有一个输出偏差了 {delta}（每个样本共 {outputs} 个输出）、其余都准确的文件，"
        "onnx_matches_eager(..., atol={atol}) 应该说 False：这个导出是错的，尽管平均差距低于 atol。"
        "要限制的是所有样本所有输出上的最大绝对差，而不是平均值，也不是预测的类别。"
    ),
    "export.compare_atol": (
        "对一个输出相差 {delta} 的文件，onnx_matches_eager(..., atol={atol}) 应该是 "
        "{expected}，实际得到 {got}：请使用传给你的 atol（最大差异 <= atol），而不是一个写死的数。"
    ),
    # 第 6 节：延迟图
    "export.fig_latency_title": "数字分类器的推理延迟（{threads} 个 CPU 线程）",
    "export.fig_latency_xlabel": "批大小（每次调用的图像数，对数坐标）",
    "export.fig_latency_ylabel": "每次调用的中位数时间，ms（对数坐标）",
    "export.fig_latency_guide": "与批大小成正比",
    # 演示单元格打印的标签（ptcourse.messages.say）和图中的文字
    "export.demo_trained": "训练用时 {seconds:.1f} 秒；在 1000 个测试数字上的准确率：{accuracy:.1%}",
    "export.demo_train_mode_diff": "训练模式，同一输入两次，最大差异：",
    "export.demo_running_mean": "预测改变了 running mean：",
    "export.demo_single_image": "训练模式下的单张图像：",
    "export.demo_eval_mode_diff": "评估模式，同一输入两次，最大差异：",
    "export.demo_in_training_later": "之后在训练中使用它：",
    "export.demo_clone": "clone 出来的又是普通张量：",
    "export.demo_operations": "运算：",
    "export.demo_inputs": "输入：",
    "export.demo_same_as_eager": "与 eager 相同：",
    "export.demo_batch_of_7": "批大小为 7：",
    "export.demo_input_shape": "图中输入的形状：",
    "export.demo_batch_range": "批大小符号的取值范围：",
    "export.demo_output_shape": "批大小 {size:2}：输出形状 {shape}",
    "export.demo_written": "已写出：",
    "export.demo_operators": "算子：",
    "export.demo_recorded": "记录到的 {category}：{text}",
    "export.demo_dtype_table_header": "dtype             最大差异    相对差异    类别相同    准确率  毫秒（批大小 64）",
    "export.demo_folder": "本笔记本导出的文件保存在",
    "export.demo_files_for_tests": "练习 4 的测试用到的文件：",
}
