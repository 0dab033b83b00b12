"""day2/01_linear_regression 的提示信息（简体中文）。"""

MESSAGES = {
    "linreg.data_pair": "make_data() 应该返回一对值 (x, y)，实际返回了 {got} 个值。",
    # 练习 1：make_data
    "linreg.data_broadcast": (
        "`y` 的形状是 {got}，是一个方形表格而不是一列：x 是 ({n}, 1)，而噪声的形状是 ({n},)，"
        "广播把它们的和变成了 {n} × {n} 个数。请按形状 ({n}, 1) 抽取噪声：torch.randn(n, 1, generator=generator)。"
    ),
    "linreg.data_range": (
        "x 应该落在 [{low}, {high}] 里，但它的值从 {got_min:.3g} 到 {got_max:.3g}。"
        "torch.rand 给出 [0, 1) 上均匀分布的数；把它们拉伸再平移："
        "low + (high - low) * torch.rand(n, 1, generator=generator)。"
    ),
    "linreg.data_line": (
        "这些点不在 y = {w}·x + {b} 附近：用你的 x 和 y 做最小二乘拟合，得到 "
        "w = {got_w:.3f}、b = {got_b:.3f}。请计算 y = w * x + b + noise * (标准正态噪声)。"
    ),
    "linreg.data_noise": (
        "这些点围绕直线散开的标准差是 {got:.3g}；它应该约等于 {expected:.3g}。"
        "请把标准正态噪声乘以 `noise`。"
    ),
    "linreg.data_generator": (
        "用种子相同（{seed}）的两个生成器调用两次，却得到了不同的数据：请把 generator=generator "
        "同时传给 torch.rand 和 torch.randn，这样同样的种子才会给出同样的数据。"
    ),
    # 练习 2：train
    "linreg.backward_failed": (
        "train() 停下了，报错：{error}——loss.backward() 找不到通回模型的计算图。"
        "请在开启梯度的情况下由 model(x) 计算损失：不要对预测值或损失调用 .detach() 或 .item()，"
        "也不要把前向传播包在 torch.no_grad() 里。"
    ),
    "linreg.history_length": (
        "train(..., epochs={epochs}) 应该返回 {epochs} 个损失，每轮一个，实际得到 {got} 个。"
    ),
    "linreg.history_items": (
        "train() 返回的损失应该是普通的 Python 数字，实际得到 {got_type}：请追加 loss.item()。"
        "保留损失张量，还会把每一轮的计算图都留在内存里。"
    ),
    "linreg.no_update": (
        "train() 训练 {epochs} 轮之后，模型的参数没有动（w = {w:.5g}，b = {b:.5g}）。"
        "optimizer.step() 必须放在 loss.backward() 之后、下一次 optimizer.zero_grad() 之前；"
        "而且 train() 必须训练传给它的那个模型，而不是一个新的 nn.Linear。"
    ),
    "linreg.accumulated": (
        "训练 {epochs} 轮之后，train() 给出 w = {got_w:.5g}、b = {got_b:.5g}：这恰好是把所有轮的梯度"
        "都加起来时得到的结果。梯度一直在增长：请在每一轮、在 loss.backward() 之前调用 optimizer.zero_grad()。"
        "普通的梯度下降给出 w = {expected_w:.5g}、b = {expected_b:.5g}。"
    ),
    "linreg.sgd_mismatch": (
        "用 lr={lr} 训练 {epochs} 轮，对 MSE 做梯度下降应该得到 w = {expected_w:.5g}、"
        "b = {expected_b:.5g}；你的 train() 得到 w = {got_w:.5g}、b = {got_b:.5g}。请使用 "
        "torch.optim.SGD(model.parameters(), lr=lr)（用传进来的 lr）、nn.MSELoss()，并且每轮一步。"
    ),
    "linreg.history_values": (
        "losses[{epoch}] 应该是第 {epoch} 轮计算出的损失（在该轮更新之前）："
        "期望 {expected:.6g}，实际得到 {got:.6g}。"
    ),
    "linreg.not_converged": (
        "用 lr={lr} 训练 {epochs} 轮，train() 最后停在 w = {got_w:.4f}、b = {got_b:.4f}，但这些数据的"
        "最小二乘直线是 w = {best_w:.4f}、b = {best_b:.4f}（损失从 {first:.4g} 降到 {last:.4g}）。"
        "用这样的设置，梯度下降是能到达那里的，所以是循环本身有问题：请检查 zero_grad、backward 和 step 的顺序，以及 lr。"
    ),
    "linreg.not_monotone": (
        "训练过程中损失上升了（第 {epoch} 轮：{before:.6g} → {after:.6g}）。用安全的学习率对 MSE 做全批量梯度下降，"
        "损失永远不会上升：是不是梯度在累加（没有调用 optimizer.zero_grad()）？"
    ),
    # 练习 3：pick_hyperparameters
    "linreg.hyper_type": "pick_hyperparameters() 应该返回一对值 (lr, epochs)，实际得到 {got!r}。",
    "linreg.lr_value": "pick_hyperparameters() 返回的第一个值应该是一个正的学习率，实际得到 {got!r}。",
    "linreg.epochs_value": (
        "pick_hyperparameters() 应该返回 1 到 {max_epochs} 之间的整数轮数，实际得到 {got!r}。"
        "（极小的学习率配上非常多的轮数也能收敛，但太慢了：请找一个最多只需要 {max_epochs} 轮的学习率。）"
    ),
    "linreg.diverged": (
        "用 lr={lr} 时损失没有稳定下来：它从 {first:.4g} 变成了 {last:.4g}。这么大的学习率会横穿山谷冲过头，"
        "所以每一步都让情况更糟（然后是 inf，再然后是 NaN）：请把它调小，安全地低于 2 / λ_max。"
    ),
    "linreg.hyper_not_converged": (
        "用 lr={lr} 训练 {epochs} 轮，SGD 没有收敛：它停在 w = {got_w:.4f}、b = {got_b:.4f}，"
        "而最小二乘直线是 w = {best_w:.4f}、b = {best_b:.4f}。损失从 {first:.4g} 降到 {last:.4g}，"
        "最好能达到 {best_loss:.4g}：它还没有降完。请提高学习率（保持在安全上限以下），或者训练更多轮。"
    ),
    # 练习 4：standardise、to_original_units
    "linreg.std_inplace": (
        "standardise() 修改了你传进去的 x（它的第一个值从 {before:.5g} 变成了 {after:.5g}）："
        "`x -= mean` 和 `x /= std` 会原地修改调用者的张量。请写成 z = (x - mean) / std，它会生成一个新张量。"
    ),
    "linreg.std_z": (
        "z 的均值应该是 0、标准差应该是 1，实际得到均值 {got_mean:.3g}、标准差 {got_std:.3g}。"
        "先减去均值，再除以标准差（x.std()，而不是方差 x.var()）。"
    ),
    "linreg.std_stats": (
        "standardise() 返回了 mean = {got_mean:.5g} 和 std = {got_std:.5g}，但 x 的均值是 "
        "{mean:.5g}、标准差是 {std:.5g}（x.mean()、x.std()）。"
    ),
    "linreg.units": (
        "to_original_units({w_z}, {b_z}, mean, std) 给出 w = {got_w:.5g}、b = {got_b:.5g}；同一条直线"
        "写成原始 x 的形式应该是 w = {expected_w:.5g}、b = {expected_b:.5g}。由 "
        "w_z·(x − mean)/std + b_z 可得：w = w_z / std，b = b_z − w_z·mean / std。"
    ),
    "linreg.std_fit": (
        "在标准化后的 x 上拟合再换算回来，得到的直线是 w = {got_w:.4f}、b = {got_b:.4f}；"
        "在原始数据上做最小二乘得到 w = {best_w:.4f}、b = {best_b:.4f}。请检查 "
        "to_original_units()，以及 standardise() 返回的是否就是它所用的均值和标准差。"
    ),
    # 演示单元格打印的标签（ptcourse.messages.say）和图中的文字
    "linreg.demo_fit": "w = {w:.3f}，b = {b:.3f}，最后的损失 = {loss:.4f}",
    "linreg.fig_recipe_series": "SGD lr=0.01，100 轮",
    "linreg.fig_recipe_title": "照着配方训练",
    "linreg.fig_recipe_notice": "注意损失从约 12.9 降到约 0.13，曲线看起来像在训练，但找到的直线并不是 w = 3、b = 2。",
    "linreg.demo_autograd": "自动求导：",
    "linreg.demo_by_hand": "手算：  ",
    "linreg.demo_second_backward": "第二次 backward() 之后：{grad}（是上面的两倍）",
    "linreg.fig_with_zero_grad": "调用 zero_grad",
    "linreg.fig_without_zero_grad": "不调用 zero_grad",
    "linreg.fig_zero_grad_notice": "注意不调用 zero_grad 时损失来回振荡而不是稳定下来：每一步用的都是之前所有梯度之和。",
    "linreg.demo_least_squares": "最小二乘：w = {w:.4f}，b = {b:.4f}，损失 = {loss:.4f}（噪声² = 0.01）",
    "linreg.demo_the_recipe": "配方训练：w = {w:.4f}，b = {b:.4f}，损失 = {loss:.4f}",
    "linreg.demo_start": "起点 w = {w0:+.2f}，b = {b0:+.2f}  →  w = {w:.2f}，b = {b:.2f}",
    "linreg.demo_largest_safe_lr": "最大的安全学习率：2 / λ_max = {lr:.2f}",
    "linreg.demo_left": "lr = {lr}：100 步之后，沿山谷方向还剩起始距离的 {left:.0%}",
    "linreg.fig_least_squares": "最小二乘",
    "linreg.fig_paths_alt": "损失在 w（横轴）和 b（纵轴）上的等高线图，画出了从 w = 0.83、b = -0.48 出发、lr = 0.01（红色）和 lr = 0.5（绿色）各走 100 步梯度下降的路径，星号是最小二乘解。",
    "linreg.fig_paths_notice": "注意两条路径都先快速落进狭长的山谷，之后 lr = 0.01 沿山谷缓慢爬行，而 lr = 0.5 到达了星号。",
    "linreg.demo_sweep": "lr = {lr:4}：w = {w:10.3f}，b = {b:10.3f}，最后的损失 = {loss:.4g}",
    "linreg.fig_sweep_title": "全批量 SGD 训练 100 轮",
    "linreg.fig_sweep_notice": "注意 lr = 0.01 停滞不前，0.1 和 0.5 收敛，而刚超过安全上限 2 / λ_max ≈ 0.8 的 0.85 无法稳定下来。",
    "linreg.demo_blowup": "lr = 1.0：损失 {first:.3g} → 60 轮后 {later:.3g} → 从第 {nan} 轮起为 NaN",
    "linreg.demo_raw_x": "原始 x",
    "linreg.demo_centred": "中心化",
    "linreg.demo_standardised": "标准化",
    "linreg.demo_conditioning": "{name:6} λ_min = {low:8.4f}  λ_max = {high:8.2f}  安全学习率 < {safe:.4f}  λ_max / λ_min = {ratio:,.0f}",
    "linreg.demo_raw_fit": "原始 x，lr 0.008，500 轮：w = {w:.4f}，b = {b:.4f}；最小二乘：w = {best_w:.4f}，b = {best_b:.4f}",
    "linreg.demo_standardised_fit": "标准化，lr 0.5，20 轮：w = {w:.4f}，b = {b:.4f}；最小二乘：w = {best_w:.4f}，b = {best_b:.4f}",
    "linreg.fig_standardised_series": "标准化后的 x",
    "linreg.fig_standardised_title": "x 在 [10, 12] 中，标准化后",
    "linreg.fig_standardised_notice": "注意输入标准化之后，损失在 20 轮之内就稳定下来，而原始 x 需要几万轮。",
}
