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
    # 练习 2：place
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
    # 练习 3：devices_used
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
    # 演示单元格打印的标签（ptcourse.messages.say）和图中的文字
    "devices.label_batch_inputs": "这个批次的输入",
    "devices.demo_after": "执行 {what} 之后：",
    "devices.demo_layer_to_meta": "执行 layer.to('meta') 之后：weight 在 {device} 上 | 返回的是同一个模块：{same}",
    "devices.demo_plain_attribute": "执行 .to('meta') 之后的普通属性：",
    "devices.demo_in_state_dict": "state_dict 中有：",
    "devices.demo_bn_buffers": "执行 .to('meta') 之后 BatchNorm1d 的缓冲区：",
    "devices.demo_output": "输出：",
    "devices.demo_buffers": "缓冲区：",
    "devices.demo_parameters": "参数：",
    "devices.demo_mean_on": "执行 .to('meta') 之后 mean 所在的设备：",
    "devices.demo_no_gpu": "这里没有 GPU。在装有 PyTorch {version} 的 CUDA 机器上，nn.Linear(4, 2).to('cuda')(torch.zeros(1, 4)) 会报：",
    "devices.demo_in_play": "用到的设备：",
    "devices.demo_per_sample": "{device}：批大小 {size:4} -> 每个样本 {ms:.4f} 毫秒",
}
