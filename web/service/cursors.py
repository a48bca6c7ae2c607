"""A reader's cursor over a game's log or chat (``after``: the entries or lines it has seen).

A cursor past the end is no malformed request but a conflict with the game's state (the client
saw more than there is: another server's game, or a deleted and recreated one): 409 with the
reason naming which end it passed, ``after_past_version`` or ``after_past_chat``.
"""

from __future__ import annotations

from errors import IllegalAction


def check_within(after: int, end: int, message: str, reason: str, counted: str) -> None:
    """Refuse ``after`` past ``end`` (module doc): ``IllegalAction`` on the field ``after``
    with ``message``, ``reason`` and the params ``after`` and ``counted`` (``end``)."""
    if after > end:
        raise IllegalAction(message, "after", reason=reason, params={"after": after, counted: end})
