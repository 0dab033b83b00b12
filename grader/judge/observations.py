"""The second key: the grader, in its own process, compares what a test cell observed.

A test cell that calls ``ptcourse.observe.observe(name, value)`` shows the grader the answer's
outputs on fresh inputs (made with ``ptcourse.observe.fresh_generator()``, seeded per cell from a
secret of this run). The course's solution notebook runs once per run and notebook with the same
secret (:mod:`grader.run.reference`); its observations are the expected values, and they exist only
here, never in a learner's kernel. A test cell's points then need both keys: its own checks pass
in the kernel, and every observation the reference made is matched by the learner's.

Observations arrive as plain data (:func:`decode`): a tensor as an ``.npy`` array read with
``allow_pickle=False`` and only numeric or boolean dtypes, anything else as JSON. Nothing of the
learner's is unpickled, and no learner object takes part in a comparison. Tolerances and the
comparison live only here (:func:`compare`).
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import io
import json
import math
import secrets
from dataclasses import dataclass, field
from enum import StrEnum

import numpy as np

from grader import settings
from grader.judge import model_checks
from ptcourse.messages import msg
from ptcourse.observe import MIME

# What one test cell may send (grader/settings.py); past it, the cell's observations are refused and it fails.
MAX_CELL_BYTES = settings.OBSERVED_CELL_BYTES
# (rtol, atol) by dtype; any other float dtype: float32's.
TOLERANCES = {"float64": (1e-7, 1e-9), "float32": (1e-4, 1e-5), "float16": (1e-2, 1e-3),
              "bfloat16": (2e-2, 1e-2), "complex128": (1e-7, 1e-9), "complex64": (1e-4, 1e-5)}
FLOAT_JSON = (1e-7, 1e-9)  # a Python float is a float64

Payloads = dict[str, dict[str, dict]]  # grade id -> name -> payload, as it came (JSON)


class Kind(StrEnum):
    TENSOR = "tensor"
    JSON = "json"
    OTHER = "other"  # an object that is not plain data (its type's name), or a payload not understood
    REFUSED = "refused"  # past the grader's limits (grader/settings.py): never read (why, for the instructor)


@dataclass(frozen=True)
class Observation:
    """One observed value, read as plain data."""

    name: str
    kind: Kind
    dtype: str = ""  # TENSOR: torch's (or NumPy's) dtype name
    array: np.ndarray | None = None  # TENSOR
    value: object = None  # JSON: the value; OTHER: the type's name
    tol: tuple[float, float] | None = None  # (rtol, atol) the test cell asked for; read from the reference only


@dataclass(frozen=True)
class ObserveSpec:
    """What a grading job needs for the second key: the run's secret and the reference's payloads
    (``None``: this job *is* the reference run, and its observations are recorded)."""

    secret: str
    reference: Payloads | None = None


@dataclass(frozen=True)
class Disagreement:
    """A test cell whose checks passed in the kernel and whose observations did not match."""

    grade_id: str
    message: str  # a catalogue message, for the learner
    detail: str  # for the instructor


def new_secret() -> str:
    return secrets.token_hex(16)


def cell_seed(secret: str, grade_id: str) -> int:
    """The seed of one test cell's fresh inputs: the same in the reference and in every learner's run."""
    return int.from_bytes(hashlib.sha256(f"{secret}:{grade_id}".encode()).digest()[:8], "big") >> 1


# -- reading ---------------------------------------------------------------------------------------
def _tolerance(payload: dict) -> tuple[float, float] | None:
    """The test cell's own tolerances, when the payload carries two finite, non-negative numbers."""
    tol = payload.get("tol")
    if (isinstance(tol, list) and len(tol) == 2 and all(type(t) in (int, float) for t in tol)
            and all(math.isfinite(t) and 0 <= t <= 1 for t in tol)):
        return float(tol[0]), float(tol[1])
    return None


