"""day3/04_memory 的提示信息（简体中文）。"""

MESSAGES = {
    # 练习 1：training_memory_bytes
    "memory.bytes_type": "training_memory_bytes() 应该返回一个整数字节数（int），实际得到 {got_type}。",
    "memory.bytes_per_element": (
        "对每一种优化器，training_memory_bytes() 给出的字节数都正好是期望值的一半（'adam'："
        "{got:,}，而不是 {expected:,}）：你按每个数 2 个字节计算，但 float32 占 4 个字节。请使用 "
        "p.numel() * p.element_size()，它会根据数据类型给出字节数。"
    ),
    "memory.training_bytes": (
        "对于一个参数占 P = {p_bytes:,} 字节的 float32 MLP，training_memory_bytes(model, "
        "'{name}') 应该是 {expected:,} 字节（{want_ratio}×P），实际得到 {got:,}（{got_ratio:.2f}×P）。"
        "要算上权重（1×P）和梯度（1×P），再加上优化器的缓冲区：'sgd' 没有，"
        "'sgd_momentum' 有 momentum_buffer，'adam' 有 exp_avg 和 exp_avg_sq。"
    ),
    "memory.training_vs_real": (
        "training_memory_bytes(model, '{name}') 给出 {got:,} 字节，但在一次真实的优化器更新之后，"
        "权重、梯度和 optimizer.state 中的张量共占 {real:,} 字节。"
    ),
    "memory.training_real_model": (
        "对于一个有 {frozen} 个冻结参数和 BatchNorm 缓冲区的模型，training_memory_bytes(model, "
        "'{name}') 给出 {got:,} 字节，但一次优化器更新之后真实的张量共占 {real:,} 字节"
        "（权重和缓冲区 {weights:,}，梯度 {grads:,}，优化器状态 {state:,}）。缓冲区和冻结的参数"
        "（requires_grad=False）只存一份：没有梯度，也没有优化器状态。"
    ),
    "memory.training_dtype": (
        "对于一个 {dtype} 模型（每个数 {size} 字节），training_memory_bytes(model, '{name}') 应该是 "
        "{expected:,} 字节，实际得到 {got:,}。不要假定每个数 4 个字节：请使用 element_size()。"
    ),
    # 内存图（第 2 节）
    "memory.fig_title": "MLP 的训练内存随批大小的变化（Adam，float32）",
    "memory.fig_xlabel": "批大小",
    "memory.fig_ylabel": "内存（MiB）",
    "memory.fig_activations": "激活值（实测）",
    "memory.fig_total": "固定部分 + 激活值",
    "memory.fig_fixed": "固定部分：权重、梯度、Adam 状态",
    "memory.fig_budget": "预算",
    # 练习 2：largest_batch_that_fits
    "memory.fit_type": (
        "largest_batch_that_fits() 应该返回候选批大小之一（一个 Python int）或 "
        "None，实际得到 {got!r}。"
    ),
    "memory.fit_no_fixed": (
        "largest_batch_that_fits() 选择了批大小 {got}，但 {budget:,} 字节里只放得下 {expected}："
        "在 {got} 时单是激活值放得下，但还要加上权重、梯度和优化器状态"
        "（{fixed:,} 字节，即 training_memory_bytes(model, optimizer_name)）。请把它们加进去。"
    ),
    "memory.fit_no_activations": (
        "largest_batch_that_fits() 选择了批大小 {got}，也就是最大的候选值，但 {budget:,} 字节里只放得下 "
        "{expected}：激活值随批大小增长，必须算进去。请对每个候选值用 "
        "saved_activation_bytes(model, torch.randn(b, *sample_shape)) 测量它们，并打开自动求导"
        "（不要在 torch.no_grad() 下，那样什么都不会保存）。"
    ),
    "memory.fit_smallest": (
        "largest_batch_that_fits() 选择了批大小 {got}，这是放得下的最小值；题目问的是 "
        "{budget:,} 字节里放得下的最大值：{expected}。"
    ),
    "memory.fit_strict": (
        "largest_batch_that_fits() 选择了批大小 {got}，但批大小 {expected} 正好需要 {budget:,} 字节，"
        "也就是预算本身：总量等于预算也算放得下（不超过预算，即 <=）。"
    ),
    "memory.fit_order": (
        "largest_batch_that_fits() 选择了批大小 {got}，这是按给定顺序（{candidates}）最后一个放得下的候选值；"
        "候选值可能以任意顺序给出：请返回放得下的最大值 {expected}。"
    ),
    "memory.fit_optimizer": (
        "在 optimizer_name='{name}'、预算为 {budget:,} 字节时，放得下的最大批次是 "
        "{expected}，实际得到 {got!r}：固定部分取决于优化器（2P、3P、4P），所以要把 "
        "optimizer_name 传给 training_memory_bytes()。"
    ),
    "memory.fit_none": (
        "预算为 {budget:,} 字节时，连固定部分（{fixed:,} 字节）都放不下，所以任何批次都放不下："
        "largest_batch_that_fits() 应该返回 None，实际得到 {got!r}。"
    ),
    "memory.fit_none_raised": (
        "没有候选值放得下时，largest_batch_that_fits() 应该返回 None，但它抛出了 {error}。"
        "对空序列调用 max() 会抛出异常：给它传入 default=None。"
    ),
    "memory.fit_batch": (
        "对于 {what}，预算为 {budget:,} 字节时，{candidates} 中放得下的最大批次是 "
        "{expected}，实际得到 {got!r}。内存 = training_memory_bytes(model, optimizer_name) + "
        "saved_activation_bytes(model, torch.randn(b, *sample_shape))；不超过预算就算放得下"
        "（这里用到你在练习 1 中写的 training_memory_bytes：请先让它的测试通过）。"
    ),
    # 练习 3：CheckpointedMLP
    "memory.ckpt_no_graph": (
        "CheckpointedMLP 的输出不需要梯度，所以 backward() 到达不了任何权重。"
        "torch.no_grad() 或 .detach() 会切断计算图；当输入不需要梯度时，"
        "checkpoint(..., use_reentrant=True) 也会切断。请使用 checkpoint(block, x, use_reentrant=False)。"
    ),
    "memory.ckpt_warning": (
        "运行 CheckpointedMLP 时打印了一条警告：\"{warning}\"。请显式传入 use_reentrant=False："
        "checkpoint(block, x, use_reentrant=False)。"
    ),
    "memory.ckpt_missing_grad": (
        "backward() 之后，'{name}' 没有梯度：forward 中有东西在那个块之前切断了计算图"
        "（.detach() 或 torch.no_grad()）。请把每个块的输出直接送进下一个设了梯度检查点的块。"
    ),
    "memory.ckpt_peak_not_lower": (
        "在前向和反向传播期间，使用你的 CheckpointedMLP 时同一时刻最多有 {ck:,} 字节的张量存活，不使用梯度检查点时是 "
        "{plain:,} 字节：决定训练能否放得下的峰值没有降到预算之内（这里是普通峰值的一半，隐藏测试中是三分之二）。"
        "包住整个堆叠的梯度检查点会在反向传播时一次性重算所有块，又把它们的内部全部保留下来；"
        "放进梯度检查点的片段越小，同时存活的东西就越少。"
    ),
    # 练习 4：accumulation_step
    "memory.accum_steps": (
        "对 {k} 个微批次，optimizer.step() 被调用了 {steps} 次。请先累积所有微批次的梯度，"
        "然后恰好调用一次 step()。"
    ),
    "memory.accum_unscaled": (
        "在 optimizer.step() 时，梯度是 {k} 个微批次梯度的简单相加，是整个批次梯度的 {ratio:.1f} 倍："
        "你忘了缩放每个微批次的损失。请在 backward() 之前把它乘以 len(xb) / len(x)"
        "（微批次一样大时，就是除以 {k}）。"
    ),
    "memory.accum_last_only": (
        "在 optimizer.step() 时，梯度只有最后一个微批次的：循环里的 zero_grad() 抹掉了前面的微批次"
        "加进去的梯度。请在循环之前调用一次 optimizer.zero_grad()。"
    ),
    "memory.accum_equal_weights": (
        "微批次的大小为 {sizes} 时，给每个微批次 1/{k} 的权重并不等于整个批次的平均值："
        "小的微批次算得太重了。请把每个微批次的损失乘以 len(xb) / len(x)。"
    ),
    "memory.accum_stale": (
        "optimizer.step() 时的梯度包含了调用之前 .grad 里就有的东西：请在第一个微批次之前调用 "
        "optimizer.zero_grad()。"
    ),
    "memory.accum_grad": (
        "{n} 个样本分成大小为 {sizes} 的微批次（micro_batches={k}）时，"
        "optimizer.step() 时的梯度与整个批次的梯度不同（最大差异 {diff:.3g}）。请让每个样本恰好用一次"
        "（torch.tensor_split(x, micro_batches)），把每个微批次的平均损失乘以 "
        "len(xb) / len(x)，在循环之前 zero_grad() 一次，在循环之后 step() 一次。"
    ),
    "memory.accum_loss_type": "accumulation_step() 应该以 Python float 返回损失（使用 .item()），实际得到 {got_type}。",
    "memory.accum_loss": (
        "accumulation_step(..., micro_batches={k}) 应该返回整个批次的平均损失 {expected:.6f}，"
        "实际得到 {got:.6f}：请把缩放后的各微批次损失（它们的 .item()）加起来。"
    ),
    # 演示单元格打印的标签（ptcourse.messages.say）和图中的文字
    "memory.name_gradient_of": "{name} 的梯度",
    "memory.name_after_accumulation": "accumulation_step 之后的 '{name}'（与一次大批量 Adam 步相比）",
    "memory.demo_bytes_per_element": "{dtype:15} 每个元素 {size} 字节",
    "memory.demo_state_of_one_weight": "一个形状为 {shape} 的权重在一步之后的状态：",
    "memory.demo_weights": "\n权重       {mib:7.3f} MiB（{n:,} 个参数）",
    "memory.demo_gradients": "梯度       {mib:7.3f} MiB",
    "memory.demo_step_counters": "步数计数器 {steps} 字节（每个参数张量一个 0 维 float32 张量）",
    "memory.demo_for_a_model": "{name:13} {mib:6.2f} MiB，模型本身 {weights:.2f} MiB",
    "memory.demo_tiny_saves": "上面的小网络保存了 {n} 字节的激活值",
    "memory.demo_batch_activations": "  批大小 {batch:3}：激活值 {mib:6.2f} MiB",
    "memory.demo_cnn_activations": "  CNN，8 张 {side}×{side} 的图像：激活值 {mib:6.2f} MiB",
    "memory.demo_under_no_grad": "  批大小 256，在 no_grad 下：{n} 字节",
    "memory.demo_under_autocast": "  批大小 256，在 bfloat16 autocast 下：{mib:.2f} MiB",
    "memory.demo_largest_batch": "{name:13} 固定部分 {mib:5.2f} MiB -> 4 MiB 内最大的批大小：{chosen}",
    "memory.demo_parameter": "参数 {name}",
    "memory.demo_activation": "激活值",
    "memory.demo_saved": "保存 {shape:9} {n:5} 字节  存储 #{storage}  {what}",
    "memory.demo_mlp_weights": "MLP 权重：{weights:.2f} MiB（Adam，4P：{adam:.2f} MiB）",
    "memory.demo_cuda_report": "{when:24} 已分配 {allocated:8.1f} MiB   已预留 {reserved:8.1f} MiB",
    "memory.demo_when_start": "开始",
    "memory.demo_when_big_tensor": "创建一个 64 MiB 的张量之后",
    "memory.demo_when_del": "del 之后",
    "memory.demo_when_empty_cache": "empty_cache() 之后",
    "memory.demo_when_model": "模型放到 GPU 上",
    "memory.demo_when_forward": "前向传播之后（保留激活值）",
    "memory.demo_when_backward": "反向传播之后（有梯度，没有激活值）",
    "memory.demo_when_step": "step 之后（Adam 状态）",
    "memory.demo_4p_rule": "4P 规则：{rule:.1f} MiB；峰值分配 {peak:.1f} MiB",
    "memory.demo_no_cuda": "这里没有 CUDA GPU（设备：{device}）：CUDA 的显存工具没有什么可报告的。\n在 CPU 上，请像本笔记本这样统计张量；进程占用的内存可以在 top、htop 或任务管理器中查看。",
}
