"""Turn time limits (issue 23, point 4), for every kind, through the HTTP API on the fake clock.

Every kind takes ``turn_seconds`` (off by default; 10 s to 7 days). When a seat to act lets its
time run out, the table plays for it: the kind's gentlest bot's move from that seat's view, as
the table's log entry (seat null: ``{"type": "turn_timeout", "seat", "move"}``), through the
same deadline as a timed phase's (``games.turns``, ``web.service.deadlines``), so the game
replays from its log exactly; the seat plays for itself again when its turn comes back. The
snapshot gives each seat's turn deadline (``turn_deadlines``) beside ``now``."""

from __future__ import annotations

import pytest

import games.base
from games.base import replay
from tests.api_calls import bearer, new_game, snapshot
from tests.kinds import BUILTIN
from tests.testgame import NAME, BlindAuction

KINDS = [*BUILTIN, NAME]
LIMIT = 60


@pytest.fixture(autouse=True)
def _registered(monkeypatch):
    games.base.kinds()
    monkeypatch.setitem(games.base._REGISTRY, NAME, BlindAuction())


def log_of(app, gid: str) -> list:
    return app.extensions["game_sessions"].store.actions(gid)


@pytest.mark.parametrize("kind", KINDS)
def test_a_seat_out_of_time_is_played_for_by_the_table_and_plays_again_later(
    app, client, clock, kind
):
    game = new_game(client, kind, options={"turn_seconds": LIMIT})
    gid, tokens = game["id"], [s["token"] for s in game["seats"]]
    start = snapshot(client, gid)
    late = min(start["to_act"])
    assert start["deadline"] == clock.now + LIMIT and start["now"] == clock.now
    assert start["turn_deadlines"] == [
        clock.now + LIMIT if s in start["to_act"] else None for s in range(len(tokens))
    ]
    legal = snapshot(client, gid, tokens[late])["legal_actions"]
    clock.advance(LIMIT - 1)
    assert snapshot(client, gid)["version"] == 0  # not yet
    clock.advance(1)
    after = snapshot(client, gid)  # the read settles every passed deadline
    timed_out = log_of(app, gid)
    # every seat whose clock ran out at once (several act at once in some phases), each once
    assert after["version"] == len(timed_out) == len(start["to_act"])
    assert [a.action["seat"] for a in timed_out] == sorted(start["to_act"])
    entry = timed_out[0]
    assert entry.seat is None and entry.action["type"] == "turn_timeout"
    assert entry.action["seat"] == late and entry.action["move"] in legal
    events = client.get(f"/api/games/{gid}/events").get_json()["events"]
    assert events[0]["seat"] is None
    assert events[0]["events"][0] == {"type": "turn_timeout", "seat": late}
    # the clock goes on for whoever is to act now; each acts for itself when it is its turn,
    # the seat the table played for too, when its turn comes back
    for _ in range(60):
        if after["over"] or late in [a.seat for a in log_of(app, gid)]:
            break
        seat = late if late in after["to_act"] else after["to_act"][0]
        me = snapshot(client, gid, tokens[seat])
        # its clock runs, not yet out (the game's deadline is the first clock's end)
        assert me["turn_deadlines"][seat] >= me["deadline"] > me["now"]
        action = {"version": me["version"], "action": me["legal_actions"][0]}
        resp = client.post(f"/api/games/{gid}/actions", json=action, headers=bearer(tokens[seat]))
        assert resp.status_code == 200, resp.get_json()
        after = resp.get_json()
    assert late in [a.seat for a in log_of(app, gid)]
    # the log replays to the service's state with no clock and no bot
    row, state = app.extensions["game_sessions"].current(gid)
    k = games.base.get_kind(kind)
    rebuilt = replay(
        k, row.seed, len(row.seats), row.options, [(a.seat, a.action) for a in log_of(app, gid)]
    )
    assert k.state_to_json(rebuilt) == k.state_to_json(state)


@pytest.mark.parametrize("kind", ["dao", NAME])
def test_a_game_the_clock_played_out_replays_from_its_record(client, clock, kind):
    """Nobody plays: the table plays every move; the record (with its table entries) imports
    into the same finished game."""
    game = new_game(
        client, kind, options={"turn_seconds": 10, **({"rounds": 3} if kind == NAME else {})}
    )
    gid = game["id"]
    for _ in range(400):
        clock.advance(10)
        if snapshot(client, gid)["over"]:
            break
    final = snapshot(client, gid)
    assert final["over"]
    record = client.get(f"/api/games/{gid}/record").get_json()
    assert {a["seat"] for a in record["actions"]} == {None}
    assert record["options"]["turn_seconds"] == 10
    imported = client.post("/api/games/import", json=record)
    assert imported.status_code == 201, imported.get_json()
    again = imported.get_json()
    assert (again["view"], again["scores"]) == (final["view"], final["scores"])


