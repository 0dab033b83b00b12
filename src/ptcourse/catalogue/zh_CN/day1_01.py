"""day1/01_tensors 的提示信息（简体中文）。"""

MESSAGES = {
    "tensors.grid_dtype": (
        "make_grid() 应该返回 float32 的数，实际得到 {got}。torch.arange 用整数时生成的是 int64 整数："
        "请指定 dtype=torch.float32（或者调用 .float()）。"
    ),
    "tensors.grid_values": (
        "make_grid({rows}, {cols}) 应该按行依次填入 0, 1, ..., {last}：{expected}；"
        "实际得到 {got}。torch.arange(n) 从 0 开始、在 n 之前停止，reshape 会先填满第一行。"
    ),
    "tensors.sqdist_raised": (
        "用形状为 {shape_a} 的 a 和形状为 {shape_b} 的 b 调用 pairwise_sq_dists(a, b) 时抛出了异常：{error}\n"
        "当 N != M 时，(N, D) 张量和 (M, D) 张量相减无法广播：先把 a 变成形状 (N, 1, D)，把 b 变成形状 (1, M, D)。"
    ),
    "tensors.sqdist_shape": (
        "a 的形状是 ({n}, {d})、b 的形状是 ({m}, {d}) 时，pairwise_sq_dists 应该返回形状 "
        "({n}, {m})，实际得到 {got}。元素 [i, j] 是 a[i] 到 b[j] 的距离：先广播成 "
        "({n}, {m}, {d})，再沿最后一个维度（坐标，dim=-1）求和。"
    ),
    "tensors.sqdist_not_squared": (
        "pairwise_sq_dists 返回的是普通距离 {got}，而不是距离的平方 {expected}：去掉开平方这一步。"
    ),
    "tensors.sqdist_values": (
        "在这个小例子上，pairwise_sq_dists 应该给出 {expected}，实际得到 {got}。先把每个坐标的差平方，"
        "再对所有坐标的平方求和。"
    ),
    "tensors.zero_negatives_pair": "zero_negatives(x) 应该返回一对值 (cleaned, count)，实际得到 {got}。",
    "tensors.zero_negatives_shape": (
        "清理后的张量应该保持 x 的形状 {expected}，实际得到 {got}。x[mask] 会把选中的元素取出来放进一个一维张量；"
        "要替换元素，请在副本上通过掩码赋值（y[mask] = 0），或者用 torch.where。"
    ),
    "tensors.count_type": (
        "计数应该是 Python int，实际得到 {got_type}：只有一个元素的张量可以用 .item() 或 int(...) 变成数字。"
    ),
    "tensors.count_value": (
        "x 里有 {expected} 个负数，但 zero_negatives 数出了 {got} 个。请在修改任何值之前，"
        "用掩码 x < 0 来计数（0 不是负数）。"
    ),
    "tensors.input_changed": (
        "zero_negatives 修改了传给它的张量：调用之后，x 里一个负数都不剩了。通过掩码赋值（x[mask] = 0）"
        "会直接写入 x 本身；请在副本（x.clone()）上操作，或者用 torch.where / torch.clamp，它们会返回新张量。"
    ),
    "tensors.flatten_shape": (
        "对形状为 {batch_shape} 的一批图片，flatten_images 应该返回形状 {expected}（每张图片一行），"
        "实际得到 {got}。保留第一个（批次）维度，把其余三个合并；-1 可以让 PyTorch 自动算出一个大小。"
    ),
    "tensors.flatten_order": (
        "对形状为 {batch_shape} 的一批图片，flatten_images 的形状对了，但值的顺序与 "
        "torch.flatten(x, start_dim=1) 不同：每一行应该先逐行列出通道 0 的像素，再列出通道 1 的，依此类推。"
        "你是不是在展平之前调换了维度的顺序（permute）？"
    ),
    "tensors.flatten_non_contiguous": (
        "flatten_images 在一批形状为 {shape}、不连续的图片上失败了（它是用 .permute 得到的，"
        "就像图片以通道在后的格式到来时那样）：{error}\n"
        ".view 只有在内存布局允许时才能用；.reshape（或 .contiguous().view）总是能用。"
    ),
    "tensors.flatten_raised": (
        "flatten_images 在形状为 {shape} 的一批图片上抛出了异常：{error}\n"
        "你的代码是否对任意批大小和图片大小都适用，没有写死的数字？"
    ),
    "tensors.sharing_bool": (
        "shares_memory() 应该返回 Python bool（True 或 False），实际得到 {got_type}。"
        "用 == 比较两个地址（int）就能得到一个 bool。"
    ),
    "tensors.sharing_view_missed": (
        "shares_memory({a}, {b}) 返回了 False，但 {b} 是一个视图，和 {a} 由同一块存储支撑。"
        "两个视图可以从不同的元素开始（x[1] 从第 4 个元素开始），也可以按不同的顺序读取元素，"
        "所以要比较存储的地址 t.untyped_storage().data_ptr()，而不是 t.data_ptr()（第一个元素的地址），"
        "也不是张量本身（is、==）。"
    ),
    "tensors.sharing_disjoint_missed": (
        "shares_memory({a}, {b}) 返回了 False，但两者都是同一块存储（x 的那一块内存）上的视图，尽管它们没有共同的元素。"
        "共享内存说的是存储，而不是元素是否重叠：请比较 t.untyped_storage().data_ptr()。"
    ),
    "tensors.sharing_copy_missed": (
        "shares_memory({a}, {b}) 返回了 True，但 {b} 是一个副本，有它自己的内存。值相等什么也证明不了"
        "（副本的值也相等）：要比较内存在哪里，即 t.untyped_storage().data_ptr()，而不是里面存了什么。"
    ),
    "tensors.sharing_unanswered": (
        "SHARES_WITH_X 里还有不是 True 或 False 的条目：{keys}。把每个 None 换成 True"
        "（与 x 共享内存）或 False（副本）。"
    ),
    "tensors.sharing_wrong": (
        "SHARES_WITH_X[{expr!r}] 的答案是“{said}”，但实际结果是“{truth}”。{why} "
        "自己验证一下：shares_memory(x, {expr})。"
    ),
    "tensors.why_row": "取一行是切片：一个从 x 的存储中间开始的视图。",
    "tensors.why_column": "取一列也是切片：一个每次跳过一行长度（它的步长）的视图。",
    "tensors.why_mask": (
        "布尔掩码可以选取任意元素，没有规律：没有哪组步长能描述它，所以这些元素被复制进一个新的一维张量。"
    ),
    "tensors.why_index_list": (
        "用位置列表（或张量）做索引，会像掩码一样复制它选中的行。"
    ),
    "tensors.why_transpose": ".t() 只交换步长：同一块内存，按另一种顺序读取。",
    "tensors.why_reshape_view": (
        "x 是连续的，所以 reshape 可以返回视图（只有内存布局逼得它不得不复制时，它才复制）。"
    ),
    "tensors.why_reshape_copy": (
        "x.t() 不连续：没有哪组步长能把它读成一整行，所以 reshape 只能复制（而 view 会直接拒绝）。"
    ),
    "tensors.why_same_dtype": (
        "x 已经是 float32，所以 x.float()（就像没有任何东西要改的 .to()）直接返回 x 本身：不复制。"
    ),
    "tensors.why_new_dtype": "float64 的每个数占 8 个字节，而不是 4 个：改变数据类型需要新的内存。",
    "tensors.why_from_numpy": (
        "x.numpy() 与 x 共享内存，torch.from_numpy 又与数组共享内存：这一来一回什么都没复制。"
    ),
    "tensors.why_tensor_copies": "不管给它什么，torch.tensor(data) 总是复制数据。",
    "tensors.weights_dtype_error": (
        "apply_weights 抛出了异常：{error}\n"
        "矩阵乘法要求两个张量的数据类型相同：counts 是 int64，weights 是 {w_dtype}。"
        "把 counts 转换成权重的数据类型（weights.dtype），而不是某个固定的类型。"
    ),
    "tensors.weights_device_error": (
        "weights 在设备 '{w_device}' 上时，apply_weights 抛出了异常：{error}\n"
        "一个运算的两个张量必须在同一个设备上：把 counts 移到 weights.device（而不是某个固定的设备），"
        "权重留在原处不动。"
    ),
    "tensors.weights_device": (
        "apply_weights 应该在权重所在的设备 '{expected}' 上计算，但结果在 '{got}' 上。"
        "把 counts 移到 weights.device（而不是某个固定的设备），权重留在原处不动。"
    ),
    "tensors.weights_not_moved": (
        "当权重在 GPU（'{device}'，这里是模拟的）上时，apply_weights 把它们和仍在 CPU 上的 counts 相乘了："
        "在真实的 GPU 上这会报错 \"Expected all tensors to be on the same device\"。"
        "请在相乘之前把 counts 移动到 weights.device（而不是某个固定的设备）。"
    ),
    "tensors.weights_dtype": (
        "apply_weights 应该返回 {expected}（weights 的数据类型），实际得到 {got}。请把 counts 转换成权重的数据类型，"
        "而不是把权重转换成整数（那会把它们四舍五入）。"
    ),
    # 演示单元格打印的标签（ptcourse.messages.say）和图中的文字
    "tensors.demo_mse_wrong": "均方误差，错误的：",
    "tensors.demo_mse_right": "均方误差，正确的：",
    "tensors.demo_negatives": "负数个数：",
    "tensors.demo_no_copy": "已在目标设备上时不复制：",
    "tensors.name_cleaned": "随机 {shape} 张量的结果",
    "tensors.word_shares": "与 x 共享内存",
    "tensors.word_is_copy": "是副本",
    "tensors.word_a_copy": "副本",
    "tensors.word_its_source": "它的来源张量",
    "tensors.label_counts_on_cpu": "在 CPU 上创建的 counts",
    "tensors.name_pairwise_random": "pairwise_sq_dists 在随机的 {a} 和 {b} 个点上的结果",
}
