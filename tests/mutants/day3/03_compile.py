"""Wrong answers for day3/03_compile."""

from tools.mutants import Mutant

MUTANTS = [
    # Exercise 1: time_call
    Mutant("compile_time_call", "times the warm-up calls too", expect=r"median of ALL calls: the warm-up calls were timed",
           code=("def time_call(fn, *args, warmup=3, repeats=20):\n"
                 "    durations = []\n"
                 "    for _ in range(warmup + repeats):\n"
                 "        start = time.perf_counter()\n"
                 "        fn(*args)\n"
                 "        durations.append(time.perf_counter() - start)\n"
                 "    return float(statistics.median(durations))\n"), caught_by="visible", msgid="compile.time_warmup_timed"),
    Mutant("compile_time_call", "mean of every call, the compiling one included",
           expect=r"mean of every call including the warm-up",
           code=("def time_call(fn, *args, warmup=3, repeats=20):\n"
                 "    durations = []\n"
                 "    for _ in range(warmup + repeats):\n"
                 "        start = time.perf_counter()\n"
                 "        fn(*args)\n"
                 "        durations.append(time.perf_counter() - start)\n"
                 "    return sum(durations) / len(durations)\n"), caught_by="visible", msgid="compile.time_mean_all"),
    Mutant("compile_time_call", "mean of the timed calls", expect=r"the mean of the timed calls.*median",
           replace=[("return float(statistics.median(durations))", "return float(statistics.mean(durations))")], caught_by="visible", msgid="compile.time_mean"),
    Mutant("compile_time_call", "total of the timed calls, not per call", expect=r"the total of all 5 timed calls",
           code=("def time_call(fn, *args, warmup=3, repeats=20):\n"
                 "    for _ in range(warmup):\n"
                 "        fn(*args)\n"
                 "    start = time.perf_counter()\n"
                 "    for _ in range(repeats):\n"
                 "        fn(*args)\n"
                 "    return time.perf_counter() - start\n"), caught_by="visible", msgid="compile.time_total"),
    Mutant("compile_time_call", "no warm-up at all", expect=r"should be called 7 times .* called 5 times",
           replace=[("    for _ in range(warmup):\n        fn(*args)\n", "")], caught_by="visible", msgid="compile.time_calls"),
    Mutant("compile_time_call", "never synchronizes CUDA", expect=r"returns as soon as the work is queued",
           replace=[("        if torch.cuda.is_available():\n            torch.cuda.synchronize()\n",
                     "        pass\n")], caught_by="hidden", msgid="compile.time_no_sync"),
    Mutant("compile_time_call", "synchronizes before starting the clock, not after the call",
           expect=r"torch\.cuda\.synchronize\(\) after fn\(\*args\) and BEFORE reading the clock",
           replace=[("        start = time.perf_counter()\n        fn(*args)\n        sync()\n",
                     "        sync()\n        start = time.perf_counter()\n        fn(*args)\n")], caught_by="hidden", msgid="compile.time_no_sync"),
    Mutant("compile_time_call", "the fastest timed call (min), not the median", expect=r"median",
           replace=[("return float(statistics.median(durations))", "return float(min(durations))")], caught_by="visible", msgid="compile.time_median"),
    Mutant("compile_time_call", "one block of calls divided by the count", expect=r"the mean of the timed calls",
           code=("def time_call(fn, *args, warmup=3, repeats=20):\n"
                 "    for _ in range(warmup):\n"
                 "        fn(*args)\n"
                 "    start = time.perf_counter()\n"
                 "    for _ in range(repeats):\n"
                 "        fn(*args)\n"
                 "    return (time.perf_counter() - start) / repeats\n"), caught_by="visible", msgid="compile.time_mean"),
    # Exercise 2: compile_plan
    Mutant("compile_plan", "every size to the compiled function", expect=r"sends 'tiny' to the compiled function",
           replace=[("faster = {name for name, (eager_s, compiled_s) in timings.items() if compiled_s < eager_s}",
                     "faster = set(timings)")], caught_by="visible", msgid="compile.plan_slower"),
    Mutant("compile_plan", "weighs the compile time against each size alone", expect=r"each size alone",
           code=("def compile_plan(compile_s, timings, calls):\n"
                 "    chosen = set()\n"
                 "    for name, (eager_s, compiled_s) in timings.items():\n"
                 "        pays, _ = compile_pays_off(compile_s, eager_s, compiled_s, calls[name])\n"
                 "        if pays:\n"
                 "            chosen.add(name)\n"
                 "    saved = sum(calls[n] * (timings[n][0] - timings[n][1]) for n in chosen) - compile_s\n"
                 "    return (chosen, float(saved)) if chosen else (set(), 0.0)\n"), caught_by="visible", msgid="compile.plan_per_size"),
    Mutant("compile_plan", "compiles even when the savings do not cover the compile time",
           expect=r"compiling does not pay off",
           replace=[("    if saved <= 0:\n", "    if not faster:\n")], caught_by="visible", msgid="compile.plan_not_worth"),
    Mutant("compile_plan", "forgets to subtract the compile time", expect=r"before paying for the compilation",
           replace=[("for name in faster) - compile_s", "for name in faster)"),
                    ("    if saved <= 0:\n", "    if saved <= compile_s:\n")], caught_by="visible", msgid="compile.plan_no_compile_cost"),
    Mutant("compile_plan", "a negative saving when nothing is compiled", expect=r"saved_s should be 0 s.*got -5",
           replace=[("        return set(), 0.0\n", "        return set(), float(saved)\n")], caught_by="visible", msgid="compile.plan_saved"),
    Mutant("compile_plan", "a tie goes to the compiled function", expect=r"should send \['l', 'm', 'x'\] to the compiled function",
           replace=[("if compiled_s < eager_s}", "if compiled_s <= eager_s}")], caught_by="hidden", msgid="compile.plan_names"),
    Mutant("compile_plan", "returns a sorted list", expect=r"should be a set of size names, got list",
           replace=[("return faster, float(saved)", "return sorted(faster), float(saved)")], caught_by="visible", msgid="compile.plan_set"),
]
