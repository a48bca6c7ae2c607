"""Seeded all-bot game records of every kind and seat count, and the digests that pin them.

A record is a game's creation (kind, seed, seats, options) and its action log, with digests of
the game at a few checkpoints: every top-level entry of ``state_to_json`` (one digest each, so a
snapshot that gains an entry, or changes one by design, still compares entry by entry), what
the players can observe (every seat's and the spectator's view, every seat's legal actions,
``to_act``, ``timer``, ``scores``) and the public events of the log so far (a chain). The records
were made on the engines as they were before the declared engine shape (issue 27), so
``tests/test_game_records.py`` proves that the new code replays earlier games to the same
states; records whose rules changed since were made again (``tests/test_game_records.py`` says
which and why). The first record of each kind keeps a mid-game snapshot whole; the snapshots
the engines before issue 27 wrote are in ``data/records/old_snapshots.json``.

Regenerate a kind's records, or some of them by index (only when its rules or its random stream
change by decision, and say so in the commit and in ``tests/test_game_records.py``)::

    .venv/bin/python -m tests.game_records dragons_gold 1 5
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from pathlib import Path
from typing import Any

from games.base import SYSTEM, GameKind, get_kind, play_bots
from tests.testgame import NAME as BLIND_AUCTION
from tests.testgame import BlindAuction

DATA = Path(__file__).with_name("data") / "records"
#: Digests are cut to this many hex digits (48 bits: plenty to tell states apart).
DIGITS = 12

#: Per kind: (seats, bot levels, options) of each record, two or three per seat count.
PLAN: dict[str, list[tuple[list[str], dict[str, Any]]]] = {
    "tobago": [
        (["random", "random"], {}),
        (["strategic", "random"], {"island": "classic-4", "extra_marker": False}),
        (["strategic", "random", "strategic"], {"near_includes_target": True}),
        (["random", "random", "random"], {"island": "generated-77", "landmarks_seed": 5}),
        (["strategic"] * 4, {"treasure_on_landmarks": False}),
        (["random", "strategic", "random", "strategic"], {"island": "classic-6"}),
    ],
    "dao": [
        (["ev", "greedy"], {}),
        (["random", "ev"], {"bust_match": "first", "two_rounds": False}),
        (["ev", "greedy", "random"], {}),
        (["random", "random", "ev"], {"two_rounds": True}),
        (["greedy"] * 4, {"bust_match": "first"}),
        (["ev", "random", "ev", "random"], {}),
        (["random"] * 5, {}),
        (["ev", "greedy", "ev", "greedy", "random"], {"bust_match": "first"}),
        (["ev"] * 6, {}),
        (["random", "greedy", "random", "ev", "random", "greedy"], {"two_rounds": True}),
    ],
    "isla_dorada": [
        (["random"] * 3, {}),
        (["planner", "random", "planner"], {}),
        (["planner"] * 4, {}),
        (["random", "planner", "random", "planner"], {}),
        (["planner", "random", "planner", "random", "planner"], {}),
        (["random"] * 5, {}),
        (["planner"] * 6, {}),
        (["random", "planner", "random", "random", "planner", "random"], {}),
    ],
    "dragons_gold": [
        (["random"] * 3, {}),
        (["greedy", "random", "greedy"], {"advanced": True}),
        (["greedy"] * 3, {"negotiation": "division"}),
        (["greedy", "random", "greedy", "random"], {}),
        (["random"] * 4, {"advanced": True, "negotiation": "division"}),
        (["greedy"] * 4, {"advanced": True}),
        (["greedy"] * 5, {}),
        (["random", "greedy", "random", "greedy", "random"], {"advanced": True}),
        (["greedy", "greedy", "random", "random", "greedy"], {"negotiation": "division"}),
        (["greedy"] * 6, {"advanced": True}),
        (["random"] * 6, {}),
        (["greedy", "random"] * 3, {"advanced": True, "negotiation": "division"}),
    ],
    BLIND_AUCTION: [
        (["random", "greedy"], {}),
        (["patient", "random"], {"bid_seconds": 30, "tie": "carry"}),
        (["greedy", "random", "greedy"], {"rounds": 8}),
        (["patient", "patient", "random"], {"bid_seconds": 5}),
        (["random"] * 4, {"rounds": 3, "tie": "carry"}),
        (["greedy", "patient", "random", "patient"], {"bid_seconds": 60}),
    ],
}


_BLIND_AUCTION = BlindAuction()


def kind_of(name: str) -> GameKind:
    """A registered kind, or the test game (not registered: a test that needs it in the
    registry puts it there for itself)."""
    return _BLIND_AUCTION if name == BLIND_AUCTION else get_kind(name)


def _canon(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def digest(value: Any) -> str:
    return hashlib.sha256(_canon(value).encode("utf-8")).hexdigest()[:DIGITS]


def observed(kind: GameKind, state: Any) -> dict[str, Any]:
    """Everything a player or the service can observe of ``state``."""
    seats = kind.seat_count(state)
    timer = kind.timer(state)
    return {
        "views": [kind.view(state, s) for s in [None, *range(seats)]],
        "legal": [kind.legal_actions(state, s) for s in range(seats)],
        "to_act": list(kind.to_act(state)),
        "over": kind.is_over(state),
        "scores": kind.scores(state),
        "timer": None if timer is None else [timer.since, timer.seconds, timer.action],
    }


def checkpoint(kind: GameKind, state: Any, events_chain: str) -> dict[str, Any]:
    """The digests of one moment of a game."""
    snapshot = kind.state_to_json(state)
    return {
        "state": {key: digest(value) for key, value in snapshot.items()},
        "observed": digest(observed(kind, state)),
        "events": events_chain,
    }


def chain(previous: str, events: list[dict]) -> str:
    """The next link of the events' chain digest."""
    return digest([previous, events])


