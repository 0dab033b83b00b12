"""Plausible wrong answers ("mutants") and the machinery to prove the tests reject them.

Each notebook has a catalogue, ``tests/mutants/<day>/<notebook>.py``, defining ``MUTANTS``: a
list of :class:`Mutant`. A mutant names the exercise (the solution cell's ``grade_id``), a
change to its solution code, and words that the feedback must contain so the learner is told
what is wrong in plain words.

Each mutant also declares ``caught_by``: ``"visible"`` if the visible part of the exercise's
tests (what the learner's copy runs) already rejects it, ``"hidden"`` if only the hidden tests
do; and ``msgid``, the catalogue id of the failing message. :func:`try_mutant` observes both
and the suite requires the declarations to match; ``python -m tools.mutants write
RECORD.jsonl`` writes observed values (from a run with ``PTCOURSE_MUTANT_RECORD=RECORD.jsonl``)
into the catalogues.
"""

from __future__ import annotations

import ast
import importlib.util
import json
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

from ptcourse.nbmodel import defined_names, strip_hidden_tests
from tools.notebooks import ROOT, Exercise, TestCell, strip_solution_markers

CATALOGUES = ROOT / "tests" / "mutants"
CAUGHT_BY = ("visible", "hidden")


@dataclass
class Mutant:
    """A wrong answer to one exercise.

    ``replace`` is a list of ``(old, new)`` edits applied in order to the solution source
    (each ``old`` must occur); ``code`` replaces the whole cell instead. ``expect`` is a
    regular expression (case-insensitive) that the failing test's message must match.
    """

    exercise: str
    name: str
    expect: str
    replace: list[tuple[str, str]] = field(default_factory=list)
    code: str | None = None
    caught_by: str | None = None  # "visible" or "hidden": which tests reject it (observed, then declared)
    msgid: str | None = None  # the catalogue id of the failing message (None: not a catalogue message)

    def apply(self, exercise: Exercise) -> str:
        """The mutated cell source."""
        if self.code is not None:
            return self.code
        source = strip_solution_markers(exercise.source)
        for old, new in self.replace:
            if old not in source:
                raise ValueError(f"mutant {self.name!r}: {old!r} not found in {exercise.grade_id}")
            source = source.replace(old, new)
        if source == strip_solution_markers(exercise.source):
            raise ValueError(f"mutant {self.name!r} changes nothing")
        return source

    def matches(self, message: str) -> bool:
        return re.search(self.expect, message, re.I | re.S) is not None


def catalogue_path(notebook: Path) -> Path:
    return CATALOGUES / notebook.parent.name / f"{notebook.stem}.py"


