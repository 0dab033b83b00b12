"""Every message id used in solutions/ and src/ exists in every language of the catalogue, with the
same placeholders (tools/msgids.py, no kernel); test cells name ids, not prose; unused
entries are listed, not failed."""

from __future__ import annotations

import ast
import warnings

from tools import msgids


def test_every_message_id_exists_with_its_placeholders():
    bad = msgids.problems()
    assert not bad, "message ids and placeholders that do not match the catalogue:\n" + "\n".join(bad)


def test_test_cells_name_ids_not_prose():
    """passed()/check()/fail() take a message id, and a check's ``name`` is a code expression."""
    bad = msgids.prose_problems()
    assert not bad, "prose where a message id or a code expression belongs:\n" + "\n".join(bad)


def test_every_language_has_the_english_ids_with_the_same_placeholders():
    """A translated module must hold every id of the English module of the same name; modules not
    translated yet are listed (English is the fallback at run time)."""
    bad, waiting = [], []
    for lang in msgids.translations():
        bad += msgids.translation_problems(lang)
        waiting += [f"{lang}/{m}" for m in msgids.untranslated_modules(lang)]
    assert not bad, "translations that do not match the English catalogue:\n" + "\n".join(bad)
    if waiting:
        warnings.warn(f"catalogue modules not translated yet: {', '.join(waiting)}", UserWarning, stacklevel=1)


def test_titles_and_success_lines_are_in_step_with_the_notebooks():
    """tools/msgify.py has nothing left to convert: every test docstring is its ``<grade_id>.title``."""
    from tools import msgify

    assert msgify.run(check=True) == 0, "run `.venv/bin/python tools/msgify.py`, then `make release`"


def test_prose_values_are_listed():
    """A warning, not a failure: English passed as a value (``what="a tower of ..."``) stays English."""
    shown = msgids.prose_values()
    if shown:
        print("\n" + "\n".join(shown))
        warnings.warn(f"{len(shown)} values are English prose: " + "; ".join(shown), UserWarning, stacklevel=1)


def test_unused_catalogue_entries_are_listed():
    """A warning, not a failure: an entry may be kept for a translation or a coming exercise."""
    idle = msgids.unused()
    if idle:
        print("\nunused catalogue ids: " + ", ".join(idle))
        warnings.warn(f"{len(idle)} catalogue ids are used nowhere: {', '.join(idle)}", UserWarning, stacklevel=1)


def test_values_a_message_does_not_show_are_listed():
    """A warning, not a failure: e.g. expected/got passed to a message that never says them."""
    shown = msgids.extras()
    if shown:
        print("\n" + "\n".join(shown))
        warnings.warn(f"{len(shown)} calls pass values their message does not show: " + "; ".join(shown),
                      UserWarning, stacklevel=1)


def test_the_check_catches_an_unknown_id_and_a_missing_placeholder():
    code = (
        'check(ok, "demo.values", expected=1)\n'
        'fail("demo.nowhere")\n'
        'reason = "demo.values" if flag else "demo.other"\n'
        'check(ok, reason, expected=1, got=2)\n'
        'passed("demo.done", n=3)\n'
    )
    table = {"demo.values": "expected {expected}, got {got}", "demo.other": "{got.shape}", "demo.idle": "x",
             "demo.done": "{n} done"}
    uses = msgids._calls(ast.parse(code), "demo")
    bad = msgids.problems(uses, table)
    assert len(bad) == 2, bad
    assert "does not supply got" in bad[0] and "'demo.nowhere'" in bad[1], bad
    assert msgids.unused(uses, table) == ["demo.idle"]
    assert msgids.extras(uses, table) == []  # the runtime choice between two ids is not listed
    extra = msgids._calls(ast.parse('check(ok, "demo.values", expected=1, got=2, shape=3)'), "x")
    assert msgids.extras(extra, table) == ["x:1: 'demo.values' is given shape, which its message does not show"]
    assert msgids.python_source("%timeit f()\n  !ls\nx = 1") == "pass\n  pass\nx = 1"


def test_the_check_catches_prose_and_a_translation_that_drifted():
    tree = ast.parse('passed("it works")\ncheck(ok, f"got {x}")\npassed("demo.done")\n'
                     'check_shape(y, (2,), "the first batch")\ncheck_shape(y, (2,), "model(x)[0]")\n')
    bad = msgids.prose(tree, "demo")
    assert [b.split(":")[1] for b in bad] == ["1", "2", "4"], bad
    english = {"demo.done": "{n} done at {t:.1f} s"}
    assert msgids.translation_problems("xx", {"demo.done": "{n} 完成"}, english)[0].startswith("xx: 'demo.done' has")
    assert "not an English id" in msgids.translation_problems("xx", {"demo.gone": "x"}, english)[0]
    assert msgids.translation_problems("xx", {"demo.done": "{n} 完成，用时 {t:.1f} 秒"}, english) == []
