"""Messages of day3/03_compile."""

MESSAGES = {
    # Exercise 1: time_call
    "compile.time_type": (
        "time_call() should return the median as a Python float (seconds), got {got_type}: "
        "statistics.median() of a list of floats gives one."
    ),
    "compile.time_real": (
        "time_call(torch.mm, a, b) returned {got!r} seconds per 64x64 matrix product: that cannot be "
        "right. Return the median duration of one call, end - start with time.perf_counter()."
    ),
    "compile.time_calls": (
        "With warmup={warmup} and repeats={repeats}, fn should be called {expected} times "
        "(warm-up calls first, then the timed ones), but it was called {got} times."
    ),
    "compile.time_args": "time_call(fn, *args) should call fn(*args) with every argument it was given.",
    "compile.time_total": (
        "time_call() returned {got:.4g} s, the total of all {n} timed calls: return the time of ONE "
        "call, the median of the durations ({expected:.4g} s)."
    ),
    "compile.time_mean_all": (
        "time_call() returned {got:.4g} s, the mean of every call including the warm-up (the first, "
        "compiling call takes seconds and drags the mean up). Skip the warm-up calls and take the "
        "median of the timed ones: {expected:.4g} s."
    ),
    "compile.time_mean": (
        "time_call() returned {got:.4g} s, the mean of the timed calls: one slow call pulls the mean "
        "away from a typical call. Return the median (statistics.median): {expected:.4g} s."
    ),
    "compile.time_warmup_timed": (
        "time_call() returned {got:.4g} s, the median of ALL calls: the warm-up calls were timed too. "
        "Call fn warmup times before you start measuring; expected {expected:.4g} s."
    ),
    "compile.time_median": (
        "time_call() should return the median duration of the timed calls, {expected:.4g} s, got "
        "{got!r}. Time each call on its own (start = time.perf_counter() right before it)."
    ),
    "compile.time_no_sync": (
        "On a GPU, fn(*args) returns as soon as the work is queued: time_call() measured {got:.4g} s "
        "per call, but the work took {expected:.4g} s. When torch.cuda.is_available(), call "
        "torch.cuda.synchronize() after fn(*args) and BEFORE reading the clock."
    ),
    "compile.time_sync_median": (
        "On a (simulated) GPU time_call() should give {expected:.4g} s per call, got {got:.4g} s: call "
        "torch.cuda.synchronize() after the warm-up calls and after each timed call, before reading "
        "the clock."
    ),
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
    # Exercise 2: compile_plan
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
