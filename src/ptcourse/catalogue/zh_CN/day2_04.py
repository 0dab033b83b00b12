"""day2/04_checkpoints 的提示信息（简体中文）。"""

MESSAGES = {
    "ckpt.no_file": "save_checkpoint() 没有在 {path} 写出文件：请调用 torch.save(checkpoint, path)。",
    "ckpt.map_location": (
        "load_checkpoint() 无法加载在 GPU 机器上写出的检查点（{error}）。除非另行指定，它的张量会回到保存时所在的设备："
        "请用 torch.load(path, map_location=\"cpu\", weights_only=True) 加载。"
    ),
    "ckpt.not_weights_only": (
        "这个检查点无法用 weights_only=True 加载（{reason}）。请保存 state_dict()（普通张量），"
        "而不是模型或优化器对象本身。"
    ),
    "ckpt.keys": (
        "检查点缺少键 {missing}。要精确地恢复训练，它需要 'epoch'、'model'、'optimizer'、'scheduler' 和 "
        "'generator'（打乱顺序所用生成器的状态）。"
    ),
    "ckpt.saved_epoch": (
        "检查点里存的是第 {got} 轮，但传给 save_checkpoint() 的是 epoch={expected}：请按原样保存刚结束的那一轮，"
        "只在加载时再加一。"
    ),
    "ckpt.next_epoch": (
        "load_checkpoint() 应该返回接下来要运行的那一轮 {expected}（保存的第 {saved} 轮加一），实际得到 {got}。"
        "返回保存的轮数，会把已经训练过的一轮再重复一遍。"
    ),
    "ckpt.model_not_restored": (
        "调用 load_checkpoint() 之后，模型的 '{name}' 与保存的不同：请调用 "
        "model.load_state_dict(checkpoint['model'])。"
    ),
    "ckpt.optimizer_state": (
        "调用 load_checkpoint() 之后，优化器的 {what} 缺失或与保存的不同。Adam 和带动量的 SGD 会维护梯度的滑动平均值："
        "请保存 optimizer.state_dict()，并用 optimizer.load_state_dict(...) 恢复它。"
    ),
    "ckpt.scheduler_state": (
        "调用 load_checkpoint() 之后，调度器处于 last_epoch={got}，而不是 {expected}：学习率调度又从头开始了。"
        "请保存 scheduler.state_dict()，并用 scheduler.load_state_dict(...) 恢复它。"
    ),
    "ckpt.generator_state": (
        "调用 load_checkpoint() 之后，打乱数据所用的生成器没有回到保存时的状态，所以恢复后的各轮会以不同的顺序看到批次。"
        "请保存 generator.get_state()，并用 generator.set_state(...) 恢复它。"
    ),
    "ckpt.resume_differs": (
        "恢复后的运行结束时，'{name}' 与不中断的运行不同（最大差值 {diff:.3g}）。"
        "训练中会变化的某样东西没有被保存，或者没有被恢复。"
    ),
    "ckpt.best_flags": (
        "在 mode='{mode}'、指标为 {metrics} 时，update() 应该返回 {expected}（只有指标严格更好时才返回 True："
        "'min' 是更低，'max' 是更高），实际得到 {got}。"
    ),
    "ckpt.best_attrs": (
        "在 mode='{mode}' 时，循环结束后 best 应该是第 {expected_epoch} 轮的 {expected_best}，"
        "实际得到第 {got_epoch} 轮的 best={got_best}。"
    ),
    "ckpt.best_file": (
        "在 mode='{mode}' 时，磁盘上最好的检查点应该是第 {expected} 轮的，实际是第 {got} 轮的。"
        "只在指标变好时保存，并在那一刻保存 model.state_dict()。"
    ),
    "ckpt.best_bad_mode": "BestKeeper(path, mode='lowest') 应该抛出 ValueError：只有 'min' 和 'max' 是有意义的。",
    "ckpt.config_refused": (
        "load_config_checkpoint() 拒绝了一个唯一不寻常的对象是 TrainConfig 的检查点："
        "请在 torch.load 外面用 `with torch.serialization.safe_globals([TrainConfig]):` 放行它。"
    ),
    "ckpt.config_value": "load_config_checkpoint(path)['config'] 应该是 {expected}，实际得到 {got}。",
    "ckpt.intruder_loaded": (
        "load_config_checkpoint() 加载了一个还含有 {name} 类型对象的检查点，而这个类型不在允许列表里。"
        "请保持 weights_only=True，只放行 TrainConfig，绝不要退回到 weights_only=False：让 UnpicklingError 抛出去。"
    ),
    "ckpt.allowlist_leaked": (
        "load_config_checkpoint() 返回之后，TrainConfig 仍然在全局允许列表里，所以现在程序里的每一次 torch.load 都会接受它。"
        "请改用上下文管理器 torch.serialization.safe_globals([...])，而不是 add_safe_globals。"
    ),
    # 演示单元格打印的标签（ptcourse.messages.say）和图中的文字
    "ckpt.demo_same_outputs": "加载之后输出相同：",
    "ckpt.demo_refuses": "weights_only=True 拒绝加载它：",
    "ckpt.demo_after_refactor": "重构之后：",
    "ckpt.demo_largest_difference": "与不中断的运行相比，权重的最大差异：{gap:.2e}",
    "ckpt.demo_lr_now": "现在的学习率：{lr} | 优化器状态条目数：{entries}",
    "ckpt.demo_epoch": "第 {epoch:2} 轮  训练 {train:.4f}  验证 {val:.4f}  {saved}",
    "ckpt.demo_saved": "已保存",
    "ckpt.demo_kept": "保留的：第 {epoch} 轮的验证损失 {best:.4f}；最后一轮的是 {last:.4f}",
    "ckpt.demo_refused": "被拒绝：",
    "ckpt.demo_folder": "本笔记本的检查点保存在",
}
