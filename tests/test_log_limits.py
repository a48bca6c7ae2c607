"""No seat can fill a game's log (issue 23, point 2), through the HTTP API.

Dragon's Gold's timed phases let every participant act as often as they like until the clock:
a seat makes at most 20 proposals, 100 accepts and 100 rejects per negotiation and 20 offers
per market (``games.dragons_gold.engine``); one more is refused (409 ``move_limit``, worded in
both languages) and leaves the log as it was. Whatever fills a log, the game ends: the entry
that reaches ``MAX_LOG_ENTRIES`` is followed by the table's end (``{"type": "end", "end":
"log_full"}``, seat null, one entry past the cap, always written), scored as it stands; no read
ever answers ``log_full``, and the table's own entries (timeouts) are written up to the cap."""

from __future__ import annotations

import pytest

import games.base
from app import create_app
from games.dragons_gold.engine import OFFERS_PER_SEAT, PROPOSALS_PER_SEAT
from i18n import translate
from tests.api_calls import act, bearer, new_game, snapshot
from tests.kinds import BUILTIN
from tests.testgame import NAME

FLOOD = 20_000


pytestmark = pytest.mark.usefixtures("blind_auction")


def play_first_legal(client, gid: str, tokens: list[str]) -> dict:
    """The first seat to act plays its first legal action."""
    snap = snapshot(client, gid)
    me = snapshot(client, gid, tokens[snap["to_act"][0]])
    resp = act(client, gid, tokens[me["seat"]], me["version"], me["legal_actions"][0])
    assert resp.status_code == 200, resp.get_json()
    return resp.get_json()


def drive(client, clock, gid: str, tokens: list[str], until, moves: int = 3000) -> dict:
    """Play a Dragon's Gold game by its first legal actions, the clock ending every timed
    phase, until ``until(spectator snapshot)``."""
    for _ in range(moves):
        snap = snapshot(client, gid)
        if until(snap):
            return snap
        assert not snap["over"], "the game ended first"
        if snap["deadline"] is not None:  # a timed phase: let its clock end it
            clock.advance(snap["deadline"] - snap["now"])
            continue
        play_first_legal(client, gid, tokens)
    raise AssertionError("not reached")


def in_step(step: str, seat: int):
    def reached(snap: dict) -> bool:
        view = snap["view"]
        if step == "market":
            return view["phase"] == "market" and seat in snap["to_act"]
        return (
            view["phase"] == "negotiation"
            and (view["negotiation"] or {}).get("step") == step
            and seat in snap["to_act"]
        )

    return reached


@pytest.mark.slow  # 20,000 requests: about 10 s
def test_a_flood_of_proposals_is_refused_past_the_limit_and_the_game_reads_and_ends(client, clock):
    game = new_game(client, "dragons_gold", 3, seed=4)
    gid, tokens = game["id"], [s["token"] for s in game["seats"]]
    snap = drive(
        client, clock, gid, tokens, lambda s: any(in_step("proposals", p)(s) for p in range(3))
    )
    flooder = snap["to_act"][0]
    me = snapshot(client, gid, tokens[flooder])
    proposal = next(a for a in me["legal_actions"] if a["type"] == "propose")
    statuses: dict[int, int] = {}
    refusal = None
    version = me["version"]
    for _ in range(FLOOD):
        resp = act(client, gid, tokens[flooder], version, proposal)
        statuses[resp.status_code] = statuses.get(resp.status_code, 0) + 1
        if resp.status_code == 200:
            version = resp.get_json()["version"]
        else:
            refusal = resp.get_json()["error"]
    assert statuses == {200: PROPOSALS_PER_SEAT, 409: FLOOD - PROPOSALS_PER_SEAT}
    assert refusal["reason"] == "move_limit"
    assert refusal["params"] == {"action": "propose", "limit": PROPOSALS_PER_SEAT}
    # the log grew by the proposals taken, and the game reads for everyone
    assert snapshot(client, gid)["version"] == me["version"] + PROPOSALS_PER_SEAT
    mine = snapshot(client, gid, tokens[flooder])
    assert all(a["type"] != "propose" for a in mine["legal_actions"])
    events = client.get(f"/api/games/{gid}/events?after={me['version']}")
    assert events.status_code == 200 and len(events.get_json()["events"]) == PROPOSALS_PER_SEAT
    # the negotiation's clock ends it, and the game plays on to its end
    final = drive(client, clock, gid, tokens, lambda s: s["over"])
    assert final["scores"] is not None and len(final["scores"]) == 3


def test_a_seat_makes_at_most_its_offers_in_a_market(client, clock):
    game = new_game(client, "dragons_gold", 3, seed=6)  # seat 0 holds a token at the market
    gid, tokens = game["id"], [s["token"] for s in game["seats"]]
    reached = drive(
        client, clock, gid, tokens, lambda s: any(in_step("market", p)(s) for p in range(3))
    )
    with_tokens = []
    for seat in reached["to_act"]:
        me = snapshot(client, gid, tokens[seat])
        offers = [a for a in me["legal_actions"] if a["type"] == "offer"]
        if offers:
            with_tokens.append((seat, me, offers))
    assert with_tokens, "nobody holds a token to offer"
    seat, me, offers = with_tokens[0]
    version, codes = me["version"], []
    for i in range(OFFERS_PER_SEAT + 5):
        resp = act(client, gid, tokens[seat], version, offers[i % len(offers)])
        codes.append(resp.status_code)
        if resp.status_code == 200:
            version = resp.get_json()["version"]
    assert codes == [200] * OFFERS_PER_SEAT + [409] * 5
    standing = [o for o in snapshot(client, gid)["view"]["market"]["offers"] if o["from"] == seat]
    assert len(standing) == 1  # each offer replaced the seat's own


