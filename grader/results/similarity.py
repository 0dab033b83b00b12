"""Similar answers across a class: which pairs of students to look at, per exercise.

Answers are compared with ``copydetect`` (winnowing fingerprints over Pygments tokens, the
method of MOSS): names become one placeholder, strings another, comments and layout vanish, so
renamed variables and moved whitespace do not hide a copy, and k-grams inside lines survive lines
put in another order. Before comparing, the fingerprints of *boilerplate* are removed from every
answer:

* the course's starter code (the stub in the student copy) and the model solution;
* code that more than :data:`COMMON_SHARE` of the class's answers share (MOSS's ``-m``): what
  every correct answer looks like is no sign of copying.

Answer cells come from the repair step (:mod:`grader.intake.repair`), which maps a learner's cells onto
the course's structure by grade id (English and Chinese copies share them, and their code), so
nothing is executed. A pair is listed when the shared part is at least :data:`MIN_SHARED` tokens
and at least ``threshold`` of one of the two answers. Similarity is a reason to look, not a verdict.
"""

from __future__ import annotations

import io
from collections import Counter
from dataclasses import dataclass
from itertools import combinations
from pathlib import Path

import numpy as np

from grader.intake import repair, submissions
from ptcourse import nbmodel
from ptcourse.messages import speaking

K = 20  # k-gram length in filtered characters (copydetect's noise threshold)
WINDOW = 4  # winnowing window: any shared run of K + WINDOW - 1 characters is found
THRESHOLD = 0.5  # a pair is listed from this share of one answer's fingerprinted code
MIN_SHARED = 40  # ... and at least this many shared filtered characters (about two lines of code)
COMMON_SHARE = 0.5  # code in more than this share of the answers (and in three or more) is boilerplate


@dataclass(frozen=True)
class Answer:
    """One student's answer to one exercise."""

    student: str
    notebook: str
    exercise: str  # the solution cell's grade id
    code: str
    lang: str


@dataclass(frozen=True)
class Pair:
    """Two answers above the threshold, with the lines that match (1-based line numbers)."""

    a: Answer
    b: Answer
    share_a: float  # share of a's fingerprinted code also in b
    share_b: float
    lines_a: frozenset[int]
    lines_b: frozenset[int]

    @property
    def share(self) -> float:
        return max(self.share_a, self.share_b)


@dataclass(frozen=True)
class ExerciseResult:
    """One exercise: how many answers were compared, and the pairs to look at."""

    notebook: str
    exercise: str
    label: str  # "Exercise 3 · autograd_softplus"
    compared: int
    pairs: tuple[Pair, ...]


@dataclass(frozen=True)
class Report:
    day: str
    threshold: float
    exercises: tuple[ExerciseResult, ...]

    @property
    def pairs(self) -> list[Pair]:
        return [p for e in self.exercises for p in e.pairs]


def _fingerprint(code: str, window: int, boilerplate: np.ndarray | None = None):
    from copydetect import CodeFingerprint

    return CodeFingerprint("answer.py", K, window, boilerplate=boilerplate, fp=io.StringIO(code))


def all_hashes(code: str) -> np.ndarray:
    """Every k-gram hash of ``code`` (copydetect's way of fingerprinting boilerplate)."""
    return np.array(sorted(_fingerprint(code, 1).hashes), dtype=np.int64)


def answers_of(subs: list[submissions.Submission], masters: dict[str, nbmodel.CourseNotebook]) -> list[Answer]:
    """Each submission's answer cells, rebuilt on the course's structure (nothing is run)."""
    found = []
    for sub in subs:
        if sub.nb is None or sub.notebook not in masters:
            continue
        master = masters[sub.notebook]
        with speaking(sub.lang):
            nb = repair.repair(sub.nb, master).nb  # a repaired notebook comes back the same
        solution_ids = {e.grade_id for e in master.exercises}
        for cell in nb.cells:
            gid = nbmodel.nbgrader_meta(cell).get("grade_id")
            if gid in solution_ids and cell.cell_type == "code":
                found.append(Answer(sub.student, sub.notebook, gid, cell.source, sub.lang))
    return found


def boilerplate(exercise: nbmodel.Exercise) -> str:
    """The starter code and the model solution of one exercise."""
    return nbmodel.stub_solution(exercise.source) + "\n" + nbmodel.strip_solution_markers(exercise.source)


def _lines(code: str, slices: np.ndarray, base: set[str]) -> frozenset[int]:
    """The lines of ``code`` that the matched slices touch, leaving out lines of the boilerplate."""
    slices = np.asarray(slices)
    if slices.ndim != 2 or slices.size == 0:
        return frozenset()
    text = code.split("\n")
    lines: set[int] = set()
    for start, end in zip(*slices, strict=True):
        first = code.count("\n", 0, int(start)) + 1
        last = code.count("\n", 0, max(int(start), int(end) - 1)) + 1
        lines.update(n for n in range(first, last + 1) if text[n - 1].strip() not in base)
    return frozenset(lines)


def compare(answers: list[Answer], base: str, threshold: float = THRESHOLD) -> tuple[int, list[Pair]]:
    """The pairs among ``answers`` (one exercise) above ``threshold``; and how many were compared."""
    from copydetect import compare_files

    bp = all_hashes(base)
    first = {i: _fingerprint(a.code, WINDOW, bp) for i, a in enumerate(answers)}
    live = [i for i, f in first.items() if f.hashes]  # stubs and model answers leave nothing
    counts = Counter(h for i in live for h in first[i].hashes)
    common = [h for h, n in counts.items() if n >= 3 and n > COMMON_SHARE * len(live)]
    if common:
        bp = np.unique(np.concatenate([bp, np.array(common, dtype=np.int64)]))
        first = {i: _fingerprint(answers[i].code, WINDOW, bp) for i in live}
    base_lines = {line.strip() for line in base.split("\n")}
    pairs = []
    for i, j in combinations(live, 2):
        a, b = answers[i], answers[j]
        if a.student == b.student or not first[i].hashes or not first[j].hashes:
            continue
        shared, (share_a, share_b), (slices_a, slices_b) = compare_files(first[i], first[j])
        if shared and shared >= MIN_SHARED and max(share_a, share_b) >= threshold:
            pairs.append(Pair(a, b, float(share_a), float(share_b),
                              _lines(a.code, slices_a, base_lines), _lines(b.code, slices_b, base_lines)))
    pairs.sort(key=lambda p: -p.share)
    return len(live), pairs


def for_class(day: str, subs: list[submissions.Submission], masters: dict[str, nbmodel.CourseNotebook],
              threshold: float = THRESHOLD) -> Report:
    """Every exercise of ``day`` compared across the class's submissions ``subs``."""
    answers = answers_of(subs, masters)
    results = []
    for name, master in masters.items():
        for exercise in master.exercises:
            mine = [a for a in answers if a.notebook == name and a.exercise == exercise.grade_id]
            compared, pairs = compare(mine, boilerplate(exercise), threshold)
            results.append(ExerciseResult(name, exercise.grade_id, exercise.label, compared, tuple(pairs)))
    return Report(day, threshold, tuple(results))


def for_folder(day: str, folder: Path, source: Path, threshold: float = THRESHOLD) -> Report:
    """The same for a submissions folder (either layout :mod:`grader.intake.submissions` reads)."""
    masters = nbmodel.course_notebooks(source)
    return for_class(day, submissions.discover(Path(folder), day, masters), masters, threshold)
