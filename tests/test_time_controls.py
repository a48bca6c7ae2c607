"""Time controls (issue 41, part 3), on the fake clock: real time — a bank per seat (option
``time_bank_s``) with seconds added after each move (``increment_s``) — beside the time per move
(``turn_seconds``), and absent seats.

A seat's bank is the service's data (``web.service.banks``): it counts down while the seat's
clock runs and gains the increment after each of its moves; when it runs out the table plays
for the seat (its bank is then the increment alone). After 3 such moves in a row the seat is
marked absent (``games.turns``: the engine's state), its clock is 0 s, and it comes back with
one ``{"type": "back"}`` (any version) or by acting. Every game replays exactly from its log,
and the stored banks are the fold of the log's times (``fold``): checked on both stores. The
details on the test game Blind Auction (both seats bid at once, ``tests/testgame.py``); every
kind where it is cheap."""

from __future__ import annotations

import random
from typing import Any

import pytest

from app import create_app
from errors import IllegalAction
from games.base import SYSTEM, get_kind, replay
from i18n import translate
from tests.api_calls import act, new_game, snapshot
from tests.kinds import BUILTIN
from tests.testgame import NAME
from web.service.banks import Banks, fold, opening
from web.service.deadlines import EMPTY_BANK_MOVE_S

pytestmark = pytest.mark.usefixtures("blind_auction")

KINDS = [*BUILTIN, NAME]
BANK, INCREMENT = 60, 5


@pytest.fixture
def store_app(database, clock):
    """The app on each store (``database``: SQLite and PostgreSQL), with the fake clock."""
    app = create_app({"TESTING": True, "DATABASE": database, "CLOCK": clock})
    yield app
    app.extensions["game_sessions"].store.close()


def sessions_of(app: Any) -> Any:
    return app.extensions["game_sessions"]


def folded(app: Any, gid: str) -> tuple[Banks, Any]:
    """The banks of the game's whole log by the fold (from its opening: its creation's time
    and the clocks that ran then; each entry with the clocks a replay gives after it), and the
    replayed state."""
    store = sessions_of(app).store
    game = store.get(gid)
    kind = get_kind(game.kind)
    state = kind.new_state(game.seed, len(game.seats), game.options)
    opened = Banks.from_json(game.banks).opened
    start = opening(len(game.seats), game.options["time_bank_s"], kind.turn_clocks(state), opened)
    steps = []
    for entry in store.actions(gid):
        kind.apply(state, entry.seat, entry.action)
        steps.append((entry, kind.turn_clocks(state)))
    return fold(start, game.options.get("increment_s", 0), steps), state


def check_replay(app: Any, gid: str) -> None:
    """The log replays to the service's state with no clock and no bot, and the fold of its
    times gives the stored banks."""
    game, state = sessions_of(app).current(gid)
    kind = get_kind(game.kind)
    log = [(a.seat, a.action) for a in sessions_of(app).store.actions(gid)]
    rebuilt = replay(kind, game.seed, len(game.seats), game.options, log)
    assert kind.state_to_json(rebuilt) == kind.state_to_json(state)
    banks, replayed = folded(app, gid)
    assert banks == Banks.from_json(game.banks)
    assert kind.state_to_json(replayed) == kind.state_to_json(state)


def bid(client: Any, gid: str, token: str) -> dict:
    """The seat's first legal bid, at the version it sees; the answer."""
    me = snapshot(client, gid, token)
    resp = act(client, gid, token, me["version"], me["legal_actions"][0])
    assert resp.status_code == 200, resp.get_json()
    return resp.get_json()


def until_absent(client: Any, clock: Any, gid: str, token: str, wait_s: float, looks: int) -> dict:
    """Seat 0 plays (``bid``, with ``token``) while the others let their clocks run out
    (``wait_s`` a turn), until a seat is marked absent or the game ends (``looks`` at most):
    the last snapshot."""
    snap = snapshot(client, gid)
    for _ in range(looks):
        if snap["absent"] or snap["over"]:
            break
        if 0 in snap["to_act"]:
            bid(client, gid, token)
        else:
            clock.advance(wait_s)
        snap = snapshot(client, gid)
    return snap


def auction(client: Any, clock: Any, rounds: int = 8) -> tuple[str, list[str], float]:
    """A Blind Auction of two human seats on a bank of ``BANK`` s + ``INCREMENT`` s: its id,
    the tokens and the time it was made."""
    options = {"rounds": rounds, "time_bank_s": BANK, "increment_s": INCREMENT}
    game = new_game(client, NAME, options=options)
    return game["id"], [s["token"] for s in game["seats"]], clock.now


