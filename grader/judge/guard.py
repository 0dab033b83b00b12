"""Proving, from outside the kernel, that every graded test cell ran as written.

A blank notebook plus a few lines that change how IPython runs or reports later cells would
otherwise score full marks: nbgrader counts a test cell as passed when it shows no error. Here a
test cell counts only when the grader has proof that it ran to its end, as the course wrote it,
in a clean kernel (the kernel-side half is :mod:`grader.judge.kernel_guard`):

1. Before the notebook's first cell the guard is installed silently, under a module name drawn at
   random for this run; it imports the course's helpers the test cells call and snapshots the
   objects the checks rely on, the names the course's cells import and its test cells read
   (:func:`course_names`) among them. After each of the course's locked cells it keeps the
   functions and classes that cell defined (:func:`course_definitions`, ``remember``).
2. Before each graded test cell a silent request *sanitizes* the kernel: every protected object is
   put back, IPython's transformers, custom exception handlers, trace and profile functions are
   switched off. Its reply must carry this request's nonce, or the cell cannot be trusted.
3. Each test cell runs with one line added at its end, reached only when every check before it
   passed; it prints a token with a per-cell nonce, what changed while the cell ran, and a hash of
   the code IPython really ran. The grader removes that line from the output.
4. The cell's points count only if it showed no error *and* its token came back with the right
   nonce, nothing protected changed while it ran, it was not traced, and the code that ran is the
   code that was sent. Otherwise it gets an error output saying why in plain words (so nbgrader
   scores it 0) and the notebook is flagged.
"""

from __future__ import annotations

import ast
import hashlib
import json
import re
import secrets
from dataclasses import dataclass, field
from pathlib import Path

from grader.records import Integrity, Voided
from ptcourse.messages import msg
from ptcourse.nbmodel import role

SOURCE = (Path(__file__).with_name("kernel_guard.py")).read_text()
TOKEN = re.compile(r"\x1ePTG (?P<nonce>[0-9a-f]+) (?P<report>\{.*?\})\x1e\n?", re.S)


def _sha(text: str) -> str:
    return hashlib.sha1(text.strip().encode()).hexdigest()


def _names(value) -> list[str] | None:
    """``value`` if it is a list of strings (what the kernel-side guard reports), else None."""
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return value
    return None


# What reading the kernel's untrusted replies can raise (a deep or huge value too): never a crash.
UNREADABLE = (KeyError, IndexError, TypeError, ValueError, SyntaxError, RecursionError, MemoryError)


def _well_formed(report) -> bool:
    """Whether a cell's token carries the report the kernel-side guard writes (``done``)."""
    return (isinstance(report, dict) and _names(report.get("changed")) is not None
            and isinstance(report.get("traced"), bool) and isinstance(report.get("ran"), str))


# -- the course's own names (parsed from its locked and test cells, which nbgrader restores) -----------
def _tree(source: str) -> ast.Module | None:
    try:
        return ast.parse(source)
    except (SyntaxError, ValueError):  # a magic, or a cell in another language: nothing to protect
        return None


def _imports(tree: ast.Module) -> list[tuple[str, str, str | None]]:
    """``(name, module, attribute or None)`` bound by the cell's imports (``import a.b`` binds ``a``)."""
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [(a.asname or a.name.split(".")[0], a.name if a.asname else a.name.split(".")[0], None)
                    for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            out += [(a.asname or a.name, node.module, a.name) for a in node.names if a.name != "*"]
    return out


def _assigned(tree: ast.Module) -> set[str]:
    """Names the cell binds other than by an import (assignments, loops, definitions, ``with ... as``)."""
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            out.add(node.id)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            out.add(node.name)
    return out


def course_names(nb) -> list[tuple[str, str, str | None]]:
    """The names the graded test cells use that the course's own cells (locked and test cells) bind by
    an import, each always to the same object: the kernel-side guard imports them before the notebook
    runs and puts them back in its namespace before each test cell (a notebook that rebinds
    ``DataLoader`` or ``predict`` changes no check)."""
    bound: dict[str, set[tuple[str, str | None]]] = {}
    other: set[str] = set()
    used: set[str] = set()
    for cell in nb.cells:
        kind = role(cell) if cell.get("cell_type") == "code" else "free"
        tree = _tree(cell.source) if kind in ("locked", "test") else None
        if tree is None:
            continue
        for name, module, attr in _imports(tree):
            bound.setdefault(name, set()).add((module, attr))
        other |= _assigned(tree)
        if kind == "test":
            used |= {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
    return sorted((name, *next(iter(src))) for name, src in bound.items()
                  if name in used and name not in other and len(src) == 1)


def course_definitions(source: str) -> list[str]:
    """The functions and classes a course's locked cell defines at its top level."""
    tree = _tree(source)
    return sorted(n.name for n in (tree.body if tree else ())
                  if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)))


@dataclass
class CellVerdict:
    """What the guard says of one test cell."""

    grade_id: str
    ok: bool
    reason: str = ""  # a catalogue message when not ok
    detail: str = ""  # for the instructor


