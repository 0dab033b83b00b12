"""Whether a notebook's observations tell every wrong answer from the solution, for every secret.

``python -m tools.observation_power day1/00_environment [--secrets 5] [--exercise GRADE_ID]``

The second key (``ptcourse.observe``, CONTRIBUTING.md "How to add observations to a test cell")
is only worth something if each wrong answer a test cell rejects in the kernel also gives that
cell a different observation, whatever secret the grader draws: an answer that fools the cell's
checks (a frame read, a tensor subclass) then still loses the cell's points. The mutant catalogue
(``tools/mutants.py``) holds such wrong answers, so this tool, for one notebook:

1. executes the solution notebook once in a fresh kernel (as tests/test_notebooks.py does);
2. per exercise whose test cells observe, and per secret, runs each test cell's observation part
   (its hidden part from the imports above ``from ptcourse.observe import`` on; it must use
   nothing else the hidden part defines before it) armed with that cell's seed
   (``grader.judge.observations.cell_seed``), twice: the solution's observations, which must agree;
3. per mutant of that exercise: swaps in the mutant's cell, runs each test cell whole (unarmed:
   does the kernel reject the mutant there?), then the observation part armed with each secret
   and with every check of ``ptcourse.checks`` passing (what an answer that fools the checks
   would show), and judges it against the solution's with the grader's own comparison
   (``grader.judge.observations.judge``);
4. puts the solution back, re-runs the test cells, and checks that the solution's observations
   did not drift.

It prints, per mutant and observing cell, whether the kernel rejects the mutant there and for
how many secrets the observations differ. Exit status 1 when a cell that rejects a mutant in the
kernel observes the same as the solution for some secret (``MISSED``; the fix is in the cell: make
its fresh draws always hold the case that tells that mistake apart, see CONTRIBUTING.md), or when
an entry of ``NOT_OBSERVED`` is observed now; 2 when the solution's own observations are not
reproducible (two runs, or the whole cell against its observation part, disagree); 0 otherwise.
``NOT_OBSERVED`` lists, with the reason, the few mutants a cell rejects by a behaviour with no
consequence an observation can carry (``known``). A cell that observes a difference the kernel
accepts (``extra``) is reported but not an error: the observation judges something the checks do
not, which honest work should never meet (observe what the cell checks, no more).

The secrets are ``power-0`` .. ``power-{n-1}`` (the same every run); ``--random`` draws new ones.
A notebook takes about as long as its mutant tests (day1/00: half a minute, day2/01: two).
"""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import dataclass, field

from grader.judge import observations as ob
from ptcourse.observe import MIME
from tools import mutants as catalogue
from tools.kernel import Kernel
from tools.nbloop import source_of
from tools.notebooks import Exercise, TestCell, exercises, nb_key, read

HIDDEN, END_HIDDEN = "### BEGIN HIDDEN TESTS", "### END HIDDEN TESTS"
OBSERVE_IMPORT = "from ptcourse.observe import"
# Every check of ptcourse.checks raises through fail(): while this is in force they all pass.
CHECKS_OFF = ("import ptcourse.checks as _pc\n"
              "_pc._power_fail = _pc.__dict__.get('_power_fail', _pc.fail)\n"
              "_pc.fail = lambda *args, **kwargs: None\ndel _pc")
CHECKS_ON = "import ptcourse.checks as _pc\n_pc.fail = _pc._power_fail\ndel _pc"

# Mutants that a test cell rejects in the kernel but does not observe, each with its reason (a behaviour
# with no consequence on values an observation can carry, mostly): (exercise, mutant name, test cell)
# -> why. Reported as "known", not as "MISSED"; keep it short.
NOT_OBSERVED: dict[tuple[str, str, str], str] = {
    ("autograd_classic_grad", "types the formula instead of using autograd", "autograd_classic_grad_fresh"):
        "2 * x + 3 typed by hand gives autograd's values exactly; only the saved-tensor hooks see backward() missing",
    ("modules_clone", "loads with weights_only=False", "modules_clone_outputs"):
        "a security flag: the same file loads to the same state either way",
    ("modules_predict", "detach() instead of no_grad() (the graph is still built)", "modules_predict_deterministic"):
        "the same detached values; only a hook sees autograd on during the forward pass",
    ("cnn_evaluate", "argmax over dim 0", "cnn_evaluate_device"):
        "a wrong value that makes evaluate() raise in this cell's run; the cell observes where the batch goes and "
        "stops at the first forward pass, while the accuracy, eval-mode and no-grad cells observe the value",
}


def observation_part(test: TestCell) -> str | None:
    """The code of ``test`` that makes fresh inputs and observes, from the imports above its
    ``from ptcourse.observe import`` to the end of its hidden parts, taken together: a cell may have
    one above its checks and one below (None: it observes nothing)."""
    hidden = "\n".join(part.split(END_HIDDEN, 1)[0] for part in test.source.split(HIDDEN)[1:])
    if "observe(" not in hidden or OBSERVE_IMPORT not in hidden:
        return None
    lines = hidden[:hidden.index(OBSERVE_IMPORT)].split("\n")
    start = len(lines) - 1  # back over the imports just above it
    while start > 0 and (not lines[start - 1].strip() or lines[start - 1].startswith(("import ", "from "))):
        start -= 1
    return "\n".join(lines[start:]) + hidden[hidden.index(OBSERVE_IMPORT):]


