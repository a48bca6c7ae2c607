"""Snapshots are a cache that must agree with the log: for every registered game kind (and the
test game), random games are rebuilt both ways, from ``state_to_json``/``state_from_json`` and
by replaying the log, and compared: the snapshot of the copy, every seat's view and legal
actions, and the game's further course (the same actions applied to both give the same
results). Then the service's cold read from a stored snapshot equals a full replay.
"""

from __future__ import annotations

import json
import random

import pytest

import games.base
from games.base import SYSTEM, GameKind, kinds, replay
from tests.testgame import NAME
from web.service.sessions import GameSessions

#: Log entries per random game, and how often the copy is taken from a snapshot.
STEPS = 600
EVERY = 30


pytestmark = pytest.mark.usefixtures("blind_auction")


def _kinds() -> list[str]:
    return sorted({*kinds(), NAME})


def _random_move(kind: GameKind, state, rng: random.Random):
    """Any seat's random legal action; the timer's action when no seat can act."""
    choices = [(s, a) for s in kind.to_act(state) for a in kind.legal_actions(state, s)]
    if choices:
        return rng.choice(choices)
    timer = kind.timer(state)
    assert timer is not None, f"{kind.name}: nobody can act and no clock runs"
    return SYSTEM, timer.action


def _same(kind: GameKind, a, b) -> None:
    """Two states that must be the same game: snapshot, every view, every seat's actions."""
    assert json.dumps(kind.state_to_json(a), sort_keys=True) == json.dumps(
        kind.state_to_json(b), sort_keys=True
    )
    for seat in [None, *range(kind.seat_count(a))]:
        assert kind.view(a, seat) == kind.view(b, seat)
        if seat is not None:
            assert kind.legal_actions(a, seat) == kind.legal_actions(b, seat)
    assert kind.to_act(a) == kind.to_act(b) and kind.is_over(a) == kind.is_over(b)
    assert kind.scores(a) == kind.scores(b)


@pytest.mark.parametrize("name", _kinds())
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random_games_rebuilt_from_snapshots_match_their_replay(name, seed):
    kind = games.base.get_kind(name)
    rng = random.Random(f"{name}/{seed}")
    seats = rng.randint(kind.type.min_seats, kind.type.max_seats)
    state = kind.new_state(seed, seats, None)
    copy = kind.state_from_json(json.loads(json.dumps(kind.state_to_json(state))))
    log: list = []
    while not kind.is_over(state) and len(log) < STEPS:
        if len(log) % EVERY == 0:  # a fresh copy from a snapshot taken now (through JSON text)
            _same(kind, state, copy)
            copy = kind.state_from_json(json.loads(json.dumps(kind.state_to_json(state))))
            _same(kind, state, copy)
        seat, action = _random_move(kind, state, rng)
        events = kind.apply(state, seat, action)
        assert kind.apply(copy, seat, action) == events  # the copy goes on exactly alike
        log.append((seat, action))
    _same(kind, state, copy)
    _same(kind, state, replay(kind, seed, seats, None, log))


@pytest.mark.parametrize("name", _kinds())
def test_a_cold_read_from_a_stored_snapshot_equals_a_full_replay(name, tmp_path):
    kind = games.base.get_kind(name)
    if not kind.bots:
        pytest.skip(f"{name} has no bots to play against")
    db = str(tmp_path / "games.sqlite3")
    from web.storage.sqlite import SqliteStore

    writer = GameSessions(SqliteStore(db), snapshot_every=4)
    level = sorted(kind.bots)[0]
    seats = [{"type": "human"}] + [{"type": "bot", "level": level}] * (kind.type.min_seats - 1)
    game, _, _, state = writer.create(name, seats, None, 11)
    rng = random.Random(name)
    for _ in range(40):
        game, state = writer.current(game.id)
        legal = kind.legal_actions(state, 0)
        if kind.is_over(state) or not legal:
            break
        writer.act(game.id, 0, game.version, rng.choice(legal))
    game = writer.store.get(game.id)
    assert writer.store.snapshot(game.id) is not None or game.version < 4
    cold = GameSessions(SqliteStore(db), snapshot_every=4)
    full = GameSessions(SqliteStore(db), snapshot_every=0)
    (g1, a), (g2, b) = cold.current(game.id), full.current(game.id)
    assert g1.version == g2.version == game.version
    _same(kind, a, b)
