"""day2/03_cnn_mnist 的提示信息（简体中文）。"""

MESSAGES = {
    # 练习 1：prepare_images
    "cnn.prep_channel": (
        "prepare_images() 返回的形状是 {got}：Conv2d 要求 (批次, 通道, 高, 宽)，"
        "所以请用 images.unsqueeze(1) 加上通道维度，得到 (N, 1, H, W)。"
    ),
    "cnn.prep_scale": (
        "prepare_images() 给出的值最大达到 {got_max:.0f}，但经过 v2 变换之后，它们应该保持在大约 3 以下。"
        "ToDtype(torch.float32, scale=True) 会先除以 255：(images / 255 - MEAN) / STD。"
    ),
    # 练习 2：conv_output_size
    "cnn.size_type": (
        "conv_output_size() 应该返回 int，实际得到 {got_type}（{got!r}）：请用整除 //"
        "（一个层不可能输出半行）。"
    ),
    "cnn.size": (
        "conv_output_size({size}, {kernel}, stride={stride}, padding={padding}) 应该是 {expected}"
        "（PyTorch 算出的结果），实际得到 {got}。规则是：floor((size + 2·padding − kernel) / stride) + 1。"
    ),
    # 练习 3：SimpleCNN
    "cnn.layer": "SimpleCNN 应该有一个层 self.{name}，它是一个 {kind}。",
    "cnn.fc1_size": (
        "当 c2={c2}、image_size={image_size} 时，fc1 之前的特征图是 {shape} = 每张图片 {flat} 个值，"
        "但 fc1.in_features 是 {in_features}。请根据各层大小把它算出来（用 conv_output_size 依次计算卷积、池化、卷积、池化），"
        "而不是直接写一个数字。"
    ),
    "cnn.forward_error": (
        "SimpleCNN 的 forward 抛出了异常：{error}。请检查 forward 是否依次应用了 conv1 → ReLU → pool → conv2 "
        "→ ReLU → pool（两次池化都要有），并用 torch.flatten(x, 1) 展平，它会保留批次维度。"
    ),
    "cnn.forward_channels_last": (
        "SimpleCNN 在普通张量上能运行，但当模型使用 channels_last 内存格式时（如第 4 节）抛出了 {error}。"
        "x.view(...) 只能重新标注按顺序排列的内存：请改用 torch.flatten(x, 1) 或 x.reshape(x.size(0), -1) 来展平。"
    ),
    "cnn.channels": (
        "SimpleCNN(c1={c1}, c2={c2}) 的 conv1 应该有 {c1} 个输出通道，conv2 应该从 {c1} 个通道变到 {c2} 个通道；"
        "实际得到 (conv1 输出, conv2 输入, conv2 输出) = {got}。"
    ),
    "cnn.hidden": (
        "SimpleCNN(hidden={hidden}) 的 fc1 应该有 {hidden} 个输出，fc2 应该从 {hidden} 变到 10；"
        "实际得到 (fc1 输出, fc2 输入, fc2 输出) = {got}。"
    ),
    "cnn.forward_order": (
        "SimpleCNN 的输出与用它自己的层按 conv1 → ReLU → pool → conv2 → ReLU → pool → 展平 → fc1 → ReLU → fc2 "
        "计算的结果不同（最多相差 {diff:.3g}）：请检查顺序，以及每个 ReLU 是否都在（fc2 之后没有）。"
    ),
    # 练习 4：train_one_epoch
    "cnn.train_return_type": (
        "train_one_epoch() 应该返回一个 Python 数字，实际得到 {got_type}：请把 loss.item()（一个浮点数）加起来，"
        "而不是把损失张量加起来；张量会让每个批次的自动求导计算图一直存活。"
    ),
    "cnn.train_batches": (
        "{expected} 个批次，loss_fn 却被调用了 {got} 次：请在遍历 loader 的循环里，每个批次计算一次损失。"
    ),
    "cnn.train_last_loss": (
        "train_one_epoch() 返回了 {got:.4f}，这是最后一个批次的损失；它应该返回所有批次损失的平均值 {expected:.4f}。"
        "请把这一轮的 loss.item() 加起来，再除以批次数。"
    ),
    "cnn.train_mean": (
        "train_one_epoch() 应该返回 {n} 个批次损失的平均值 {expected:.4f}，实际得到 {got:.4f}。"
    ),
    "cnn.train_no_update": (
        "train_one_epoch() 运行期间权重没有变化：请对每个批次先调用 loss.backward()，再调用 optimizer.step()。"
    ),
    "cnn.train_scheduler": (
        "一轮有 {batches} 个批次，scheduler.step() 却被调用了 {got} 次：OneCycleLR 要在每次 optimizer.step() 之后、"
        "在循环里调用（并且只在给了调度器时调用）。"
    ),
    "cnn.train_mode": (
        "train_one_epoch() 运行时模型的 model.training = {modes}：它被留在了评估模式，所以 Dropout（随机失活）一直是关着的。"
        "请在 train_one_epoch() 开头调用 model.train()（evaluate() 会把模型切换到评估模式）。"
    ),
    "cnn.train_steps": (
        "{batches} 个批次，optimizer.step() 运行了 {steps} 次，loss_fn 运行了 {losses} 次："
        "两者都应该在循环里，每个批次一次。"
    ),
    "cnn.grad_empty": (
        "第 {batch} 个批次执行 optimizer.step() 时梯度是空的：zero_grad() 在 backward() 和 step() 之间运行，"
        "把梯度清掉了。正确的顺序是 zero_grad → 前向传播 → 损失 → backward → step。"
    ),
    "cnn.grad_accumulated": (
        "第 {batch} 个批次执行 optimizer.step() 时，梯度不是这个批次自己的梯度（最多是它的 {ratio:.2g} 倍）："
        "backward() 会累加到 .grad 里，所以之前批次的梯度还在里面。请在每个批次、在 loss.backward() 之前调用一次 "
        "optimizer.zero_grad()。"
    ),
    "cnn.train_softmax": (
        "loss_fn 收到的是概率（每行之和为 1），而不是模型的原始输出：nn.CrossEntropyLoss 会自己应用 log-softmax，"
        "所以请直接传入 logits。在它前面加 softmax 会让损失变平，拖慢学习。"
    ),
    "cnn.train_outputs_changed": (
        "loss_fn 收到的不是原封不动的模型输出：请把 model(inputs)（即 logits）和目标值一起直接传给 loss_fn。"
    ),
    # 练习 5：evaluate
    "cnn.eval_raised": (
        "evaluate() 抛出了异常：{error}。如果大小对不上，请检查预测：每个样本一个类别是 model(inputs).argmax(dim=1)"
        "（第 0 维沿着批次，第 1 维遍历类别）。"
    ),
    "cnn.eval_type": "evaluate() 应该返回一个 Python 数字（一个比例），实际得到 {got_type}。",
    "cnn.eval_per_batch": (
        "evaluate() 返回了 {got}，这是 {correct} 个正确的样本除以批次数（{batches}）：请改为除以样本数"
        "（这里是 {samples}），例如把 len(targets) 加起来。"
    ),
    "cnn.eval_fraction": (
        "evaluate() 返回了 {got}：准确率应该是 0 到 1 之间的比例（0.9，而不是 90）。"
    ),
    "cnn.eval_value": (
        "evaluate() 应该是 {expected}（{total} 个样本中 {correct} 个正确），实际得到 {got}。请在所有批次上统计 "
        "(predictions == targets).sum()，其中 predictions = model(inputs).argmax(dim=1)。"
    ),
    "cnn.eval_mode": (
        "evaluate() 在训练模式下运行模型，所以 Dropout（随机失活）把随机的激活值置零了，两次调用分别得到 {first} 和 {second}。"
        "请在 evaluate() 开头调用 model.eval()。"
    ),
    "cnn.eval_no_grad": (
        "在 evaluate() 里自动求导一直在记录（torch.is_grad_enabled() 为 True）：请把循环包在 "
        "`with torch.no_grad():` 里。评估不需要梯度，而构建计算图要花内存和时间。"
    ),
    # 练习 6：make_optimizer 与正式训练
    "cnn.opt_pair": (
        "make_optimizer() 应该返回两样东西 (optimizer, scheduler)；实际得到一个 {got_type}。"
    ),
    "cnn.opt_params": (
        "优化器持有的参数与传给它的模型的参数不完全一致：请用参数 `model` 来构建它，"
        "即 torch.optim.AdamW(model.parameters())。"
    ),
    "cnn.opt_schedule_short": (
        "调度器在整个运行的 {total} 步中只走了 {steps} 步就停了（{error}）。train_one_epoch() 在每个批次之后调用它，"
        "所以 OneCycleLR 需要 epochs=epochs 和 steps_per_epoch=steps_per_epoch（总步数 = 轮数 × 每轮批次数）。"
    ),
    "cnn.opt_schedule_flat": (
        "学习率的变化是 {first:.3g} → 峰值 {peak:.3g} → {last:.3g}：单周期调度结束时应该远低于峰值。"
        "请使用 torch.optim.lr_scheduler.OneCycleLR。"
    ),
    "cnn.opt_no_progress": (
        "用你的优化器和调度，一个很小的 CNN 在 320 个数字上训练 30 步，损失从 {first:.3f} 变成了 {last:.3f}；"
        "好的设置能把它降到 0.5 以下。如果它几乎没动，说明 max_lr 太小；如果它变大了或变成了 nan，说明太大。"
        "对 AdamW 来说，max_lr 在 1e-3 到 1e-2 之间比较合适。"
    ),
    "cnn.trained_accuracy": (
        "训练好的模型正确分类了 {got:.1%} 的测试数字；这个测试要求至少 {want:.0%}（建议的设置大约能达到 98 %）。"
        "请在修好上面的练习之后重新运行训练单元格，并检查 max_lr 和轮数。"
    ),
    # 演示单元格打印的标签（ptcourse.messages.say）和图中的文字
    "cnn.demo_label": "标签：",
    "cnn.demo_digits": "{train} 个训练数字，{test} 个测试数字",
    "cnn.demo_one_image": "一张图像：",
    "cnn.demo_values_from": "取值从 {low:.2f} 到 {high:.2f}",
    "cnn.fig_label": "标签 {label}",
    "cnn.fig_digits_notice": "注意同一个数字不同人写得多么不一样。",
    "cnn.demo_counts_per_class": "每个类别的数量：",
    "cnn.demo_after": "经过 {name:5} 之后：{shape}",
    "cnn.demo_flattened": "展平之后：  ",
    "cnn.demo_parameters": "SimpleCNN(c1={c1:2}, c2={c2:2}, hidden={hidden:3})：{n:7,} 个参数",
    "cnn.demo_loss_on_logits": "对 logits 计算的损失：         ",
    "cnn.demo_loss_on_softmax": "对 softmax(logits) 计算的损失：",
    "cnn.demo_epochs": "轮",
    "cnn.demo_trained_in": "训练用时 {seconds:.1f} 秒",
    "cnn.demo_epoch": "第 {epoch} 轮：训练损失 {loss:.3f}，测试准确率 {accuracy:.1%}",
    "cnn.demo_test_accuracy": "测试准确率 {accuracy:.1%}",
    "cnn.fig_predicted": "预测的类别",
    "cnn.fig_true": "真实的类别",
    "cnn.fig_confusion_alt": "测试数字的混淆矩阵：每行是一个真实类别，每列是一个预测类别，蓝色越深表示数字越多；{total} 个中有 {right} 个在对角线上（预测正确），最常见的错误是把 {true} 认成 {guess}（{times} 次）。",
    "cnn.fig_confusion_notice": "注意几乎所有数字都落在对角线上；少数错误发生在长得相像的数字之间。",
    "cnn.fig_wrong": "{predicted}（真实 {true}）",
    "cnn.fig_wrong_notice": "注意其中很多数字连人也很难认出来。",
}
