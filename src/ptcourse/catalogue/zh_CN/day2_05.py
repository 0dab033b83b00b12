"""day2/05_reproducibility 的提示信息（简体中文）。"""

MESSAGES = {
    "repro.seed_repeat": (
        "调用两次 set_seed({seed}) 之后，{library} 给出了不同的数（先是 {first}，然后是 {second}）："
        "set_seed() 还必须调用 {fix}。"
    ),
    "repro.seed_ignored": (
        "set_seed(1) 和 set_seed(2) 让 {library} 给出了相同的数：请用参数 `seed` 设定种子，而不是用一个固定的数。"
    ),
    "repro.run_list": "run(seed, epochs={epochs}) 应该返回由 {epochs} 个损失组成的列表（每轮一个），实际得到 {got!r}。",
    "repro.run_floats": (
        "run() 应该返回普通的 Python 浮点数，实际得到 {got_types}：请把 loss.item() 加起来，而不是把损失张量加起来。"
    ),
    "repro.run_not_reproducible": (
        "run({seed}) 两次调用给出了不同的损失：先是 {first}，然后是 {second}。请在 run() 里首先调用 set_seed(seed)，"
        "要在创建数据、模型和 DataLoader 之前；并用 manual_seed(seed) 给 DataLoader 的生成器设定种子。"
    ),
    "repro.run_no_augment": (
        "run() 从来没有调用 augment(xb)：第 5 步要求在前向传播之前，对每个批次执行 xb = augment(xb)。"
    ),
    "repro.run_loader_generator": (
        "当模型在搭建时抽取了更多的随机数后，run(7) 打乱数据的顺序变了：DataLoader 没有它自己的生成器，"
        "所以它的顺序来自 torch 的全局生成器，任何从中抽取随机数的东西（更宽的层、多一个 Dropout 层）都会改变它。"
        "请给它一个自己的生成器：DataLoader(..., shuffle=True, generator=torch.Generator().manual_seed(seed))。"
    ),
    "repro.run_ignores_seed": (
        "run(1) 和 run(2) 给出了完全相同的损失 {losses}：参数 seed 没有被用上。"
        "请把它传给 set_seed() 和生成器的 manual_seed()。"
    ),
    "repro.run_batches": (
        "run({seed}, epochs={epochs}) 在 {got} 个批次上计算了 nn.functional.cross_entropy；{samples} 个样本按每批 32 个，"
        "{epochs} 轮应该是 {expected} 个批次。请使用 batch_size=32，每一轮把整个 loader 走一遍，每个批次计算一次损失。"
    ),
    "repro.run_no_backward": (
        "run({seed}, epochs={epochs}) 在 {expected} 个批次上只调用了 {got} 次 loss.backward()："
        "没有它，模型得不到梯度，也就学不到东西。请在算出损失之后，每个批次调用一次 loss.backward()。"
    ),
    "repro.run_no_step": (
        "run({seed}, epochs={epochs}) 在 {expected} 个批次上只调用了 {got} 次 optimizer.step()："
        "没有它，权重从不改变，模型学不到东西。请在 loss.backward() 之后，每个批次调用一次 optimizer.step()。"
    ),
    "repro.run_no_zero_grad": (
        "run() 两次调用 loss.backward() 之间没有清零梯度，所以每一步用的是之前所有批次累加起来的梯度。"
        "请在每个批次的 loss.backward() 之前调用 optimizer.zero_grad()。"
    ),
    "repro.run_step_before_backward": (
        "run() 调用 optimizer.step() 时没有本批次的新梯度：自上一次更新以来没有运行 loss.backward()，"
        "或者梯度在它之后被清零了。顺序是：清零梯度、计算损失、反向传播、更新。"
    ),
    "repro.run_train_mode": (
        "run() 在 {total} 个批次中有 {batches} 个是用处于评估模式（Dropout（随机失活）关闭）的模型训练的："
        "请在每一轮开始时调用 model.train()。"
    ),
    "repro.run_losses": (
        "run({seed}, epochs={epochs}) 返回了 {got}，但根据它算出的损失，各轮的平均训练损失是 {expected}。"
        "每一轮的值是各批次 loss.item() * len(xb) 之和除以 len(x)（最后一个批次可能更小）。"
    ),
    "repro.run_recipe": (
        "run({seed}, epochs={epochs}) 给出了 {got}，但练习给出的配方得到的是 {expected}："
        "请对照清单逐项检查设置（SGD 且 lr=0.1、batch_size=32、用 manual_seed(seed) 设定种子的生成器、"
        "交叉熵、每个批次都调用 augment(xb)）。"
    ),
    # 演示单元格打印的标签（ptcourse.messages.say）和图中的文字
    "repro.demo_unseeded": "不设种子：",
    "repro.demo_seeded": "设了种子：",
    "repro.demo_final_loss": "种子 {seed}：最终损失 {loss:.4f}",
    "repro.demo_spread": "不同种子之间的差距：{spread:.4f}",
    "repro.demo_deterministic_on": "确定性模式是否开启：",
    "repro.demo_empty": "确定性模式下的 torch.empty(3)：",
    "repro.demo_timing": "deterministic={deterministic:5}  3 次中最快：{ms:6.1f} 毫秒  最终损失 {loss:.6f}",
    "repro.fig_train_loss": "训练损失",
    "repro.fig_val_accuracy": "验证准确率",
    "repro.fig_loss_accuracy": "损失 / 准确率",
    "repro.fig_log_notice": "注意训练损失下降的同时，验证准确率上升并趋于平稳。",
    "repro.fig_lr": "学习率",
    "repro.fig_lr_notice": "注意学习率每两轮减半（StepLR）。",
}
