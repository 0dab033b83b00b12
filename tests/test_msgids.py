"""Every message id used in solutions/ and src/ exists in the catalogue, with its placeholders
supplied (tests/harness/msgids.py, no kernel); unused entries are listed, not failed."""

from __future__ import annotations

import ast
import warnings

from tests.harness import msgids


def test_every_message_id_exists_with_its_placeholders():
    bad = msgids.problems()
    assert not bad, "message ids and placeholders that do not match the catalogue:\n" + "\n".join(bad)


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
        'passed("it works")\n'
    )
    table = {"demo.values": "expected {expected}, got {got}", "demo.other": "{got.shape}", "demo.idle": "x",
             "check.passed": "✔ {what}"}
    uses = msgids._calls(ast.parse(code), "demo")
    bad = msgids.problems(uses, table)
    assert len(bad) == 2, bad
    assert "does not supply got" in bad[0] and "'demo.nowhere'" in bad[1], bad
    assert msgids.unused(uses, table) == ["demo.idle"]
    assert msgids.extras(uses, table) == []  # the runtime choice between two ids is not listed
    extra = msgids._calls(ast.parse('check(ok, "demo.values", expected=1, got=2, shape=3)'), "x")
    assert msgids.extras(extra, table) == ["x:1: 'demo.values' is given shape, which its message does not show"]
    assert msgids.python_source("%timeit f()\n  !ls\nx = 1") == "pass\n  pass\nx = 1"
