"""Importing a finished game's record (``POST /api/games/import``): the record replayed through
its engine from the start, each refusal named by the entry at fault (``import_*`` reasons, the
engine's own reason carried along as ``cause``), so a page words why in the reader's language.
An imported game is finished, ``origin`` ``import``, and never rated."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from errors import InvalidInput, ProjectError
from games.base import SYSTEM, get_kind
from games.turns import END_LOG_FULL
from web.service.moves import apply_move
from web.storage import OVER, ActionRecord, GameRecord, Seat


def ends_full(actions: list[dict]) -> bool:
    """Whether a record's log ends with the table's end of a full log (the one entry past the
    cap)."""
    return bool(actions) and actions[-1] == {"seat": SYSTEM, "action": END_LOG_FULL}


def replay_record(
    record: dict, game_id: str, clock: Callable[[], float]
) -> tuple[GameRecord, Any, list[ActionRecord]]:
    """The finished game of ``record`` (checked as ``web.schemas_games.GameRecordIO``): its row,
    its final state and its log entries; ``InvalidInput`` naming the entry that is refused, or
    a record that does not finish its game."""
    kind = get_kind(record["game"])
    seats = record["seats"]
    kind.check_seats(len(seats))
    for i, s in enumerate(seats):
        if s.get("index") not in (None, i):  # the index is optional: its place says it
            raise InvalidInput(
                f"seat {i} has index {s['index']}",
                f"seats[{i}].index",
                reason="import_seat_index",
                params={"number": i + 1, "index": s["index"]},
            )
    options = kind.resolve_options(record.get("options"), len(seats))
    rows = [Seat(i, s["type"], s.get("name"), s.get("level")) for i, s in enumerate(seats)]
    game = GameRecord(game_id, kind.name, options, record["seed"], rows, origin="import")
    state = kind.new_state(game.seed, len(game.seats), game.options)
    entries = []
    for i, a in enumerate(record["actions"]):
        number = {"number": i + 1}  # the entry as a person counts it (the field: from 0)
        if kind.is_over(state):
            raise InvalidInput(
                f"the game is over before action {i}",
                f"actions[{i}]",
                reason="import_over_early",
                params=number,
            )
        if a["seat"] is not None and not 0 <= a["seat"] < len(seats):
            raise InvalidInput(
                f"no seat {a['seat']}",
                f"actions[{i}].seat",
                reason="import_no_seat",
                params={**number, "seat": a["seat"]},
            )
        try:
            events = apply_move(kind, state, a["seat"], a["action"])
        except ProjectError as e:
            # the engine's own reason comes along, so a page words why in its language
            raise InvalidInput(
                f"action {i} is refused: {e.message}",
                f"actions[{i}].action",
                reason="import_action_refused",
                params={**number, "cause": e.reason, "cause_params": e.params},
            ) from e
        entries.append(ActionRecord(i + 1, a["seat"], a["action"], events, clock()))
    if not kind.is_over(state):
        raise InvalidInput(
            "the record does not finish the game", "actions", reason="import_unfinished"
        )
    game.status = OVER
    return game, state, entries
