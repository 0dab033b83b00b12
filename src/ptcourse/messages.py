"""Every learner-facing message, looked up by id.

Messages live in catalogues (``ptcourse/catalogue/<lang>/*.py``), each module holding a
``MESSAGES`` dict. A second language is a second folder with the same ids; the language
is chosen with the ``PTCOURSE_LANG`` environment variable (default ``en``). Missing ids
in a translation fall back to English, so a partial translation still works.
"""

from __future__ import annotations

import importlib
import os
import pkgutil
from functools import cache

DEFAULT_LANG = "en"


@cache
def catalogue(lang: str) -> dict[str, str]:
    """All messages of one language, merged from the modules of its catalogue folder."""
    package = importlib.import_module(f"ptcourse.catalogue.{lang}")
    merged: dict[str, str] = {}
    for info in pkgutil.iter_modules(package.__path__):
        module = importlib.import_module(f"{package.__name__}.{info.name}")
        for key, text in module.MESSAGES.items():
            if key in merged:
                raise ValueError(f"message id {key!r} defined twice in the {lang!r} catalogue")
            merged[key] = text
    return merged


def current_lang() -> str:
    """The language asked for by ``PTCOURSE_LANG``, or English."""
    return os.environ.get("PTCOURSE_LANG", DEFAULT_LANG) or DEFAULT_LANG


def msg(key: str, /, **values: object) -> str:
    """The message ``key`` in the current language, formatted with ``values``."""
    lang = current_lang()
    try:
        table = catalogue(lang)
    except ModuleNotFoundError:
        table = {}
    text = table.get(key) or catalogue(DEFAULT_LANG).get(key)
    if text is None:
        raise KeyError(f"no message with id {key!r}")
    return text.format(**values)
