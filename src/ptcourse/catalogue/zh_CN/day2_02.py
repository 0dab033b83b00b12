"""day2/02_data_loading 的提示信息（简体中文）。"""

MESSAGES = {
    # 练习 1：TensorPairDataset
    "data.dataset_len": (
        "len(dataset) 应该是 {expected}（每个样本计一个，类型为 int），实际得到 {got!r}："
        "__len__ 应该返回 len(self.x)。"
    ),
    "data.dataset_item_type": (
        "dataset[i] 应该返回一个元组 (features, label)，实际得到一个长度为 {got_len} 的 {got_type}："
        "请写 `return features, label`。"
    ),
    "data.dataset_label": "dataset[{index}] 的标签应该是 {expected}，实际得到 {got!r}。",
    "data.transform_lazy": (
        "读取一个样本 {reads} 次，应该调用变换 {reads} 次，但它只运行了 {calls} 次："
        "请在 __getitem__ 里、每次读取样本时应用变换，这样随机的数据增强每一轮才会给出新的变体。"
    ),
    "data.transform_ignored": (
        "虽然给了变换，dataset[i] 返回的特征却没有变化：变换不是 None 时，请在 __getitem__ 里调用 "
        "self.transform(features)。"
    ),
    "data.transform_on_label": (
        "标签不应该改变：期望 {expected}，实际得到 {got!r}。变换只作用于特征，绝不作用于标签。"
    ),
    # 练习 2：MNIST 的变换
    "data.mnist_shape": (
        "MNIST 图片应该以通道在前的格式输出，只有一个灰度通道，形状 (1, 28, 28)，实际得到 {got}："
        "v2.ToImage() 会加上通道维度。"
    ),
    "data.mnist_dtype": (
        "图片应该是 float32，实际得到 {got}：请在 v2.ToImage() 之后加上 v2.ToDtype(torch.float32, scale=True)。"
    ),
    "data.mnist_unscaled": (
        "像素值最大达到 {got_max:.1f}：在归一化之前，0-255 的范围没有缩放到 [0, 1]。"
        "请使用 v2.ToDtype(torch.float32, scale=True)——scale=True 会除以 255。"
    ),
    "data.mnist_not_normalised": (
        "像素值在 {got_min:.3f} 和 {got_max:.3f} 之间，从不低于 0：图片没有被归一化。"
        "请在最后加上 v2.Normalize(mean=(0.1307,), std=(0.3081,))。"
    ),
    "data.mnist_values": (
        "数值与 (x / 255 - 0.1307) / 0.3081 不同：黑色像素应该是 {want_black:.4f}"
        "（实际得到 {got_black:.4f}），白色像素应该是 {want_white:.4f}（实际得到 {got_white:.4f}）。"
        "请检查 v2.Normalize(mean=(0.1307,), std=(0.3081,))：先是均值，然后是标准差。"
    ),
    # 练习 3：make_loader
    "data.loader_drop_last": (
        "{n} 个样本按每批 {batch_size} 个分组，应该只得到满的批次（丢掉最后一个不完整的批次），"
        "实际得到 {got} 个批次，大小为 {sizes}：请传入 drop_last=True。"
    ),
    "data.loader_not_shuffled": (
        "样本按原来的顺序 {got} 到来：训练用的数据加载器应该打乱顺序（shuffle=True）。"
    ),
    "data.loader_same_seed": (
        "用 seed={seed} 创建的两个数据加载器给出了不同的顺序（{a} 和 {b}）：顺序来自全局随机数生成器。"
        "请把 generator=torch.Generator().manual_seed(seed) 传给 DataLoader。"
    ),
    "data.loader_seed_ignored": (
        "不同的种子给出了相同的顺序（{a} 和 {b}）：种子没有被用上。"
        "请用它给数据加载器的生成器设定种子：torch.Generator().manual_seed(seed)。"
    ),
    "data.loader_global_rng": (
        "make_loader() 改变了全局随机状态（用了 torch.manual_seed？）：这也会改变别处的模型初始化和Dropout（随机失活）。"
        "请改为给数据加载器一个它自己的、设定了种子的 torch.Generator。"
    ),
    "data.loader_each_once": (
        "在一轮里，{n} 个样本中的每一个都应该恰好出现一次，实际得到的 id 是 {got}："
        "请用 shuffle=True 打乱顺序（一个排列），而不是有放回地抽样。"
    ),
    "data.loader_same_every_epoch": (
        "两轮给出了相同的顺序 {order}：每一轮都应该得到一个新的排列。请只在 make_loader 里创建一次生成器，"
        "让 DataLoader 使用它（不要每一轮都重新设定种子）。"
    ),
    # 练习 4：pad_collate
    "data.collate_returns": "pad_collate() 应该返回一个元组 (padded, lengths, labels)，实际得到 {got_type}。",
    "data.collate_transposed": (
        "padded 的形状应该是 (批次, 最长长度) = {expected}，实际得到 {got}，它被转置了："
        "请把批次维度放在前面（用 pad_sequence 时传入 batch_first=True）。"
    ),
    "data.collate_shape": (
        "padded 的形状应该是 (批次, 这个批次里最长序列的长度) = {expected}，实际得到 {got}："
        "请把每个批次填充到它自己最长序列的长度，而不是一个固定长度。"
    ),
    "data.collate_longest_later": (
        "在一个最长序列排在第二位的批次上（先是 [1.]，然后是 [2., 3., 4.]），padded 的形状应该是 (2, 3)，"
        "实际得到 {got}：请填充到这个批次中最长序列的长度 max(lengths)，而不是第一个序列的长度。"
    ),
    "data.collate_pad_value": (
        "填充位置应该是 0；第 {row} 行却不是：请从 torch.zeros(...) 开始（或者使用 padding_value=0）。"
    ),
    "data.collate_lengths": (
        "lengths 应该是填充之前的真实长度 {expected}，实际得到 {got}：请在填充之前测量每个序列，而不是测量填充后的行。"
    ),
    "data.collate_labels": "labels 应该是 {expected}（按样本到来的顺序），实际得到 {got}。",
    "data.collate_row": (
        "第 {batch} 个批次的第 {row} 行应该是它的序列，后面补零：请按样本到来的顺序，把每个序列复制到它那一行的开头。"
    ),
    # 演示单元格打印的标签（ptcourse.messages.say）和图中的文字
    "data.demo_label": "标签：",
    "data.demo_mean_std": "均值 {mean:.4f}  标准差 {std:.4f}",
    "data.demo_transform_every_read": "每次读取都做变换：每轮 {seconds:.3f} 秒",
    "data.demo_convert_once": "只转换一次：      {convert:.3f} 秒，之后每轮 {cached:.3f} 秒",
    "data.demo_same_tensors": "张量相同：{same} | 缓存大小：{mib:.1f} MiB",
    "data.demo_one_batch": "一个批次：",
    "data.demo_batches_per_epoch": "每轮的批次数：{batches} | 最后一个批次的大小：{last}",
    "data.demo_seed0": "种子 0：            ",
    "data.demo_seed0_layer": "种子 0，先创建一个层：",
    "data.demo_own_generator": "独立的生成器，种子 0：",
    "data.demo_padded": "{batch} 长度 {lengths} 标签 {labels}",
    "data.demo_cores": "这里可用的 CPU 核数：{cores} | 启动方式：{method}",
    "data.demo_epoch_time": "第 {epoch} 轮 {seconds:.3f} 秒",
    "data.demo_pinned": "pin_memory：{pin} | 批次在 {device} 上，形状 {shape}",
}
