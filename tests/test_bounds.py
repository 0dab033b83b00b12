"""Everything read from a learner's kernel is bounded before it is read (grader/jail/bounds.py,
grader/judge/observations.py): payload bombs of each kind (claimed shapes and dtypes, deep nesting, huge
strings and metadata, many observations) fail the cell they target with a plain catalogued message,
and never raise in the grader (MemoryError, RecursionError).

Fast tests only: the parser, the session and the observer. The class run with bombs is in
tests/test_hygiene.py.
"""

from __future__ import annotations

import base64
import io
import json
import random

import numpy as np
import pytest
from jupyter_client.session import Session

from grader import settings
from grader.jail import bounds, execute
from grader.judge import observations as ob
from grader.judge.observations import Kind, Observer, ObserveSpec
from grader.run import jobs
from ptcourse.messages import msg_in
from ptcourse.observe import MIME

KEY = b"secret-key"


def deep(depth: int, leaf=0):
    """A list nested ``depth`` deep, built without recursion."""
    value = leaf
    for _ in range(depth):
        value = [value]
    return value


# -- the depth scan ---------------------------------------------------------------------------------
def _true_depth(value) -> int:
    level, depth = [value], 0
    while True:
        level = [v for x in level if isinstance(x, list | dict) for v in (x.values() if isinstance(x, dict) else x)
                 ] if any(isinstance(x, list | dict) for x in level) else None
        if level is None:
            return depth
        depth += 1


def _random_value(rng: random.Random, depth: int):
    if depth == 0 or rng.random() < 0.3:
        return rng.choice([1, 2.5, None, True, '"[{', "\\", 'a\\"]', "}}\\\\", "\u00e9[", ""])
    if rng.random() < 0.5:
        return [_random_value(rng, depth - 1) for _ in range(rng.randint(0, 3))]
    return {rng.choice(["[", "k", '"}', "\\"]) + str(i): _random_value(rng, depth - 1) for i in range(rng.randint(0, 3))}


def test_the_depth_scan_agrees_with_parsing_whatever_the_strings_hold():
    rng = random.Random(5)
    for _ in range(400):
        value = _random_value(rng, 6)
        for text in (json.dumps(value), json.dumps(value, ensure_ascii=False)):
            assert bounds.json_depth(text.encode()) == _true_depth(value), text


def test_the_depth_scan_is_linear_on_hostile_text():
    import time

    started = time.monotonic()
    for text in (b'"' + b'\\"' * 4_000_000, b"[" * 8_000_000, b'["' * 4_000_000):
        bounds.json_depth(text)
    assert time.monotonic() - started < 10


# -- the session --------------------------------------------------------------------------------------
def _signed(session: Session, msg_type: str, content: bytes, parent_id: str = "p1", header: bytes | None = None):
    """A message as a kernel sends it, with a content of its own making, signed with the session's key."""
    message = session.msg(msg_type, content={})
    parts = [header or session.pack(message["header"]), session.pack({"msg_id": parent_id, "msg_type": "execute_request"}),
             session.pack({}), content]
    return [session.sign(parts), *parts]


@pytest.fixture
def sessions():
    return Session(key=KEY), bounds.BoundedSession(key=KEY)


def test_an_honest_message_reads_as_before(sessions):
    kernel, grader = sessions
    parts = _signed(kernel, "stream", json.dumps({"name": "stdout", "text": "[[hello]]"}).encode())
    message = grader.deserialize(parts)
    assert message["content"] == {"name": "stdout", "text": "[[hello]]"} and not grader.violations


