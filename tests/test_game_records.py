"""Records of earlier games replay to the same states (``tests/game_records.py`` made them).

Every record's action log is replayed on today's engines; at each checkpoint what players and
the service observe (views, legal actions, ``to_act``, the timer, scores), the public events so
far and every entry of the state's snapshot must have the digests the record holds.

The records were made on the engines before the declared engine shape (issue 27); their
snapshots are compared in the form those engines wrote (``old_form``). Dragon's Gold's draws
during play (a thief's token, the item deck's reshuffle) then came from a generator per event;
they come from the game's one generator now, so its records of before
(``dragons_gold_per_event.json``) replay with that old generator put back (``PerEvent``), and
up to their first such draw without it; ``dragons_gold.json`` was made again on the new engine.

An old snapshot kept in a database is refused, so the service's state cache replays the log
instead (``web/storage/states.py``), never builds a wrong state from it.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

import games.base
import games.turns
from errors import InvalidInput
from games.dragons_gold.table import SETTLEMENT
from tests.game_records import DATA, PLAN, chain, digest, kind_of, load, observed

#: Snapshot entries whose meaning changed by design (kind → entries); the observed digests
#: still cover what they decide: Dragon's Gold's ``phase_since`` now follows every phase it
#: enters (it used to move for the timed ones only), and the timer it starts is observed.
CHANGED_BY_DESIGN: dict[str, set[str]] = {"dragons_gold": {"phase_since"}}
#: The form of the base's part of a snapshot the records were made with (``games.state``):
#: format 2 (issue 23) only added entries (``turn_since``, ``phase_moves``), which the records
#: do not hold; their ``format`` is compared as it was written.
RECORDED_COMMON_FORMAT = 1


@pytest.fixture(autouse=True)
def _before_move_limits(monkeypatch):
    """The records were made before phases limited a seat's moves (issue 23: Dragon's Gold's
    proposals, answers and offers; ``games.turns``), and a random bot of one of them went past
    a limit: what it observes is compared with the legal actions as the phases list them (a
    log replays as written; the limits' own tests are ``tests/test_log_limits.py``)."""
    monkeypatch.setattr(games.turns, "within_limits", lambda state, phase, seat, legal: legal)


def old_form(game: str, snapshot: dict[str, Any]) -> dict[str, Any]:
    """A snapshot of today's engine in the form the engines before issue 27 wrote: entries
    renamed (DAO's and Isla Dorada's ``actions`` are the base's ``moves``, the test game's
    ``round_since`` is its ``phase_since``) or derived (``over`` from the phase; Dragon's Gold's
    settlement steps were one phase, ``negotiation``, with the step in ``settle``)."""
    out = dict(snapshot)
    if game in ("dao", "isla_dorada"):
        out["actions"] = snapshot["moves"]
    if game in ("dao", "blind_auction"):
        out["over"] = snapshot["phase"] == "over"
    if game == "blind_auction":
        out["round_since"] = snapshot["phase_since"]
    if game == "dragons_gold" and snapshot["phase"] in SETTLEMENT:
        out["phase"] = "negotiation"
        out["settle"] = {**snapshot["settle"], "step": snapshot["phase"]}
    return out


class PerEvent(random.Random):
    """Dragon's Gold's generator before issue 27: one per chance event, seeded by the game's
    seed, the number of the action and the event (a thief's draw, the item reshuffle)."""

    def __init__(self, state: Any) -> None:
        super().__init__(0)
        self.state = state

    def _for(self, event: str) -> random.Random:
        return random.Random(f"dragons_gold:{self.state.seed}:{self.state.moves}:{event}")

    def choice(self, seq):  # type: ignore[override]
        return self._for("theft").choice(seq)

    def shuffle(self, x):  # type: ignore[override]
        self._for("reshuffle").shuffle(x)


def _cases() -> list[tuple[str, int]]:
    return [(game, i) for game in PLAN for i in range(len(PLAN[game]))]


def per_event_records() -> list[dict[str, Any]]:
    return json.loads((DATA / "dragons_gold_per_event.json").read_text("utf-8"))


def _replay_and_check(
    record: dict[str, Any], upto: int | None = None, per_event: bool = False
) -> Any:
    """Replay ``record`` (its first ``upto`` actions), checking every checkpoint on the way."""
    game = record["game"]
    kind = kind_of(game)
    state = kind.new_state(record["seed"], record["seats"], record["options"])
    if per_event:
        state.rng = PerEvent(state)
    checkpoints = record["checkpoints"]
    before_27 = "format" not in next(iter(checkpoints.values()))["state"]
    skipped = CHANGED_BY_DESIGN.get(game, set()) if before_27 else set()
    links = ""

    def check(step: int) -> None:
        expected = checkpoints[str(step)]
        snapshot = kind.state_to_json(state)
        snapshot["format"] = [RECORDED_COMMON_FORMAT, snapshot["format"][1]]
        if before_27:
            snapshot = old_form(game, snapshot)
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


@pytest.mark.parametrize("index", range(len(PLAN["dragons_gold"])))
def test_dragons_golds_records_of_before_replay_with_the_per_event_generator(index):
    """Everything but the generator of its draws during play is as it was: with the old one
    put back, each record of before replays to its end."""
    record = per_event_records()[index]
    assert kind_of("dragons_gold").is_over(_replay_and_check(record, per_event=True))


@pytest.mark.parametrize("index", range(len(PLAN["dragons_gold"])))
def test_dragons_golds_records_of_before_hold_up_to_their_first_draw_during_play(index):
    """The deal is the same (the game's one generator shuffles it as before): each record of
    before replays alike up to the first action that drew during play."""
    record = per_event_records()[index]
    first = record["first_per_event_draw"]
    assert first is not None and str(first - 1) in record["checkpoints"]
    _replay_and_check(record, upto=first - 1)


def _old_record(game: str) -> dict[str, Any]:
    """The first record the engines before issue 27 made (with its mid-game snapshot)."""
    return per_event_records()[0] if game == "dragons_gold" else load(game)[0]


@pytest.mark.parametrize("game", list(PLAN))
def test_an_old_snapshot_is_refused(game):
    with pytest.raises(InvalidInput):
        kind_of(game).state_from_json(_old_record(game)["snapshot"])


@pytest.mark.parametrize("game", list(PLAN))
def test_a_stored_old_snapshot_never_gives_a_wrong_state(game, tmp_path, monkeypatch):
    """A database holding a snapshot written by the engines before: a cold read equals the
    full replay of the log. (Dragon's Gold's old snapshot is of its game in the old random
    stream: taken for this game's, it would give a wrong state.)"""
    from web.storage.sessions import GameSessions
    from web.storage.sqlite import SqliteStore

    record, old = load(game)[0], _old_record(game)
    kind = kind_of(game)
    games.base.kinds()
    monkeypatch.setitem(games.base._REGISTRY, game, kind)
    db = str(tmp_path / "games.sqlite3")
    writer = GameSessions(SqliteStore(db), snapshot_every=0)
    body = {
        "game": game,
        "options": record["options"],
        "seed": record["seed"],
        "seats": [{"type": "bot", "level": level} for level in record["levels"]],
        "actions": [{"seat": s, "action": a} for s, a in record["actions"]],
    }
    stored, _ = writer.import_record(body)
    writer.store.save_snapshot(stored.id, old["snapshot_at"], old["snapshot"])
    cold = GameSessions(SqliteStore(db), snapshot_every=1)  # reads any stored snapshot
    _, state = cold.current(stored.id)
    final = record["checkpoints"][str(len(record["actions"]))]
    assert digest(observed(kind, state)) == final["observed"]
