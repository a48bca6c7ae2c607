"""The message catalogues: every user-facing string of the project, one folder per language.

``i18n/<lang>/*.json`` (``en``, ``zh`` = Traditional Chinese) hold flat keys such as
``game.play`` → ``"Play"``; a file per area (``site``, ``tobago``, ``dao``, one per game...), all
files of a language forming one catalogue. A key defined in two files is an error (raised on
load), so areas cannot silently overwrite each other. English fills any key another language
lacks. This package is at the bottom of the layers: ``hexmap``, ``solver``, ``games`` and ``web``
may all read it; ``web.i18n`` adds the request's language and the template helpers.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

LANGS: tuple[str, ...] = ("en", "zh")
DEFAULT_LANG = "en"
_DIR = Path(__file__).parent


def normalize(raw: Any) -> str | None:
    """``en``/``zh`` for a language tag we serve (``zh-TW``, ``zh-Hant`` → ``zh``), else None."""
    if not isinstance(raw, str):
        return None
    tag = raw.strip().lower().replace("_", "-")
    if tag in LANGS:
        return tag
    if tag.startswith("zh"):
        return "zh"
    if tag.startswith("en"):
        return "en"
    return None


def _load(lang: str) -> dict[str, Any]:
    """Every file of one language merged; a key defined twice raises ``ValueError``."""
    out: dict[str, Any] = {}
    where: dict[str, str] = {}
    for path in sorted((_DIR / lang).glob("*.json")):
        for key, value in json.loads(path.read_text("utf-8")).items():
            if key in out:
                raise ValueError(f"i18n/{lang}: {key!r} is in both {where[key]} and {path.name}")
            out[key] = value
            where[key] = path.name
    return out


@cache
def catalogue(lang: str) -> dict[str, Any]:
    """The message catalogue of ``lang`` (English fills any key the other language lacks)."""
    lang = normalize(lang) or DEFAULT_LANG
    base = _load(DEFAULT_LANG)
    if lang != DEFAULT_LANG:
        base = {**base, **_load(lang)}
    return base


def translate(lang: str, key: str, **params: Any) -> str:
    """The string ``key`` in ``lang`` with ``{name}`` placeholders filled (the key if unknown)."""
    text = catalogue(lang).get(key, key)
    if params:
        try:
            return text.format(**params)
        except (KeyError, IndexError, ValueError):
            return text
    return text