@pytest.mark.parametrize("content", [
    b"[" * 200_000 + b"]" * 200_000,  # deep enough to raise RecursionError in json.loads
    json.dumps({"data": {"application/json": deep(settings.MESSAGE_DEPTH + 1)}}).encode(),
    json.dumps({"data": {"text/plain": "x"}, "metadata": {"m": "x" * (settings.MESSAGE_BYTES + 1)}}).encode(),
], ids=["deep-json", "deep-output", "huge-metadata"])
def test_a_bomb_in_an_output_becomes_an_error_for_its_cell(sessions, content):
    kernel, grader = sessions
    message = grader.deserialize(_signed(kernel, "display_data", content))
    assert message["msg_type"] == "error" and message["parent_header"]["msg_id"] == "p1"
    assert message["content"]["ename"] == bounds.ENAME
    assert message["content"]["evalue"] == bounds.refusal_text() and "MB" in bounds.refusal_text()
    assert len(grader.violations) == 1


def test_a_bomb_in_a_reply_is_an_error_reply(sessions):
    kernel, grader = sessions
    message = grader.deserialize(_signed(kernel, "execute_reply", b"[" * 100_000 + b"]" * 100_000))
    assert message["msg_type"] == "execute_reply" and message["content"]["status"] == "error"
    assert message["content"]["user_expressions"] == {}


def test_a_bomb_in_a_header_is_dropped_and_recorded(sessions):
    kernel, grader = sessions
    header = json.dumps({"msg_id": "x", "msg_type": "stream", "extra": deep(500)}).encode()
    message = grader.deserialize(_signed(kernel, "stream", b"{}", header=header))
    assert message["msg_type"] == "ptgrade_dropped" and message["parent_header"] == {}
    assert grader.violations and not grader.violations[0].msg_type


def test_huge_buffers_are_dropped(sessions):
    kernel, grader = sessions
    parts = _signed(kernel, "comm_msg", b"{}") + [b"\0" * (settings.MESSAGE_BYTES + 1)]
    message = grader.deserialize(parts)
    assert message["buffers"] == [] and grader.violations


def test_a_clone_bounds_too(sessions):
    """jupyter_client hands the kernel client a clone of the manager's session."""
    assert isinstance(sessions[1].clone(), bounds.BoundedSession)


def test_an_error_output_keeps_its_last_lines_within_the_limit():
    content = {"ename": "E" * 10_000, "evalue": "v" * (settings.ERROR_BYTES * 4),
               "traceback": [f"line {i} " + "x" * 1000 for i in range(5000)]}
    short = execute._short_error(content)
    assert len(short["evalue"]) == settings.ERROR_BYTES and len(short["ename"]) == 200
    assert sum(map(len, short["traceback"])) <= settings.ERROR_BYTES
    assert short["traceback"][-1].startswith("line 4999 ")


def test_a_refused_cell_fails_as_flagged_with_its_message():
    assert jobs.failure_kind({"ename": bounds.ENAME}) == "integrity"
    assert jobs.error_text({"ename": bounds.ENAME, "evalue": "plain words"}) == "plain words"


@pytest.mark.parametrize("key", ["grader.bounds.message", "grader.observe.refused"])
def test_the_messages_exist_in_every_language(key):
    for lang in ("en", "zh-CN"):
        text = msg_in(lang, key, mb=16, depth=64, name="y")
        assert text and "{" not in text


# -- observations -----------------------------------------------------------------------------------
def _npy_payload(raw: bytes) -> dict:
    return {"kind": "tensor", "dtype": "torch.float32", "npy": base64.b64encode(raw).decode()}


def _with_header(shape, descr: str = "<f8", data: bytes = b"\0" * 8) -> bytes:
    """An .npy text whose header claims ``shape`` and ``descr``, followed by ``data``."""
    out = io.BytesIO()
    np.lib.format.write_array_header_1_0(out, {"descr": descr, "fortran_order": False, "shape": tuple(shape)})
    return out.getvalue() + data


