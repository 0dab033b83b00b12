"""测试单元格作为值传入其他消息的词语（en/values.py 的译文）。"""

MESSAGES = {
    "devices.where_all_tensors": "批次（张量总数）",
    "memory.what_small_cnn": "使用 '{name}' 的小型 CNN",
}