@dataclass
class Guard:
    """The grader's side of one notebook's guard."""

    name: str = field(default_factory=lambda: "_ptg_" + secrets.token_hex(8))
    names: list[tuple[str, str, str | None]] = field(default_factory=list)  # course_names()
    installed: bool = False
    restored: set[str] = field(default_factory=set)  # protected objects the notebook had replaced
    machinery: set[str] = field(default_factory=set)  # execution machinery switched off for the checks
    harmful: set[str] = field(default_factory=set)  # of that, what would have changed or hidden a check
    settings: set[str] = field(default_factory=set)  # the learner's settings put back for the checks (no forge)
    verdicts: list[CellVerdict] = field(default_factory=list)

    # -- code sent to the kernel ---------------------------------------------------------------
    def install_code(self) -> tuple[str, str]:
        """Code and user expression that install the guard; the expression returns its name."""
        names = [list(n) for n in self.names]
        code = (f"(lambda ns: (exec({SOURCE!r}, ns), ns['_install']({self.name!r}, {names!r})))"
                f"({{'get_ipython': get_ipython}})")
        return code, f"__import__('sys').modules[{self.name!r}].__name__"

    def remember_code(self, names: list[str]) -> tuple[str, str]:
        """After a course's locked cell: its functions and classes are put back before each test cell."""
        return "pass", f"__import__({self.name!r}).remember({names!r})"

    def sanitize_code(self) -> tuple[str, str, str]:
        nonce = secrets.token_hex(8)
        return "pass", f"__import__({self.name!r}).sanitize({nonce!r})", nonce

    def wrap(self, source: str) -> tuple[str, str, str]:
        """The test cell as sent: its code, then the attesting line. Returns (code, nonce, hash)."""
        nonce = secrets.token_hex(8)
        code = source.rstrip("\n") + f"\n__import__({self.name!r}).done({nonce!r})\n"
        return code, nonce, _sha(code)

    # -- what came back --------------------------------------------------------------------------
    def sanitized(self, reply: dict | None, nonce: str) -> bool:
        """Read a sanitize reply; False when it cannot be trusted: missing, of another request, or
        not the report the guard writes (a guard whose state the notebook reached may answer
        ``None`` or anything else). The cell then earns nothing, as tampering; never a crash."""
        try:
            result = reply["content"]["user_expressions"]["r"]
            data = json.loads(ast.literal_eval(result["data"]["text/plain"]))
        except UNREADABLE:
            return False
        if not isinstance(data, dict) or data.get("nonce") != nonce:
            return False
        found = [_names(data.get(key)) for key in ("restored", "machinery", "harmful")]
        if any(names is None for names in found):
            return False
        restored, machinery, harmful = found
        settings = _names(data.get("settings", []))
        if settings is None:
            return False
        self.restored.update(restored)
        self.machinery.update(machinery)
        self.harmful.update(harmful)
        self.settings.update(settings)
        return True

    @staticmethod
    def take_token(text: str) -> tuple[str, list[tuple[str, dict]]]:
        """Remove the attesting lines from a stream's text; return the rest and the tokens."""
        found = []
        for match in TOKEN.finditer(text):
            try:
                found.append((match.group("nonce"), json.loads(match.group("report"))))
            except (ValueError, RecursionError):
                continue
        return TOKEN.sub("", text), found

    def judge(self, grade_id: str, has_error: bool, clean: bool, tokens: list[tuple[str, dict]],
              nonce: str, sent_hash: str) -> CellVerdict:
        """Whether a test cell's result can be trusted (a failing cell needs no proof)."""
        if has_error:
            verdict = CellVerdict(grade_id, True)
        elif not clean:
            verdict = CellVerdict(grade_id, False, msg("grader.integrity.unverified"),
                                  "sanitize reply missing or unreadable")
        else:
            report = next((r for n, r in tokens if n == nonce), None)
            if report is None:
                verdict = CellVerdict(grade_id, False, msg("grader.integrity.not_attested"), "no token")
            elif not _well_formed(report):
                verdict = CellVerdict(grade_id, False, msg("grader.integrity.not_attested"), "malformed token")
            elif report.get("changed"):
                what = ", ".join(report["changed"][:4])
                verdict = CellVerdict(grade_id, False, msg("grader.integrity.changed_during", what=what), what)
            elif report.get("traced"):
                verdict = CellVerdict(grade_id, False, msg("grader.integrity.not_attested"), "traced frame")
            elif report.get("ran") != sent_hash:
                verdict = CellVerdict(grade_id, False, msg("grader.integrity.not_attested"),
                                      "the code that ran differs from the code sent")
            else:
                verdict = CellVerdict(grade_id, True)
        self.verdicts.append(verdict)
        return verdict

    def summary(self) -> Integrity:
        return Integrity(installed=self.installed, restored=tuple(sorted(self.restored)),
                         machinery=tuple(sorted(self.machinery)), harmful=tuple(sorted(self.harmful)),
                         voided=tuple(Voided(v.grade_id, v.reason, v.detail) for v in self.verdicts if not v.ok),
                         settings=tuple(sorted(self.settings)))
