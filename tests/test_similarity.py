"""The similarity report finds planted copies and flags no independent answer.

A class of one notebook (day1/02_autograd), every answer the model's except Exercise 2's
(``batch_grads``): two students hand in the model solution (one from the Chinese copy), three
write independent correct answers, one pair copies verbatim (comments and blank lines added),
and one pair copies with renamed variables and lines in another order (one of them in the Chinese
copy). Nothing is executed: the report reads the submitted files.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

from grader.intake import submissions
from grader.results import report, similarity, similarity_page
from ptcourse import nbmodel
from tools.classroom import solved, write_class
from tools.course import solved_translated
from tools.notebooks import ROOT, nbgrader_meta

DAY, NB, EXERCISE = "day1", "02_autograd", "autograd_batch_grads"
HEADER = ('def batch_grads(w, batches):\n'
          '    """The gradient of each batch\'s mean squared error with respect to w, one per batch."""\n')

INDEPENDENT = {
    "ines": """    out = []
    for X, y in batches:
        loss = torch.mean((X @ w - y) ** 2)
        (g,) = torch.autograd.grad(loss, w)
        out.append(g)
    return out
""",
    "ivan": """    def one(X, y):
        w.grad = None
        torch.nn.functional.mse_loss(X @ w, y).backward()
        return w.grad.detach().clone()
    return [one(X, y) for X, y in batches]
""",
    "iris": """    result = []
    for batch in batches:
        X, y = batch
        w.grad = None
        err = X.matmul(w) - y
        err.pow(2).mean().backward()
        result.append(w.grad.clone())
    return result
""",
}
COPIED = """    collected = []
    for index in range(len(batches)):
        features, targets = batches[index]
        w.grad = torch.zeros_like(w)
        predictions = features @ w
        squared_error = (predictions - targets) * (predictions - targets)
        squared_error.sum().div(features.shape[0]).backward()
        collected.append(w.grad.detach().clone())
    return collected
"""
COPIED_AGAIN = """    # go through the batches one by one
    collected = []
    for index in range(len(batches)):
        features, targets = batches[index]
        w.grad = torch.zeros_like(w)   # reset
        predictions = features @ w
        squared_error = (predictions - targets) * (predictions - targets)
        squared_error.sum().div(features.shape[0]).backward()
        collected.append(w.grad.detach().clone())

    return collected
"""
DISGUISED_FROM = """    history = []
    for number, (inputs, labels) in enumerate(batches):
        w.grad = None
        residuals = torch.sub(torch.matmul(inputs, w), labels)
        loss_value = torch.mean(torch.square(residuals))
        loss_value.backward()
        gradient_copy = torch.clone(w.grad).detach()
        print("batch", number, "loss", float(loss_value), "norm", float(gradient_copy.norm()))
        history.append(gradient_copy)
    return history
"""
DISGUISED = """    saved = []
    for k, (xb, yb) in enumerate(batches):
        diff = torch.sub(torch.matmul(xb, w), yb)
        w.grad = None
        mse = torch.mean(torch.square(diff))
        mse.backward()
        g = torch.clone(w.grad).detach()
        saved.append(g)
        print("batch", k, "loss", float(mse), "norm", float(g.norm()))
    return saved
"""


def answered(nb, body: str):
    nb = nbformat.from_dict(nb)
    for cell in nb.cells:
        if nbgrader_meta(cell).get("grade_id") == EXERCISE:
            cell.source = HEADER + body
    return nb


@pytest.fixture(scope="module")
def klass(tmp_path_factory) -> Path:
    en = solved(DAY, NB)
    zh = solved_translated(ROOT / "solutions" / DAY / f"{NB}.ipynb")
    students = {"mia": en, "mei": zh, "carl": answered(en, COPIED), "cora": answered(en, COPIED_AGAIN),
                "dora": answered(en, DISGUISED_FROM), "dong": answered(zh, DISGUISED),
                **{name: answered(en, body) for name, body in INDEPENDENT.items()}}
    return write_class(tmp_path_factory.mktemp("class"), DAY, {s: {NB: nb} for s, nb in students.items()})


@pytest.fixture(scope="module")
def result(klass) -> similarity.Report:
    return similarity.for_folder(DAY, klass, ROOT / "solutions" / DAY)


def pairs_of(result, exercise=EXERCISE) -> dict[frozenset, similarity.Pair]:
    return {frozenset((p.a.student, p.b.student)): p for e in result.exercises if e.exercise == exercise
            for p in e.pairs}


def test_planted_copies_are_found(result):
    pairs = pairs_of(result)
    assert frozenset(("carl", "cora")) in pairs
    assert frozenset(("dora", "dong")) in pairs  # renamed, reordered, and one in the Chinese copy


def test_independent_and_model_answers_are_not_flagged(result):
    assert set(pairs_of(result)) == {frozenset(("carl", "cora")), frozenset(("dora", "dong"))}
    assert len(result.pairs) == 2  # nothing in the other exercises
    ex = next(e for e in result.exercises if e.exercise == EXERCISE)
    assert ex.compared == 7  # the two model answers leave nothing to compare


def test_matched_lines_leave_out_the_starter_code(result):
    pair = pairs_of(result)[frozenset(("dora", "dong"))]
    assert 1 not in pair.lines_a and 2 not in pair.lines_a  # the def line and docstring are the course's
    assert len(pair.lines_a) >= 5 and len(pair.lines_b) >= 5


def test_english_and_chinese_copies_give_the_same_answers(klass):
    masters = {NB: nbmodel.course_notebook(ROOT / "solutions" / DAY / f"{NB}.ipynb")}
    subs = submissions.discover(klass, DAY, masters)
    answers = {(a.student, a.exercise): a for a in similarity.answers_of(subs, masters)}
    assert answers[("mei", EXERCISE)].lang == "zh-CN"
    assert answers[("mei", EXERCISE)].code == answers[("mia", EXERCISE)].code


def test_page_says_it_is_not_a_verdict_and_escapes_code(result):
    a = similarity.Answer("<b>eve</b>", NB, EXERCISE, HEADER + "    x = '<script>alert(1)</script>'\n", "en")
    pair = similarity.Pair(a, a, 1.0, 1.0, frozenset({3}), frozenset({3}))
    extra = similarity.ExerciseResult(NB, "autograd_other", "Exercise 9 · autograd_other", 2, (pair,))
    page = similarity_page.page(similarity.Report(DAY, 0.5, (*result.exercises, extra)))
    assert "a reason to look, not a verdict" in page
    assert "<script>" not in page and "&lt;script&gt;" in page and "<b>eve</b>" not in page
    assert page.count("class=\"pair\"") == 3
    zh = similarity_page.page(result, "zh-CN")
    assert "不是结论" in zh and "dong (zh-CN)" in zh


def test_class_report_has_the_section(result):
    section = similarity_page.section(result, "en")
    html = report.class_report_html(DAY, [], [], report.ClassFacts(similarity_html=section))
    assert "Similar answers" in html and "similarity.html" in html and "carl" in html


def test_command_line_writes_the_page(klass, tmp_path):
    proc = subprocess.run([sys.executable, "-m", "grader", "similarity", DAY, "--submissions", str(klass),
                           "--out", str(tmp_path)], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "2 pair(s)" in proc.stdout
    assert (tmp_path / "reports" / DAY / "similarity.html").is_file()
