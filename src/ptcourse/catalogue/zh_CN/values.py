"""测试单元格作为值传入其他消息的词语（en/values.py 的译文）。"""

MESSAGES = {
    "devices.where_all_tensors": "批次（张量总数）",
    "memory.what_small_cnn": "使用 '{name}' 的小型 CNN",
    "debug.what_tower": "{depth} 层 sigmoid 堆叠，ratio={ratio}",
    "debug.what_dead_stale": "一个中间层已死、还留着旧梯度的网络",
    "debug.hint_zero_grad": "先清除旧梯度（model.zero_grad()）",
    "debug.hint_walk_back": "与最后一个 Linear 层的范数比较，从后往前找",
}