@pytest.mark.parametrize("kind", KINDS)
def test_without_the_option_no_turn_clock_runs(client, clock, kind):
    game = new_game(client, kind)
    snap = snapshot(client, game["id"])
    assert snap["turn_deadlines"] == [None] * len(game["seats"])
    clock.advance(8 * 86_400)
    assert snapshot(client, game["id"])["version"] == 0


def test_a_move_restarts_the_clock_of_the_next_seat_and_others_keep_theirs(app, client, clock):
    """Blind Auction: both seats bid at once. Seat 0's bid leaves seat 1's clock as it was;
    when it runs out the table bids for seat 1, and the next round gives both a fresh clock."""
    game = new_game(client, NAME, options={"turn_seconds": LIMIT})
    gid, tokens = game["id"], [s["token"] for s in game["seats"]]
    t0 = clock.now
    clock.advance(30)
    me = snapshot(client, gid, tokens[0])
    resp = client.post(
        f"/api/games/{gid}/actions",
        json={"version": 0, "action": me["legal_actions"][0]},
        headers=bearer(tokens[0]),
    )
    after = resp.get_json()
    assert after["to_act"] == [1] and after["turn_deadlines"] == [None, t0 + LIMIT]
    assert after["deadline"] == t0 + LIMIT
    clock.advance(30)
    nxt = snapshot(client, gid)
    assert nxt["version"] == 2 and nxt["view"]["round"] == 2  # the table bid for seat 1
    assert nxt["turn_deadlines"] == [clock.now + LIMIT, clock.now + LIMIT]
    assert log_of(app, gid)[1].action["seat"] == 1


def test_a_timed_phase_runs_its_own_clock_not_the_turn_clocks(client, clock):
    """In a timed phase (Dragon's Gold's negotiation, market) the phase's own timer runs, not
    the turn clocks: seats there act as often as they like until it ends."""
    game = new_game(
        client, "dragons_gold", options={"turn_seconds": 600, "negotiation_seconds": 30}
    )
    gid, tokens = game["id"], [s["token"] for s in game["seats"]]
    for _ in range(200):
        snap = snapshot(client, gid)
        if snap["view"]["phase"] == "negotiation" and snap["view"]["negotiation"].get("step") in (
            None,
            "proposals",
        ):
            break
        seat = snap["to_act"][0]
        me = snapshot(client, gid, tokens[seat])
        play = [a for a in me["legal_actions"] if a["type"] == "play"] or me["legal_actions"]
        # everyone attacks the first dragon: a shared kill opens a negotiation
        pick = next((a for a in play if a.get("dragon") == 0), play[0])
        resp = client.post(
            f"/api/games/{gid}/actions",
            json={"version": me["version"], "action": pick},
            headers=bearer(tokens[seat]),
        )
        assert resp.status_code == 200, resp.get_json()
    else:
        pytest.fail("no negotiation came")
    assert snap["turn_deadlines"] == [None] * len(tokens)
    assert snap["deadline"] is not None and snap["deadline"] - snap["now"] <= 30


@pytest.mark.parametrize(
    "value,status", [(9, 400), (7 * 86_400 + 1, 400), ("60", 400), (True, 400), (10, 201)]
)
def test_turn_seconds_is_checked(client, value, status):
    body = {"game": "dao", "seats": [{"type": "human"}] * 2, "options": {"turn_seconds": value}}
    resp = client.post("/api/games", json=body)
    assert resp.status_code == status, resp.get_json()
    if status == 400:
        assert resp.get_json()["error"]["field"] == "options.turn_seconds"


def test_every_kind_describes_the_option(client):
    for kind in client.get("/api/games/kinds").get_json()["kinds"]:
        (spec,) = [o for o in kind["options"] if o["name"] == "turn_seconds"]
        assert (spec["default"], spec["minimum"], spec["maximum"]) == (None, 10, 604_800)
        assert spec["description"] and spec["description_zh"]
