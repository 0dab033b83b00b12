"""day3/07_capstone 的提示信息（简体中文）。"""

MESSAGES = {
    # 练习 1：save_checkpoint / load_checkpoint
    "capstone.precision_pair": "choose_precision() 应该返回一个二元组 (amp_dtype, use_scaler)，实际得到 {got!r}。",
    "capstone.precision_cuda": (
        "在 'cuda' 上（float32 {fp32} ms，bfloat16 {bf16} ms），无论计时如何，choose_precision() 都应该返回 "
        "(torch.float16, True)，实际得到 {got}：CUDA 的 autocast 正是为 float16 设计的（每一块 CUDA GPU 都能运行它；"
        "bfloat16 需要 Ampere 或更新的 GPU），而它很小的梯度需要 GradScaler。"
    ),
    "capstone.precision_faster": (
        "在 '{device}' 上 bfloat16 用了 {bf16} ms，float32 用了 {fp32} ms：至少快了 10 %，所以 "
        "choose_precision() 应该返回 (torch.bfloat16, False)，实际得到 {got}。bfloat16 的取值范围与 float32 相同："
        "不需要缩放器。判断条件是 bf16_ms <= 0.9 * fp32_ms。"
    ),
    "capstone.precision_not_faster": (
        "在 '{device}' 上 bfloat16 用了 {bf16} ms，float32 用了 {fp32} ms：没有快 10 %，所以 "
        "choose_precision() 应该返回 (None, False)，即普通 float32，实际得到 {got}。只有当 "
        "bf16_ms <= 0.9 * fp32_ms 时才使用 bfloat16。"
    ),
    "capstone.ckpt_no_file": "save_checkpoint() 没有在 {path} 留下文件：请用 torch.save 保存字典，然后把临时文件重命名为 path。",
    "capstone.ckpt_not_weights_only": (
        "检查点无法用 torch.load(path, weights_only=True) 加载（{error}）。请保存 state_dict()、"
        "生成器状态和普通数字，而不是模型、优化器或缩放器对象本身。"
    ),
    "capstone.ckpt_not_atomic": (
        "torch.save 中途崩溃毁掉了 path 处原有的检查点：之后读出的是 {got!r}，而不是之前的第 0 轮。"
        "请先保存到 path 旁边的临时文件，再把它重命名覆盖 path（Path.replace 或 os.replace）：重命名要么完全成功，要么什么都不变。"
    ),
    "capstone.ckpt_keys": (
        "检查点应该是一个带有 'epoch' 项的字典，存放刚刚完成的那一轮（fit() 和后面的单元格会读取它），"
        "实际得到的是 {got}。其他项由你决定。"
    ),
    "capstone.ckpt_saved_epoch": (
        "检查点中存的是第 {got} 轮，但传给 save_checkpoint() 的是 epoch={expected}：请原样保存刚刚完成的轮次，"
        "只在加载时才加一。"
    ),
    "capstone.ckpt_next_epoch": (
        "load_checkpoint() 应该返回下一轮要运行的轮次 {expected}（保存的轮次 {saved} 加一），"
        "实际得到 {got}。返回保存的轮次会把已经训练过的一轮再重复一次。"
    ),
    "capstone.ckpt_model": (
        "load_checkpoint() 之后，模型的 {names} 与保存的不同：请调用 "
        "run.model.load_state_dict(state['model'])。"
    ),
    "capstone.ckpt_optimizer": (
        "load_checkpoint() 之后，优化器的 {what} 缺失或与保存的不同。Adam 和带动量的 SGD "
        "会保存梯度的滑动平均：请保存 run.optimizer.state_dict()，并用 "
        "run.optimizer.load_state_dict(...) 恢复它。"
    ),
    "capstone.ckpt_scheduler": (
        "load_checkpoint() 之后，调度器处于 last_epoch={got}，而不是 {expected}：学习率调度会从头开始。"
        "请保存 run.scheduler.state_dict()，并用 load_state_dict(...) 恢复它。"
    ),
    "capstone.ckpt_scaler": (
        "load_checkpoint() 之后，GradScaler 的缩放因子是 {got}，而不是保存的 {expected}：请保存 "
        "run.scaler.state_dict()，并用 run.scaler.load_state_dict(...) 恢复它，否则 float16 训练"
        "每次恢复后都要重新校准（并跳过一些步骤）。"
    ),
    "capstone.ckpt_generator": (
        "load_checkpoint() 之后，数据加载器打乱顺序用的生成器不在保存时的状态，所以恢复后的各轮"
        "会以另一种顺序看到批次。请保存 run.generator.get_state()，并用 "
        "run.generator.set_state(...) 恢复它。"
    ),
    "capstone.ckpt_rng": (
        "load_checkpoint() 之后，PyTorch 的全局随机数生成器不在保存检查点时的状态，"
        "所以恢复后的各轮中 Dropout（随机失活）会抽取不同的掩码。请保存 torch.get_rng_state()，"
        "并用 torch.set_rng_state(...) 恢复它。"
    ),
    "capstone.ckpt_cuda_rng": (
        "在有 CUDA GPU 的机器上，检查点没有恢复它们的随机数生成器（{error}），所以恢复之后，"
        "GPU 上的 Dropout（随机失活）会抽取不同的掩码。在 torch.cuda.is_available() 时，"
        "请保存 torch.cuda.get_rng_state_all()（每块 GPU 一个状态），并用 torch.cuda.set_rng_state_all(...) 恢复它；"
        "在没有 CUDA 的机器上，保存一个空列表，什么也不用恢复。"
    ),
    # 练习 2：fit
    "capstone.fit_losses": (
        "在一个全新的运行上调用 fit(run, {epochs}, path)，应该返回一个由 {epochs} 个 Python float 组成的列表，"
        "即它运行的每一轮的平均损失，实际得到 {got!r}。"
    ),
    "capstone.fit_batches": (
        "fit() 让模型运行了 {got} 个批次，期望 {expected} 个（run.loader 中的每个批次，每轮一次）。"
    ),
    "capstone.fit_not_training": (
        "fit() 训练模型时，模型处于评估模式（Dropout 关闭）。请在每一轮开始时调用 run.model.train()："
        "传进来的模型可能处于评估模式。"
    ),
    "capstone.fit_no_autocast": (
        "在 run.amp_dtype={dtype} 时，前向传播没有在 autocast 下运行（最后一层给出的是 {got}）。"
        "请在 torch.autocast(run.device.type, dtype=run.amp_dtype, "
        "enabled=run.amp_dtype is not None) 之内计算分数和损失。"
    ),
    "capstone.fit_no_scale": (
        "对 {batches} 个批次，run.scaler.scale(loss) 被调用了 {got} 次：请在每一步调用 "
        "run.scaler.scale(loss).backward()，而不是 loss.backward()。（关闭的缩放器会原样返回损失，"
        "所以不用缩放器时同一行代码也能工作。）"
    ),
    "capstone.fit_no_scaler_step": (
        "对 {batches} 个批次，run.scaler.step(optimizer) 被调用了 {steps} 次，run.scaler.update() "
        "被调用了 {updates} 次：每个批次都要通过缩放器更新参数（而不是用 optimizer.step()），然后更新缩放器。"
    ),
    "capstone.fit_scheduler": (
        "{epochs} 轮之后，调度器处于 last_epoch={got}：请每一轮在结束时调用一次 run.scheduler.step()"
        "（而不是每个批次调用一次）。"
    ),
    "capstone.fit_checkpoints": (
        "fit() 在第 {got} 轮之后保存了检查点，期望 {expected}：请在每一轮结束时调用 save_checkpoint(ckpt_path, "
        "run, epoch)，这样一次崩溃最多只损失一轮。"
    ),
    "capstone.fit_no_resume_done": (
        "用一次已经完成的 2 轮运行的检查点再次调用时，fit() 应该发现没有剩下的工作，并返回 []，"
        "实际得到 {got!r}。如果 ckpt_path 存在，请先加载它，并从 load_checkpoint() 返回的轮次"
        "（保存的轮次加一）开始。"
    ),
    "capstone.fit_swallowed_crash": (
        "数据加载器抛出的 SimulatedCrash 没有从 fit() 中传出来：不要在 fit() 里捕获异常，"
        "崩溃的运行必须停下来（能留下来的是检查点）。"
    ),
    "capstone.fit_no_checkpoint": (
        "在第 1 轮崩溃之后，{path} 处没有检查点：请在每一轮结束时都保存一个，而不是只在训练结束时保存。"
    ),
    "capstone.fit_checkpoint_epoch": (
        "崩溃之后，磁盘上的检查点说是第 {got} 轮，期望 {expected}（最后一个完成的轮次）。"
        "请在每一轮结束时保存，并带上那一轮的编号。"
    ),
    "capstone.fit_resumed_epochs": (
        "崩溃后恢复时，fit() 应该只运行缺少的那几轮，并返回它们的损失，实际得到 {got!r}。"
        "如果 ckpt_path 存在，请加载检查点，并从它返回的轮次开始。"
    ),
    "capstone.fit_resume_differs": (
        "恢复后的运行最终得到的权重与不中断的运行不同（{names} 不同）：训练中会改变的某样东西没有被保存"
        "或没有被恢复，或者恢复后的运行执行了不同的步骤（漏了 zero_grad，某一轮被重复或跳过了，"
        "或者检查点保存在这一轮调度器的 step 之前，恢复后用的还是旧的学习率）。"
    ),
    "capstone.fit_loss_value": (
        "fit() 返回的第 {epoch} 轮平均损失是 {got}，但这一轮各批次的损失按图像数量加权后的平均值是 {expected}。"
        "每个批次把 loss.item() * len(labels) 加到总和上、把 len(labels) 加到计数上；每轮结束时追加 total / count。"
    ),
    "capstone.fit_loss_differs": (
        "恢复后的运行最后一轮的平均损失是 {got}，不中断的运行是 {expected}：同一轮在同一个状态上"
        "应该给出同样的损失。"
    ),
    # 练习 3：deploy
    "capstone.deploy_raised": (
        "deploy() 抛出了 {error}。请用 torch.onnx.export(model, (example,), path, dynamo=True, "
        "external_data=False, input_names=['pixels'], output_names=['logits'], dynamic_shapes=({{0: batch}},)) "
        "导出，其中 batch = torch.export.Dim('batch')。"
    ),
    "capstone.deploy_warned": (
        "deploy() 打印了警告：{warnings}。请在导出之前调用 model.eval()，并用 dynamic_shapes "
        "声明动态的批次维度，而不是用旧的 dynamic_axes。"
    ),
    "capstone.deploy_train_mode": (
        "deploy() 之后，模型仍处于训练模式：请在导出和比较之前调用 model.eval()"
        "（模式会被固化在导出的计算图中，而 Dropout 会让比较结果变得随机）。"
    ),
    "capstone.deploy_no_file": "deploy() 没有在 {path} 写出文件：请把 path 传给 torch.onnx.export。",
    "capstone.deploy_external_data": (
        "deploy() 在模型旁边写出了额外的文件（{files}）：权重被写进了单独的 .data 文件。"
        "请传入 external_data=False，得到一个便于交付的单个文件。"
    ),
    "capstone.deploy_names": (
        "导出文件的 (输入, 输出) 名为 {got}，期望 (['pixels'], ['logits'])：请传入 "
        "input_names=['pixels'] 和 output_names=['logits']。"
    ),
    "capstone.deploy_fixed_batch": (
        "导出的文件拒绝了大小为 {batch} 的批次（{error}）：只有示例的批大小能用。请把第 0 维标记为动态的："
        "dynamic_shapes=({{0: torch.export.Dim('batch')}},)。"
    ),
    "capstone.deploy_differs": (
        "在大小为 {batch} 的批次上，导出的文件与评估模式下的模型相差 {diff:.3g}"
        "（超过 1e-4）：请在 model.eval() 之后再导出模型。"
    ),
    "capstone.deploy_gap_type": "deploy() 应该返回一个 Python float（使用 float(...)），实际得到 {got_type}。",
    "capstone.deploy_gap": (
        "deploy() 返回了 {got}，但 ONNX Runtime 与 PyTorch（在评估模式下、在 example 上）之间的最大绝对差是 "
        "{expected}。请返回 float(np.abs(onnx_output - torch_output).max())。"
    ),
    # 演示单元格打印的标签（ptcourse.messages.say）和图中的文字
    "capstone.demo_pixel_values": "像素值从 {low:.2f} 到 {high:.2f}",
    "capstone.demo_one_step": "CPU 上的一步（单线程，预热后 5 次的中位数）：float32 {fp32:.1f} 毫秒，bfloat16 autocast {bf16:.1f} 毫秒（{ratio:.2f} 倍）",
    "capstone.demo_on_device": "在 {device} 上：amp_dtype={dtype}，GradScaler 是否开启：{scaler}",
    "capstone.demo_resumed": "恢复之后：第 1、2 轮的平均损失",
    "capstone.demo_uninterrupted": "不中断：平均损失",
    "capstone.demo_resume_losses": "第 {epoch} 轮的平均损失：不中断 {straight:.10f}，恢复之后 {resumed:.10f}",
    "capstone.demo_resume_differ": "训练结束时不一样的参数：",
    "capstone.demo_resume_same": "训练结束时不一样的参数：没有",
    "capstone.demo_differ": "两者之间不同的参数：",
    "capstone.demo_none": "没有",
    "capstone.demo_three_runs": "三次运行，共约 {epochs:.0f} 轮训练，用时 {seconds:.1f} 秒",
    "capstone.demo_crash": "第 1 轮中崩溃（{crash}）；磁盘上的检查点来自第几轮：",
    "capstone.demo_table_header": "                  准确率  延迟（1 张图像）",
    "capstone.demo_folder": "本笔记本的检查点和导出的文件保存在",
}
