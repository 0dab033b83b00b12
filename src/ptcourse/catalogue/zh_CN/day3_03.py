"""day3/03_compile 的提示信息（简体中文）。"""

MESSAGES = {
    # 编译演示
    "compile.demo_failed": (
        "编译在 {seconds:.1f} 秒后失败：{error}\n"
        "在 CPU 上，torch.compile 的默认后端（Inductor）需要一个可用的 C++ 编译器（g++，或者环境变量 "
        "CXX 指定的编译器）。Binder 上可能没有。你的代码没有问题：请阅读上文中在课程机器上测得的数字，"
        "并使用不需要编译器的 backend=\"eager\" 或 \"aot_eager\"（第 6 节）。"
    ),
    "compile.demo_first_call": (
        "第一次调用（会编译）：{seconds:.1f} 秒   编译后的结果与即时执行相同：{same}"
    ),
    "compile.demo_steady": (
        "{name:>5} 输入（{numel:,} 个值）：即时执行 {eager_us:,.1f} µs，编译后 {compiled_us:,.1f} µs "
        "每次调用 -> 即时执行速度的 {speedup:.2f} 倍"
    ),
    "compile.demo_course_numbers": (
        "这里没有进行编译：使用在课程机器上测得的数字。"
    ),
    "compile.demo_plan": "调用次数 {calls}：编译 {names}，与全部即时执行相比节省 {saved:,.1f} 秒",
    "compile.demo_pays": (
        "{name:>5} 输入，{steps:>7,} 次调用：是否划算 {pays!s:5}（{even:,.0f} 次调用后回本）"
    ),
    # 练习 1：compile_plan
    "compile.plan_tuple": "compile_plan() 应该返回一个元组 (use_compiled, saved_s)，实际得到 {got!r}。",
    "compile.plan_set": (
        "use_compiled 应该是一个由大小名字组成的集合（set），实际得到 {got_type}："
        "用 {{name for ...}} 或 set() 来构建它。"
    ),
    "compile.plan_float": "saved_s 应该是一个 float（秒），实际得到 {got_type}。",
    "compile.plan_slower": (
        "compile_plan() 把 '{name}' 交给了编译后的函数（方案为 {got}），但它编译后的调用更慢"
        "（{compiled:.3g} 秒，而即时执行为 {eager:.3g} 秒）：请让它保持即时执行。只有满足 "
        "compiled_s < eager_s 的名字才应该放进 use_compiled。"
    ),
    "compile.plan_per_size": (
        "compile_plan() 选择了 {got}，期望 {expected}：你似乎把编译时间和每种大小单独比较了。"
        "一次编译（dynamic=True）服务所有大小，所以 compile_s 只付一次，"
        "并把它和所有更快的大小加在一起节省的时间相比较。"
    ),
    "compile.plan_not_worth": (
        "更快的那些大小一共只节省 {savings:g} 秒，少于一次编译的代价 {compile_s:g} 秒，"
        "所以编译不划算：use_compiled 应该为空（saved_s 为 0.0），实际得到 {got}。"
    ),
    "compile.plan_names": "compile_plan() 应该把 {expected} 交给编译后的函数，实际得到 {got}。",
    "compile.plan_no_compile_cost": (
        "saved_s 是 {got:g}，这是支付编译代价之前节省的时间：请减去 compile_s"
        "（{compile_s:g} 秒），只减一次。期望 {expected:g}。"
    ),
    "compile.plan_saved": (
        "saved_s 应该是 {expected:g} 秒（{detail}），实际得到 {got!r}。什么都不编译时，它是 0.0。"
    ),
    # 演示单元格打印的标签（ptcourse.messages.say）和图中的文字
    "compile.demo_nothing": "都不编译",
    "compile.demo_graphs": "图的个数：{graphs} | 图中断：{breaks}",
    "compile.demo_line": "  第 {line} 行：{reason}",
    "compile.demo_graph_breaks": "图中断：",
    "compile.demo_same_results": "结果相同：",
    "compile.demo_backend": "{backend:9} 第一次调用 {seconds:.2f} 秒，与 eager 结果相同：{same}",
    "compile.detail_minus_compiling": "{sum} - {seconds:g} 秒编译",
}
