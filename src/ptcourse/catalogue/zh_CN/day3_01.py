"""day3/01_devices 的提示信息（简体中文）。"""

MESSAGES = {
    # 练习 1：move_to
    "devices.move_not_moved": (
        "move_to() 之后，`{where}` 应该在 '{expected}' 上，实际却在 '{got}'。是不是漏掉了它？"
        "对字典的每个值、列表或元组的每一项都要调用 move_to，并且要使用 tensor.to(device) 的返回值："
        "它返回的是移动后的副本，不会就地移动原来的张量。"
    ),
    "devices.move_lost_tensor": (
        "`{where}` 原本是一个张量，但 move_to() 之后变成了 {got_type}：张量应该仍以张量的形式"
        "（tensor.to(device)）出现在原来的位置上。"
    ),
    "devices.move_shape": "move_to() 改变了 `{where}` 的形状：期望 {expected}，实际得到 {got}。",
    "devices.move_type": (
        "`{where}` 原本是 {expected}，但 move_to() 返回了 {got}：要保持容器的类型不变"
        "（元组还是元组，列表还是列表，字典还是字典）；后面的代码可能依赖它。"
    ),
    "devices.move_keys": (
        "`{where}`：move_to() 应该按原顺序保留字典的每一个键；期望 {expected}，实际得到 {got}。"
    ),
    "devices.move_length": (
        "`{where}` 原本有 {expected} 个元素，move_to() 之后却有 {got} 个：是不是把不是张量的值丢掉了？"
        "应该把它们原样返回。"
    ),
    "devices.move_other_changed": (
        "`{where}` 不是张量（{expected!r}），应该原样返回，实际得到 {got!r}。"
    ),
    "devices.move_same_object": (
        "move_to() 返回的正是传给它的那个列表，并且被就地修改了：请新建一个容器"
        "（[move_to(item, device) for item in batch]）；调用者可能还需要批次留在 CPU 上。"
    ),
    "devices.move_in_place": (
        "传给函数的批次被修改了：`{where}` 现在在 '{got}' 上。请新建容器，而不是往旧容器里赋值；"
        "原来的批次必须留在原处。"
    ),
    # 练习 2：Standardize
    "devices.std_is_parameter": (
        "`{name}` 是一个 nn.Parameter，这样优化器就会训练它。属于模型但不参与训练的统计量"
        "应该是缓冲区：self.register_buffer('{name}', tensor)。"
    ),
    "devices.std_not_buffer": (
        "`{name}` 不是模块的缓冲区（是不是写成了普通属性 self.{name} = tensor？）。"
        "这样 model.to(device) 会把它落下，state_dict() 也会忘掉它：请使用 "
        "self.register_buffer('{name}', tensor)。"
    ),
    "devices.std_not_saved": (
        "state_dict() 里缺少 `{name}`：用 register_buffer('{name}', tensor) 注册它，"
        "并保留默认的 persistent=True，这样保存模型时才会保存它。"
    ),
    "devices.std_not_moved": (
        ".to('meta') 之后，缓冲区 `{name}` 在 '{got}' 上：请用 register_buffer 存储它，"
        "这样 module.to() 才会移动它。"
    ),
    "devices.std_state_dict": (
        "Standardize 的 state_dict() 应该恰好包含 ['mean', 'std']，实际得到 {got}。"
    ),
    # 练习 3：place
    "devices.place_raised": (
        "place() 抛出了异常：{error}。用 model.to(device) 移动模型，它对任何设备都有效"
        "（没有 GPU 时 .cuda() 会失败）；用 move_to(batch, device) 移动批次，"
        "它能处理嵌套在元组、列表和字典里的张量。"
    ),
    "devices.place_pair": "place() 应该返回二元组 (model, batch)，实际得到 {got_type}。",
    "devices.place_model_type": "place() 返回的第一项应该是模型（一个 nn.Module），实际得到 {got_type}。",
    "devices.place_param": (
        "place() 之后，参数 `{name}` 在 '{got}' 上：是不是忘了移动模型？"
        "model.to(device) 会移动每一个参数和缓冲区。"
    ),
    "devices.place_buffer": (
        "place() 之后，缓冲区 `{name}` 在 '{got}' 上：逐个移动参数会把缓冲区"
        "（例如 BatchNorm 的滑动统计量……）落下；model.to(device) 会同时移动两者。"
    ),
    "devices.place_batch": (
        "place() 返回的批次不在目标设备上（实际在 {got}）：用 move_to(batch, device) 移动它，"
        "并返回移动后的副本。"
    ),
    # 练习 4：devices_used
    "devices.used_type": "devices_used() 应该返回一个集合（set），实际得到 {got_type}。",
    "devices.used_elements": (
        "devices_used() 应该返回由 torch.device 对象（p.device）组成的集合，实际得到 {got}。"
    ),
    "devices.used_value": (
        "devices_used() 应该得到 {expected}，实际得到 {got}。要查看每一个参数，而不只是第一个"
        "（next(model.parameters())），还要查看批次里的每一个张量。"
    ),
    "devices.used_buffers": (
        "一个参数在 meta 上、缓冲区留在 CPU 上的 BatchNorm1d 应该得到 "
        "{{meta, cpu}}，实际得到 {got}：也要把 model.buffers() 算进去。"
    ),
    "devices.used_nested": (
        "一个批次在多层字典、列表和元组深处有一个 CPU 上的张量，应该得到 "
        "{{meta, cpu}}，实际得到 {got}：要像 move_to 那样递归遍历批次。"
    ),
    # 练习 5：loader_for
    "devices.loader_string": (
        "loader_for() 抛出了 {error}：`device` 可能是像 'cuda:0' 这样的字符串；"
        "torch.device(device).type 对字符串和设备对象都有效。"
    ),
    "devices.loader_type": "loader_for() 应该返回一个 DataLoader，实际得到 {got_type}。",
    "devices.loader_pin": (
        "对于设备 {device!r}，pin_memory 应该是 {expected}，实际得到 {got}。只在 CUDA 设备上"
        "使用锁页内存，并根据传给你的设备来判断：torch.device(device).type == 'cuda'"
        "（torch.device 永远不等于字符串，而且 'cuda:0' 也不是 'cuda'）。"
    ),
    "devices.loader_warned": (
        "遍历 loader_for(dataset, {device}) 时打印了一条警告：{warning}。"
        "不是 CUDA 的设备不要使用锁页内存。"
    ),
    "devices.loader_batches": (
        "loader_for(10 个样本, batch_size=4) 应该给出大小为 4、4、2 的批次，覆盖每一个样本，"
        "实际得到的批大小是 {got}。"
    ),
    "devices.loader_batch_size": "loader_for() 应该使用 batch_size={expected}，实际得到 {got}。",
    "devices.loader_shuffle": "loader_for() 应该打乱顺序：DataLoader(..., shuffle=True)。",
}
