"""Grades an instructor can trust: honest accidents lose nothing, cheats earn nothing, secrets stay in.

Three catalogues, each graded through the command line as an instructor would:

* ``tools/accidents.py``: what editors and learners do by accident; each scores exactly
  what the clean copy of the same work scores, with a plain-words note;
* ``tests/harness/redteam.py``: cheats on a notebook with no real work; each earns 0 for every
  check (and, graded without the guard and the second key, most of them would have earned points):
  the guard stops those aimed at how the checks run, the second key (the grader's own comparison on
  fresh inputs) those that fool the checks themselves; a solved notebook using the same APIs
  harmlessly keeps full marks;
* the grading machine gives nothing away: no environment secret reaches a kernel, links are never
  followed, a rerun with other limits grades again.

The accident class is of ``day1/00_environment``, the cheapest notebook to run (0.3 s of cells per
job, ``01_tensors``' 4 s): the accidents are edits of any notebook's cells and metadata. The red-team
cheats stay on ``01_tensors``: on ``00_environment`` the always-equal cheat still earns the two
``env_diagnose`` checks with the guard on (they compare with ``==``), and its answers are functions,
which the zeros cheats cannot fake. The harmless uses, which need a solved notebook and no answer of
a kind, are graded on ``00_environment`` in the same run (every solution notebook, ``01_tensors``
included, is shown unflagged by the guard in tests/test_roundtrip.py). The repair step's fast tests
run on both notebooks.
"""

from __future__ import annotations

import dataclasses
import json
import os
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import nbformat
import pytest

from grader.intake import repair, submissions
from grader.jail.sandbox import kernel_env
from grader.judge import guard
from grader.records import Integrity
from grader.run import engine, jobs
from ptcourse.messages import msg
from ptcourse.nbmodel import course_notebooks, nbgrader_meta, role
from tests.harness import redteam
from tools import accidents
from tools.classroom import mutated, solved, untouched, write_class
from tools.notebooks import ROOT

DAY, NB = "day1", "01_tensors"  # the red-team class's notebook
ACCIDENTS_NB = "00_environment"  # the accident class's
HARMLESS_NB = ACCIDENTS_NB  # the red-team class's harmless uses
COURSE = course_notebooks(ROOT / "solutions" / DAY)
ACCIDENTS_FULL = sum(e.points for e in COURSE[ACCIDENTS_NB].exercises)
ACCIDENTS_ANSWERS = sum(role(c) == "solution" for c in COURSE[ACCIDENTS_NB].nb.cells)
LEAKY = ("Traceback", "/tmp/ptg", str(ROOT), "site-packages", "nbgrader/")


def _signature(nb):
    return [(c.cell_type, nbgrader_meta(c).get("grade_id"), c.source.strip())
            for c in nb.cells if role(c) in ("solution", "test", "locked")]


# -- fast: the repair step, cell by cell ------------------------------------------------------------
@pytest.mark.parametrize("name", [ACCIDENTS_NB, NB])
@pytest.mark.parametrize("accident", sorted(accidents.ACCIDENTS))
def test_repair_restores_the_course_structure(accident, name):
    """Each accident, repaired, has the clean notebook's graded cells, ids, types and answers."""
    clean = solved(DAY, name)
    broken = nbformat.reads(nbformat.writes(accidents.ACCIDENTS[accident](clean)), as_version=4)
    assert repair.identify(broken, COURSE) == name
    fixed = repair.repair(broken, COURSE[name])
    assert _signature(fixed.nb) == _signature(repair.repair(clean, COURSE[name]).nb)
    nbformat.validate(fixed.nb)
    assert fixed.nb.metadata["kernelspec"] == COURSE[name].nb.metadata["kernelspec"]


@pytest.mark.parametrize("name", [ACCIDENTS_NB, NB])
def test_clean_notebook_needs_no_repair(name):
    fixed = repair.repair(solved(DAY, name), COURSE[name])
    assert fixed.notes == [] and not fixed.changed


@pytest.mark.parametrize("name", [ACCIDENTS_NB, NB])
def test_learner_metadata_is_never_trusted(name):
    """Points, grade flags and checksums come from the course, whatever the file says."""
    fixed = repair.repair(accidents.learner_metadata_edited(solved(DAY, name)), COURSE[name])
    course = {nbgrader_meta(c).get("grade_id"): nbgrader_meta(c) for c in COURSE[name].nb.cells}
    for cell in fixed.nb.cells:
        gid = nbgrader_meta(cell).get("grade_id")
        if gid:
            assert nbgrader_meta(cell) == course[gid]


