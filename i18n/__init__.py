"""The message catalogues: every user-facing string of the project, one folder per language.

``i18n/<lang>/*.json`` (``en``, ``zh`` = Traditional Chinese) hold flat keys such as
``game.play`` → ``"Play"``; a file per area (``site``, ``review``, one per game named by its kind...), all
files of a language forming one catalogue. A key defined in two files is an error (raised on
load), so areas cannot silently overwrite each other. English fills any key another language
lacks. A value is a string with ``{name}`` placeholders, or a plural object
``{"one": ..., "other": ...}`` chosen by the ``count`` parameter (English: ``one`` for 1,
Chinese: always ``other``), so no caller builds a plural by concatenation. Lists are joined with
the language's separator (``common.list_sep``: ", " / "、"). This package is at the bottom of the layers: ``hexmap``, ``solver``, ``games`` and ``web``
may all read it; ``web.i18n`` adds the request's language and the template helpers.
"""

from __future__ import annotations

import json
import re
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


def plural_form(lang: str, count: Any) -> str:
    """The plural category of ``count`` in ``lang``: ``one`` or ``other`` (Chinese has no plural)."""
    if normalize(lang) == "en" and count == 1:
        return "one"
    return "other"


def pick(value: Any, lang: str, params: dict[str, Any]) -> str:
    """A catalogue value as text: a plural object resolved by ``params["count"]``."""
    if isinstance(value, dict):
        form = plural_form(lang, params.get("count"))
        return str(value.get(form, value.get("other", "")))
    return str(value)


def translate(lang: str, key: str, **params: Any) -> str:
    """The message ``key`` in ``lang``: its plural form chosen by ``count`` and its ``{name}``
    placeholders filled from ``params`` (the key itself if unknown). The one message function."""
    text = pick(catalogue(lang).get(key, key), lang, params)
    if not params:
        return text
    zh = normalize(lang) == "zh"

    def fill(m: re.Match[str]) -> str:
        name = m.group(1)
        if name not in params:
            return m.group(0)
        value = str(params[name])
        if zh and value:
            before, after = text[m.start() - 1 : m.start()], text[m.end() : m.end() + 1]
            if _CJK.match(before) and _LATIN.match(value[0]):
                value = " " + value
            if _CJK.match(after) and _LATIN.match(value[-1]):
                value += " "
        return value

    return _PLACEHOLDER.sub(fill, text)


_PLACEHOLDER = re.compile(r"\{(\w+)\}")
#: Chinese typesetting spaces a Latin word or a number next to a Han character ("詢問 Alice").
_CJK = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")
_LATIN = re.compile(r"[A-Za-z0-9]")


def join_list(lang: str, items: list[str]) -> str:
    """``items`` joined with the language's list separator (", " in English, "、" in Chinese)."""
    return translate(lang, "common.list_sep").join(items)