def sent_observations(outputs: list) -> dict:
    """The observations a run's output messages carry (name -> payload without its key and name); a name
    sent twice is an observation of its own kind, as the grader reads it."""
    sent = {}
    for message in outputs:
        payload = message["content"].get("data", {}).get(MIME)
        if isinstance(payload, dict):
            name = str(payload.get("name", ""))
            sent[name] = ({"kind": "other", "type": "observed twice"} if name in sent
                          else {k: v for k, v in payload.items() if k not in ("key", "name")})
    return sent


@dataclass
class Verdict:
    """One mutant in one observing test cell."""

    exercise: str
    mutant: str
    cell: str
    caught: bool  # the kernel rejects it in this cell
    kernel_message: str
    differs: dict[str, str | None] = field(default_factory=dict)  # secret -> why it differs (None: same)

    @property
    def missed(self) -> list[str]:
        return [s for s, why in self.differs.items() if why is None]

    @property
    def known(self) -> str | None:
        """Why no observation can tell this mutant in this cell (None: one should)."""
        return NOT_OBSERVED.get((self.exercise, self.mutant, self.cell))

    @property
    def label(self) -> str:
        seen = len(self.differs) - len(self.missed)
        if self.caught:
            return "ok" if not self.missed else "known" if self.known else "MISSED"
        return "-" if not seen else "extra"


class Power:
    """A notebook's kernel, executed once, and the observations it gives."""

    def __init__(self, kernel: Kernel, secrets: list[str]):
        self.kernel, self.secrets = kernel, secrets
        self.problems: list[str] = []

    def observed(self, grade_id: str, code: str, secret: str | None) -> tuple[dict, str]:
        """What ``code`` observes when armed for ``grade_id`` with ``secret`` (name -> payload),
        and its error if it raised ("" if not). ``secret=None``: unarmed."""
        if secret is not None:
            seed = ob.cell_seed(secret, grade_id)
            self.kernel.run(f"__import__('ptcourse.observe', fromlist=['arm']).arm('power', {seed})")
        try:
            result = self.kernel.run(code)
        finally:
            if secret is not None:
                self.kernel.run("__import__('ptcourse.observe', fromlist=['arm'])._armed.update(key=None)")
        return sent_observations(result.outputs), result.message

    def cheat_observes(self, grade_id: str, part: str, secret: str) -> tuple[dict, str]:
        """The observation part with every check passing: what an answer that fools the checks shows."""
        self.kernel.run(CHECKS_OFF)
        try:
            return self.observed(grade_id, part, secret)
        finally:
            self.kernel.run(CHECKS_ON)

    def reference(self, exercise: Exercise, parts: dict[str, str]) -> dict[tuple[str, str], dict]:
        """The solution's observations per (cell, secret), each made twice (they must agree)."""
        ref = {}
        for test in exercise.tests:
            if test.grade_id not in parts:
                continue
            for secret in self.secrets:
                first, err = self.observed(test.grade_id, parts[test.grade_id], secret)
                again, err2 = self.observed(test.grade_id, parts[test.grade_id], secret)
                if err or err2 or not first:
                    self.problems.append(f"{test.grade_id}: the solution's observation part raised or "
                                         f"observed nothing ({secret}): {err or err2}")
                elif (why := ob.judge(test.grade_id, first, again)) is not None:
                    self.problems.append(f"{test.grade_id}: the solution observes differently in two runs "
                                         f"({secret}): {why.detail}")
                ref[test.grade_id, secret] = first
        return ref

    def whole_cells_agree(self, exercise: Exercise, parts: dict[str, str], ref: dict) -> None:
        """The whole test cell, armed, observes what its observation part alone does (first secret)."""
        secret = self.secrets[0]
        for test in exercise.tests:
            if test.grade_id in parts:
                whole, err = self.observed(test.grade_id, test.source, secret)
                why = ob.judge(test.grade_id, ref[test.grade_id, secret], whole)
                if err or why is not None:
                    self.problems.append(f"{test.grade_id}: the whole cell observes otherwise than its "
                                         f"observation part alone: {err or why.detail}")

    def exercise(self, exercise: Exercise, mutants: list[catalogue.Mutant]) -> list[Verdict]:
        parts = {t.grade_id: p for t in exercise.tests if (p := observation_part(t)) is not None}
        if not parts:
            return []
        ref = self.reference(exercise, parts)
        self.whole_cells_agree(exercise, parts, ref)
        verdicts = []
        for mutant in mutants:
            if catalogue.needs_fresh_solution(exercise, mutant):
                self.kernel.run(exercise.source)
            defined = self.kernel.run(mutant.apply(exercise))
            if not defined.ok:
                self.problems.append(f"{exercise.grade_id}: mutant {mutant.name!r} does not define: "
                                     f"{defined.message}")
                continue
            kernel_says = {t.grade_id: self.kernel.run(t.source) for t in exercise.tests}
            for test in exercise.tests:
                if test.grade_id not in parts:
                    continue
                result = kernel_says[test.grade_id]
                verdict = Verdict(exercise.grade_id, mutant.name, test.grade_id, not result.ok, result.message)
                for secret in self.secrets:
                    got, err = self.cheat_observes(test.grade_id, parts[test.grade_id], secret)
                    why = ob.judge(test.grade_id, ref[test.grade_id, secret], got)
                    verdict.differs[secret] = (why.detail if why is not None
                                               else (f"raised {err}" if err else None))
                verdicts.append(verdict)
        self.problems += catalogue.restore(self.kernel, exercise)
        after = self.reference(exercise, parts)
        for key, payloads in ref.items():
            if (why := ob.judge(key[0], payloads, after[key])) is not None:
                self.problems.append(f"{key[0]}: after the mutants, the solution observes otherwise "
                                     f"({key[1]}): {why.detail}")
        return verdicts