@pytest.mark.parametrize("accident", sorted(accidents.FILE_ACCIDENTS))
def test_file_accident_is_read_like_any_notebook(accident, tmp_path, capsys, monkeypatch):
    """A byte-order mark or CR LF line endings: the grader's intake, the course model and the
    learner's self-check read the notebook as the clean file."""
    from ptcourse import nbmodel, selfcheck

    clean = solved(DAY, ACCIDENTS_NB)
    (tmp_path / "clean").mkdir()
    plain, path = tmp_path / "clean" / f"{ACCIDENTS_NB}.ipynb", tmp_path / f"{ACCIDENTS_NB}.ipynb"
    plain.write_bytes(accidents.as_file(clean))
    path.write_bytes(accidents.as_file(clean, accident))
    assert path.read_bytes() != plain.read_bytes()  # the accident is really in the file
    nb, error = submissions.read_notebook(path)
    assert error is None and nb == nbformat.reads(nbformat.writes(clean), as_version=4)
    assert nbmodel.read_notebook(path) == nb
    assert nbmodel.course_notebook(path) == nbmodel.course_notebook(plain)
    assert repair.identify(nb, COURSE) == ACCIDENTS_NB
    monkeypatch.setattr(selfcheck, "check_notebook", lambda p, **kw: print("checked", p))  # no kernel here
    assert selfcheck.main([str(path)]) == 0 and "checked" in capsys.readouterr().out


def test_guard_token_is_removed_and_read():
    text, tokens = guard.Guard.take_token('✔ fine\n\x1ePTG ab12 {"changed": [], "traced": false, "ran": "x"}\x1e\n')
    assert text == "✔ fine\n" and tokens == [("ab12", {"changed": [], "traced": False, "ran": "x"})]


def test_guard_counts_a_passing_check_only_with_proof():
    g = guard.Guard()
    code, nonce, sent = g.wrap("check(True, 'x')")
    good = [(nonce, {"changed": [], "traced": False, "ran": sent})]
    assert g.judge("a", False, True, good, nonce, sent).ok
    assert not g.judge("b", False, True, [], nonce, sent).ok  # no token: did not run to the end
    assert not g.judge("c", False, True, [("other", good[0][1])], nonce, sent).ok  # another cell's token
    assert not g.judge("d", False, False, good, nonce, sent).ok  # no clean state before it
    assert not g.judge("e", False, True, [(nonce, {"changed": ["torch.allclose"], "ran": sent})], nonce, sent).ok
    assert not g.judge("f", False, True, [(nonce, {"changed": [], "ran": "else"})], nonce, sent).ok
    assert g.judge("g", True, False, [], nonce, sent).ok  # a failure needs no proof: it scores 0 anyway


def test_kernel_environment_is_allow_listed():
    env = kernel_env({"PATH": "/bin", "AWS_SECRET_ACCESS_KEY": "k", "GITHUB_TOKEN": "t", "PTCOURSE_LANG": "en",
                      "LC_ALL": "C.UTF-8", "HOME": "/root"}, {"HOME": "/scratch"})
    assert env == {"PATH": "/bin", "PTCOURSE_LANG": "en", "LC_ALL": "C.UTF-8", "HOME": "/scratch"}


def test_links_fifos_and_big_files_are_not_read(tmp_path):
    target = ROOT / "solutions" / DAY / f"{NB}.ipynb"
    (tmp_path / "link.ipynb").symlink_to(target)
    os.mkfifo(tmp_path / "fifo.ipynb")
    (tmp_path / "big.ipynb").write_bytes(b" " * 2048)
    assert "is a link" in submissions.read_notebook(tmp_path / "link.ipynb")[1]
    assert "not a regular file" in submissions.read_notebook(tmp_path / "fifo.ipynb")[1]
    assert "over the" in submissions.read_notebook(tmp_path / "big.ipynb", max_bytes=1024)[1]


