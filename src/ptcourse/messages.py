"""Every learner-facing message, looked up by id.

Messages live in catalogues (``ptcourse/catalogue/<package>/*.py``), each module holding a
``MESSAGES`` dict; all modules of a folder are merged (an id may be defined once). The
languages are ``en`` and ``zh-CN`` (package ``zh_CN``), plus the pseudo-locale ``qps``, which
wraps each English message as ``⟦id⟧…⟦/⟧`` so that the tests can find text that bypassed the
catalogue.

The language (:func:`current_lang`) is ``PTCOURSE_LANG`` when set; otherwise the nearest file
``.ptcourse-lang`` found walking up from the current directory (a Jupyter kernel runs in its
notebook's folder, and ``zh-CN/.ptcourse-lang`` says ``zh-CN``); otherwise English. Missing
ids in a translation fall back to English at run time, so a partial translation still works.
"""

from __future__ import annotations

import contextlib
import contextvars
import importlib
import os
import pkgutil
from collections.abc import Iterator
from functools import cache
from pathlib import Path

from ptcourse import settings

DEFAULT_LANG = "en"
LANGS = {"en": "en", "zh-CN": "zh_CN"}  # language code -> catalogue package
PSEUDO = "qps"  # the pseudo-locale: English, each message wrapped in ⟦id⟧…⟦/⟧
LANG_FILE = ".ptcourse-lang"
_SPEAKING: contextvars.ContextVar[str | None] = contextvars.ContextVar("ptcourse_lang", default=None)
_ALIASES = {"zh": "zh-CN", "zh_cn": "zh-CN", "zh-cn": "zh-CN", "zh-hans": "zh-CN", "zh_hans": "zh-CN"}


def normalise_lang(code: str | None) -> str:
    """A language code as the course spells it (``zh_CN``, ``zh`` -> ``zh-CN``); empty -> English."""
    code = (code or "").strip()
    if not code:
        return DEFAULT_LANG
    if code in LANGS or code == PSEUDO:
        return code
    return _ALIASES.get(code.lower(), code)


@cache
def catalogue(lang: str) -> dict[str, str]:
    """All messages of one language, merged from the modules of its catalogue folder."""
    lang = normalise_lang(lang)
    if lang == PSEUDO:
        return {key: f"⟦{key}⟧{text}⟦/⟧" for key, text in catalogue(DEFAULT_LANG).items()}
    package = importlib.import_module(f"ptcourse.catalogue.{LANGS.get(lang, lang.replace('-', '_'))}")
    merged: dict[str, str] = {}
    for info in pkgutil.iter_modules(package.__path__):
        module = importlib.import_module(f"{package.__name__}.{info.name}")
        for key, text in module.MESSAGES.items():
            if key in merged:
                raise ValueError(f"message id {key!r} defined twice in the {lang!r} catalogue")
            merged[key] = text
    return merged


def lang_file_lang(start: str | os.PathLike | None = None) -> str | None:
    """The language named by the nearest ``.ptcourse-lang`` at or above ``start`` (default: the cwd)."""
    try:
        here = Path(start or os.getcwd()).resolve()
    except OSError:
        return None
    for folder in (here, *here.parents):
        path = folder / LANG_FILE
        try:
            if path.is_file():
                return normalise_lang(path.read_text(encoding="utf-8").strip().splitlines()[0]
                                      if path.stat().st_size else "")
        except (OSError, UnicodeDecodeError, IndexError):
            return None
    return None


@contextlib.contextmanager
def speaking(lang: str | None) -> Iterator[str]:
    """Within the block, :func:`msg` speaks ``lang`` (the grader writing one student's notes)."""
    token = _SPEAKING.set(normalise_lang(lang))
    try:
        yield normalise_lang(lang)
    finally:
        _SPEAKING.reset(token)


def current_lang() -> str:
    """The language of a :func:`speaking` block; else ``PTCOURSE_LANG`` if set; else the nearest
    ``.ptcourse-lang`` file's language; else English."""
    if _SPEAKING.get():
        return _SPEAKING.get()
    env = settings.read().lang
    if env:
        return normalise_lang(env)
    return lang_file_lang() or DEFAULT_LANG


def msg_in(lang: str | None, key: str, /, **values: object) -> str:
    """The message ``key`` in language ``lang`` (English where it lacks one), formatted with ``values``."""
    try:
        table = catalogue(normalise_lang(lang))
    except ModuleNotFoundError:
        table = {}
    english = catalogue(DEFAULT_LANG).get(key)
    text = table.get(key) or english
    if text is None:
        raise KeyError(f"unknown message id {key!r} (not in the catalogue)")
    try:
        return text.format(**values)
    except (KeyError, IndexError, ValueError):
        if text is english:
            raise
        return english.format(**values)  # a broken translation: English rather than nothing


def msg(key: str, /, **values: object) -> str:
    """The message ``key`` in the current language (:func:`current_lang`), formatted with ``values``."""
    return msg_in(current_lang(), key, **values)


def has(key: str) -> bool:
    """Whether ``key`` is an id of the English catalogue."""
    return key in catalogue(DEFAULT_LANG)


def say(key: str, /, *shown: object, **values: object) -> None:
    """Print the message ``key`` in the learner's language, then ``shown`` as ``print`` would:
    a demonstration cell's printed label, ``say("tensors.demo_negatives", (x < 0).sum().item())``
    for ``print("negatives:", ...)``. Values inside the sentence go by name (``**values``)."""
    print(msg(key, **values), *shown)
