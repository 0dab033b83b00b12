"""The repair step: a submission is rebuilt on the course's own structure before nbgrader sees it.

Honest accidents break nbgrader: a copied exercise cell (two cells share a ``grade_id``), a copied
test cell, an editor that drops cell metadata, a cell the course does not know, cells moved
around, a cell turned into markdown by a stray key press. Here the *structure* of the graded
notebook (which cells are graded, their points, ids, types and test code) always comes from the
course (:mod:`ptcourse.nbmodel`); the learner's file supplies only the code of the answer cells
and the learner's own free cells. Learner metadata (points, ``grade``, ``locked``, checksums) is
never trusted.

Answer cells are matched by ``grade_id`` first; where metadata is missing or duplicated, by what
the cell defines (the function or class the exercise asks for) and then by position between the
course's cells around it. With duplicates, the copy the learner worked on last (the later one,
unless it is still the untouched stub) is graded. Every repair becomes a plain-words note.
"""

from __future__ import annotations

import copy
import itertools
import re
from dataclasses import dataclass, field

import nbformat

from ptcourse.messages import msg
from ptcourse.nbmodel import CourseNotebook, defined_names, grade_ids, nbgrader_meta, role


def _norm(source) -> str:
    if isinstance(source, list):
        source = "".join(source)
    return re.sub(r"[ \t]+\n", "\n", str(source or "")).strip()


@dataclass
class Repaired:
    """The notebook nbgrader will grade, and what was done to get it."""

    nb: nbformat.NotebookNode
    notes: list[str] = field(default_factory=list)  # plain words, for the learner and the instructor
    changed: bool = False


@dataclass
class _Cell:
    index: int
    cell_type: str
    source: str
    grade_id: str | None
    names: set[str]


def _learner_cells(nb) -> list[_Cell]:
    out = []
    for i, cell in enumerate(nb.get("cells", [])):
        if not isinstance(cell, dict):
            continue
        source = cell.get("source", "")
        source = "".join(source) if isinstance(source, list) else str(source or "")
        kind = cell.get("cell_type", "code")
        gid = nbgrader_meta(cell).get("grade_id")
        names = defined_names(source) if kind in ("code", "markdown") and source.strip() else set()
        out.append(_Cell(i, kind, source, gid if isinstance(gid, str) else None, names))
    return out


def _code_lines(source: str) -> list[str]:
    return [ln.strip() for ln in source.splitlines() if ln.strip() and not ln.strip().startswith("#")]


def _untouched(source: str, stub: str) -> bool:
    """Still the course's stub: the same code, or only ``raise NotImplementedError`` added to nothing."""
    lines = _code_lines(source)
    return lines == _code_lines(stub) or (
        any("NotImplementedError" in ln for ln in lines) and len(lines) <= len(_code_lines(stub)))


def _pick(candidates: list[_Cell], stub: str) -> _Cell:
    """The copy the learner worked on last: the later one, unless it is still the stub."""
    worked = [c for c in candidates if not _untouched(c.source, stub)]
    return (worked or candidates)[-1]


def _ordinal(n: int) -> str:
    return msg(f"grader.ordinal.{n}") if 1 <= n <= 5 else str(n)


def _duplicate_note(exercise: str, candidates: list[_Cell], chosen: _Cell) -> str:
    key = "grader.repair.duplicate_answer" if chosen is candidates[-1] else "grader.repair.duplicate_answer_stub"
    return msg(key, exercise=exercise, times=len(candidates), which=_ordinal(candidates.index(chosen) + 1))


