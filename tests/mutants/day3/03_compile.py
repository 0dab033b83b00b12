"""Wrong answers for day3/03_compile."""

from tests.harness.mutants import Mutant

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
    # Exercise 2: compile_pays_off
    Mutant("compile_pays_off", "ignores the compile time", expect=r"The compile time counts",
           replace=[("pays_off = compile_s + steps * compiled_step_s < steps * eager_step_s",
                     "pays_off = compiled_step_s < eager_step_s")], caught_by="visible", msgid="compile.pays_verdict"),
    Mutant("compile_pays_off", "saving with the wrong sign", expect=r"not positive: the saving per call is eager_step_s - compiled_step_s",
           code=("def compile_pays_off(compile_s, eager_step_s, compiled_step_s, steps):\n"
                 "    break_even = compile_s / (compiled_step_s - eager_step_s)\n"
                 "    return steps > break_even, break_even\n"), caught_by="visible", msgid="compile.pays_sign"),
    Mutant("compile_pays_off", "no case for a compiled step that is not faster", expect=r"ZeroDivisionError: with equal step times|never pays off",
           code=("def compile_pays_off(compile_s, eager_step_s, compiled_step_s, steps):\n"
                 "    break_even = compile_s / (eager_step_s - compiled_step_s)\n"
                 "    return steps > break_even, break_even\n"), caught_by="visible", msgid="compile.pays_never"),
    Mutant("compile_pays_off", "divides by the compiled step time", expect=r"divided by the time saved per call",
           replace=[("break_even = compile_s / saving if saving > 0 else math.inf",
                     "break_even = compile_s / compiled_step_s if saving > 0 else math.inf")], caught_by="visible", msgid="compile.pays_break_even"),
    Mutant("compile_pays_off", "returns the bool as an int", expect=r"pays_off should be True or False, got int",
           replace=[("return bool(pays_off), float(break_even)", "return int(pays_off), float(break_even)")], caught_by="visible", msgid="compile.pays_bool"),
    # Exercise 3: compile_plan
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
    Mutant("compile_plan", "returns a sorted list", expect=r"should be a set of size names, got list",
           replace=[("return faster, float(saved)", "return sorted(faster), float(saved)")], caught_by="visible", msgid="compile.plan_set"),
    # Exercise 4: scaled_residual
    Mutant("compile_no_breaks", "keeps the print", expect=r"finds 1 graph break.*Remove the print",
           replace=[("    scale = x.abs().max()\n", "    scale = x.abs().max()\n    print(\"largest |value|:\", scale)\n")], caught_by="visible", msgid="compile.rewrite_breaks"),
    Mutant("compile_no_breaks", "if on .item()", expect=r"finds 1 graph break.*Tensor\.item",
           replace=[("    x = torch.where(scale > 1.0, x / scale, x)\n",
                     "    if scale.item() > 1.0:\n        x = x / scale\n")], caught_by="visible", msgid="compile.rewrite_breaks"),
    Mutant("compile_no_breaks", "if on the tensor itself", expect=r"finds 1 graph break.*torch\.where",
           replace=[("    x = torch.where(scale > 1.0, x / scale, x)\n",
                     "    if scale > 1.0:\n        x = x / scale\n")], caught_by="visible", msgid="compile.rewrite_breaks"),
    Mutant("compile_no_breaks", "torch.where with the branches swapped",
           expect=r"differs from scaled_residual_original.*takes a where the condition is True",
           replace=[("torch.where(scale > 1.0, x / scale, x)", "torch.where(scale > 1.0, x, x / scale)")], caught_by="visible", msgid="compile.rewrite_values"),
    Mutant("compile_no_breaks", "drops the residual term", expect=r"differs from scaled_residual_original",
           replace=[("return x + torch.relu(x).mean()", "return torch.relu(x).mean()")], caught_by="visible", msgid="compile.rewrite_values"),
    Mutant("compile_no_breaks", "clamps instead of scaling", expect=r"differs from scaled_residual_original",
           replace=[("x = torch.where(scale > 1.0, x / scale, x)", "x = x.clamp(-1.0, 1.0)")], caught_by="visible", msgid="compile.rewrite_values"),
]