def test_a_bank_counts_down_adds_its_increment_and_runs_out_replayed_exactly(store_app, clock):
    client = store_app.test_client()
    gid, tokens, t0 = auction(client, clock)
    start = snapshot(client, gid)
    assert start["banks"] == [BANK, BANK] and start["absent"] == []
    assert start["turn_deadlines"] == [t0 + BANK, t0 + BANK] and start["deadline"] == t0 + BANK
    clock.advance(10)
    assert snapshot(client, gid)["banks"] == [BANK - 10, BANK - 10]  # both clocks run
    after = bid(client, gid, tokens[0])  # 10 s used, 5 s added; seat 1's clock runs on
    assert after["banks"] == [BANK - 10 + INCREMENT, BANK - 10]
    assert after["turn_deadlines"] == [None, t0 + BANK]
    clock.advance(20)
    after = bid(client, gid, tokens[1])  # the round ends: both clocks start again
    t1 = clock.now
    assert after["banks"] == [55, 35] and after["turn_deadlines"] == [t1 + 55, t1 + 35]
    assert after["deadline"] == t1 + 35
    clock.advance(34)
    assert snapshot(client, gid)["version"] == 2  # not yet
    clock.advance(1)
    late = snapshot(client, gid)  # seat 1's bank ran out: the table bid for it
    entry = sessions_of(store_app).store.actions(gid)[-1]
    assert entry.seat is SYSTEM and entry.action["type"] == "turn_timeout"
    assert entry.action["seat"] == 1 and entry.events[0] == {"type": "turn_timeout", "seat": 1}
    assert late["version"] == 3 and late["banks"] == [20, INCREMENT]  # 0 s + the increment
    assert late["turn_deadlines"] == [t1 + 55, None]
    check_replay(store_app, gid)


def test_three_table_moves_in_a_row_mark_a_seat_absent_and_one_click_brings_it_back(
    store_app, clock
):
    client = store_app.test_client()
    gid, tokens, _ = auction(client, clock)
    store = sessions_of(store_app).store
    for n in (1, 2, 3):  # seat 0 bids at once; seat 1's time runs out each round
        bid(client, gid, tokens[0])
        clock.advance(BANK if n == 1 else INCREMENT)
        snap = snapshot(client, gid)
    table = [a for a in store.actions(gid) if a.seat is SYSTEM]
    # the 3rd marks it absent; its clock is then 0 s: the 4th came at once, in the same read
    assert [a.action["seat"] for a in table] == [1, 1, 1, 1]
    assert [a.events[0] for a in table] == [{"type": "turn_timeout", "seat": 1}] * 4
    marks = [a.events[-1] == {"type": "absent", "seat": 1} for a in table]
    assert marks == [False, False, True, False] and snap["absent"] == [1]
    after = bid(client, gid, tokens[0])  # a new round: the absent seat's clock is 0 s
    assert after["turn_deadlines"][1] == clock.now == after["deadline"]
    assert snapshot(client, gid)["version"] == after["version"] + 1  # the next read plays it
    # one click, at a version it saw long ago: it is back
    resp = act(client, gid, tokens[1], 0, {"type": "back"})
    assert resp.status_code == 200, resp.get_json()
    back = resp.get_json()
    assert back["absent"] == [] and back["appended"][0]["events"] == [{"type": "back", "seat": 1}]
    assert back["banks"][1] == INCREMENT
    events = client.get(f"/api/games/{gid}/events?after={back['version'] - 1}").get_json()
    assert events["events"][0]["seat"] == 1
    # its clock runs on its bank again at the next round
    nxt = bid(client, gid, tokens[0])
    assert nxt["turn_deadlines"][1] == clock.now + INCREMENT
    # back again, when it is not absent: refused in words
    again = act(client, gid, tokens[1], back["version"], {"type": "back"})
    assert again.status_code == 409 and again.get_json()["error"]["reason"] == "not_absent"
    # and it bids for itself again, its table count cleared
    bid(client, gid, tokens[1])
    _, state = sessions_of(store_app).current(gid)
    assert state.timeouts == {} and state.absent == set()
    check_replay(store_app, gid)


