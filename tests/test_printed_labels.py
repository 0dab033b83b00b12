"""What demonstration cells print or draw speaks the learner's language (no kernel, a second).

Code is the same in both editions, so an English label a free code cell prints (``print("CUDA
available:", ...)``) or a figure text it passes (``ax.set_xlabel("predicted")``, ``title="..."``)
reaches the Chinese learner in English. Such text goes through the catalogue instead:
``say("env.demo_cuda_available", ...)`` prints a message in the learner's language,
``msg("id")`` gives one for a title, legend or axis label (tests/test_figures_alt.py checks the
figures' alt text). This test reads every free code cell of ``solutions/`` and fails on string
literals with English words in them (free code cells and locked given code, such as the set-up
cell that says where a notebook's files go):

* in ``print(...)``: two plain words in a row (``"mean squared error, wrong:"``; a lone label
  such as ``"RuntimeError:"`` or ``"cuDNN:"``, code such as ``"x.grad ="``, PyTorch's own error
  text quoted as it prints it and the engines' names in ``NAMES`` pass);
* in a figure's text (``set_title``/``set_xlabel``/``set_ylabel``, ``show_images``' titles,
  ``title=``, ``xlabel=``, ``ylabel=``, ``label=``, ``desc=``, ``notice=``): any plain word of three letters or more
  (``"predicted"``; acronyms such as ``"SGD"`` pass).

A notebook not converted yet is listed in ``NOT_YET`` (a strict xfail: it fails once the notebook
is clean, so the list only shrinks).
"""

from __future__ import annotations

import ast
import re

import pytest

from tools.msgids import ID_ARG, NAME_ARG, python_source
from tools.notebooks import ROOT, SOLUTIONS, nb_key, read

NOTEBOOKS = sorted(SOLUTIONS.glob("day*/*.ipynb"))
NOT_YET: dict[str, str] = {
}
# a plain word: letters only, not part of code (an attribute, a call, a keyword argument, a quoted name)
WORD = r"(?<![\w.'\"`(=\[/<-])[A-Za-z]{2,}(?![\w.'\"`(=\]/>])"
TWO_WORDS = re.compile(rf"{WORD}(?:[ ,]+[A-Za-z])?[ ,]+{WORD}")  # "is a copy" too
FIGURE_WORD = re.compile(r"(?<![\w.'\"`(=\[/<-])(?=[A-Za-z]*[a-z])[A-Za-z]{3,}(?![\w.'\"`(=\]/>])")
# a figure's text: the positional arguments from this index on, and these keyword arguments
FIGURE_CALLS = {"set_title": 0, "set_xlabel": 0, "set_ylabel": 0, "suptitle": 0, "title": 0, "xlabel": 0,
                "ylabel": 0, "show_images": 1}
FIGURE_KEYWORDS = {"title", "titles", "xlabel", "ylabel", "label", "desc", "notice"}
QUOTED_ERROR = re.compile(r"^\w+(Error|Exception): ")  # PyTorch's own error text, shown as it prints it
NAMES = ("ONNX Runtime", "PyTorch eager")  # engines, named as in the prose


CODE_LITERAL = re.compile(r"[{(\[][\w\s,.'\"]*[})\]]")  # "{cpu, meta}": a set as code writes it


def _prose(text: str, pattern: re.Pattern) -> bool:
    if QUOTED_ERROR.match(text) or CODE_LITERAL.fullmatch(text.strip()):
        return False
    for name in NAMES:
        text = text.replace(name, " ")
    return bool(pattern.search(text))


def _literal(node: ast.AST) -> str:
    """The literal text of a string constant or f-string (placeholders left out), else ''."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return " {} ".join(v.value for v in node.values if isinstance(v, ast.Constant) and isinstance(v.value, str))
    return ""


def _strings(node: ast.AST) -> list[str]:
    """The literal text of ``node`` and of every string inside it, except inside a call (a message
    call's own arguments, ``str(err).split("marker")``: not what is shown)."""
    if isinstance(node, ast.Call):
        return []
    found = [_literal(node)] if _literal(node) else []
    if isinstance(node, ast.JoinedStr):
        return found + [s for v in node.values if isinstance(v, ast.FormattedValue) for s in _strings(v.value)]
    for child in ast.iter_child_nodes(node):
        if not isinstance(node, ast.Constant):
            found += _strings(child)
    return found


def english_labels(source: str) -> list[str]:
    """The English a code cell prints or puts on a figure without the catalogue."""
    out = []
    for node in ast.walk(ast.parse(python_source(source))):
        if not isinstance(node, ast.Call):
            continue
        name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", None)
        if name == "print":
            out += [s for arg in node.args for s in _strings(arg) if _prose(s, TWO_WORDS)]
        figure_args = list(node.args[FIGURE_CALLS[name]:]) if name in FIGURE_CALLS else []
        figure_args += [k.value for k in node.keywords if k.arg in FIGURE_KEYWORDS]
        out += [s for arg in figure_args for s in _strings(arg) if _prose(s, FIGURE_WORD)]
    return out


def _free_cells(path):
    """Free code cells and locked given code (not graded tests, not the learner's answer cells)."""
    return [c for c in read(path).cells if c.cell_type == "code" and not c.metadata.get("nbgrader", {}).get("grade")
            and not c.metadata.get("nbgrader", {}).get("solution")]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=nb_key)
