"""Records of earlier games replay to the same states (``tests/game_records.py`` made them).

Every record's action log is replayed on today's engines; at each checkpoint what players and
the service observe (views, legal actions, ``to_act``, the timer, scores), the public events so
far and every entry of the state's snapshot must have the digests the record holds. An old
snapshot kept in a database is either read back to the same state or refused, so the service's
state cache replays the log instead (``web/storage/states.py``).
"""

from __future__ import annotations

from typing import Any

import pytest

import games.base
from errors import InvalidInput
from tests.game_records import PLAN, chain, digest, kind_of, load, observed

#: Snapshot entries whose meaning changed by design (kind → entries); the observed digests
#: still cover what they decide.
CHANGED_BY_DESIGN: dict[str, set[str]] = {}


def _cases() -> list[tuple[str, int]]:
    return [(game, i) for game in PLAN for i in range(len(PLAN[game]))]


def _replay_and_check(record: dict[str, Any], upto: int | None = None) -> Any:
    """Replay ``record`` (its first ``upto`` actions), checking every checkpoint on the way."""
    game = record["game"]
    kind = kind_of(game)
    state = kind.new_state(record["seed"], record["seats"], record["options"])
    checkpoints = record["checkpoints"]
    skipped = CHANGED_BY_DESIGN.get(game, set())
    links = ""

    def check(step: int) -> None:
        expected = checkpoints[str(step)]
        snapshot = kind.state_to_json(state)
        for key, want in expected["state"].items():
            if key not in skipped:
                assert key in snapshot, f"{game} step {step}: the snapshot lost {key!r}"
                assert digest(snapshot[key]) == want, f"{game} step {step}: {key!r} differs"
        assert digest(observed(kind, state)) == expected["observed"], f"{game} step {step}"
        assert links == expected["events"], f"{game} step {step}: the events differ"

    if "0" in checkpoints:
        check(0)
    actions = record["actions"] if upto is None else record["actions"][:upto]
    for step, (seat, action) in enumerate(actions, start=1):
        links = chain(links, kind.apply(state, seat, action))
        if str(step) in checkpoints:
            check(step)
    return state


@pytest.mark.parametrize("game,index", _cases())
def test_a_record_replays_to_the_same_states(game, index):
    record = load(game)[index]
    state = _replay_and_check(record)
    assert kind_of(game).is_over(state)


@pytest.mark.parametrize("game", list(PLAN))
def test_an_old_snapshot_is_read_back_alike_or_refused(game):
    record = load(game)[0]
    kind = kind_of(game)
    try:
        restored = kind.state_from_json(record["snapshot"])
    except InvalidInput:
        return  # refused: the state cache replays the log instead
    expected = record["checkpoints"][str(record["snapshot_at"])]
    assert digest(observed(kind, restored)) == expected["observed"]


@pytest.mark.parametrize("game", list(PLAN))
def test_a_stored_old_snapshot_never_gives_a_wrong_state(game, tmp_path, monkeypatch):
    """A database holding a snapshot written by the engines before: a cold read equals the
    full replay of the log (the snapshot read alike, or ignored)."""
    from web.storage.sessions import GameSessions
    from web.storage.sqlite import SqliteStore

    record = load(game)[0]
    kind = kind_of(game)
    games.base.kinds()
    monkeypatch.setitem(games.base._REGISTRY, game, kind)
    db = str(tmp_path / "games.sqlite3")
    writer = GameSessions(SqliteStore(db), snapshot_every=0)
    seats = [{"type": "bot", "level": level} for level in record["levels"]]
    body = {
        "game": game,
        "options": record["options"],
        "seed": record["seed"],
        "seats": seats,
        "actions": [{"seat": s, "action": a} for s, a in record["actions"]],
    }
    stored, _ = writer.import_record(body)
    writer.store.save_snapshot(stored.id, record["snapshot_at"], record["snapshot"])
    cold = GameSessions(SqliteStore(db), snapshot_every=1)  # reads any stored snapshot
    _, state = cold.current(stored.id)
    final = record["checkpoints"][str(len(record["actions"]))]
    assert digest(observed(kind, state)) == final["observed"]