def run(name: str, secrets: list[str], only: str | None = None, out=sys.stdout) -> int:
    path = source_of(name)
    nb = read(path)
    mutants = catalogue.load(path)
    started = time.monotonic()
    with Kernel(path.parent) as kernel:
        for i, cell in enumerate(nb.cells):
            if cell.cell_type == "code":
                result = kernel.run(cell.source)
                if not result.ok:
                    print(f"{nb_key(path)}: the solution notebook fails at cell {i}: {result.message}", file=out)
                    return 2
        power = Power(kernel, secrets)
        verdicts: list[Verdict] = []
        unobserved = []
        for exercise in exercises(nb):
            if only and exercise.grade_id != only:
                continue
            own = [m for m in mutants if m.exercise == exercise.grade_id]
            if not any(observation_part(t) for t in exercise.tests):
                unobserved.append(f"{exercise.grade_id} ({len(own)} mutants)")
                continue
            verdicts += power.exercise(exercise, own)
    print(f"{nb_key(path)}: {len({(v.exercise, v.mutant) for v in verdicts})} mutants of exercises whose cells "
          f"observe, {len(secrets)} secrets, {time.monotonic() - started:.0f} s", file=out)
    width = max((len(v.cell) for v in verdicts), default=10)
    heading = None
    for v in verdicts:
        if (v.exercise, v.mutant) != heading:
            heading = (v.exercise, v.mutant)
            print(f"  {v.exercise}: {v.mutant}", file=out)
        seen = len(v.differs) - len(v.missed)
        kernel = "rejects" if v.caught else "accepts"
        line = f"    {v.label:6} {v.cell:{width}}  kernel {kernel}, observations differ {seen}/{len(v.differs)}"
        if v.label == "MISSED":
            line += f"  (same for {', '.join(v.missed)}; the kernel said: {v.kernel_message[:160]})"
        elif v.label == "known":
            line += f"  (not observed: {v.known})"
        elif v.known:
            line += "  (listed in NOT_OBSERVED, but observed now: take it off)"
        print(line, file=out)
    if unobserved:
        print("  not observed: " + ", ".join(unobserved), file=out)
    missed = [v for v in verdicts if v.label == "MISSED"]
    uncaught = sorted({(v.exercise, v.mutant) for v in verdicts}
                      - {(v.exercise, v.mutant) for v in verdicts if v.caught})
    for exercise_id, mutant in uncaught:
        print(f"  note: no observing cell of {exercise_id} rejects {mutant!r} in the kernel "
              "(caught by a cell that does not observe)", file=out)
    for problem in power.problems:
        print(f"  PROBLEM {problem}", file=out)
    stale = [v for v in verdicts if v.known and v.label != "known"]
    print(f"{nb_key(path)}: {len(missed)} missed, {sum(v.label == 'known' for v in verdicts)} known not observed, "
          f"{sum(v.label == 'extra' for v in verdicts)} extra, {len(power.problems)} problems", file=out)
    if power.problems:
        return 2
    return 1 if missed or stale else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.observation_power", description=__doc__.split("\n\n")[0])
    parser.add_argument("notebooks", nargs="+", help="day1/00_environment, ...")
    parser.add_argument("--secrets", type=int, default=5, help="how many secrets (default 5)")
    parser.add_argument("--random", action="store_true", help="draw new secrets instead of power-0..")
    parser.add_argument("--exercise", help="only this exercise (its solution cell's grade_id)")
    args = parser.parse_args(argv)
    secrets = [ob.new_secret() if args.random else f"power-{i}" for i in range(args.secrets)]
    worst = 0
    for name in args.notebooks:
        status = run(name, secrets, args.exercise)
        worst = max(worst, status)
    return worst


if __name__ == "__main__":
    sys.exit(main())