@pytest.mark.parametrize("raw, kind", [
    (_with_header((10**6, 10**6)), Kind.REFUSED),  # MemoryError in np.load before
    (_with_header((2**40,), "<c16"), Kind.REFUSED),
    (_with_header((1,) * 40), Kind.REFUSED),
    (_with_header((1000,)), Kind.OTHER),  # claims more than it holds
    (_with_header((1,), "|O"), Kind.OTHER),
    (_with_header((1,), "|V8"), Kind.OTHER),
], ids=["huge-shape", "huge-complex", "many-dims", "short-data", "object", "void"])
def test_an_array_whose_header_claims_too_much_is_never_allocated(raw, kind):
    got = ob.decode(_npy_payload(raw))
    assert got.kind == kind and got.array is None
    expected = ob.decode({"kind": "tensor", "dtype": "torch.float32", **_npy_payload(_with_header((1,)))})
    message = ob.compare(expected, got)
    assert message and "{" not in message


def test_an_honest_array_still_loads():
    buffer = io.BytesIO()
    np.save(buffer, np.arange(6, dtype=np.float32).reshape(2, 3), allow_pickle=False)
    got = ob.decode(_npy_payload(buffer.getvalue()))
    assert got.kind == Kind.TENSOR and got.array.shape == (2, 3)


def test_a_deeply_nested_value_is_refused_not_recursed():
    reference = {"y": {"kind": "json", "value": deep(3)}}
    verdict = ob.judge("g", reference, {"y": {"kind": "json", "value": deep(5_000)}})  # RecursionError before
    assert verdict is not None and verdict.message == msg_in("en", "grader.observe.refused", name="y")
    assert ob.judge("g", reference, {"y": {"kind": "json", "value": deep(3)}}) is None


def _observer(reference: dict) -> Observer:
    observer = Observer(ObserveSpec("s", {"g": reference}))
    observer.arm_expression("g")
    observer.begin("g")
    return observer


def _display(observer: Observer, name: str, value) -> None:
    payload = {"key": observer._key, "name": name, "kind": "json", "value": value}
    observer.take({"msg_type": "display_data", "content": {"data": {MIME: payload}}})


def test_many_observations_are_refused_and_the_cell_fails():
    observer = _observer({"y": {"kind": "json", "value": 1}})
    _display(observer, "y", 1)
    for i in range(settings.OBSERVATIONS_PER_CELL + 5):
        _display(observer, f"n{i}", i)
    observer.end()
    verdict = observer.judge("g")
    assert verdict is not None and "did not read" in verdict.message
    assert len(observer.observed["g"]) <= settings.OBSERVATIONS_PER_CELL


def test_observations_past_the_cells_bytes_are_refused(monkeypatch):
    monkeypatch.setattr(ob, "MAX_CELL_BYTES", 10_000)
    observer = _observer({"y": {"kind": "json", "value": "a"}})
    _display(observer, "y", "a")
    _display(observer, "z", "x" * 20_000)  # a huge string
    observer.end()
    assert observer.judge("g").message == msg_in("en", "grader.observe.refused", name="y")


def test_a_huge_name_is_cut():
    observer = _observer({"y": {"kind": "json", "value": 1}})
    _display(observer, "n" * 100_000, 1)
    assert max(map(len, observer.observed["g"])) == settings.OBSERVATION_NAME


def test_an_error_that_is_not_a_dict_is_still_an_error():
    assert execute._short_error(["not", "a", "dict"]) == {"ename": "Error", "evalue": "", "traceback": []}


def test_a_deeply_nested_hand_in_is_a_plain_entry_not_a_crash(tmp_path):
    """A notebook file nested thousands deep (json.loads raised RecursionError in the driver: the whole
    class stopped) is read as a plain-words entry in the report."""
    from grader.intake import submissions

    path = tmp_path / "01_tensors.ipynb"
    path.write_text('{"cells": [], "metadata": {"x": ' + "[" * 100_000 + "]" * 100_000 + "}}")
    nb, error = submissions.read_notebook(path)
    assert nb is None and error == msg_in("en", "grader.file.too_deep", depth=settings.NOTEBOOK_DEPTH)
