"""A stored game brought back by replaying its log under today's rules, refused when it no
longer replays as it was played.

The log is the truth, but it was written under the rules of its day: when a game's rules change
(issue 22: Isla Dorada's spoken bids and payment, Dragon's Gold's market with the 11th dragon,
Tobago's stalled end), a game stored before may hold actions today's rules refuse (an old bid
naming its cards, a leader's pass) or actions they take differently (the old market opening
after the 7th dragon). Such a game is neither shown nor continued: every read or write of it is
refused with 409 ``rules_changed`` (params: ``version``, the log entry where it departs, and
``cause``, why: the engine's reason for refusing it, or ``events_differ``...), never a 500 and
never a silently different game.

**What is checked.** Replaying from the start (no usable snapshot: a game without one yet, or
one whose snapshot is of an older format, as every game of changed rules has), each entry must
be accepted and give back the public events it recorded, and the game must be over exactly
when its row says so. After a snapshot in today's format only refusals are caught: that
snapshot was made under today's rules, and so were the entries after it. The comparison costs
reading the events of a cold replay (a replay from the start happens once per cached state).
Only an engine's refusal (a ``ProjectError``: the base checks every stored action against its
declaration first) is a rule that changed; anything else the engine raises is its bug and
propagates (a logged 500, the exception itself under ``TESTING``).

**The table's marks came later.** Since issue 41 the base marks a seat absent after the table
played for it three times in a row, and back when it acts again (``games.turns``: the events
``absent`` and ``back``). A log written before has those moves without the marks; its entries
are all taken as they were, so an entry whose recorded events lack the marks compares without
them (``TABLE_MARKS``) and the game plays on, its absent seat marked as today's table would.
"""

from __future__ import annotations

import logging
from typing import Any, NoReturn

import orjson

from errors import IllegalAction, ProjectError
from games.base import GameKind
from games.turns import ABSENT, BACK
from web.storage import ActionRecord, GameRecord

log = logging.getLogger(__name__)

#: Events the base adds since issue 41, which logs written before lack (module doc).
TABLE_MARKS = frozenset((ABSENT, BACK))


def rules_changed(game: GameRecord, version: int, cause: str, detail: str) -> NoReturn:
    """Refuse a stored game that no longer replays from log entry ``version`` (logged).
    ``cause``: the engine's reason for refusing the entry, or ``events_differ``, ``end_differs``,
    ``settings_refused``; ``detail`` says it for the log and the message."""
    log.warning(
        "game %s (%s) no longer replays under today's rules at entry %d: %s",
        game.id,
        game.kind,
        version,
        detail,
    )
    raise IllegalAction(
        f"this {game.kind} game was stored under earlier rules: entry {version} of its log no"
        f" longer replays as it was played ({detail}), so it can neither be shown nor continued",
        "id",
        reason="rules_changed",
        params={"version": version, "cause": cause},
    )


def start(kind: GameKind, game: GameRecord) -> Any:
    """The game's state before its first entry (its options refused today: ``rules_changed``)."""
    try:
        return kind.new_state(game.seed, len(game.seats), game.options)
    except ProjectError as e:
        rules_changed(game, 0, "settings_refused", f"its settings are refused: {e}")


def replay_entry(
    kind: GameKind, game: GameRecord, state: Any, entry: ActionRecord, compare: bool
) -> None:
    """Apply a stored log entry to ``state``; ``compare``: its events must be those recorded
    (``entry.events``, read with it). ``rules_changed`` when it departs; the state may then be
    half-changed (the caller drops it)."""
    try:
        events = kind.apply(state, entry.seat, entry.action)
    except ProjectError as e:
        rules_changed(game, entry.version, e.reason, f"refused: {e.message}")
    if compare and not same_events(as_stored(events), entry.events):
        rules_changed(game, entry.version, "events_differ", "its events differ from those recorded")


def same_events(replayed: list[Any], recorded: list[Any]) -> bool:
    """Whether a replayed entry gives the events it recorded: the same, or, for an entry
    recorded without the table's marks (written before them), the same without them."""
    if replayed == recorded:
        return True
    if any(isinstance(e, dict) and e.get("type") in TABLE_MARKS for e in recorded):
        return False
    return [e for e in replayed if e.get("type") not in TABLE_MARKS] == recorded


def check_end(kind: GameKind, game: GameRecord, state: Any) -> None:
    """After a compared replay of the whole log: over exactly when the row says so."""
    if kind.is_over(state) != game.over:
        ends = "does not end" if game.over else "ends"
        rules_changed(game, game.version, "end_differs", f"the replay {ends} where the game did")


def as_stored(events: list[Any]) -> Any:
    """``events`` as a store gives them back (JSON: tuples are lists, keys are strings)."""
    return orjson.loads(orjson.dumps(list(events or []), option=orjson.OPT_NON_STR_KEYS))