def repair(submitted, master: CourseNotebook) -> Repaired:
    """Rebuild ``submitted`` on ``master``'s structure; see the module's docstring."""
    m = _Matching(submitted, master)
    m.by_grade_id()
    unknown = sorted({c.grade_id for c in m.learner if c.grade_id and c.grade_id not in m.known})
    if unknown:
        m.notes.append(msg("grader.repair.unknown_cells", ids=", ".join(unknown)))
    m.by_identical_content()
    by_content = m.answers_by_names_or_position()
    if by_content:
        m.notes.insert(0, msg("grader.repair.lost_metadata", count=by_content))
    missing_checks = [m.mid[i] for i in range(len(m.mcells)) if m.mrole[i] == "test" and i not in m.match]
    if missing_checks:
        m.notes.append(msg("grader.repair.missing_checks", ids=", ".join(missing_checks)))
    for i in range(len(m.mcells)):
        if m.mrole[i] == "solution" and i in m.match and m.match[i].cell_type != "code":
            m.notes.append(msg("grader.repair.cell_type", exercise=m.label(i)))
    own = m.learners_own_cells()
    if _moved(m.match):
        m.notes.append(msg("grader.repair.reordered"))
    out = _build(master, m.mrole, m.match, own)
    changed = bool(m.notes) or _fingerprint(submitted) != _fingerprint(out)
    return Repaired(out, m.notes, changed)


class _Matching:
    """The course's cells matched to the learner's (``match``: course index -> learner cell), step by step."""

    def __init__(self, submitted, master: CourseNotebook):
        self.submitted, self.master = submitted, master
        self.learner = _learner_cells(submitted)
        self.mcells = master.nb.cells
        self.mrole = [role(c) for c in self.mcells]
        self.mid = [nbgrader_meta(c).get("grade_id") for c in self.mcells]
        self.labels = master.exercise_labels()
        self.known = {g for g in self.mid if g}
        self.notes: list[str] = []
        self.match: dict[int, _Cell] = {}
        self.used: set[int] = set()

    def label(self, i: int) -> str:
        return self.labels.get(self.mid[i], self.mid[i])

    def by_grade_id(self) -> None:
        """1. By grade id."""
        by_gid: dict[str, list[_Cell]] = {}
        for cell in self.learner:
            if cell.grade_id:
                by_gid.setdefault(cell.grade_id, []).append(cell)
        for i, gid in enumerate(self.mid):
            if not gid or gid not in by_gid:
                continue
            candidates = by_gid[gid]
            if self.mrole[i] == "solution":
                chosen = _pick(candidates, self.mcells[i].source)
                if len(candidates) > 1:
                    self.notes.append(_duplicate_note(self.labels.get(gid, gid), candidates, chosen))
            else:
                chosen = candidates[0]
                if len(candidates) > 1:
                    self.notes.append(msg("grader.repair.duplicate_check", check=gid, times=len(candidates)))
            self.match[i] = chosen
            self.used.update(c.index for c in candidates)

    def by_identical_content(self) -> None:
        """2. Course cells by identical content (tests, locked cells, explanations, demos)."""
        for i, cell in enumerate(self.mcells):
            if i in self.match or self.mrole[i] == "solution":
                continue
            want = _norm(cell.source)
            if not want:
                continue
            for lc in self.learner:
                if lc.index not in self.used and _norm(lc.source) == want and self.free(lc):
                    self.match[i] = lc
                    self.used.add(lc.index)
                    break

    def free(self, lc: _Cell) -> bool:
        """A learner's cell with no grade id of the course."""
        return lc.grade_id is None or lc.grade_id not in self.known

    def anchors_around(self, i: int) -> tuple[int, int]:
        before = max((self.match[j].index for j in self.match if j < i), default=-1)
        after = min((self.match[j].index for j in self.match if j > i), default=len(self.submitted.get("cells", [])))
        return before, after

    def answers_by_names_or_position(self) -> int:
        """3. Answers without usable metadata: by the names they define, then by position. How many."""
        found = 0
        for i in range(len(self.mcells)):
            if self.mrole[i] != "solution" or i in self.match:
                continue
            exercise = next((e for e in self.master.exercises if e.grade_id == self.mid[i]), None)
            names = exercise.names if exercise else set()
            free = [lc for lc in self.learner if lc.index not in self.used and self.free(lc)]
            candidates = [lc for lc in free if names and lc.names & names]
            how = "names"
            if not candidates:
                before, after = self.anchors_around(i)
                candidates = [lc for lc in free if before < lc.index < after and lc.cell_type == "code"
                              and lc.source.strip()]
                how = "position"
            if not candidates:
                continue
            chosen = _pick(candidates, self.mcells[i].source)
            if len(candidates) > 1 and how == "names":
                self.notes.append(_duplicate_note(self.label(i), candidates, chosen))
                self.used.update(c.index for c in candidates)
            self.used.add(chosen.index)
            self.match[i] = chosen
            found += 1
            if how == "position":
                self.notes.append(msg("grader.repair.answer_by_position", exercise=self.label(i)))
        return found

    def learners_own_cells(self) -> dict[int, list[_Cell]]:
        """The learner's own cells, each after the course cell that came before it in their file (-1: first)."""
        slot_of = {lc.index: i for i, lc in self.match.items()}
        own: dict[int, list[_Cell]] = {}
        current = -1
        for lc in self.learner:
            if lc.index in slot_of:
                current = slot_of[lc.index]
            elif lc.index not in self.used:
                own.setdefault(current, []).append(lc)
        return own


