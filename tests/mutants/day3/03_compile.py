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
                 "    return float(statistics.median(durations))\n")),
    Mutant("compile_time_call", "mean of every call, the compiling one included",
           expect=r"mean of every call including the warm-up",
           code=("def time_call(fn, *args, warmup=3, repeats=20):\n"
                 "    durations = []\n"
                 "    for _ in range(warmup + repeats):\n"
                 "        start = time.perf_counter()\n"
                 "        fn(*args)\n"
                 "        durations.append(time.perf_counter() - start)\n"
                 "    return sum(durations) / len(durations)\n")),
    Mutant("compile_time_call", "mean of the timed calls", expect=r"the mean of the timed calls.*median",
           replace=[("return float(statistics.median(durations))", "return float(statistics.mean(durations))")]),
    Mutant("compile_time_call", "total of the timed calls, not per call", expect=r"the total of all 5 timed calls",
           code=("def time_call(fn, *args, warmup=3, repeats=20):\n"
                 "    for _ in range(warmup):\n"
                 "        fn(*args)\n"
                 "    start = time.perf_counter()\n"
                 "    for _ in range(repeats):\n"
                 "        fn(*args)\n"
                 "    return time.perf_counter() - start\n")),
    Mutant("compile_time_call", "no warm-up at all", expect=r"should be called 7 times .* called 5 times",
           replace=[("    for _ in range(warmup):\n        fn(*args)\n", "")]),
    Mutant("compile_time_call", "never synchronizes CUDA", expect=r"returns as soon as the work is queued",
           replace=[("        if torch.cuda.is_available():\n            torch.cuda.synchronize()\n",
                     "        pass\n")]),
    Mutant("compile_time_call", "synchronizes before starting the clock, not after the call",
           expect=r"torch\.cuda\.synchronize\(\) after fn\(\*args\) and BEFORE reading the clock",
           replace=[("        start = time.perf_counter()\n        fn(*args)\n        sync()\n",
                     "        sync()\n        start = time.perf_counter()\n        fn(*args)\n")]),
    # Exercise 2: compile_pays_off
    Mutant("compile_pays_off", "ignores the compile time", expect=r"The compile time counts",
           replace=[("pays_off = compile_s + steps * compiled_step_s < steps * eager_step_s",
                     "pays_off = compiled_step_s < eager_step_s")]),
    Mutant("compile_pays_off", "saving with the wrong sign", expect=r"not positive: the saving per call is eager_step_s - compiled_step_s",
           code=("def compile_pays_off(compile_s, eager_step_s, compiled_step_s, steps):\n"
                 "    break_even = compile_s / (compiled_step_s - eager_step_s)\n"
                 "    return steps > break_even, break_even\n")),
    Mutant("compile_pays_off", "no case for a compiled step that is not faster", expect=r"ZeroDivisionError: with equal step times|never pays off",
           code=("def compile_pays_off(compile_s, eager_step_s, compiled_step_s, steps):\n"
                 "    break_even = compile_s / (eager_step_s - compiled_step_s)\n"
                 "    return steps > break_even, break_even\n")),
    Mutant("compile_pays_off", "divides by the compiled step time", expect=r"divided by the time saved per call",
           replace=[("break_even = compile_s / saving if saving > 0 else math.inf",
                     "break_even = compile_s / compiled_step_s if saving > 0 else math.inf")]),
    Mutant("compile_pays_off", "returns the bool as an int", expect=r"pays_off should be True or False, got int",
           replace=[("return bool(pays_off), float(break_even)", "return int(pays_off), float(break_even)")]),
    # Exercise 3: count_graph_breaks
    Mutant("compile_count_breaks", "counts graphs", expect=r"number of GRAPHS \(graph_count\)",
           replace=[(".graph_break_count", ".graph_count")]),
    Mutant("compile_count_breaks", "returns the whole report", expect=r"should return an int, got ExplainOutput",
           replace=[("return int(torch._dynamo.explain(fn)(*args).graph_break_count)",
                     "return torch._dynamo.explain(fn)(*args)")]),
    Mutant("compile_count_breaks", "counts operations", expect=r"number of captured operations \(op_count\)",
           replace=[(".graph_break_count", ".op_count")]),
    Mutant("compile_count_breaks", "only asks whether fullgraph=True fails",
           expect=r"should be 2, got 1.*counts every break, not just whether there is one",
           code=("def count_graph_breaks(fn, *args):\n"
                 "    try:\n"
                 "        torch.compile(fn, fullgraph=True, backend=\"eager\")(*args)\n"
                 "        return 0\n"
                 "    except Exception:\n"
                 "        return 1\n")),
    # Exercise 4: scaled_residual
    Mutant("compile_no_breaks", "keeps the print", expect=r"finds 1 graph break.*Remove the print",
           replace=[("    scale = x.abs().max()\n", "    scale = x.abs().max()\n    print(\"largest |value|:\", scale)\n")]),
    Mutant("compile_no_breaks", "if on .item()", expect=r"finds 1 graph break.*Tensor\.item",
           replace=[("    x = torch.where(scale > 1.0, x / scale, x)\n",
                     "    if scale.item() > 1.0:\n        x = x / scale\n")]),
    Mutant("compile_no_breaks", "if on the tensor itself", expect=r"finds 1 graph break.*torch\.where",
           replace=[("    x = torch.where(scale > 1.0, x / scale, x)\n",
                     "    if scale > 1.0:\n        x = x / scale\n")]),
    Mutant("compile_no_breaks", "torch.where with the branches swapped",
           expect=r"differs from scaled_residual_original.*takes a where the condition is True",
           replace=[("torch.where(scale > 1.0, x / scale, x)", "torch.where(scale > 1.0, x, x / scale)")]),
    Mutant("compile_no_breaks", "drops the residual term", expect=r"differs from scaled_residual_original",
           replace=[("return x + torch.relu(x).mean()", "return torch.relu(x).mean()")]),
    Mutant("compile_no_breaks", "clamps instead of scaling", expect=r"differs from scaled_residual_original",
           replace=[("x = torch.where(scale > 1.0, x / scale, x)", "x = x.clamp(-1.0, 1.0)")]),
]
