"""Every environment variable the course package reads, typed, with its default: :class:`Settings`,
read by :func:`read`. No other module of ``ptcourse`` reads ``os.environ`` (tests/test_settings.py
greps for it).

The grader's own variables are ``grader.settings.Environment`` (the learner's package cannot import
the grader; the two records are made the same way). A grading kernel receives these variables from
the grader's environment (``grader.jail.sandbox.kernel_env`` lets ``PTCOURSE_*`` through), so those that
can change a grade are marked ``grades=True``: the grader's run fingerprint holds them.

Standard library only, and cheap: the messages read the language on every call.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = ["ENVIRONMENT", "SettingError", "Settings", "grade_changing", "read", "read_settings", "setting"]


class SettingError(ValueError):
    """An environment variable with a value its setting cannot take."""


def _path(value: str) -> Path:
    return Path(value).expanduser()


def _not_zero(value: str) -> bool:
    return value != "0"


def setting(env: str, doc: str, *, grades: bool, default: Any = None, parse: Callable[[str], Any] = str) -> Any:
    """A field read from ``env`` (unset or empty: ``default``) with ``parse``; ``grades``: it can change a grade."""
    return dataclasses.field(default=default, metadata={"env": env, "doc": doc, "grades": grades, "parse": parse})


@dataclass(frozen=True)
class Settings:
    """The course package's environment variables (learners' kernels may receive these)."""

    lang: str | None = setting("PTCOURSE_LANG", "the language of messages (en, zh-CN; qps: pseudo-localised); "
                               "default: .ptcourse-lang, en", grades=False)  # the words, never the score
    device: str | None = setting("PTCOURSE_DEVICE", "the device ptcourse.setup picks (cpu, cuda, mps); default: "
                                 "the best available", grades=True)
    threads: int | None = setting("PTCOURSE_THREADS", "PyTorch threads; default: the CPUs really available",
                                  grades=False, parse=int)  # a grading kernel's: the grader's --threads (its limits)
    data: Path | None = setting("PTCOURSE_DATA", "the data/ folder", grades=True, parse=_path)
    mnist_root: Path | None = setting("PTCOURSE_MNIST_ROOT", "a folder with the full MNIST (torchvision's layout); "
                                      "default: the bundled sample", grades=True, parse=_path)
    progress: Path | None = setting("PTCOURSE_PROGRESS", "the progress file (.ptcourse-progress.json) of the "
                                    "course home", grades=False, parse=Path)
    memory_check: bool = setting("PTCOURSE_MEMORY_CHECK", "0: no memory warning when a notebook starts",
                                 grades=False, default=True, parse=_not_zero)


def read_settings(cls, environ: Mapping[str, str] | None = None):
    """A settings record (a dataclass of :func:`setting` fields; the grader's ``Environment`` too) read
    from ``environ`` (default: this process's environment, now)."""
    environ = os.environ if environ is None else environ
    values = {}
    for f in dataclasses.fields(cls):
        raw = environ.get(f.metadata["env"], "")
        if raw != "":
            try:
                values[f.name] = f.metadata["parse"](raw)
            except ValueError as exc:
                raise SettingError(f"{f.metadata['env']}={raw!r}: {f.metadata['doc']} ({exc})") from None
    return cls(**values)


def read(environ: Mapping[str, str] | None = None) -> Settings:
    """The settings from ``environ`` (default: this process's environment, now: a kernel that sets
    ``os.environ["PTCOURSE_LANG"]`` is heard at once)."""
    return read_settings(Settings, environ)


def grade_changing(record) -> tuple[tuple[str, str], ...]:
    """``(variable, value)`` of each setting marked ``grades=True``, in field order."""
    return tuple((f.metadata["env"], repr(getattr(record, f.name))) for f in dataclasses.fields(record)
                 if f.metadata["grades"])


# name -> what it does (the README's table lists the same)
ENVIRONMENT = {f.metadata["env"]: f.metadata["doc"] for f in dataclasses.fields(Settings)}
