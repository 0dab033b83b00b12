"""day1/02_autograd 的提示信息（简体中文）。"""

MESSAGES = {
    "autograd.no_requires_grad": (
        "{function}() 在 backward() 里停下了：\"element 0 of tensors does not require grad\"。"
        "y 里没有任何东西被自动求导记录下来：你是不是忘了对输入的副本调用 .requires_grad_(True)？"
    ),
    "autograd.backward_not_scalar": (
        "backward() 需要从一个数出发，但 y 里每个点都有一个值"
        "（\"grad can be implicitly created only for scalar outputs\"）。请调用 y.sum().backward()。"
    ),
    "autograd.returned_y": (
        "classic_grad() 返回了 {got}，这是 y = x**2 + 3x + 1 本身（{y}），而不是它的梯度："
        "请返回那个需要梯度的张量的 .grad。"
    ),
    "autograd.classic_no_backward": (
        "classic_grad() 给出的数是对的，但从来没有运行过 backward()：请让自动求导来计算梯度，"
        "而不是直接写出公式 2x + 3。"
    ),
    "autograd.grad_doubled": (
        "对同一个输入第二次调用 {function}() 时得到 {got}，而不是 {expected}：梯度在 .grad 里累加了。"
        "请在副本上操作（values.clone().requires_grad_(True)），这样每次调用都从一个没有旧梯度的新叶子张量开始。"
    ),
    "autograd.changed_input": (
        "classic_grad() 给调用者的张量打开了 requires_grad。请在副本上操作："
        "values.clone().requires_grad_(True)。"
    ),
    "autograd.batch_count": "batch_grads() 应该为每个批次返回一个梯度（{expected} 个），实际得到 {got} 个。",
    "autograd.batch_same_tensor": (
        "列表里有些梯度是同一个张量：w.grad 被反复使用（并被原地清零），所以你存下的每一项都跟着它变了。"
        "请追加 w.grad.clone()。"
    ),
    "autograd.batch_zero": (
        "batch_grads() 返回的每个梯度都是零：.grad 在 backward() 之后、你读取它之前被清空了。"
        "请在 backward() 之前清空它。"
    ),
    "autograd.batch_accumulated": (
        "第 {batch} 个批次的梯度是 {got}，等于第 1 到第 {batch} 个批次梯度的总和；这个批次本身的梯度是 {expected}。"
        "梯度在 w.grad 里累加了。"
        "请在每次 backward() 之前清空 w.grad（w.grad.zero_() 或 w.grad = None），"
        "就像训练循环里 optimizer.zero_grad() 做的那样。"
    ),
    "autograd.batch_stale": (
        "第一个批次的梯度包含了调用之前 w.grad 里已有的旧梯度：请在每次 backward() 之前清空 w.grad，"
        "而不只是在它之后。"
    ),
    "autograd.mse_shape_error": (
        "mse_grad() 抛出了形状错误：{error}。残差 X @ w - y 的形状是 (N,)；要让每个权重得到一个数"
        "（形状 (D,)），请用形状为 (D, N) 的 X.T 去乘它。"
    ),
    "autograd.mse_missing_2": (
        "mse_grad() 恰好是真实梯度的一半：r**2 的导数是 2r，所以公式里有一个因子 2。"
    ),
    "autograd.mse_missing_n": (
        "mse_grad() 大了 {n} 倍（N = {n}）：损失是平均值，所以要除以 N，也就是 X 的行数。"
    ),
    "autograd.mse_sign": (
        "mse_grad() 的大小对了，但符号反了：残差是预测值减去目标值，即 X @ w - y。"
    ),
    "autograd.mse_used_autograd": (
        "mse_grad() 在 torch.no_grad() 里失败了，在那里自动求导什么都不记录：请根据公式 "
        "2 / N * X.T @ (X @ w - y) 计算梯度，不要用 backward()。"
    ),
    "autograd.softplus_overflow": (
        "在 {dtype} 下 softplus({x}) 得到 {got}：exp(x) 上溢了。请用稳定的形式 "
        "max(x, 0) + log1p(exp(-|x|))，这样 exp 永远不会碰到正数。"
    ),
    "autograd.softplus_value": (
        "在 {dtype} 下 softplus({x}) 应该是 {expected:.6g}，实际得到 {got:.6g}。x 很负时，"
        "log(1 + 极小的数) 会被舍入成 0：请用 torch.log1p(t)，它能保住那个极小的值。"
    ),
    "autograd.softplus_no_graph": (
        "x 需要梯度，softplus(x) 却不需要：计算离开了自动求导（NumPy、.detach()、.item() 或 "
        "torch.tensor(...) 切断了计算图）。请只用 torch 运算。"
    ),
    "autograd.softplus_nan_grad": (
        "softplus 在 x = {x} 处的梯度是 {got}，尽管值看起来可能没问题。某个公式计算了一个大数的 exp（inf），"
        "反向传播又把它乘以 0，得到了 nan；torch.where 会计算两个分支，也会通过两个分支进行反向传播。"
        "请用一个永远不会上溢的公式：max(x, 0) + log1p(exp(-|x|))。"
    ),
    "autograd.softplus_kink": (
        "softplus 在 x = 0 处（{dtype}）的梯度是 {got}，期望 0.5（= sigmoid(0)）。"
        "max(x, 0) 和 |x| 在 0 处有拐角，自动求导在那里为每个运算挑选一个斜率："
        "clamp、relu 和 torch.where(x > 0, ...) 给出 0（用 x >= 0 则给出 1），abs 给出 0，"
        "所以各部分加起来的斜率是错的。请用 x 和 x.abs() 写出 max(x, 0)，让它在 0 处的斜率正好是 1/2。"
    ),
    "autograd.softplus_gradcheck": (
        "softplus() 在尺度为 {scale} 的 float64 输入上没有通过 torch.autograd.gradcheck：{error}"
    ),
    "autograd.sg_not_tensor": (
        "stop_gradient_loss() 返回的是 {got_type}，不是张量：.item() 把损失变成了一个没有计算图的普通数字，"
        "于是无法调用 backward()。请返回张量。"
    ),
    "autograd.sg_not_scalar": (
        "stop_gradient_loss() 应该返回一个数（形状 ()），实际得到形状 {shape}：请对差的平方取 .mean()。"
    ),
    "autograd.sg_no_grad": (
        "损失不需要梯度，所以没有任何梯度能到达 w：你把整个计算都从计算图中剪掉了。只剪掉目标值即可。"
    ),
    "autograd.sg_no_detach": (
        "w.grad 里也包含了经过目标值传回的梯度：目标值没有从计算图中剪掉。"
        "请用 torch.tanh(x_b @ w).detach()（或者在 torch.no_grad() 里计算它）。"
    ),
    "autograd.sg_wrong_branch": (
        "w.grad 只是经过目标值传回的梯度：你剪掉的是预测值，而不是目标值。"
    ),
    "autograd.grow_inplace": (
        "grow_until() 原地修改了 x（在 y 仍然是 x——一个需要梯度的叶子张量——时执行了 y *= 2），"
        "这是自动求导不允许的。请写成 y = 2 * y：每一步都得到一个新张量。"
    ),
    "autograd.grow_no_graph": (
        "grow_until() 的结果不需要梯度：它离开了 x 的计算图（torch.tensor(...)、.item()、.tolist() "
        "或 .detach() 会产生没有历史记录的新张量）。请继续对 y 使用张量运算。"
    ),
    "autograd.grow_count": (
        "对于 x = {x}（范数 {norm:.3g}）和 limit {limit}，x 应该翻倍 {k} 次"
        "（梯度处处为 {expected}），实际得到梯度 {got}。翻倍次数取决于 x：在 while 循环里，"
        "只要 y.norm() <= limit 就继续翻倍（范数等于 limit 时仍要翻倍）。"
    ),
    # 演示单元格打印的标签（ptcourse.messages.say）和图中的文字
    "autograd.demo_is_leaf": "{name} 是叶子张量：",
    "autograd.demo_points_back": "y 的 grad_fn 指回：",
    "autograd.fig_graph_title": "自动求导为 z = (a * b + exp(a)).sum() 记录下的计算图",
    "autograd.fig_graph_notice": "注意 a 进入了两个运算（乘法和 exp），所以 backward() 沿两条路径到达叶子张量 a，并把两份贡献相加。",
    "autograd.demo_after_backward": "第 {step} 次 backward 之后：w.grad = {grad}",
    "autograd.demo_after_zero": "zero_() 之后再做一次 backward：",
    "autograd.demo_estimate": "{dtype:14} 估计值 {estimate:.10f}   误差 {error:.1e}",
    "autograd.demo_passes_gradcheck": "{name} 是否通过 gradcheck：",
    "autograd.demo_gradient_at_zero": "在 0 和 0.001 处的梯度：",
    "autograd.demo_true_slope": "sigmoid（真实的斜率）：",
    "autograd.demo_under_no_grad": "在 no_grad 下计算，requires_grad =",
    "autograd.demo_step_by_hand": "手动做一步梯度下降之后：",
    "autograd.demo_only_through_b": "a.grad = {grad}（只经过 b；不用 detach 的话会是两倍大）",
    "autograd.demo_through_round": "经过 round 的梯度：",
    "autograd.demo_via_numpy": "经 NumPy 转一圈回来，requires_grad：",
    "autograd.demo_out_of_place": "改用非原地运算，就能运行：",
    "autograd.demo_branch": "x = {start}：计算图 {graph}，x.grad = {grad}",
    "autograd.name_stale_batch_grad": "batch_grads(w, batches)[{i}]（传入的 w 带着旧梯度）",
    "autograd.name_softplus_grad": "{dtype} 下 softplus(x) 的梯度",
}
