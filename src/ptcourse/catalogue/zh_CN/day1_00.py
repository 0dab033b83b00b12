"""day1/00_environment 的提示信息（简体中文）。"""

MESSAGES = {
    "env.device_type": "pick_device() 应该返回 torch.device，实际得到 {got_type}：把设备名包起来，例如 torch.device('cuda')。",
    "env.device_choice": (
        "在 CUDA 可用={cuda}、MPS 可用={mps} 的情况下，pick_device() 应该返回 "
        "'{expected}'，实际得到 '{got}'。先检查 CUDA，再检查 MPS，最后退回 CPU。"
    ),
    "env.report_keys": "environment_report() 缺少键 {missing}。",
    "env.report_value": "environment_report()['{key}'] 应该是 {expected!r}，实际得到 {got!r}。",
    "env.report_callable": (
        "environment_report()['{key}'] 是一个函数，而不是它的结果：要调用它，例如 "
        "torch.cuda.is_available()，别忘了括号。"
    ),
    "env.diagnose": "对于 {facts} 的报告，diagnose() 应该返回 '{expected}'，实际得到 '{got}'。",
    "env.version": "version_at_least({version!r}, {minimum}) 应该是 {expected}，实际得到 {got}。",
    "env.version_type": "version_at_least() 应该返回 True 或 False，实际得到 {got_type}。",
    # 演示单元格打印的标签（ptcourse.messages.say）和图中的文字
    "env.demo_built_with_cuda": "构建时使用的 CUDA：",
    "env.demo_cuda_available": "CUDA 是否可用：",
    "env.demo_mps_available": "MPS（苹果 GPU）是否可用：",
    "env.demo_threads": "线程数：",
}