def make_record(name: str, index: int, levels: list[str], options: dict) -> dict[str, Any]:
    kind = kind_of(name)
    seed = 1000 + 37 * index + len(levels)
    state = kind.new_state(seed, len(levels), options)
    log: list[tuple[int | None, dict, list[dict]]] = []
    play_bots(
        kind,
        state,
        levels,
        random.Random(f"{name}/{index}"),
        on_action=lambda seat, action, events: log.append((seat, action, events)),
    )
    n = len(log)
    marks = sorted({n // 4, n // 2, (3 * n) // 4, n})
    replayed = kind.new_state(seed, len(levels), options)
    links = ""
    checkpoints: dict[str, Any] = {}
    middle: dict | None = None
    if 0 in marks:
        checkpoints["0"] = checkpoint(kind, replayed, links)
    for step, (seat, action, _) in enumerate(log, start=1):
        events = kind.apply(replayed, seat, action)
        links = chain(links, events)
        if step in marks:
            checkpoints[str(step)] = checkpoint(kind, replayed, links)
        if step == n // 2:
            middle = json.loads(json.dumps(kind.state_to_json(replayed)))  # a copy
    return {
        "game": name,
        "seed": seed,
        "seats": len(levels),
        "levels": levels,
        "options": options,
        "actions": [[seat, action] for seat, action, _ in log],
        "checkpoints": checkpoints,
        "snapshot_at": n // 2,
        "snapshot": middle if index == 0 else None,
        "system_actions": sum(1 for seat, _, _ in log if seat is SYSTEM),
        "event_types": sorted({e["type"] for _, _, evs in log for e in evs}),
    }


def make(name: str) -> list[dict[str, Any]]:
    return [make_record(name, i, levels, opts) for i, (levels, opts) in enumerate(PLAN[name])]


def path_of(name: str) -> Path:
    return DATA / f"{name}.json"


def load(name: str) -> list[dict[str, Any]]:
    return json.loads(path_of(name).read_text("utf-8"))


def write(name: str, records: list[dict[str, Any]]) -> None:
    DATA.mkdir(parents=True, exist_ok=True)
    text = json.dumps(records, ensure_ascii=False, separators=(",", ":"))
    path_of(name).write_text(text + "\n", "utf-8")


def main(args: list[str]) -> None:
    """``[game [index ...]]``: every kind's records, one kind's, or some records of one kind."""
    if len(args) > 1:
        game, indices = args[0], [int(i) for i in args[1:]]
        records = load(game)
        for i in indices:
            levels, options = PLAN[game][i]
            records[i] = make_record(game, i, levels, options)
        write(game, records)
        print(game, "records", indices, "made again")
        return
    for game in args or list(PLAN):
        made = make(game)
        write(game, made)
        print(game, len(made), "records,", sum(len(r["actions"]) for r in made), "actions")


if __name__ == "__main__":
    main(sys.argv[1:])