def test_demonstration_cells_print_through_the_catalogue(path, request):
    if nb_key(path) in NOT_YET:
        request.applymarker(pytest.mark.xfail(reason=NOT_YET[nb_key(path)], strict=True))
    found = {cell.get("id"): labels for cell in _free_cells(path) if (labels := english_labels(cell.source))}
    assert not found, (f"{path.relative_to(ROOT)}: English printed or drawn outside the catalogue (use "
                       f"say(\"id\", ...) or msg(\"id\")): {found}")


@pytest.mark.parametrize("code", [
    'print("mean squared error, wrong:", x)',
    'print(f"after backward #{step + 1}: w.grad = {w.grad}")',
    'ax.set_xlabel("predicted")',
    'plot_curves(curves, title="The printed recipe")',
    'show_images(x, [f"label {i}" for i in range(3)])',
    'tqdm(range(3), desc="epochs")',
])
def test_the_check_sees_english(code):
    assert english_labels(code), code


@pytest.mark.parametrize("code", [
    'print("RuntimeError:", err)', 'print("x.grad  =", x.grad)', 'print("cuDNN:", v)',
    'say("env.demo_cuda_available", torch.cuda.is_available())', 'print(msg("a.b", x=1), y)',
    'plot_curves(c, title="SGD lr=0.1")', 'ax.set_xlabel("w")', 'ax.plot(x, y, label=f"lr = {lr}")',
    'print(f"zero_grad={z}: w = {w:.3f}, b = {b:.3f}")', 'print(torch.tensor([1, 2]))',
])
def test_the_check_passes_code_and_catalogue_text(code):
    assert not english_labels(code), english_labels(code)


def test_built_names(source: str) -> list[str]:
    """English a test cell builds and hands to a message: a value of ``check``/``fail``/``msg``/...,
    a check's ``name`` (``check_close(g, want, f"the gradient of {name}")``) or a ``label``/``what``.
    A Chinese message would show it in English; it is a catalogue term instead (``msg("id")``)."""
    out = []
    for node in ast.walk(ast.parse(python_source(source))):
        if not isinstance(node, ast.Call):
            continue
        name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", None)
        values = [k.value for k in node.keywords if name in ID_ARG or k.arg in ("label", "what", "name")]
        if name in NAME_ARG:
            values += node.args[NAME_ARG[name]:NAME_ARG[name] + 1]
        out += [s for value in values for s in _strings(value) if _prose(s, TWO_WORDS)]
    return out


test_built_names.__test__ = False  # a helper, not a test


@pytest.mark.parametrize("path", NOTEBOOKS, ids=nb_key)
def test_test_cells_hand_messages_catalogue_terms(path):
    graded = [c for c in read(path).cells if c.cell_type == "code" and c.metadata.get("nbgrader", {}).get("grade")]
    found = {cell.get("id"): names for cell in graded if (names := test_built_names(cell.source))}
    assert not found, f"{path.relative_to(ROOT)}: English names built for messages (use msg(\"id\")): {found}"


def test_the_name_check_sees_english_and_passes_code():
    assert test_built_names('check_close(g, want, f"the gradient of {name}")')
    assert test_built_names('check(ok, "a.b", said="is a copy")')
    assert test_built_names('where.host(t, label="counts, made on the CPU")')
    assert not test_built_names('check_close(g, want, msg("memory.name_gradient_of", name=name))')
    assert not test_built_names('check(ok, "a.b", expected="{cpu, meta}", got=sorted(x))')
    assert not test_built_names('check_close(out, want, "model(x)[0]")')
