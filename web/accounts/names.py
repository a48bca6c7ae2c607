"""Account names: what a player may be called, and when two names are one.

A name is taken as the player typed it, in Unicode's NFKC form (so a full-width "Ａｎａ" is
"Ana"), with runs of spaces made one and none at either end. It holds 3-24 characters, each a
letter, a mark, a digit, a space or one of ``_ - . '``, at least one a letter or digit: no
character unfit to show (``web.text_rules``, as for seat names and chat lines), and nothing a web address treats specially (a name is the last part of ``/players/<name>``).
Two names are the same name when their keys are equal (``name_key``: case folded, NFKC again,
as Unicode's case-insensitive matching asks), so "Ana", "ANA" and "ａｎａ" are one account.
"""

from __future__ import annotations

import re
import unicodedata

from errors import InvalidInput
from web.schemas_games import plain_name

MIN_NAME = 3
MAX_NAME = 24
#: The punctuation a name may hold besides letters, marks, digits and spaces.
PUNCTUATION = "_-.'"
_SPACES = re.compile(r"\s+")


def _allowed(ch: str) -> bool:
    return ch == " " or ch in PUNCTUATION or unicodedata.category(ch)[0] in "LMN"


def account_name(raw: str, field: str = "name") -> str:
    """The name ``raw`` stands for (module doc), or ``InvalidInput`` naming what is wrong:
    ``hidden_character`` (a character unfit to show, ``web.text_rules``, as for seat names),
    ``name_length`` (not 3-24 characters) or ``name_character`` (the first character a name
    may not hold)."""
    try:
        plain_name(raw)
    except InvalidInput as e:
        raise e.with_prefix(field) from None
    name = _SPACES.sub(" ", unicodedata.normalize("NFKC", raw)).strip()
    if not MIN_NAME <= len(name) <= MAX_NAME:
        raise InvalidInput(
            f"a name has {MIN_NAME}-{MAX_NAME} characters, this one {len(name)}",
            field,
            reason="name_length",
            params={"min": MIN_NAME, "max": MAX_NAME, "length": len(name)},
        )
    if not any(unicodedata.category(ch)[0] in "LN" for ch in name):
        raise InvalidInput(
            "a name holds at least one letter or digit", field, reason="name_needs_letter"
        )
    bad = next((ch for ch in name if not _allowed(ch)), None)
    if bad is not None:
        code = f"U+{ord(bad):04X}"
        raise InvalidInput(
            f"a name holds letters, digits, spaces and {PUNCTUATION} only, not {bad!r} ({code})",
            field,
            reason="name_character",
            params={"character": bad, "code": code},
        )
    return name


def name_key(name: str) -> str:
    """The key two names share when they are one name (module doc); any text has one (a
    sign-in's name is looked up by it as typed)."""
    spaced = _SPACES.sub(" ", unicodedata.normalize("NFKC", name)).strip()
    return unicodedata.normalize("NFKC", spaced.casefold())