def test_a_negotiation_holds_one_standing_proposal(client, clock):
    """A seat never has two proposals standing: a new one (its own or another's) replaces it."""
    game = new_game(client, "dragons_gold", 3, seed=4)
    gid, tokens = game["id"], [s["token"] for s in game["seats"]]
    snap = drive(
        client, clock, gid, tokens, lambda s: any(in_step("proposals", p)(s) for p in range(3))
    )
    a, b = snap["to_act"][:2]
    for seat in (a, a, b):
        me = snapshot(client, gid, tokens[seat])
        proposal = next(x for x in me["legal_actions"] if x["type"] == "propose")
        assert act(client, gid, tokens[seat], me["version"], proposal).status_code == 200
    negotiation = snapshot(client, gid)["view"]["negotiation"]
    assert negotiation["proposal"]["by"] == b and negotiation["proposals"] == 3


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_limit_is_worded_in_both_languages(lang):
    text = translate(lang, "error.move_limit", limit=20)
    assert "20" in text and text != "error.move_limit"


@pytest.fixture
def capped(tmp_path, clock):
    """An app whose logs hold 6 entries."""
    return create_app(
        {
            "TESTING": True,
            "DATABASE": str(tmp_path / "g.sqlite3"),
            "CLOCK": clock,
            "MAX_LOG_ENTRIES": 6,
        }
    )


@pytest.mark.parametrize("kind", [*BUILTIN, NAME])
def test_a_full_log_ends_the_game_scored_as_it_stands(capped, kind):
    client = capped.test_client()
    seats = games.base.get_kind(kind).type.min_seats
    game = new_game(client, kind, seats)
    gid, tokens = game["id"], [s["token"] for s in game["seats"]]
    snap = snapshot(client, gid)
    while not snap["over"]:
        assert snap["version"] < 6
        snap = play_first_legal(client, gid, tokens)
    assert snap["version"] == 7 and snap["scores"] is not None  # scored as it stands
    events = client.get(f"/api/games/{gid}/events").get_json()["events"]
    assert events[-1]["seat"] is None
    assert events[-1]["events"][0] == {"type": "game_ended", "end": "log_full"}
    record = client.get(f"/api/games/{gid}/record").get_json()
    assert record["actions"][-1] == {"seat": None, "action": {"type": "end", "end": "log_full"}}
    imported = client.post("/api/games/import", json=record)
    assert imported.status_code == 201, imported.get_json()
    assert imported.get_json()["scores"] == snap["scores"]
    late = act(client, gid, tokens[0], 7, {"type": "anything"})
    assert late.status_code == 409 and late.get_json()["error"]["reason"] == "game_over"


def test_the_tables_timeout_is_written_up_to_the_cap(tmp_path, clock):
    """A timeout (a system entry) is never refused for room: it may be the cap's last entry,
    after which the table ends the game."""
    app = create_app(
        {
            "TESTING": True,
            "DATABASE": str(tmp_path / "g.sqlite3"),
            "CLOCK": clock,
            "MAX_LOG_ENTRIES": 1,
        }
    )
    client = app.test_client()
    gid = new_game(client, NAME, 2, {"bid_seconds": 5})["id"]
    clock.advance(5)
    snap = snapshot(client, gid)
    assert snap["over"] and snap["version"] == 2
    seats = [e["seat"] for e in client.get(f"/api/games/{gid}/events").get_json()["events"]]
    assert seats == [None, None]  # the timeout, then the end


def test_a_log_filled_before_is_ended_by_a_read_and_no_read_answers_log_full(tmp_path, clock):
    """A game stored full and still running (from before the table ended full games): every
    read answers, the first one ends it."""
    db = str(tmp_path / "g.sqlite3")
    roomy = create_app({"TESTING": True, "DATABASE": db, "CLOCK": clock}).test_client()
    game = new_game(roomy, "dao", 2)
    gid, tokens = game["id"], [s["token"] for s in game["seats"]]
    for _ in range(4):
        play_first_legal(roomy, gid, tokens)
    full = create_app(
        {"TESTING": True, "DATABASE": db, "CLOCK": clock, "MAX_LOG_ENTRIES": 4}
    ).test_client()
    for path, token in (("", None), ("", tokens[0]), ("/events", None), ("/events?after=4", None)):
        resp = full.get(f"/api/games/{gid}{path}", headers=bearer(token) if token else {})
        assert resp.status_code == 200, resp.get_json()
    assert snapshot(full, gid)["over"] and snapshot(full, gid)["version"] == 5
    late = act(full, gid, tokens[0], 5, {"type": "take"})
    assert late.get_json()["error"]["reason"] == "game_over"