def test_a_seat_comes_back_by_acting_and_the_count_starts_again():
    """The engine: the table's moves for a late seat count, its own move clears the count (and,
    absent, says it is back first)."""
    kind = get_kind(NAME)
    state = kind.new_state(3, 2, {"rounds": 8, "turn_seconds": 60})
    rng = random.Random(1)

    def round_late(late: int) -> list:
        kind.apply(state, 1 - late, kind.legal_actions(state, 1 - late)[0])
        return kind.apply(state, SYSTEM, kind.timeout_action(state, rng, late))

    round_late(1)
    round_late(1)
    kind.apply(state, 1, kind.legal_actions(state, 1)[0])  # its own bid: the count restarts
    assert state.timeouts == {} and state.absent == set()
    kind.apply(state, 0, kind.legal_actions(state, 0)[0])
    events = [round_late(1)[-1] for _ in range(3)]
    assert events[-1] == {"type": "absent", "seat": 1} and state.absent == {1}
    assert {"type": "absent", "seat": 1} not in events[:2]
    own = kind.apply(state, 1, kind.legal_actions(state, 1)[0])
    assert own[0] == {"type": "back", "seat": 1} and state.absent == set()
    assert state.timeouts == {}
    with pytest.raises(IllegalAction) as refused:
        kind.apply(state, 0, {"type": "back"})
    assert refused.value.reason == "not_absent"
    # a snapshot keeps the marks; one written before them reads as none
    kind.apply(state, 0, kind.legal_actions(state, 0)[0])
    kind.apply(state, SYSTEM, kind.timeout_action(state, rng, 1))
    data = kind.state_to_json(state)
    assert kind.state_from_json(data) == state and data["timeouts"] == {"1": 1}
    older = {k: v for k, v in data.items() if k not in ("timeouts", "absent")}
    assert kind.state_from_json(older).timeouts == {}


def test_the_table_may_play_for_any_seat_whose_clock_runs_and_no_other():
    kind = get_kind(NAME)
    state = kind.new_state(3, 3, {"time_bank_s": 30})
    rng = random.Random(2)
    assert set(kind.turn_clocks(state)) == {0, 1, 2}
    kind.apply(state, SYSTEM, kind.timeout_action(state, rng, 2))  # not the oldest's: any
    with pytest.raises(ValueError):
        kind.timeout_action(state, rng, 2)  # its clock no longer runs
    stale = {"type": "turn_timeout", "seat": 2, "move": kind.legal_actions(state, 0)[0]}
    with pytest.raises(IllegalAction) as refused:
        kind.apply(state, SYSTEM, stale)
    assert refused.value.reason == "not_a_timeout"


def test_an_absent_seat_on_a_turn_clock_is_played_at_once(client, clock):
    """The time per move (``turn_seconds``) marks absent seats too."""
    game = new_game(client, "dao", options={"turn_seconds": 60})
    gid, tokens = game["id"], [s["token"] for s in game["seats"]]
    snap = until_absent(client, clock, gid, tokens[0], 60, 40)  # seat 1 lets its time run out
    assert snap["absent"] == [1]
    if 1 in snap["to_act"]:  # its clock is 0 s
        assert snap["turn_deadlines"][1] == snap["now"]
    resp = act(client, gid, tokens[1], snap["version"], {"type": "back"})
    assert resp.status_code == 200 and resp.get_json()["absent"] == []


@pytest.mark.parametrize("kind", KINDS)
def test_every_kind_keeps_banks_marks_the_absent_and_takes_them_back(app, client, clock, kind):
    """Seat 0 plays at once, the others never: their banks run out, the table plays for them,
    and they are marked absent; the first one back is back; the log replays and its times fold
    to the stored banks."""
    game = new_game(client, kind, options={"time_bank_s": 30, "increment_s": 10})
    gid, tokens = game["id"], [s["token"] for s in game["seats"]]
    assert snapshot(client, gid)["banks"] == [30] * len(tokens)
    snap = until_absent(client, clock, gid, tokens[0], 10, 300)
    assert snap["absent"], "nobody was marked absent"
    seat = snap["absent"][0]
    assert all(b is not None and b >= 0 for b in snap["banks"])
    resp = act(client, gid, tokens[seat], 0, {"type": "back"})
    assert resp.status_code == 200, resp.get_json()
    assert seat not in resp.get_json()["absent"]
    check_replay(app, gid)