# -- slow: whole classes through the command line ---------------------------------------------------
def grade(submitted: Path, out: Path, db: Path, *extra: str, env: dict | None = None) -> subprocess.CompletedProcess:
    proc = subprocess.run(
        [sys.executable, "-m", "grader", "grade", DAY, "--submissions", str(submitted), "--out", str(out),
         "--gradebook", f"sqlite:///{db}", "--workers", "2", *extra],
        cwd=ROOT, capture_output=True, text=True, timeout=1200, env={**os.environ, **(env or {})},
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return proc


def records(out: Path) -> dict[str, dict]:
    return {p.parent.name: json.loads(p.read_text()) for p in (out / "reports" / DAY / "results").glob("*/*.json")}


def feedback(out: Path, student: str, notebook: str = NB) -> str:
    return (out / "feedback" / student / DAY / f"{notebook}.html").read_text()


@pytest.fixture(scope="module")
def honest(tmp_path_factory):
    """One class: the clean solved and mutant notebooks, and each accident applied to them."""
    tmp = tmp_path_factory.mktemp("accidents")
    clean, (wrong, _) = solved(DAY, ACCIDENTS_NB), mutated(DAY, ACCIDENTS_NB, 4)
    students = {"clean": clean, "clean_wrong": wrong}
    for name, accident in accidents.ACCIDENTS.items():
        students[name] = accident(clean)
    students["wrong_metadata_dropped"] = accidents.metadata_dropped(wrong)
    students["wrong_reordered"] = accidents.cells_reordered(wrong)
    write_class(tmp / "submitted", DAY, {s: {ACCIDENTS_NB: nb} for s, nb in students.items()})
    for name in accidents.FILE_ACCIDENTS:  # accidents to the file itself (a byte-order mark, ...)
        folder = tmp / "submitted" / name / DAY
        folder.mkdir(parents=True)
        (folder / f"{ACCIDENTS_NB}.ipynb").write_bytes(accidents.as_file(clean, name))
    grade(tmp / "submitted", tmp / "out", tmp / "gb.db")
    return {"out": tmp / "out", "records": records(tmp / "out"), "submitted": tmp / "submitted", "db": tmp / "gb.db"}


NOTES = {
    "copied_exercise_cell": r"appears 2 times.*second copy",
    "copied_stub_after_answer": r"appears 2 times.*holds your answer",
    "copied_test_cell": r"check cell 'env_\w+' appears 2 times",
    "metadata_dropped": rf"{ACCIDENTS_ANSWERS} answer cell\(s\) had lost the course's cell information",
    "colab_round_trip": rf"{ACCIDENTS_ANSWERS} answer cell\(s\) had lost",
    "unknown_graded_cell": r"does not know \(old_unknown_check\)",
    "cells_reordered": r"another order",
    "answer_turned_markdown": r"turned into a text cell",
    "nbformat_44_without_ids": None, "other_kernelspec": None, "scratch_cells_added": None,
    "learner_metadata_edited": None, "byte_order_mark": None, "windows_line_endings": None,
}


@pytest.mark.slow
@pytest.mark.parametrize("accident", sorted({**accidents.ACCIDENTS, **accidents.FILE_ACCIDENTS}))
def test_accident_scores_what_the_clean_copy_scores(honest, accident):
    """Cell by cell the same score as the clean notebook, and a plain-words note saying what was repaired."""
    import re

    rec, clean = honest["records"][accident], honest["records"]["clean"]
    assert clean["score"] == ACCIDENTS_FULL
    assert rec["status"] == "graded", rec["detail"]
    assert {g: c["score"] for g, c in rec["cells"].items()} == {g: c["score"] for g, c in clean["cells"].items()}
    if NOTES[accident]:
        assert any(re.search(NOTES[accident], n) for n in rec["notes"]), rec["notes"]
        assert re.search(NOTES[accident], feedback(honest["out"], accident, ACCIDENTS_NB).replace("&#39;", "'"))
    assert not rec["findings"], rec["findings"]
    page = feedback(honest["out"], accident, ACCIDENTS_NB)
    assert not any(bad in page for bad in LEAKY)


@pytest.mark.slow
@pytest.mark.parametrize("accident", ["wrong_metadata_dropped", "wrong_reordered"])
def test_accident_keeps_a_wrong_answer_wrong(honest, accident):
    """Repair never adds points: a mutant with an accident scores what the clean mutant scores."""
    rec, clean = honest["records"][accident], honest["records"]["clean_wrong"]
    assert 0 < clean["score"] < ACCIDENTS_FULL
    assert {g: c["score"] for g, c in rec["cells"].items()} == {g: c["score"] for g, c in clean["cells"].items()}


# The unguarded baseline stays a class grading: replaying each cheat in a fresh live kernel as nbgrader runs
# it (nbclient, determine_grade) gave the same scores cell by cell for all 23 cheats, but cost 111 CPU-s
# against this grading's 68 (each fresh kernel imports torch; the grader forks warm zygotes). Measured
# 2026-12 on 2 cores with a cpuacct cgroup; a replay pays off only from a warm, forked kernel.
@pytest.fixture(scope="module")
def cheats(tmp_path_factory):
    """The red-team class graded with the guard; the cheats that work without it graded again without it."""
    tmp = tmp_path_factory.mktemp("redteam")
    students = {f"cheat_{t}": redteam.hostile(untouched(DAY, NB), t) for t in redteam.TECHNIQUES}
    students["leaky"] = leaky_notebook()
    handed_in = {s: {NB: nb} for s, nb in students.items()}
    clean = solved(DAY, HARMLESS_NB)
    handed_in.update({f"ok_{h}": {HARMLESS_NB: redteam.harmless(clean, h)} for h in redteam.HARMLESS})
    write_class(tmp / "submitted", DAY, handed_in)
    add_links(tmp / "submitted")
    hostile_only = tmp / "hostile"
    write_class(hostile_only, DAY, {f"cheat_{t}": {NB: students[f"cheat_{t}"]} for t in WORKS_WITHOUT_GUARD})
    from tests.harness import hygiene

    private = hygiene.new_private_tmp()  # both graders' TMPDIR: what the red team leaves there is checked
    with ThreadPoolExecutor(max_workers=2) as pool:  # two graders side by side: the suite's longest piece of work
        runs = [pool.submit(grade, tmp / "submitted", tmp / "out", tmp / "gb.db", env={**SECRETS, "TMPDIR": str(private)}),
                pool.submit(grade, hostile_only, tmp / "unguarded", tmp / "unguarded.db",
                            env={"PTGRADE_GUARD": "off", "PTGRADE_SECOND_KEY": "off", "TMPDIR": str(private)})]
        for run in runs:
            run.result()
    yield {"out": tmp / "out", "records": records(tmp / "out"), "unguarded": records(tmp / "unguarded"),
           "private_tmp": private}
    shutil.rmtree(private, ignore_errors=True)


@pytest.mark.slow
def test_red_team_leaves_nothing_in_the_temporary_folder(cheats):
    """After the red team's class, graded with and without the guard, nothing of the grader's, the course's
    or torch's is left in the graders' temporary folder, and nothing they wrote is readable by another user."""
    from tests.harness import hygiene

    assert hygiene.leftovers(cheats["private_tmp"]) == [], hygiene.leftovers(cheats["private_tmp"])
    assert hygiene.readable_by_others(cheats["private_tmp"]) == []


SECRET = "sk-live-" + os.urandom(6).hex()
SECRETS = {"INSTRUCTOR_API_TOKEN": SECRET, "AWS_SECRET_ACCESS_KEY": SECRET}  # in the grader's environment


def leaky_notebook():
    """A solved notebook whose answer cell looks for secrets in its environment and prints it all."""
    leak = ("import os\n_found = [k for k, v in os.environ.items() if 'sk-live' in v]\n"
            "print('ENV', sorted(os.environ))\nraise RuntimeError(f'leaked {_found} ' + str(dict(os.environ)))\n")
    nb = solved(DAY, NB)
    for cell in nb.cells:
        if nbgrader_meta(cell).get("grade_id") == "tensors_make_grid":
            cell.source += "\n" + leak
    return nb


def add_links(submitted: Path) -> None:
    """Two hand-ins that are links into the course: a notebook file and a whole day folder."""
    linker = submitted / "linker" / DAY
    linker.mkdir(parents=True)
    (linker / f"{NB}.ipynb").symlink_to(ROOT / "solutions" / DAY / f"{NB}.ipynb")
    (submitted / "dirlink").mkdir()
    (submitted / "dirlink" / DAY).symlink_to(ROOT / "solutions" / DAY, target_is_directory=True)


GUARD_FINDINGS = ("tampering", "checks that could not")
SECOND_KEY_FINDING = "checks that passed in the kernel"
# Cheats that the guard (or, where named below, only the second key) stops, and that really earn points
# from nbgrader when neither guards the checks (measured).
STOPPED_BY_THE_GUARD = {"input_transformer", "input_transformer_post", "ast_transformer", "encoded_exec",
                        "patch_checks", "patch_torch_testing", "fake_checks_module", "pre_run_cell_hook",
                        "kernel_do_execute", "guard_reports_nothing", "code_swap", "code_swap_rearmed",
                        "gc_poisoned_originals"}
# Cheats that fool the kernel's checks whatever the guard does (the answers read the test's frame or
# return tensors whose comparisons lie, or the guard itself is made to vouch for every cell): only the
# second key, the grader's own comparison on fresh inputs, fails them.
STOPPED_BY_THE_SECOND_KEY = {"frame_peek", "tensor_subclass", "gc_forged_guard", "gc_referrers",
                             "lying_conversions", *(f"second_key_{a}" for a in redteam.SECOND_KEY_ATTACKS)}
WORKS_WITHOUT_GUARD = STOPPED_BY_THE_GUARD | STOPPED_BY_THE_SECOND_KEY
# What a cheat's answers earn as any answer would: the lying tensors have the right shape, which is
# all the shape check asks (plain zeros of that shape earn it too, in nbgrader as here).
EARNED_HONESTLY = {"tensor_subclass": {"tensors_sqdist_shape"}, "lying_conversions": {"tensors_sqdist_shape"}}
# The others (custom exception handlers, traceback, display and message overrides, exits) already
# earn nothing on this nbgrader and ipykernel: the reply still says "error". They stay in the
# catalogue so that a change of either can't quietly make them work.


@pytest.mark.slow
@pytest.mark.parametrize("technique", sorted(redteam.TECHNIQUES))
def test_cheat_earns_nothing(cheats, technique):
    """Every check scores 0; where the cheat worked, the notebook is flagged and the page says why."""
    rec = cheats["records"][f"cheat_{technique}"]
    earned = {g: c["score"] for g, c in rec["cells"].items() if c["score"]}
    assert set(earned) <= EARNED_HONESTLY.get(technique, set()), rec["cells"]
    if technique in WORKS_WITHOUT_GUARD:
        unguarded = cheats["unguarded"][f"cheat_{technique}"]["score"]
        assert unguarded > sum(earned.values()), (
            f"{technique} earned nothing even without the guard and the second key: not a real cheat any more")
        stoppers = GUARD_FINDINGS if technique in STOPPED_BY_THE_GUARD else (SECOND_KEY_FINDING,)
        assert any(f.startswith(stoppers) for f in rec["findings"]), (
            f"{technique} scored 0 but the grader did not say why: {rec['findings']}")
    page = feedback(cheats["out"], f"cheat_{technique}")
    assert not any(bad in page for bad in LEAKY)


@pytest.mark.slow
@pytest.mark.parametrize("technique", sorted(redteam.HELPER_FORGES))
def test_helper_forge_is_undone_and_flagged(cheats, technique):
    """A course helper, IPython's display, a library class's attribute or a name the test cells read,
    replaced before the checks: the guard puts each back (the checks run with the real ones and the
    answers earn nothing), names each on the record, and the notebook is flagged as tampering."""
    rec = cheats["records"][f"cheat_{technique}"]
    assert rec["score"] == 0, rec["cells"]
    _code, undone = redteam.HELPER_FORGES[technique]
    assert set(undone) <= set(rec["integrity"]["restored"]), rec["integrity"]["restored"]
    assert any(f.startswith("tampering") for f in rec["findings"]), rec["findings"]


@pytest.mark.slow
def test_helper_forged_again_by_each_answer_earns_nothing(cheats):
    """Each answer forges the helpers again while the test cell runs: put back before every check
    (a check that passed with a forge made during it would be voided as changed), no cell counts,
    and the notebook is flagged with what was forged named for the instructor."""
    rec = cheats["records"]["cheat_forge_helpers_rearmed"]
    assert rec["score"] == 0, rec["cells"]
    assert any(f.startswith(GUARD_FINDINGS) for f in rec["findings"]), rec["findings"]
    changed = " ".join(v["detail"] for v in rec["integrity"]["voided"]) + " ".join(rec["integrity"]["restored"])
    assert "ptcourse.placement.watch" in changed or "Module.__call__" in changed, rec["integrity"]


@pytest.mark.slow
@pytest.mark.parametrize("technique", sorted(STOPPED_BY_THE_SECOND_KEY))
def test_second_key_fails_what_fooled_the_kernel(cheats, technique):
    """Each check the cheat got past the kernel (and the guard) scores 0 through the second key, with
    its plain message; and every check that passed unguarded is one the second key failed or the kernel did."""
    rec, unguarded = cheats["records"][f"cheat_{technique}"], cheats["unguarded"][f"cheat_{technique}"]
    disagreed = {d["grade_id"] for d in rec["integrity"].get("disagreed", [])}
    assert disagreed, rec["integrity"]
    for grade_id in disagreed:
        assert rec["cells"][grade_id]["score"] == 0 and "fresh input" in rec["cells"][grade_id]["message"]
    fooled = {g for g, c in unguarded["cells"].items() if c["score"]} - EARNED_HONESTLY.get(technique, set())
    assert fooled & disagreed, (fooled, disagreed)


@pytest.mark.slow
def test_guard_that_cannot_report_fails_its_checks_as_tampering(cheats):
    """The guard's clean-up report comes back empty: each check it could not clean up for scores 0
    as tampering, in plain words, and the notebook is flagged; the job is graded, never a crash."""
    rec = cheats["records"]["cheat_guard_reports_nothing"]
    assert rec["status"] == "graded", rec["instructor_detail"]
    unverified = msg("grader.integrity.unverified")
    assert all(c["score"] == 0 for c in rec["cells"].values())
    assert any(c["message"] == unverified for c in rec["cells"].values()), rec["cells"]
    assert any(f.startswith(GUARD_FINDINGS) for f in rec["findings"]), rec["findings"]


def test_guard_never_crashes_on_a_report_it_cannot_read():
    """Whatever a kernel sends back for the clean-up request or a check's token (nothing, None,
    another type, a deep value), the cell is untrusted, never an exception in the grader."""
    g = guard.Guard()
    nonce = "ab12"

    def reply(data) -> dict:
        return {"content": {"user_expressions": {"r": {"data": {"text/plain": repr(data)}}}}}

    bad_replies = [None, {}, {"content": None}, {"content": {"user_expressions": []}}, reply("null"), reply("[1]"),
                   reply(json.dumps({"nonce": nonce, "restored": None, "machinery": None, "harmful": None})),
                   reply(json.dumps({"nonce": nonce, "restored": [1], "machinery": [], "harmful": []})),
                   reply(json.dumps({"nonce": nonce, "restored": "x", "machinery": [], "harmful": []})),
                   reply(json.dumps({"nonce": nonce})), reply("[" * 100_000 + "]" * 100_000),
                   {"content": {"user_expressions": {"r": {"data": {"text/plain": "(" * 100_000}}}}}]
    for bad in bad_replies:
        assert g.sanitized(bad, nonce) is False, bad
    good = reply(json.dumps({"nonce": nonce, "restored": ["torch.allclose"], "machinery": [], "harmful": []}))
    assert g.sanitized(good, nonce) is True and g.restored == {"torch.allclose"}
    code, cell_nonce, sent = g.wrap("check(True, 'x')")
    for report in [{"changed": None, "traced": False, "ran": sent}, {"changed": 3, "traced": False, "ran": sent},
                   {"changed": {"a": 1}, "traced": False, "ran": sent}, {"changed": [], "traced": None, "ran": sent},
                   {"changed": [], "traced": False, "ran": None}, {}]:
        verdict = g.judge("a", False, True, [(cell_nonce, report)], cell_nonce, sent)
        assert not verdict.ok and verdict.reason == msg("grader.integrity.not_attested"), report
    text, tokens = guard.Guard.take_token("\x1ePTG ab12 {" + '"a":' * 1 + "[" * 100_000 + "}\x1e\n")
    assert tokens == []


def test_a_missing_or_foreign_guard_report_flags_the_notebook(tmp_path, monkeypatch):
    """The guard's summary is read from the job's folder; missing, unreadable or not the guard's, a
    graded notebook counts as one the guard could not vouch for (flagged), never a crash."""
    monkeypatch.delenv("PTGRADE_GUARD", raising=False)
    path = tmp_path / "integrity.json"
    for text in (None, "", "null", "[]", '{"installed": true}', '{"installed": true, "restored": null}', "{" * 9999):
        path.unlink(missing_ok=True)
        if text is not None:
            path.write_text(text)
        integrity = jobs._read_integrity(path, graded=True)
        assert integrity is not None and integrity.installed is False, text
    good = {"installed": True, "restored": [], "machinery": [], "harmful": [], "voided": []}
    path.write_text(json.dumps(good))
    integrity = jobs._read_integrity(path, graded=True)
    assert integrity == Integrity.from_json(good) and integrity.installed


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(redteam.HARMLESS))
def test_harmless_use_keeps_full_marks(cheats, name):
    """Full marks, and the guard finds nothing to undo (the text scan may still ask a human to look)."""
    rec = cheats["records"][f"ok_{name}"]
    assert rec["notebook"] == HARMLESS_NB, rec["notebook"]
    assert rec["score"] == ACCIDENTS_FULL, {g: c["message"] for g, c in rec["cells"].items() if c["message"]}
    assert not any(f.startswith(GUARD_FINDINGS) for f in rec["findings"]), rec["findings"]


