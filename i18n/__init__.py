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

**Shared words.** What every game's pages say alike (the seat rows of the new-game page, the
replay speeds, the join page, "Review this game"...) is said once, under ``page.``
(``i18n/<lang>/page.json``): a key ``<ns>.<name>`` that no file defines reads ``page.<name>``
(``lookup``, ``translate``; ``static/common/i18n.js``'s ``t`` follows the same rule). A game
words only what it says differently: ``isla.join_invite_by`` overrides ``page.join_invite_by``,
while ``<game>.speed_fast`` is ``page.speed_fast``.

**More folders.** ``add_folder(path)`` adds a folder laid out like this one (``<lang>/*.json``)
to the catalogues, e.g. a game that lives outside the project's tree (the test suite's sixth
game); its keys follow the same rules (a key defined twice is an error). ``version()`` counts
the changes, for caches built from the catalogues.
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
#: The namespace of the words every game's pages share (the module doc).
SHARED = "page."
#: The folders the catalogues are read from: this package's, then those ``add_folder`` added.
_FOLDERS: list[Path] = [_DIR]
_CHANGES = [0]


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
    for folder in _FOLDERS:
        for path in sorted((folder / lang).glob("*.json")):
            for key, value in json.loads(path.read_text("utf-8")).items():
                if key in out:
                    raise ValueError(f"i18n/{lang}: {key!r} is in both {where[key]} and {path}")
                out[key] = value
                where[key] = str(path)
    return out


def defined(lang: str) -> dict[str, Any]:
    """What the files of ``lang`` themselves define: no English filling in, no shared word
    standing in (for the tests that hold both languages to the same keys)."""
    return _load(normalize(lang) or DEFAULT_LANG)


def add_folder(folder: Path) -> None:
    """Read the catalogues of ``folder`` (``<lang>/*.json``) too, from now on (once a folder)."""
    folder = Path(folder).resolve()
    if folder not in _FOLDERS:
        _FOLDERS.append(folder)
        _changed()


def remove_folder(folder: Path) -> None:
    """Forget a folder ``add_folder`` added (the test suite's games, when their tests end)."""
    folder = Path(folder).resolve()
    if folder in _FOLDERS[1:]:
        _FOLDERS.remove(folder)
        _changed()


def version() -> int:
    """A number that changes whenever the catalogues do (``add_folder``, ``remove_folder``)."""
    return _CHANGES[0]


def _changed() -> None:
    _CHANGES[0] += 1
    catalogue.cache_clear()


@cache
def catalogue(lang: str) -> dict[str, Any]:
    """The message catalogue of ``lang`` (English fills any key the other language lacks)."""
    lang = normalize(lang) or DEFAULT_LANG
    base = _load(DEFAULT_LANG)
    if lang != DEFAULT_LANG:
        base = {**base, **_load(lang)}
    return base


def shared_key(key: str) -> str | None:
    """The shared word ``key`` falls back to: ``<ns>.speed_fast`` → ``page.speed_fast`` (``None``
    for a key of the shared namespace itself or one without a namespace)."""
    ns, dot, name = key.partition(".")
    if not dot or not ns or key.startswith(SHARED):
        return None
    return SHARED + name


def lookup(lang: str, key: str) -> Any:
    """The catalogue value of ``key`` in ``lang``, or the shared word it falls back to
    (``shared_key``); ``None`` when neither exists."""
    words = catalogue(lang)
    if key in words:
        return words[key]
    shared = shared_key(key)
    return words.get(shared) if shared is not None else None


def has(lang: str, key: str) -> bool:
    """Whether ``key`` has words in ``lang`` (its own or the shared ones)."""
    return lookup(lang, key) is not None


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
    placeholders filled from ``params`` (the key itself if unknown; a shared word stands for a
    key no file defines: ``lookup``). The one message function."""
    value = lookup(lang, key)
    text = pick(key if value is None else value, lang, params)
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