@pytest.mark.parametrize(
    "options,field,reason",
    [
        ({"turn_seconds": 60, "time_bank_s": 600}, "options.time_bank_s", "clock_modes"),
        ({"increment_s": 5}, "options.increment_s", "increment_without_bank"),
        ({"turn_seconds": 60, "increment_s": 5}, "options.increment_s", "increment_without_bank"),
        ({"time_bank_s": 9}, "options.time_bank_s", "out_of_range"),
        ({"time_bank_s": 86_401}, "options.time_bank_s", "out_of_range"),
        ({"time_bank_s": 60, "increment_s": 601}, "options.increment_s", "out_of_range"),
        ({"time_bank_s": "60"}, "options.time_bank_s", "invalid"),
    ],
)
def test_clock_options_are_refused_in_words(client, options, field, reason):
    body = {"game": "dao", "seats": [{"type": "human"}] * 2, "options": options}
    resp = client.post("/api/games", json=body)
    assert resp.status_code == 400, resp.get_json()
    error = resp.get_json()["error"]
    assert (error["field"], error["reason"]) == (field, reason)
    for lang in ("en", "zh"):
        assert translate(lang, f"error.{reason}") != f"error.{reason}"


def test_the_clock_options_are_described_for_every_kind(client):
    for kind in client.get("/api/games/kinds").get_json()["kinds"]:
        specs = {o["name"]: o for o in kind["options"]}
        bank, increment = specs["time_bank_s"], specs["increment_s"]
        assert (bank["default"], bank["minimum"], bank["maximum"]) == (None, 10, 86_400)
        assert (increment["default"], increment["minimum"], increment["maximum"]) == (None, 0, 600)
        assert bank["description_zh"] and increment["description_zh"]
    spec = client.get("/openapi.json").get_json()["components"]["schemas"]["CreateGame_dao"]
    rules = spec["properties"]["options"]["anyOf"][0]["allOf"]
    assert rules[0]["not"]["required"] == ["turn_seconds", "time_bank_s"]
    assert rules[1]["then"]["required"] == ["time_bank_s"]
    state = client.get("/openapi.json").get_json()["components"]["schemas"]["GameStateOut"]
    assert {"banks", "absent"} <= set(state["properties"])


def test_a_log_written_before_the_marks_replays_as_it_was_played(app, client, clock, tmp_path):
    """A game stored before issue 41 has the table's moves without the ``absent`` mark: a cold
    replay compares its entries without it, and the game plays on, its seat marked absent as
    today's table would (and back by one click)."""
    import json
    import sqlite3

    game = new_game(client, NAME, options={"rounds": 8, "turn_seconds": 60})
    gid, tokens = game["id"], [s["token"] for s in game["seats"]]
    for _ in range(3):
        bid(client, gid, tokens[0])
        clock.advance(60)
        snapshot(client, gid)
    bid(client, gid, tokens[0])
    resp = act(client, gid, tokens[1], 0, {"type": "back"})
    assert resp.status_code == 200
    version = resp.get_json()["version"]
    with sqlite3.connect(tmp_path / "test.sqlite3") as conn:  # as the service of before wrote
        conn.execute("DELETE FROM actions WHERE game = ? AND version = ?", (gid, version))
        conn.execute("UPDATE games SET version = ? WHERE id = ?", (version - 1, gid))
        for v, events in conn.execute(
            "SELECT version, events FROM actions WHERE game = ?", (gid,)
        ).fetchall():
            kept = [e for e in json.loads(events) if e["type"] not in ("absent", "back")]
            conn.execute(
                "UPDATE actions SET events = ? WHERE game = ? AND version = ?",
                (json.dumps(kept), gid, v),
            )
    sessions_of(app).forget()
    snap = snapshot(client, gid, tokens[1])
    assert snap["absent"] == [1] and snap["version"] == version - 1
    again = act(client, gid, tokens[1], 0, {"type": "back"})
    assert again.status_code == 200 and again.get_json()["absent"] == []


def test_an_empty_bank_still_gives_a_short_move_to_a_player_back(client, clock):
    """No increment, a bank that ran out: the table played for the seat until it was absent;
    back, its turns last ``EMPTY_BANK_MOVE_S`` (not none at all, which would have the table
    play it again at once)."""
    game = new_game(client, "dao", options={"time_bank_s": 30})
    gid, tokens = game["id"], [s["token"] for s in game["seats"]]
    snap = until_absent(client, clock, gid, tokens[0], 31, 200)
    if snap["over"]:
        pytest.skip("the game ended before a seat was marked absent")
    (seat,) = snap["absent"]
    resp = act(client, gid, tokens[seat], snap["version"], {"type": "back"})
    assert resp.status_code == 200
    for _ in range(20):  # to that seat's next turn
        snap = snapshot(client, gid)
        if seat in snap["to_act"] or snap["over"]:
            break
        bid(client, gid, tokens[0])
    if snap["over"]:
        pytest.skip("the game ended first")
    assert snap["banks"][seat] == 0
    assert snap["turn_deadlines"][seat] == pytest.approx(snap["now"] + EMPTY_BANK_MOVE_S, abs=1)
