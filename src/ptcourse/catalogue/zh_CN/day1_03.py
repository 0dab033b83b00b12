"""day1/03_modules 的提示信息（简体中文）。"""

MESSAGES = {
    "modules.mlp_bias": "MLP 中的每个 nn.Linear 都应保留偏置（默认的 bias=True）：你的没有。",
    "modules.no_super_init": (
        "搭建模型失败，PyTorch 报错：\"{error}\"。这说明 __init__ 在调用 super().__init__() 之前就给层赋了值："
        "请把 super().__init__() 作为 __init__ 的第一行，它会创建 nn.Module 用来登记各层的字典。"
    ),
    "modules.mlp_no_params": (
        "MLP{sizes} 一个已注册的参数都没有。请把每个层直接存为属性（self.hidden = nn.Linear(...)）；"
        "放在普通 Python 列表或字典里的层，nn.Module 是看不见的。"
    ),
    "modules.mlp_param_count": (
        "MLP{sizes} 应该有 {expected} 个参数（in*hidden + hidden 个权重和偏置，再加上 hidden*out + out 个），"
        "实际得到 {got} 个。请检查第一层是不是 nn.Linear(in_features, hidden)、第二层是不是 "
        "nn.Linear(hidden, out_features)，并且用的是传给你的大小。"
    ),
    "modules.mlp_nonnegative": (
        "MLP(7, 13, 2) 的 128 个输出里没有一个是负数：最后一层之后有一个 ReLU。"
        "只在两个线性层之间应用 ReLU，这样输出才能取任意值。"
    ),
    "modules.mlp_layers": (
        "MLP({in_features}, {hidden}, {out_features}) 应该包含 nn.Linear({in_features}, {hidden}) 和 "
        "nn.Linear({hidden}, {out_features})，定义顺序不限（权重形状为 ({hidden}, {in_features}) 和 "
        "({out_features}, {hidden})）；实际上它的线性层的权重形状是 {got}。"
    ),
    "modules.deep_plain_container": (
        "DeepMLP({sizes}) 注册了 {got} 个参数张量，期望 {expected} 个（每层一个权重、一个偏置）。"
        "它在 self.{where} 里的层放在一个普通的 Python {kind} 里，nn.Module 不会去看它的内部："
        "普通 Python 列表（或字典）里的层不会被注册，所以 .parameters() 找不到它们，.to(device) 不会移动它们，"
        "优化器也永远不会训练它们。请把它们包起来：self.{where} = nn.ModuleList(...)。"
    ),
    "modules.deep_tensor_count": (
        "DeepMLP({sizes}) 注册了 {got} 个参数张量，期望 {expected} 个（len(sizes) - 1 个层，每层一个权重、一个偏置）。"
        "请把各层存放在一个 nn.ModuleList 里。"
    ),
    "modules.deep_nonnegative": (
        "DeepMLP({sizes}) 的输出里没有一个是负数：最后一层之后应用了 ReLU。"
        "除了最后一层，每一层之后都应用 ReLU。"
    ),
    "modules.deep_layer_shapes": (
        "DeepMLP({sizes}) 的线性层权重形状应该依次是 {expected}（每对相邻的大小一个层，按顺序），"
        "实际得到 {got}。"
    ),
    "modules.std_buffer_is_param": (
        "self.{name} 是一个 nn.Parameter，所以优化器会在训练中改变它。从数据测得的统计量是固定的："
        "请用 self.register_buffer('{name}', {name}) 存放它。"
    ),
    "modules.std_plain_buffer": (
        "self.{name} 是一个普通的张量属性，而不是已注册的缓冲区：它不在 state_dict() 里，也不会随 .to(device) 移动。"
        "请用 self.register_buffer('{name}', {name}) 存放它。"
    ),
    "modules.std_plain_param": (
        "self.{name} 是一个普通张量，而不是参数：即使带有 requires_grad=True，它也不在 .parameters() 里，"
        "所以优化器永远不会训练它。请把它包起来：self.{name} = nn.Parameter(...)。"
    ),
    "modules.std_missing": "Standardize 没有名为 '{name}' 的 {kind}。",
    "modules.std_state_keys": (
        "Standardize 的 state_dict() 应该恰好包含 ['bias', 'gain', 'mean', 'std']，实际得到 {got}。"
        "用 persistent=False 注册的缓冲区不会被保存：请使用默认的 persistent=True。"
    ),
    "modules.std_trained": (
        "Standardize 的可训练参数应该只有 gain 和 bias，实际得到 {got}。"
    ),
    "modules.count_type": (
        "count_parameters() 应该返回 Python int，实际得到 {got_type}。p.numel() 本身就是 int，"
        "对 int 求 sum() 得到的也是 int。"
    ),
    "modules.count_tensors": (
        "count_parameters({what}) 给出了 {got}，这是参数张量的个数。请改为统计它们的元素：对每个张量 p 取 p.numel()。"
    ),
    "modules.count": "count_parameters({what}) 应该是 {expected}，实际得到 {got}。",
    "modules.count_buffers": (
        "count_parameters() 对 {what} 应该是 {expected}，实际得到 {got}：你把缓冲区（BatchNorm 的 running_mean、"
        "running_var、num_batches_tracked）也算进去了。请遍历 model.parameters()，而不是 model.state_dict()。"
    ),
    "modules.count_frozen": (
        "在 trainable_only=True 时，count_parameters() 对 {what} 应该是 {expected}，实际得到 {got}："
        "冻结的参数也被算进去了。请跳过 p.requires_grad == False 的参数。"
    ),
    "modules.count_inverted": (
        "在 trainable_only=False 时，count_parameters() 对 {what} 应该是 {expected}，实际得到 {got}："
        "只统计了冻结的参数。trainable_only=False 时，要统计每一个参数。"
    ),
    "modules.clone_no_file": (
        "path 里什么都没写：clone_via_state_dict() 必须用 torch.save(model.state_dict(), path) 把 "
        "model.state_dict() 保存到那里。在内存里做的副本（copy.deepcopy、copy.copy、复制张量）跳过了文件，"
        "而文件才是你要保存和分享的东西。"
    ),
    "modules.clone_file_not_state_dict": (
        "path 处的文件应该保存 model.state_dict()（一个从名字到张量的字典，键与模型的一致）；"
        "torch.load(path, weights_only=True) 得到的是一个 {got}，键为 {keys}。请保存 model.state_dict()，"
        "而不是某一层的状态或一个张量列表。"
    ),
    "modules.clone_file_differs": (
        "path 处的文件里保存的 state_dict，其 '{key}' 与模型的不同：请保存传给你的那个模型在改变之后的状态"
        "（而不是一个新的 make_model()）。"
    ),
    "modules.clone_not_fresh": (
        "你返回的模型不是由 make_model() 搭建的：克隆必须是一个加载了 state_dict 的新 make_model()。"
        "copy.deepcopy(model) 在内存里做了一个副本，完全跳过了加载。"
    ),
    "modules.clone_not_loaded": (
        "torch.load 从来没有读取 path 处的文件：你加载进新模型的状态来自内存（model.state_dict()），"
        "而不是你保存的文件。请用 torch.load(path, weights_only=True) 把它读回来，再加载它。"
    ),
    "modules.clone_weights_only": (
        "你用 weights_only=False 加载了文件，这会让文件在加载时执行它指定的任何代码。"
        "state_dict 里只有张量：请用 weights_only=True 加载它。"
    ),
    "modules.clone_whole_model": (
        "torch.load(weights_only=True) 拒绝了这份数据：你保存的是整个模型对象。"
        "weights_only=True 只加载张量和普通容器：请保存 model.state_dict()。"
    ),
    "modules.clone_same_object": (
        "clone_via_state_dict() 返回的是传给它的那个模型，而不是一个新模型：请用 make_model() 搭一个新模型，"
        "再把状态加载进去。"
    ),
    "modules.clone_state_differs": (
        "克隆的 state_dict()['{key}'] 与原模型的不同。你是否在要返回的模型上调用了 fresh.load_state_dict(state)？"
        "（state_dict 里也包含缓冲区，例如 BatchNorm 的滑动统计量。）"
    ),
    "modules.clone_shared": (
        "克隆与原模型共享张量（{keys}）：改变其中一个，另一个也会变。请通过 torch.save/torch.load 把状态复制进"
        "由 make_model() 搭建的模型，而不是复制引用（copy.copy、load_state_dict(..., assign=True)）。"
    ),
    "modules.predict_random": (
        "对同一个输入调用两次 predict()，得到了不同的输出：Dropout（随机失活）仍然在起作用。"
        "请在前向传播之前用 model.eval()（别忘了括号）把模型切换到评估模式。"
    ),
    "modules.predict_grad": (
        "predict() 的输出带有 requires_grad=True：自动求导白白记录了一个计算图。"
        "请在 `with torch.no_grad():` 里运行前向传播。"
    ),
    "modules.predict_graph_built": (
        "predict() 在自动求导开启的情况下运行了模型（{calls} 次前向调用）：计算图被记录下来又被丢掉，白白耗费内存和时间"
        "（.detach() 只是在事后才丢掉它）。请把前向传播放在 `with torch.no_grad():` 里面。"
    ),
    "modules.predict_left_eval": (
        "调用 predict() 之前模型处于训练模式，而 predict() 把它留在了评估模式。"
        "请在开头记下 model.training，最后用 model.train(was_training) 恢复它。"
    ),
    "modules.predict_bn_stats": (
        "predict() 改变了 BatchNorm 的 running_mean：前向传播是在训练模式下运行的。请在它之前调用 model.eval()。"
    ),
    "modules.predict_left_train": (
        "调用 predict() 之前模型处于评估模式，而 predict() 把它切换到了训练模式。请恢复它原来的模式"
        "（model.train(was_training)），而不是总是调用 model.train()。"
    ),
    # 演示单元格打印的标签（ptcourse.messages.say）和图中的文字
    "modules.demo_hook_saw": "钩子看到了 2 次调用中的 {seen} 次",
    "modules.demo_grad_of": "{name} 的梯度：",
    "modules.demo_parameters_found": "找到的参数个数：",
    "modules.demo_forward_works": "forward 仍然能运行：",
    "modules.demo_still": "调用 .to(float64) 之后，这些层仍然是",
    "modules.demo_lives_on": "第 0 层所在的设备：",
    "modules.demo_parameters": "参数：",
    "modules.demo_buffers": "缓冲区：",
    "modules.demo_bytes_on_disk": "磁盘上的字节数：",
    "modules.demo_read_back": "读回的键：",
    "modules.demo_refuses": "weights_only=True 拒绝加载它：",
    "modules.demo_train_mode": "训练模式：",
    "modules.demo_eval_mode": "评估模式：",
    "modules.demo_bn_train": "BatchNorm，训练模式，批大小为 1：",
    "modules.demo_bn_eval": "BatchNorm，评估模式，批大小为 1：",
    "modules.word_buffer": "缓冲区",
    "modules.label_partly_frozen": "第一个 nn.Linear(20, 30) 被冻结、带有 nn.BatchNorm1d(30) 的模型",
    "modules.demo_sgd_step": "SGD 的一步 == p - lr * p.grad：",
}