def load(notebook: Path) -> list[Mutant]:
    """The mutants of one notebook (empty if it has no catalogue)."""
    path = catalogue_path(notebook)
    if not path.exists():
        return []
    spec = importlib.util.spec_from_file_location(f"mutants_{notebook.parent.name}_{notebook.stem}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return list(module.MUTANTS)


# ---------------------------------------------------------------------------------------------
# Trying a mutant in a live kernel


# Read in the kernel after a failed cell: the catalogue id of the error IPython kept (see
# ptcourse.checks.CheckFailed.message_id).
LAST_MESSAGE_ID = "import sys as _s; print(getattr(getattr(_s, 'last_value', None), 'message_id', None)); del _s"


@dataclass
class Failure:
    """A graded cell that failed: its points, the message and the message's catalogue id."""

    test: TestCell
    message: str
    msgid: str | None


@dataclass
class Outcome:
    """What a mutant did to its exercise's tests."""

    defined_ok: bool
    defined_message: str = ""
    caught_by: str | None = None  # None: no failure that loses points and names the mistake
    failures: list[Failure] = field(default_factory=list)  # of the stage that decided
    msgid: str | None = None  # of the first failure whose message matches ``expect``
    runs: int = 0  # cells executed (the mutant's own cell included)

    @property
    def lost(self) -> float:
        return sum(f.test.points for f in self.failures)

    @property
    def messages(self) -> str:
        return "\n".join(f.message for f in self.failures)


def visible_part(test: TestCell) -> str:
    """The test cell as the learner's copy has it (itself when it has no hidden part)."""
    return strip_hidden_tests(test.source)


def _run_test(kernel, test: TestCell, source: str) -> Failure | None:
    result = kernel.run(source)
    if result.ok:
        return None
    msgid = None
    if result.ename == "CheckFailed":
        probe = kernel.run(LAST_MESSAGE_ID)
        msgid = probe.stdout.strip() or None
        msgid = None if msgid == "None" else msgid
    return Failure(test, result.message, msgid)


def _decide(mutant: Mutant, failures: list[Failure]) -> str | None:
    """The msgid of the first point-losing failure that names the mistake ("" if it has no id)."""
    for f in failures:
        if f.test.points > 0 and mutant.matches(f.message):
            return f.msgid or ""
    return None


def try_mutant(kernel, exercise: Exercise, mutant: Mutant) -> Outcome:
    """Define the mutant in ``kernel``; run the visible tests, then the hidden ones only if needed.

    Stage 1 runs the visible part of each test cell of the exercise, in order. As soon as a cell
    worth points fails there with a message matching ``expect``, the mutant is caught by a
    visible test (the cells after it are not run). Otherwise stage 2 runs the full cells that
    have a hidden part (a cell without one was its own visible part, already run) and the
    mutant must be caught there. The solution is not restored: see :func:`restore`.
    """
    defined = kernel.run(mutant.apply(exercise))
    outcome = Outcome(defined.ok, defined.message, runs=1)
    if not defined.ok:
        return outcome
    stage1: dict[str, Failure | None] = {}
    for test in exercise.tests:
        failure = stage1[test.grade_id] = _run_test(kernel, test, visible_part(test))
        outcome.runs += 1
        if failure is not None:
            outcome.failures.append(failure)
            found = _decide(mutant, [failure])
            if found is not None:  # caught: the cells after it need not run
                outcome.caught_by, outcome.msgid = "visible", found or None
                return outcome
    failures = []
    for test in exercise.tests:
        if visible_part(test) == test.source:
            failure = stage1[test.grade_id]
        else:
            failure = _run_test(kernel, test, test.source)
            outcome.runs += 1
        if failure is not None:
            failures.append(failure)
            found = _decide(mutant, [failure])
            if found is not None:
                outcome.caught_by, outcome.msgid = "hidden", found or None
                break
    outcome.failures = failures
    return outcome


def restore(kernel, exercise: Exercise) -> list[str]:
    """Re-run the solution cell and every test cell of the exercise; the problems (empty if none)."""
    problems = []
    again = kernel.run(exercise.source)
    if not again.ok:
        return [f"restoring {exercise.grade_id} failed: {again.message}"]
    for test in exercise.tests:
        result = kernel.run(test.source)
        if not result.ok:
            problems.append(f"after restoring the solution, {test.grade_id} fails: {result.message}")
    return problems


def needs_fresh_solution(exercise: Exercise, mutant: Mutant) -> bool:
    """Whether the solution cell must run before this mutant when another mutant ran before it.

    A mutant cell that defines every name the solution cell defines replaces all the previous
    mutant left; one that defines fewer (a ``code=`` answer without a helper) would inherit the
    previous mutant's version of the others, so the solution is run first.
    """
    solution = defined_names(strip_solution_markers(exercise.source))
    return not solution <= defined_names(mutant.apply(exercise))


# ---------------------------------------------------------------------------------------------
# Writing observed declarations back into the catalogues


def record(path: str, notebook: Path, mutant: Mutant, outcome: Outcome) -> None:
    """Append one observation (a JSON line) to ``path``."""
    with open(path, "a", encoding="utf-8") as out:
        out.write(json.dumps({
            "catalogue": str(catalogue_path(notebook).relative_to(ROOT)),
            "exercise": mutant.exercise, "name": mutant.name,
            "caught_by": outcome.caught_by, "msgid": outcome.msgid,
        }) + "\n")


def _literal(node):
    try:
        return ast.literal_eval(node)
    except ValueError:
        return None


def write_declarations(records: list[dict]) -> list[str]:
    """Set ``caught_by=`` and ``msgid=`` of each recorded mutant in its catalogue file.

    Each ``Mutant(...)`` call is found by its literal exercise and name; its old ``caught_by``
    and ``msgid`` keywords are dropped and the observed ones appended. Returns what it could
    not place.
    """
    by_file: dict[str, dict[tuple[str, str], dict]] = {}
    for r in records:
        if r["caught_by"] is not None:
            by_file.setdefault(r["catalogue"], {})[(r["exercise"], r["name"])] = r
    missed = []
    for rel, wanted in by_file.items():
        path = ROOT / rel
        text = path.read_text(encoding="utf-8")
        lines = text.splitlines(keepends=True)
        starts = [0]
        for line in lines:
            starts.append(starts[-1] + len(line))

        def offset(lineno, col, starts=starts, lines=lines):
            return starts[lineno - 1] + len(lines[lineno - 1].encode()[:col].decode())

        edits = []
        for node in ast.walk(ast.parse(text)):
            if not (isinstance(node, ast.Call) and getattr(node.func, "id", None) == "Mutant"):
                continue
            key = tuple(_literal(a) for a in node.args[:2])
            r = wanted.pop(key, None)
            if r is None:
                continue
            for kw in node.keywords:
                if kw.arg in ("caught_by", "msgid"):
                    # from the comma before the keyword to the end of its value
                    start = text.rfind(",", 0, offset(kw.value.lineno, kw.value.col_offset) - len(kw.arg) - 1)
                    edits.append((start, offset(kw.value.end_lineno, kw.value.end_col_offset), ""))
            end = offset(node.end_lineno, node.end_col_offset) - 1  # the closing parenthesis
            while text[end - 1] in " \n":
                end -= 1
            extra = f"caught_by={json.dumps(r['caught_by'])}"
            if r["msgid"]:
                extra += f", msgid={json.dumps(r['msgid'])}"
            extra = extra if text[end - 1] in ",(" else ", " + extra
            edits.append((end, end, extra))
        for start, stop, new in sorted(edits, reverse=True):
            text = text[:start] + new + text[stop:]
        path.write_text(text, encoding="utf-8")
        missed += [f"{rel}: {e} / {n}" for e, n in wanted]
    return missed


if __name__ == "__main__":  # python -m tools.mutants write RECORD.jsonl
    if len(sys.argv) != 3 or sys.argv[1] != "write":
        sys.exit("usage: python -m tools.mutants write RECORD.jsonl")
    rows = [json.loads(line) for line in Path(sys.argv[2]).read_text().splitlines() if line.strip()]
    left = write_declarations(rows)
    print(f"{len(rows)} observations written" + (";\nnot placed:\n" + "\n".join(left) if left else ""))