def decode(payload: dict) -> Observation:
    """A payload as plain data; a malformed one is an OTHER that matches nothing, and one past the
    grader's limits a REFUSED, checked before anything is allocated for it. Its tolerances are read
    too, but only :func:`judge` decides whose count: the reference's, never the learner's."""
    name = str(payload.get("name", ""))[:settings.OBSERVATION_NAME]
    kind = payload.get("kind")
    tol = _tolerance(payload)
    if kind == Kind.TENSOR:
        return _decode_tensor(name, payload, tol)
    if kind == Kind.JSON:
        value = payload.get("value")
        if not _shallow(value, settings.OBSERVATION_DEPTH):
            return Observation(name, Kind.REFUSED, value=f"nested over {settings.OBSERVATION_DEPTH} deep")
        return Observation(name, Kind.JSON, value=value, tol=tol)
    return Observation(name, Kind.OTHER, value=str(payload.get("type", "unknown"))[:60])


def _decode_tensor(name: str, payload: dict, tol) -> Observation:
    text = payload.get("npy")
    if not isinstance(text, str):
        return Observation(name, Kind.OTHER, value="unreadable data")
    if len(text) > 4 * (settings.OBSERVATION_BYTES // 3 + 1) + 4096:  # base64 of the array and its header
        return Observation(name, Kind.REFUSED, value=f"{len(text)} characters of data")
    try:
        raw = base64.b64decode(text, validate=True)
        why = npy_problem(raw)
        if why is not None:
            return Observation(name, Kind.REFUSED if why.startswith("over") else Kind.OTHER, value=why)
        array = np.load(io.BytesIO(raw), allow_pickle=False)
    except (TypeError, ValueError, binascii.Error, OSError, MemoryError):
        return Observation(name, Kind.OTHER, value="unreadable data")
    if not isinstance(array, np.ndarray) or array.dtype.kind not in "biufc":
        return Observation(name, Kind.OTHER, value="unreadable data")
    return Observation(name, Kind.TENSOR, dtype=str(payload.get("dtype", array.dtype))[:60], array=array, tol=tol)


def npy_problem(raw: bytes) -> str | None:
    """Why an ``.npy`` text may not be loaded (None when it may), from its header alone: a plain numeric
    dtype, at most OBSERVATION_NDIM dimensions, and exactly the data its shape claims, within
    OBSERVATION_BYTES. ``np.load`` would otherwise allocate what the header claims before reading any."""
    fp = io.BytesIO(raw)
    try:
        version = np.lib.format.read_magic(fp)
        if version == (1, 0):
            shape, _, dtype = np.lib.format.read_array_header_1_0(fp)
        elif version == (2, 0):
            shape, _, dtype = np.lib.format.read_array_header_2_0(fp)
        else:
            return f"npy version {version}"
    except (ValueError, TypeError, SyntaxError, OSError, RecursionError, MemoryError):
        return "unreadable header"
    if dtype.kind not in "biufc" or dtype.hasobject or dtype.fields is not None or dtype.subdtype is not None:
        return f"dtype {dtype.str}"
    if len(shape) > settings.OBSERVATION_NDIM:
        return f"over {settings.OBSERVATION_NDIM} dimensions ({len(shape)})"
    claimed = math.prod(shape) * dtype.itemsize  # Python ints: no overflow
    if claimed > settings.OBSERVATION_BYTES:
        return f"over {settings.OBSERVATION_BYTES} bytes (its header claims {claimed})"
    if claimed != len(raw) - fp.tell():
        return f"{len(raw) - fp.tell()} bytes of data where the header claims {claimed}"
    return None


def _shallow(value, depth: int) -> bool:
    """Whether lists and dicts nest at most ``depth`` deep in ``value`` (read without recursion)."""
    level = [value]
    for _ in range(depth + 1):
        level = [v for item in level if isinstance(item, list | dict)
                 for v in (item.values() if isinstance(item, dict) else item)]
        if not level:
            return True
    return False


def _describe(obs: Observation) -> str:
    if obs.kind == Kind.TENSOR:
        return f"tensor {obs.dtype} {tuple(obs.array.shape)}"
    if obs.kind == Kind.JSON:
        return type(obs.value).__name__
    return str(obs.value)


def _size(payload) -> int:
    """An observation's size as JSON (0: not a payload, or one no JSON text can hold)."""
    if not isinstance(payload, dict):
        return 0
    try:
        return len(json.dumps(payload))
    except (TypeError, ValueError, RecursionError):
        return 0


def _short(value) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


# -- comparing -------------------------------------------------------------------------------------
def compare(expected: Observation, got: Observation | None) -> str | None:
    """``None`` when ``got`` matches ``expected``; otherwise the learner's message."""
    if got is None:
        return msg("grader.observe.missing", name=expected.name)
    if got.kind == Kind.REFUSED:
        return msg("grader.observe.refused", name=expected.name)
    if got.kind != expected.kind or got.kind == Kind.OTHER:
        return msg("grader.observe.kind", name=expected.name, expected=_describe(expected), got=_describe(got))
    if expected.kind == Kind.JSON:
        if _json_equal(expected.value, got.value, expected.tol or FLOAT_JSON):
            return None
        return msg("grader.observe.value", name=expected.name, expected=_short(expected.value),
                   got=_short(got.value))
    return _compare_arrays(expected, got)


def _compare_arrays(expected: Observation, got: Observation) -> str | None:
    shapes = f"{tuple(got.array.shape)} vs {tuple(expected.array.shape)}"
    if got.dtype != expected.dtype:
        return msg("grader.observe.dtype", name=expected.name, expected=expected.dtype, got=got.dtype)
    if got.array.shape != expected.array.shape:
        return msg("grader.observe.shape", name=expected.name, shapes=shapes)
    want, have = expected.array, got.array
    if want.dtype.kind in "fc":
        rtol, atol = expected.tol or TOLERANCES.get(expected.dtype, TOLERANCES["float32"])
        close = np.isclose(have, want, rtol=rtol, atol=atol, equal_nan=True)
    else:
        close = have == want
    if bool(np.all(close)):
        return None
    diff = np.abs(have.astype(np.complex128) - want.astype(np.complex128))
    largest = float(np.nanmax(np.where(close, 0.0, np.where(np.isnan(diff), np.inf, diff))))
    return msg("grader.observe.differs", name=expected.name, shapes=shapes, diff=f"{largest:.3g}")


def _json_equal(want, got, tol: tuple[float, float] = FLOAT_JSON) -> bool:
    """Exact for None, bools, ints and strings (types too); floats within ``tol``; lists item by item."""
    if type(want) is not type(got):
        return False
    if isinstance(want, list):
        return len(want) == len(got) and all(_json_equal(w, g, tol) for w, g in zip(want, got, strict=True))
    if isinstance(want, float):
        rtol, atol = tol
        return (math.isnan(want) and math.isnan(got)) or math.isclose(got, want, rel_tol=rtol, abs_tol=atol)
    return want == got


def judge(grade_id: str, reference: dict[str, dict], observed: dict[str, dict]) -> Disagreement | None:
    """Whether a test cell's observations match the reference's: every name the reference has, each
    within the reference's tolerances (a learner's own ``tol`` is dropped), and no name it lacks (the
    course's cell never sends one: it was forged)."""
    for name, payload in reference.items():
        expected = decode({**payload, "name": name})
        got = observed.get(name)
        why = compare(expected, decode({**got, "name": name, "tol": None}) if got is not None else None)
        if why is not None:
            return Disagreement(grade_id, why, f"{name}: {why}")
    extra = sorted(set(observed) - set(reference))
    if extra:
        why = msg("grader.observe.extra", name=_short(extra[0]))
        return Disagreement(grade_id, why, f"{extra[0]}: not observed by the course")
    return None


# -- the grading job's side ------------------------------------------------------------------------
@dataclass
class Observer:
    """In a grading job (grader/jail/execute.py): arms each test cell, collects what it observed, and
    judges it against the reference (or records it, in the reference run)."""

    spec: ObserveSpec
    observed: Payloads = field(default_factory=dict)
    disagreed: list[Disagreement] = field(default_factory=list)
    refused: set[str] = field(default_factory=set)  # cells that sent more than the grader reads
    unjudged: list[Disagreement] = field(default_factory=list)  # model checks the grader could not evaluate
    _cell: str | None = None
    _key: str = ""
    _bytes: int = 0

    def arm_expression(self, grade_id: str) -> str:
        """A user expression, sent silently before the cell, that seeds its fresh inputs."""
        self._key = secrets.token_hex(8)
        seed = cell_seed(self.spec.secret, grade_id)
        return f"__import__('ptcourse.observe', fromlist=['arm']).arm({self._key!r}, {seed})"

    def begin(self, grade_id: str) -> None:
        self._cell, self._bytes = grade_id, 0
        self.observed[grade_id] = {}

    def end(self) -> None:
        self._cell = None

    def take(self, message: dict) -> bool:
        """Whether an IOPub message is an observation (kept out of the notebook either way). A cell that
        sends more than the grader reads (settings.OBSERVED_CELL_BYTES, OBSERVATIONS_PER_CELL) has its
        observations refused: it fails, and is flagged (:meth:`judge`)."""
        if message.get("msg_type") not in ("display_data", "update_display_data"):
            return False
        data = message.get("content", {}).get("data", {})
        if not isinstance(data, dict) or MIME not in data:
            return False
        payload = data[MIME]
        size = _size(payload)
        if self._cell is None or not size or payload.get("key") != self._key:
            return True
        self._bytes += size
        name = str(payload.get("name", ""))[:settings.OBSERVATION_NAME]
        cell = self.observed[self._cell]
        if self._bytes > MAX_CELL_BYTES or len(cell) >= settings.OBSERVATIONS_PER_CELL:
            self.refused.add(self._cell)
            return True
        # Twice the same name: neither copy is trusted.
        cell[name] = {"kind": "other", "type": "observed twice"} if name in cell else {
            k: v for k, v in payload.items() if k not in ("key", "name")}
        return True

    def judge(self, grade_id: str) -> Disagreement | None:
        """For a learner's cell whose checks passed: the second key's verdict."""
        if self.spec.reference is None:
            return None  # the reference run: what it observes is the expected
        if grade_id in model_checks.JUDGES:
            return self._judge_model(grade_id)
        if grade_id in model_checks.KERNEL_ONLY:
            self.unjudged.append(Disagreement(grade_id, "", model_checks.KERNEL_ONLY[grade_id]))
            return None
        reference = self.spec.reference.get(grade_id) or {}
        observed = self.observed.get(grade_id, {})
        if grade_id in self.refused:
            why = msg("grader.observe.refused", name=str(next(iter(reference), grade_id))[:60])
            verdict = Disagreement(grade_id, why, "more observations than the grader reads")
        elif not reference and not observed:
            return None  # the course observes nothing in this cell: the kernel's checks decide
        else:
            verdict = judge(grade_id, reference, observed)
        if verdict is not None:
            self.disagreed.append(verdict)
        return verdict

    def _judge_model(self, grade_id: str) -> Disagreement | None:
        """A model-level check (grader/judge/model_checks.py), judged here from the weights the cell observed;
        one the grader cannot evaluate keeps the kernel's verdict and is flagged for review."""
        observed = self.observed.get(grade_id, {})
        if not any(name.startswith(model_checks.STATE_PREFIX) for name in observed):
            why = msg("grader.model.weights_missing")
            verdict = model_checks.Verdict(model_checks.Outcome.FAILED, why, "no weights observed")
        else:
            arrays = {}
            for name, payload in observed.items():
                seen = decode({**payload, "name": name}) if isinstance(payload, dict) else None
                if seen is not None and seen.kind == Kind.TENSOR:
                    arrays[name] = seen.array
            try:
                verdict = model_checks.JUDGES[grade_id](arrays, cell_seed(self.spec.secret, grade_id))
            except Exception as exc:  # noqa: BLE001 - the grader's own trouble (the data's files): flagged, never a crash
                verdict = model_checks.Verdict(model_checks.Outcome.UNJUDGED,
                                               detail=f"the grader could not evaluate it: {type(exc).__name__}: {exc}"[:300])
        if verdict.outcome == model_checks.Outcome.UNJUDGED:
            self.unjudged.append(Disagreement(grade_id, "", verdict.detail))
            return None
        if verdict.outcome == model_checks.Outcome.FAILED:
            self.disagreed.append(Disagreement(grade_id, verdict.message, verdict.detail))
            return self.disagreed[-1]
        return None

    def summary(self) -> dict:
        """What the job hands back: the reference run's observations, or the disagreements (and the
        model checks the grader could not evaluate)."""
        if self.spec.reference is None:
            return {"observed": {g: o for g, o in self.observed.items() if o}}
        return {"disagreed": [{"grade_id": d.grade_id, "detail": d.detail} for d in self.disagreed],
                "unjudged": [{"grade_id": d.grade_id, "detail": d.detail} for d in self.unjudged]}