@pytest.mark.slow
def test_grading_machine_gives_nothing_away(cheats):
    """No secret of the grader's environment reaches a kernel; links are reported, never followed.

    The red-team class is graded with two secrets in the grader's environment, a notebook that
    prints its whole environment, and two hand-ins that are links into the course.
    """
    out = cheats["out"]
    everything = "".join(p.read_text(errors="replace") for p in out.rglob("*") if p.is_file())
    assert SECRET not in everything
    assert "INSTRUCTOR_API_TOKEN" not in everything and "AWS_SECRET_ACCESS_KEY" not in everything
    recs = cheats["records"]
    assert recs["leaky"]["status"] == "graded", recs["leaky"]["detail"]
    assert recs["linker"]["score"] == 0 and "is a link" in recs["linker"]["detail"]
    assert "dirlink" not in recs or recs["dirlink"]["score"] == 0
    report = (out / "reports" / DAY / "report.html").read_text()
    assert "is a link" in report


@pytest.mark.slow
def test_rerun_with_other_limits_grades_again(honest, tmp_path):
    """The resume record covers the limits: the same run again skips everything, another --memory grades again.

    It re-runs the accident class's grading (a copy of its output and gradebook), so it adds no first
    grading of its own.
    """
    out, db = tmp_path / "out", tmp_path / "gb.db"
    shutil.copytree(honest["out"], out)
    shutil.copyfile(honest["db"], db)
    count = len(honest["records"])
    assert f"graded 0 notebook(s), skipped {count} already graded" in grade(honest["submitted"], out, db).stdout
    again = grade(honest["submitted"], out, db, "--memory", "1500M", "--student", "clean").stdout
    assert "graded 1 notebook(s), skipped 0" in again, again
    gpu = grade(honest["submitted"], out, db, "--memory", "1500M", "--student", "clean", "--gpu").stdout
    assert "graded 1 notebook(s), skipped 0" in gpu, gpu  # a --gpu regrade grades (no GPU here: the same scores)


