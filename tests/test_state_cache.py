"""The live states a process keeps (``web.service.states``): bounded by estimated memory, with an
estimate that holds what a state really takes, for every game kind."""

from __future__ import annotations

import random

import pytest

from app import create_app
from games.base import get_kind, kinds
from hexmap.sized_cache import deep_size
from web.service.sessions import GameSessions
from web.service.states import parse_budget
from web.storage import open_store


def sessions_on(tmp_path, clock, budget: int = 32 << 20) -> GameSessions:
    return GameSessions(open_store(str(tmp_path / "states.sqlite3")), budget, clock=clock)


#: Action types a random player takes only when nothing else is legal: a Tobago table that
#: mostly ends its turns and exchanges makes no progress and ends by rules §8 (``stalled``)
#: within a few dozen actions, before its state has grown.
IDLE = {"end_turn", "exchange"}


def play(sessions: GameSessions, game_id: str, rng: random.Random) -> bool:
    """One random legal action of a seat that may act, an idle one only when nothing else is
    legal; False when nobody can act."""
    row, state = sessions.current(game_id)
    kind = get_kind(row.kind)
    seats = [] if kind.is_over(state) else kind.to_act(state)
    if not seats:
        return False
    seat = rng.choice(seats)
    actions = kind.legal_actions(state, seat)
    busy = [a for a in actions if a.get("type") not in IDLE]
    sessions.act(game_id, seat, row.version, rng.choice(busy or actions), row)
    return True


@pytest.mark.parametrize("name", sorted(kinds()))
def test_a_kept_state_is_estimated_at_or_above_its_memory_and_within_8x(tmp_path, clock, name):
    """What the cache charges for a state (``Entry.nbytes``) is no smaller than everything the
    state object reaches (its island included) and not wildly larger: checked as the game grows
    in place, and after a cold rebuild from the snapshot and the log's tail."""
    sessions = sessions_on(tmp_path, clock)
    kind = get_kind(name)
    game, _, _, _ = sessions.create(name, [{"type": "human"}] * kind.type.max_seats, None, 7)
    rng = random.Random(7)
    checked = 0
    for step in range(180):
        if step % 9 == 0 or step == 121:
            if step % 2:
                sessions.forget(game.id)  # rebuilt from the newest snapshot and the tail
            _, state = sessions.current(game.id)
            entry = sessions.states.entry(game.id)
            measured = deep_size(state, limit=20_000_000)
            assert measured <= entry.nbytes <= 8 * measured, (step, measured, entry.nbytes)
            checked += 1
        if not play(sessions, game.id, rng):
            break
    assert checked >= 5


def test_the_states_kept_stay_within_the_budget_and_evicted_games_answer_the_same(tmp_path, clock):
    sessions = sessions_on(tmp_path, clock, budget=1 << 20)  # room for about 8 Tobago games
    rng = random.Random(1)
    ids = []
    for seed in range(24):
        game, _, _, _ = sessions.create("tobago", [{"type": "human"}] * 4, None, seed)
        for _ in range(30):
            play(sessions, game.id, rng)
        ids.append(game.id)
    stats = sessions.states.stats()
    assert stats["bytes"] <= 1 << 20 and stats["evictions"] > 0 and stats["entries"] < 24
    kind = get_kind("tobago")
    warm = {i: kind.state_to_json(sessions.current(i)[1]) for i in ids[-3:]}
    sessions.forget()
    assert sessions.states.stats()["entries"] == 0
    for game_id, before in warm.items():
        assert kind.state_to_json(sessions.current(game_id)[1]) == before


def test_no_budget_keeps_no_state(tmp_path, clock):
    sessions = sessions_on(tmp_path, clock, budget=0)
    game, _, _, _ = sessions.create("dao", [{"type": "human"}] * 2, None, 3)
    play(sessions, game.id, random.Random(3))
    assert sessions.current(game.id)[0].version == 1
    assert sessions.states.stats()["entries"] == 0


def test_the_budget_is_given_in_bytes_or_with_a_unit():
    assert parse_budget("33554432") == parse_budget("32MB") == parse_budget("32m") == 32 << 20
    assert parse_budget("512KB") == 512 << 10 and parse_budget(" 1 GB ") == 1 << 30
    assert parse_budget("0") == 0
    for bad in ("", "-1", "32 MiB", "1.5MB", "lots"):
        with pytest.raises(ValueError):
            parse_budget(bad)


def test_the_app_reads_its_state_budget_from_the_environment(tmp_path, monkeypatch):
    monkeypatch.setenv("TOBAGO_STATE_CACHE", "3MB")
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "env.sqlite3")})
    assert app.extensions["game_sessions"].states.budget == 3 << 20
