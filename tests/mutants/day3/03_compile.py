"""Wrong answers for day3/03_compile."""

from tools.mutants import Mutant

MUTANTS = [
    # Exercise 1: compile_plan
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
