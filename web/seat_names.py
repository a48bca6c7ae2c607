"""One name for a seat where the server words it (the review's chart legend), the same words as
the pages' ``static/common/seats.js``: the player's name; a bot the server named after its level
(``"strong bot"``) is "Bot 2 (strong)"; a seat without a name "Seat 2"; a deleted account's seat
"deleted player"; and the viewer's own seat that name with "(you)" after it. The words are
``common.seat_*`` and ``common.bot_level_*`` (``i18n/<lang>/site.json``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from i18n import catalogue, translate


def default_bot(seat: Mapping[str, Any]) -> bool:
    """Whether ``seat`` is a bot carrying the server's default name (``"<level> bot"`` or none)."""
    name = seat.get("name")
    return seat.get("type") == "bot" and (not name or name == f"{seat.get('level')} bot")


def level_word(lang: str, level: str) -> str:
    """A bot level in words ("strong"); a level without words as the server spells it."""
    key = f"common.bot_level_{level}"
    return translate(lang, key) if key in catalogue(lang) else level


def seat_name(lang: str, seat: Mapping[str, Any], you: int | None = None) -> str:
    """The seat's name for people (``seat`` as ``GameRecord.public_seats`` gives it); ``you``:
    the viewer's seat, named with "(you)"."""
    n = seat["index"] + 1
    if seat.get("deleted"):
        name = translate(lang, "common.deleted_player")
    elif default_bot(seat):
        name = translate(
            lang, "common.seat_bot", n=n, level=level_word(lang, seat.get("level") or "")
        )
    else:
        name = seat.get("name") or translate(lang, "common.seat_n", n=n)
    return translate(lang, "common.seat_you", name=name) if you == seat["index"] else name
