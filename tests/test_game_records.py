"""Records of earlier games replay to the same states (``tests/game_records.py`` made them).

Every record's action log is replayed on today's engines; at each checkpoint what players and
the service observe (views, legal actions, ``to_act``, the timer, scores), the public events so
far and every entry of the state's snapshot must have the digests the record holds.

The records were made on the engines before the declared engine shape (issue 27); their
snapshots are compared in the form those engines wrote (``old_form``). Records whose rules
changed since were made again on the engine of their time, and say so: Dragon's Gold's
(``dragons_gold.json``) when its draws during play moved to the game's one generator (issue 27)
and again when the market card moved to the 11th dragon and a thief may decline (issue 22);
Tobago's when its table that makes no progress for two whole rounds ends (issue 22: every view
shows the count, and most random-bot games end that way); Isla Dorada's when bids became spoken
numbers that only the winner pays (issue 22: every bid of before named its cards, and the
leader's opening pass is gone). Dragon's Gold's records of before issue
27, drawn by a generator per event, no longer replayed after issue 22 (each met, at or before its
first checkpoint, a theft step, where a thief may now decline, or the market of the old rules)
and are gone. One mid-game snapshot per kind written by the engines before issue 27 is kept
(``old_snapshots.json``): it must be refused.

An old snapshot kept in a database is refused, so the service's state cache replays the log
instead (``web/service/states.py``), never builds a wrong state from it.
"""

from __future__ import annotations

import json
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
#: Entries Dragon's Gold's market gained after the records were made (issue 43: the offers
#: refused and each seat's count of offers, so that its bots never repeat a refused offer):
#: left out of the snapshot and the views compared, the rest of the market as recorded.
MARKET_ADDED = ("refused", "made")
#: Where each engine kept the seat whose turn it is before the base held it (issue 45:
#: ``current``, ``games.order``): entry → the phases in which it named that seat (``None``:
#: all). Elsewhere the old entry held a stale seat nobody read (Isla Dorada's auction turn
#: after its auction, its drawing seat after its drawing): left out of the comparison.
TURN_ENTRIES: dict[str, dict[str, frozenset[str] | None]] = {
    "dao": {"to_move": None},
    "dragons_gold": {"turn": None},
    "isla_dorada": {"turn": frozenset({"bid"}), "draw_seat": frozenset({"draw", "lightning"})},
}


def with_stage_entry(game: str, snapshot: dict[str, Any]) -> dict[str, Any]:
    """``snapshot`` with the stage of the turn where Tobago kept it before the base held it
    (issue 45: ``stage``, ``games.phases.Stage``): its turn's ``mode``."""
    if game != "tobago":
        return snapshot
    return {**snapshot, "turn": {"mode": snapshot["stage"], **snapshot["turn"]}}


def with_turn_entries(game: str, snapshot: dict[str, Any]) -> tuple[dict[str, Any], set[str]]:
    """``snapshot`` with the seat whose turn it is under the engine's old entries, and the
    entries that meant nothing in its phase (not compared)."""
    out, stale = dict(snapshot), set()
    for entry, phases in TURN_ENTRIES.get(game, {}).items():
        if phases is None or snapshot["phase"] in phases:
            out[entry] = snapshot["current"]
        else:
            stale.add(entry)
    return out, stale


def without_market_additions(value: Any) -> Any:
    """``value`` (a snapshot, a view) with Dragon's Gold's market as the records knew it."""
    if isinstance(value, dict):
        return {
            k: without_market_additions(v)
            for k, v in value.items()
            if not (k in MARKET_ADDED and "offers" in value and "done" in value)
        }
    if isinstance(value, list):
        return [without_market_additions(v) for v in value]
    return value


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


def _cases() -> list[tuple[str, int]]:
    return [(game, i) for game in PLAN for i in range(len(PLAN[game]))]


def _replay_and_check(record: dict[str, Any]) -> Any:
    """Replay ``record``, checking every checkpoint on the way."""
    game = record["game"]
    kind = kind_of(game)
    state = kind.new_state(record["seed"], record["seats"], record["options"])
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
        if game == "dragons_gold":
            snapshot = without_market_additions(snapshot)
        snapshot, stale = with_turn_entries(game, with_stage_entry(game, snapshot))
        for key, want in expected["state"].items():
            if key not in skipped | stale:
                assert key in snapshot, f"{game} step {step}: the snapshot lost {key!r}"
                assert digest(snapshot[key]) == want, f"{game} step {step}: {key!r} differs"
        seen = observed(kind, state)
        if game == "dragons_gold":
            seen = without_market_additions(seen)
        assert digest(seen) == expected["observed"], f"{game} step {step}"
        assert links == expected["events"], f"{game} step {step}: the events differ"

    if "0" in checkpoints:
        check(0)
    for step, (seat, action) in enumerate(record["actions"], start=1):
        links = chain(links, kind.apply(state, seat, action))
        if str(step) in checkpoints:
            check(step)
    return state


@pytest.mark.parametrize("game,index", _cases())
def test_a_record_replays_to_the_same_states(game, index):
    record = load(game)[index]
    state = _replay_and_check(record)
    assert kind_of(game).is_over(state)


def _old_record(game: str) -> dict[str, Any]:
    """A mid-game snapshot the engines before issue 27 wrote (of the first record they made),
    and the step it was taken at (``old_snapshots.json``)."""
    old: dict[str, Any] = json.loads((DATA / "old_snapshots.json").read_text("utf-8"))[game]
    return old


@pytest.mark.parametrize("game", list(PLAN))
def test_an_old_snapshot_is_refused(game):
    with pytest.raises(InvalidInput):
        kind_of(game).state_from_json(_old_record(game)["snapshot"])


@pytest.mark.parametrize("game", list(PLAN))
def test_a_stored_old_snapshot_never_gives_a_wrong_state(game, tmp_path, monkeypatch):
    """A database holding a snapshot written by the engines before: a cold read equals the
    full replay of the log. (The old snapshots of the games whose records were made again are
    of other games: taken for this game's, they would give a wrong state.)"""
    from web.service.sessions import GameSessions
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
