"""Messages of day3/03_compile."""

MESSAGES = {
    # The compile demo
    "compile.demo_failed": (
        "The compilation failed after {seconds:.1f} s: {error}\n"
        "On a CPU, torch.compile's default backend (Inductor) needs a working C++ compiler (g++, or "
        "the one named in the CXX environment variable). Binder may not have one. Nothing is wrong "
        "with your code: read the numbers measured on the course machine in the text above, and use "
        "backend=\"eager\" or \"aot_eager\" (section 6), which need no compiler."
    ),
    "compile.demo_first_call": (
        "first call (compiles): {seconds:.1f} s   compiled results equal eager: {same}"
    ),
    "compile.demo_steady": (
        "{name:>5} input ({numel:,} values): eager {eager_us:,.1f} µs, compiled {compiled_us:,.1f} µs "
        "per call -> {speedup:.2f}x the eager speed"
    ),
    "compile.demo_course_numbers": (
        "No compilation ran here: using the numbers measured on the course machine."
    ),
    "compile.demo_plan": "calls {calls}: compile for {names}, saving {saved:,.1f} s against all-eager",
    "compile.demo_pays": (
        "{name:>5} input, {steps:>7,} calls: pays off {pays!s:5}  (break-even after {even:,.0f} calls)"
    ),
    # Exercise 1: compile_plan
    "compile.plan_tuple": "compile_plan() should return a tuple (use_compiled, saved_s), got {got!r}.",
    "compile.plan_set": (
        "use_compiled should be a set of size names, got {got_type}: build it with {{name for ...}} or set()."
    ),
    "compile.plan_float": "saved_s should be a float (seconds), got {got_type}.",
    "compile.plan_slower": (
        "compile_plan() sends '{name}' to the compiled function (plan {got}), but its compiled call is "
        "slower ({compiled:.3g} s against {eager:.3g} s eager): keep it eager. Only names with "
        "compiled_s < eager_s belong in use_compiled."
    ),
    "compile.plan_per_size": (
        "compile_plan() chose {got}, expected {expected}: you seem to weigh the compile time against "
        "each size alone. One compilation (dynamic=True) serves every size, so pay compile_s once and "
        "compare it with the savings of all the faster sizes together."
    ),
    "compile.plan_not_worth": (
        "The faster sizes save {savings:g} s in all, less than the {compile_s:g} s one compilation "
        "costs, so compiling does not pay off: use_compiled should be empty (and saved_s 0.0), got {got}."
    ),
    "compile.plan_names": "compile_plan() should send {expected} to the compiled function, got {got}.",
    "compile.plan_no_compile_cost": (
        "saved_s is {got:g}, the savings before paying for the compilation: subtract compile_s "
        "({compile_s:g} s), once. Expected {expected:g}."
    ),
    "compile.plan_saved": (
        "saved_s should be {expected:g} s ({detail}), got {got!r}. When nothing is compiled, it is 0.0."
    ),
    # Printed by the demonstration cells (ptcourse.messages.say) and figure texts
    "compile.demo_nothing": "nothing",
    "compile.demo_graphs": "graphs: {graphs} | graph breaks: {breaks}",
    "compile.demo_line": "  line {line}: {reason}",
    "compile.demo_graph_breaks": "graph breaks:",
    "compile.demo_same_results": "same results:",
    "compile.demo_backend": "{backend:9} first call {seconds:.2f} s, same as eager: {same}",
    "compile.detail_minus_compiling": "{sum} - {seconds:g} s of compiling",
}
