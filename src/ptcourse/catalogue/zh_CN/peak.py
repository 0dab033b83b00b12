"""模拟的小显存 GPU（:func:`ptcourse.peak.pretend_gpu`）的报错信息，仿照 PyTorch 自己的写法（简体中文）。"""

MESSAGES = {
    "peak.out_of_memory": (
        "CUDA out of memory（显存不足）。尝试分配 {asked}。GPU 0 总容量 {capacity}，其中空闲 {free}。"
        "已分配的显存中 {used} 由 PyTorch 分配。（这是课程在 CPU 上模拟的 GPU。）"
    ),
    "peak.cudnn_internal_error": (
        "cuDNN error: CUDNN_STATUS_INTERNAL_ERROR（这是课程在 CPU 上模拟的 GPU）"
    ),
}