def _own_cell(lc: _Cell, number: int):
    """A learner's own cell, as it was, with the id ``own-<number>``."""
    if lc.cell_type == "markdown":
        cell = nbformat.v4.new_markdown_cell(lc.source)
    elif lc.cell_type == "raw":
        cell = nbformat.v4.new_raw_cell(lc.source)
    else:
        cell = nbformat.v4.new_code_cell(lc.source)
    cell["id"] = f"own-{number}"
    return cell


def _build(master: CourseNotebook, mrole: list[str], match: dict[int, _Cell], own: dict[int, list[_Cell]]):
    """4. Build: the course's cells in course order; the learner's own cells after the course cell
    that came before them in their file."""
    out = nbformat.v4.new_notebook()
    out.metadata = copy.deepcopy(master.nb.metadata)
    number = itertools.count(1)
    for lc in own.get(-1, []):
        out.cells.append(_own_cell(lc, next(number)))
    for i, mc in enumerate(master.nb.cells):
        kind = mrole[i]
        if kind == "free" and i not in match and mc.cell_type == "code":
            pass  # a demo cell the learner deleted or edited (an edited one comes back as their own)
        else:
            cell = copy.deepcopy(mc)
            if kind == "solution" and i in match:
                cell.source = match[i].source
            if kind == "free" and i in match and mc.cell_type == "code":
                cell.source = match[i].source
            if cell.cell_type == "code":
                cell.outputs, cell.execution_count = [], None
            out.cells.append(cell)
        for lc in own.get(i, []):
            out.cells.append(_own_cell(lc, next(number)))
    return out


def _moved(match: dict[int, _Cell]) -> bool:
    """Whether the learner's file had the course's graded cells in another order."""
    order = [match[i].index for i in sorted(match)]
    return any(b < a for a, b in zip(order, order[1:], strict=False))


def _fingerprint(nb) -> list[tuple[str, str, str]]:
    return [(c.get("cell_type", ""), str(nbgrader_meta(c).get("grade_id")), _norm(c.get("source", "")))
            for c in nb.get("cells", []) if isinstance(c, dict)]


def identify(nb, course: dict[str, CourseNotebook]) -> str | None:
    """The course notebook this file is a copy of: by grade ids, else by its cells' content."""
    ids = grade_ids(nb)
    best, best_score = None, 0
    cells = _learner_cells(nb)
    sources = {_norm(c.source) for c in cells if c.source.strip()}
    names = set().union(*(c.names for c in cells)) if cells else set()
    for name, master in course.items():
        score = 10 * len(ids & master.grade_ids)
        score += sum(1 for c in master.nb.cells if role(c) != "solution" and _norm(c.source) in sources
                     and len(_norm(c.source)) > 20)
        score += 2 * sum(1 for e in master.exercises if e.names & names)
        if score > best_score:
            best, best_score = name, score
    return best if best_score >= 3 else None
