"""The table's bots in tests: under ``TESTING`` no table runner runs (``web.service.table``), so
a test lets the bots make their due moves when it wants them, deterministically."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from games.base import SYSTEM, get_kind


def bots_move(client_or_app: Any) -> int:
    """Play every due bot move of the app (a Flask app or its test client) now, until no bot is
    due; returns the log entries appended. A failing bot raises (``strict_bots``)."""
    app = getattr(client_or_app, "application", client_or_app)
    return app.extensions["game_sessions"].play_due_bots()


def my_turn(url: str, game_id: str, token: str, timeout: float = 20.0) -> dict:
    """Over HTTP (a real server, whose table runner plays the bots): the seat's snapshot once it
    has something to do and no bot is thinking (in a game of simultaneous moves a bot still to
    move would race the seat for the version), or the game is over; follows the events
    long-poll meanwhile."""
    import time

    import requests

    headers = {"Authorization": f"Bearer {token}"}
    until = time.monotonic() + timeout
    while True:
        me = requests.get(f"{url}/api/games/{game_id}", headers=headers, timeout=10).json()
        if me["over"] or (me["legal_actions"] and me["bot"] != "thinking"):
            return me
        if time.monotonic() > until:
            raise AssertionError(f"seat {me['seat']} got no turn within {timeout:g} s: {me}")
        after = me["version"]
        requests.get(f"{url}/api/games/{game_id}/events?after={after}&wait=5", timeout=15)


def game_over(url: str, game_id: str, timeout: float = 30.0) -> dict:
    """Over HTTP: the game's spectator snapshot once the table's bots have played it to its end
    (following the events long-poll meanwhile)."""
    import time

    import requests

    until = time.monotonic() + timeout
    while True:
        snap = requests.get(f"{url}/api/games/{game_id}", timeout=10).json()
        if snap["over"]:
            return snap
        if time.monotonic() > until:
            raise AssertionError(f"game {game_id} not over within {timeout:g} s: {snap}")
        after = snap["version"]
        requests.get(f"{url}/api/games/{game_id}/events?after={after}&wait=5", timeout=15)


def strong_match(kind: Any, seats: int, games: range) -> tuple[float, float, float]:
    """A short seeded match of ``kind``'s ``strong`` bot against ``normal`` ones: in game ``g``
    (its deal and generator seeded ``g``) the strong seat is ``g % seats``. Returns the strong
    seat's wins (a win shared by k counts 1/k), its summed score and the others' summed mean
    score."""
    import random

    from games.base import play_bots
    from games.search import win_share

    wins = mine = theirs = 0.0
    for g in games:
        seat = g % seats
        levels = ["normal"] * seats
        levels[seat] = "strong"
        state = kind.new_state(g, seats, None)
        play_bots(kind, state, levels, random.Random(g))
        scores = kind.scores(state)
        assert scores is not None
        wins += win_share(scores, seat)
        mine += scores[seat]
        theirs += (sum(scores) - scores[seat]) / (seats - 1)
    return wins, mine, theirs


def dragons_gold_midgame(seed: int, options: dict | None = None, steps: int = 60, seats: int = 5):
    """A running Dragon's Gold game after at least ``steps`` actions of normal bots, stopped in
    a fight (a strong bot's searched decision)."""
    kind = get_kind("dragons_gold")
    state = kind.new_state(seed, seats, options)
    rng = random.Random(seed)
    played = 0
    while played < steps or state.phase != "fight":
        found = next(
            (
                (seat, action)
                for seat in kind.to_act(state)
                if (action := kind.bot_action(state, seat, "normal", rng)) is not None
            ),
            None,
        )
        if found is None:
            kind.apply(state, SYSTEM, kind.timeout_action(state, rng))
        else:
            kind.apply(state, *found)
        played += 1
    assert not kind.is_over(state)
    return state


def tobago_positions(
    seed: int, seats: int, levels: tuple[str, ...] = ("normal",)
) -> Iterator[tuple[Any, int]]:
    """(state, seat) at every decision of a Tobago game of bots of ``levels`` (seat by seat, in
    turn), as it goes: the normal bot's games and, with the easy bot's moves mixed in, positions
    the normal bot alone would not reach."""
    kind = get_kind("tobago")
    state = kind.new_state(seed, seats, {"island": f"classic-{seed % 6 + 1}"})
    rng = random.Random(seed)
    while not kind.is_over(state):
        seat = kind.to_act(state)[0]
        yield state, seat
        kind.apply(state, seat, kind.bot_action(state, seat, levels[seat % len(levels)], rng))