def test_every_status_has_words_in_every_language():
    """A notebook's outcome is one of jobs.Status, each with its words in each catalogue."""
    from ptcourse.messages import catalogue

    for lang in ("en", "zh-CN"):
        assert {f"grader.status.{s}" for s in jobs.Status} <= set(catalogue(lang)), lang


def test_fingerprint_covers_settings(tmp_path):
    path = tmp_path / "a.ipynb"
    nbformat.write(solved(DAY, NB), str(path))
    sub = submissions.Submission("amy", NB, path)
    template = tmp_path / "template-x.db"
    assert engine.fingerprint(sub, template, "a") != engine.fingerprint(sub, template, "b")


def _changed(value):
    return (not value) if isinstance(value, bool) else value + 1


@pytest.mark.parametrize("name", [f.name for f in dataclasses.fields(jobs.Limits)])
def test_every_limit_is_in_the_resume_fingerprint(tmp_path, name):
    """Changing any limit (``gpu``, or one added later) grades again: the resume settings are derived
    from the Limits record, not from a list of its fields written by hand."""
    path = tmp_path / "a.ipynb"
    nbformat.write(solved(DAY, NB), str(path))
    sub = submissions.Submission("amy", NB, path)
    template = tmp_path / "template-x.db"
    opts = engine.Options(day=DAY, submissions=tmp_path)
    other = dataclasses.replace(opts, limits=dataclasses.replace(opts.limits, **{name: _changed(getattr(opts.limits, name))}))
    settings = [engine.RunSettings.of(o, "sources", None).text() for o in (opts, other)]
    assert engine.RunSettings.of(opts, "sources", None).text() == settings[0]  # the same run: the same settings
    assert engine.fingerprint(sub, template, settings[0]) != engine.fingerprint(sub, template, settings[1])
