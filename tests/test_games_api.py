"""The game API through Flask's test client: every endpoint, every error, nothing changed by a
refusal. Played with Blind Auction (``tests/testgame.py``), registered for these tests only."""

from __future__ import annotations

import threading
import time

import pytest

from i18n import catalogue
from tests.api_calls import bearer
from tests.bots import bots_move

GAME = "blind_auction"


pytestmark = pytest.mark.usefixtures("blind_auction")


def create_raw(client, seats, **extra):
    """POST /api/games as given (the response, for refusals)."""
    return client.post("/api/games", json={"game": GAME, "seats": seats, **extra})


def create(client, seats=None, bots: bool = True, **extra) -> dict:
    """A new game (its creation's answer); with ``bots`` its bots have made their due moves."""
    body = {"game": GAME, "seats": seats or [{"type": "human", "name": "Ana"}, {"type": "human"}]}
    body.update(extra)
    resp = client.post("/api/games", json=body)
    assert resp.status_code == 201, resp.get_json()
    if bots:
        bots_move(client)
    return resp.get_json()


def state(client, game_id: str, token: str | None = None) -> dict:
    resp = client.get(f"/api/games/{game_id}", headers=bearer(token) if token else {})
    assert resp.status_code == 200, resp.get_json()
    return resp.get_json()


def act(client, game_id: str, token: str, version: int, action: dict):
    return client.post(
        f"/api/games/{game_id}/actions",
        json={"version": version, "action": action},
        headers=bearer(token),
    )


def error_of(resp, status: int, field: str | None = "any") -> dict:
    assert resp.status_code == status, (resp.status_code, resp.get_data(as_text=True))
    err = resp.get_json()["error"]
    assert set(err) >= {"code", "message", "field"} and err["message"]
    if field != "any":
        assert err["field"] == field, err
    return err


def everything(client, game_id: str, tokens: list[str]) -> list:
    """Every observable thing about a game (to check that a refusal changed nothing)."""
    out = [state(client, game_id)] + [state(client, game_id, t) for t in tokens]
    out.append(client.get(f"/api/games/{game_id}/events").get_json())
    return out


def play_out(client, game: dict) -> dict:
    """Both human seats bid their first legal card until the game ends."""
    tokens = [s["token"] for s in game["seats"] if s["token"]]
    while True:
        views = [state(client, game["id"], t) for t in tokens]
        if views[0]["over"]:
            return views[0]
        for token, view in zip(tokens, views, strict=True):
            if view["seat"] in view["to_act"]:
                resp = act(
                    client,
                    game["id"],
                    token,
                    state(client, game["id"])["version"],
                    view["legal_actions"][0],
                )
                assert resp.status_code == 200, resp.get_json()
                bots_move(client)


# --- kinds and creation ------------------------------------------------------------------------


def test_kinds_lists_every_registered_game_with_seats_options_and_bots(client):
    kinds = {k["name"]: k for k in client.get("/api/games/kinds").get_json()["kinds"]}
    ba = kinds[GAME]
    assert (ba["min_seats"], ba["max_seats"]) == (2, 4)
    # its own, and the clocks every kind takes (games.turns)
    clocks = {"turn_seconds", "time_bank_s", "increment_s"}
    assert {o["name"] for o in ba["options"]} == {"rounds", "tie", "bid_seconds", *clocks}
    assert ba["bots"] == ["random", "greedy", "patient"]  # as the game declares them
    assert [level["name"] for level in ba["levels"]] == ba["bots"]
    import games.base

    assert set(kinds) == set(games.base.kinds())


def test_create_gives_tokens_for_human_seats_only_once(client):
    seats = [{"type": "human", "name": "Ana"}, {"type": "bot", "level": "greedy"}]
    game = create(client, seats, bots=False, seed=7)
    assert game["game"] == GAME and game["id"]
    ana, bot = game["seats"]
    assert ana["index"] == 0 and ana["name"] == "Ana" and len(ana["token"]) >= 43
    assert bot["type"] == "bot" and bot["level"] == "greedy" and bot["token"] is None
    assert game["version"] == 0  # the answer comes before the bot's bid ...
    assert state(client, game["id"])["bot"] == "thinking"
    assert bots_move(client) == 1  # ... which the table then plays
    assert state(client, game["id"])["version"] == 1 and state(client, game["id"])["bot"] is None
    again = state(client, game["id"], ana["token"])
    assert "token" not in str(again) and ana["token"] not in str(again)


def test_create_with_the_same_seed_deals_the_same_and_without_seed_random(client):
    a = create(client, seed=42)
    b = create(client, seed=42)
    assert (
        state(client, a["id"], a["seats"][0]["token"])["view"]["hand"]
        == (state(client, b["id"], b["seats"][0]["token"])["view"]["hand"])
    )
    hands = {
        str(state(client, g["id"], g["seats"][0]["token"])["view"]["hand"])
        for g in [create(client) for _ in range(4)]
    }
    assert len(hands) > 1


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"game": "chess", "seats": [{"type": "human"}] * 2}, "game"),
        ({"game": GAME, "seats": [{"type": "human"}]}, "seats"),
        ({"game": GAME, "seats": [{"type": "human"}] * 5}, "seats"),
        ({"game": GAME, "seats": []}, "seats"),
        (
            {"game": GAME, "seats": [{"type": "human"}] * 2, "options": {"speed": 1}},
            "options.speed",
        ),
        (
            {"game": GAME, "seats": [{"type": "human"}] * 2, "options": {"rounds": 99}},
            "options.rounds",
        ),
        (
            {"game": GAME, "seats": [{"type": "human"}, {"type": "bot", "level": "god"}]},
            "seats[1].level",
        ),
        (
            {"game": GAME, "seats": [{"type": "human", "level": "greedy"}, {"type": "bot"}]},
            "seats[0].level",
        ),
        (
            {"game": GAME, "seats": [{"type": "human"}, {"type": "bot", "open": True}]},
            "seats[1].open",
        ),
        ({"game": GAME, "seats": [{"type": "alien"}, {"type": "human"}]}, "seats[0].type"),
        ({"game": GAME, "seats": [{"type": "human"}] * 2, "seed": -1}, "seed"),
        ({"game": GAME, "seats": [{"type": "human"}] * 2, "seed": "x"}, "seed"),
        ({"game": GAME, "seats": [{"type": "human"}] * 2, "colour": "red"}, "colour"),
        ({"seats": [{"type": "human"}] * 2}, "game"),
    ],
)
def test_create_refuses_bad_input_naming_the_field(client, body, field):
    before = client.get("/api/games").get_json()
    error_of(client.post("/api/games", json=body), 400, field)
    assert client.get("/api/games").get_json() == before


@pytest.mark.parametrize("raw", [b"", b"{not json", b"[1, 2]", b'"text"', b"\xff\xfe"])
def test_malformed_bodies_are_400_on_body(client, raw):
    resp = client.post("/api/games", data=raw, content_type="application/json")
    error_of(resp, 400, "body")


def test_bodies_over_one_mib_are_413_and_change_nothing(client):
    game = create(client)
    token = game["seats"][0]["token"]
    before = everything(client, game["id"], [token])
    big = b'{"version": 0, "action": {"type": "bid", "pad": "' + b"x" * (1024 * 1024) + b'"}}'
    resp = client.post(
        f"/api/games/{game['id']}/actions",
        data=big,
        content_type="application/json",
        headers=bearer(token),
    )
    error_of(resp, 413, "body")
    error_of(client.post("/api/games", data=big, content_type="application/json"), 413)
    assert everything(client, game["id"], [token]) == before


# --- reading a game ----------------------------------------------------------------------------


def test_seat_view_has_own_hand_and_legal_actions_spectator_has_neither(client):
    game = create(client, seed=3)
    ana = state(client, game["id"], game["seats"][0]["token"])
    assert (
        ana["seat"] == 0 and ana["to_act"] == [0, 1] and not ana["over"] and ana["scores"] is None
    )
    assert len(ana["view"]["hand"]) == 6
    assert {a["card"] for a in ana["legal_actions"]} == {c["id"] for c in ana["view"]["hand"]}
    spectator = state(client, game["id"])
    assert spectator["seat"] is None and spectator["legal_actions"] == []
    assert "hand" not in spectator["view"] and "hands" not in spectator["view"]
    assert [s["name"] for s in spectator["seats"]] == ["Ana", None]


def test_get_errors_unknown_id_wrong_token_other_games_token_bad_header(client):
    game = create(client)
    other = create(client)
    error_of(client.get("/api/games/doesnotexist"), 404)
    error_of(client.get(f"/api/games/{game['id']}", headers=bearer("x" * 43)), 403, "Authorization")
    error_of(
        client.get(f"/api/games/{game['id']}", headers=bearer(other["seats"][0]["token"])), 403
    )
    error_of(client.get(f"/api/games/{game['id']}", headers={"Authorization": "Basic abc"}), 401)
    error_of(client.get(f"/api/games/{game['id']}", headers={"Authorization": "Bearer "}), 401)


def test_over_shows_every_hand_and_the_scores_to_everyone(client):
    game = create(client, seed=5, options={"rounds": 3})
    final = play_out(client, game)
    assert final["over"] and final["to_act"] == [] and final["legal_actions"] == []
    assert len(final["scores"]) == 2 and final["winners"]
    spectator = state(client, game["id"])
    assert spectator["scores"] == final["scores"]
    assert [len(h) for h in spectator["view"]["hands"]] == [1, 1]
    assert spectator["view"]["unused_prizes"]


# --- acting ------------------------------------------------------------------------------------


def test_action_answers_with_the_players_move_and_the_bots_follow(client):
    seats = [
        {"type": "human"},
        {"type": "bot", "level": "random"},
        {"type": "bot", "level": "greedy"},
    ]
    game = create(client, seats, options={"rounds": 4})
    token = game["seats"][0]["token"]
    me = state(client, game["id"], token)
    assert me["version"] == 2 and me["to_act"] == [0] and me["bot"] is None
    resp = act(client, game["id"], token, 2, me["legal_actions"][0])
    assert resp.status_code == 200
    answer = resp.get_json()
    assert answer["version"] == 3 and answer["to_act"] == [0, 1, 2]  # round 2 begins
    assert answer["bot"] == "thinking"  # the bots have not bid yet
    assert bots_move(client) == 2
    after = state(client, game["id"], token)
    assert after["version"] == 5 and after["to_act"] == [0] and after["view"]["round"] == 2
    assert after["view"]["history"][0]["bids"][0]["id"] == me["legal_actions"][0]["card"]
    assert len(after["view"]["hand"]) == 4


def test_action_errors_and_each_refusal_changes_nothing(client):
    game = create(client, seed=8)
    other = create(client)
    gid = game["id"]
    t0, t1 = game["seats"][0]["token"], game["seats"][1]["token"]
    me = state(client, gid, t0)
    mine = me["legal_actions"][0]
    not_mine = state(client, gid, t1)["legal_actions"][0]
    before = everything(client, gid, [t0, t1])

    url = f"/api/games/{gid}/actions"
    error_of(client.post(url, json={"version": 0, "action": mine}), 401, "Authorization")
    error_of(
        client.post(url, json={"version": 0, "action": mine}, headers=bearer("nope" * 11)), 403
    )
    error_of(
        client.post(
            url, json={"version": 0, "action": mine}, headers=bearer(other["seats"][0]["token"])
        ),
        403,
    )
    stale = error_of(act(client, gid, t0, 3, mine), 409, "version")
    assert stale["code"] == "stale_version" and stale["version"] == 0
    illegal = error_of(act(client, gid, t0, 0, not_mine), 409, "action.card")
    assert "not in seat 0's hand" in illegal["message"]
    error_of(act(client, gid, t0, 0, {"type": "dance"}), 400, "action.type")
    error_of(act(client, gid, t0, 0, {"type": "bid", "card": "ace"}), 400, "action.card")
    error_of(client.post(url, json={"action": mine}, headers=bearer(t0)), 400, "version")
    error_of(client.post(url, json={"version": 0}, headers=bearer(t0)), 400, "action")
    error_of(
        client.post(url, json={"version": 0, "action": [1]}, headers=bearer(t0)), 400, "action"
    )
    error_of(
        client.post(url, json={"version": -1, "action": mine}, headers=bearer(t0)), 400, "version"
    )
    error_of(
        client.post(url, data=b"{oops", content_type="application/json", headers=bearer(t0)),
        400,
        "body",
    )
    error_of(
        client.post(
            "/api/games/nosuchgame/actions", json={"version": 0, "action": mine}, headers=bearer(t0)
        ),
        404,
    )
    assert everything(client, gid, [t0, t1]) == before

    assert act(client, gid, t0, 0, mine).status_code == 200
    hand = state(client, gid, t0)["view"]["hand"]
    turn = error_of(act(client, gid, t0, 1, {"type": "bid", "card": hand[0]["id"]}), 409, "seat")
    assert "turn" in turn["message"]


def test_acting_after_the_end_is_409(client):
    game = create(client, options={"rounds": 3})
    final = play_out(client, game)
    token = game["seats"][0]["token"]
    hand = state(client, game["id"], token)["view"]["hand"]
    err = error_of(
        act(client, game["id"], token, final["version"], {"type": "bid", "card": hand[0]["id"]}),
        409,
    )
    assert "over" in err["message"]


# --- events ------------------------------------------------------------------------------------


def test_events_list_public_events_after_a_version(client):
    seats = [{"type": "human"}, {"type": "bot", "level": "random"}]
    game = create(client, seats, options={"rounds": 3})
    token = game["seats"][0]["token"]
    first = client.get(f"/api/games/{game['id']}/events?after=0").get_json()
    assert first["version"] == 1 and [e["version"] for e in first["events"]] == [1]
    assert first["events"][0]["seat"] == 1 and first["events"][0]["events"] == [
        {"type": "bid_placed", "seat": 1}
    ]
    act(client, game["id"], token, 1, state(client, game["id"], token)["legal_actions"][0])
    bots_move(client)
    later = client.get(f"/api/games/{game['id']}/events?after=1").get_json()
    assert [e["version"] for e in later["events"]] == [2, 3]
    kinds = [ev["type"] for e in later["events"] for ev in e["events"]]
    assert "bids_revealed" in kinds
    none = client.get(f"/api/games/{game['id']}/events?after=3").get_json()
    assert none["events"] == [] and none["version"] == 3


def test_events_never_show_a_secret_bid_before_it_is_revealed(client):
    game = create(client, seed=2)
    t0 = game["seats"][0]["token"]
    bid = state(client, game["id"], t0)["legal_actions"][0]
    act(client, game["id"], t0, 0, bid)
    body = client.get(f"/api/games/{game['id']}/events?after=0").get_json()
    assert [e["events"] for e in body["events"]] == [[{"type": "bid_placed", "seat": 0}]]
    assert "card" not in str(body) and "action" not in str(body)


def test_events_long_poll_returns_when_someone_acts(client, app):
    game = create(client)
    t1 = game["seats"][1]["token"]
    move = state(client, game["id"], t1)["legal_actions"][0]

    def later():
        time.sleep(0.4)
        with app.test_client() as other:
            act(other, game["id"], t1, 0, move)

    threading.Thread(target=later).start()
    start = time.monotonic()
    resp = client.get(f"/api/games/{game['id']}/events?after=0&wait=10")
    took = time.monotonic() - start
    assert resp.status_code == 200 and resp.get_json()["version"] == 1
    assert 0.3 < took < 5


def test_events_long_poll_times_out_empty(client):
    game = create(client)
    start = time.monotonic()
    body = client.get(f"/api/games/{game['id']}/events?after=0&wait=0.5").get_json()
    assert body["events"] == [] and 0.45 < time.monotonic() - start < 3


@pytest.mark.parametrize(
    ("query", "field"),
    [
        ("after=-1", "after"),
        ("after=x", "after"),
        ("after=+1", "after"),
        ("after=1_0", "after"),
        ("after= 1", "after"),
        ("wait=26", "wait"),
        ("wait=nan", "wait"),
        ("wait=soon", "wait"),
        ("wait=1_0", "wait"),
        ("wait= 1", "wait"),
    ],
)
def test_events_errors(client, query, field):
    game = create(client)
    error_of(client.get(f"/api/games/{game['id']}/events?{query}"), 400, field)
    error_of(client.get("/api/games/nosuch/events"), 404)
    error_of(client.get("/api/games/nosuchgame12/events"), 404)


def test_events_after_the_current_version_is_a_conflict_not_a_malformed_request(client):
    game = create(client)
    err = error_of(client.get(f"/api/games/{game['id']}/events?after=9"), 409, "after")
    assert err["reason"] == "after_past_version" and err["params"]["version"] == 0


# --- record and import -------------------------------------------------------------------------


def test_record_only_once_over_and_import_replays_it(client):
    game = create(
        client,
        [{"type": "human", "name": "Ana"}, {"type": "bot", "level": "greedy"}],
        seed=9,
        options={"rounds": 4},
    )
    err = error_of(client.get(f"/api/games/{game['id']}/record"), 409)
    assert "over" in err["message"]
    final = play_out(client, game)
    record = client.get(f"/api/games/{game['id']}/record").get_json()
    assert set(record) == {"game", "options", "seed", "seats", "actions"}
    assert record["seed"] == 9 and record["options"] == {
        "rounds": 4,
        "tie": "discard",
        "bid_seconds": None,
    }
    assert len(record["actions"]) == final["version"] == 8
    assert "token" not in str(record["seats"])
    resp = client.post("/api/games/import", json=record)
    assert resp.status_code == 201
    imported = resp.get_json()
    assert imported["id"] != game["id"] and imported["over"] and imported["version"] == 8
    assert imported["scores"] == final["scores"]
    assert imported["view"] == state(client, game["id"])["view"]
    assert client.get(f"/api/games/{imported['id']}/record").get_json() == record
    error_of(client.get("/api/games/nosuch/record"), 404)


def test_import_refuses_bad_records_and_creates_nothing(client):
    game = create(client, options={"rounds": 3})
    play_out(client, game)
    record = client.get(f"/api/games/{game['id']}/record").get_json()
    before = client.get("/api/games").get_json()
    bad_action = {**record, "actions": [dict(a) for a in record["actions"]]}
    bad_action["actions"][2] = {
        "seat": bad_action["actions"][2]["seat"],
        "action": {"type": "bid", "card": 99},
    }
    # each refusal names its field and a reason a page words (the engine's own reason inside)
    err = error_of(client.post("/api/games/import", json=bad_action), 400, "actions[2].action")
    assert err["reason"] == "import_action_refused" and err["params"]["number"] == 3
    assert err["params"]["cause"] not in ("invalid", "import_action_refused")
    assert f"error.{err['params']['cause']}" in catalogue("zh")
    err = error_of(
        client.post("/api/games/import", json={**record, "actions": record["actions"][:-1]}),
        400,
        "actions",
    )
    assert err["reason"] == "import_unfinished"
    no_seat = {**record, "actions": [{**record["actions"][0], "seat": 7}, *record["actions"][1:]]}
    err = error_of(client.post("/api/games/import", json=no_seat), 400, "actions[0].seat")
    assert err["reason"] == "import_no_seat" and err["params"] == {"number": 1, "seat": 7}
    error_of(client.post("/api/games/import", json={**record, "game": "chess"}), 400, "game")
    error_of(
        client.post("/api/games/import", json={**record, "seats": record["seats"][:1]}),
        400,
        "seats",
    )
    extra = {**record, "actions": record["actions"] + [record["actions"][0]]}
    err = error_of(
        client.post("/api/games/import", json=extra), 400, f"actions[{len(record['actions'])}]"
    )
    assert err["reason"] == "import_over_early"
    error_of(client.post("/api/games/import", json={**record, "seed": None}), 400, "seed")
    assert client.get("/api/games").get_json() == before


# --- listing and claiming ----------------------------------------------------------------------


def test_open_games_list_free_seats_without_tokens(client):
    full = create(client)
    waiting = create(
        client, [{"type": "human", "name": "Ana"}, {"type": "human", "open": True, "listed": True}]
    )
    assert waiting["seats"][1]["token"] is None and waiting["seats"][1]["open"] is True
    # a seat for a friend (open, not listed) is reached by its share link only: its game is in
    # no public list (tests/test_invites.py)
    invite = create(client, [{"type": "human", "name": "Ana"}, {"type": "human", "open": True}])
    assert invite["seats"][1]["open"] is True and invite["seats"][1]["listed"] is False
    error_of(create_raw(client, [{"type": "human", "listed": True}, {"type": "human"}]), 400)
    listed = client.get("/api/games?open=true")
    games = listed.get_json()["games"]
    assert [g["id"] for g in games] == [waiting["id"]]
    assert games[0]["free_seats"] == [1]
    assert "token" not in listed.get_data(as_text=True)
    everyone = {g["id"] for g in client.get("/api/games").get_json()["games"]}
    assert everyone == {full["id"], waiting["id"]}
    assert len(client.get("/api/games?limit=1").get_json()["games"]) == 1
    error_of(client.get("/api/games?open=maybe"), 400, "open")
    error_of(client.get("/api/games?limit=0"), 400, "limit")


def test_claim_gives_a_free_seats_token_once(client):
    game = create(
        client, [{"type": "human", "name": "Ana"}, {"type": "human", "open": True}, {"type": "bot"}]
    )
    gid, invite = game["id"], game["seats"][1]["invite"]
    resp = client.post(f"/api/games/{gid}/seats/1/claim", json={"name": "Bo", "invite": invite})
    assert resp.status_code == 200
    claim = resp.get_json()
    assert claim["index"] == 1 and claim["name"] == "Bo" and len(claim["token"]) >= 43
    me = state(client, gid, claim["token"])
    assert me["seat"] == 1 and me["seats"][1]["name"] == "Bo" and me["seats"][1]["open"] is False
    assert (
        act(client, gid, claim["token"], me["version"], me["legal_actions"][0]).status_code == 200
    )
    before = everything(client, gid, [claim["token"]])
    again = client.post(f"/api/games/{gid}/seats/1/claim", json={"invite": invite})
    assert "claimed" in error_of(again, 409, "index")["message"]
    assert (
        "bot" in error_of(client.post(f"/api/games/{gid}/seats/2/claim"), 409, "index")["message"]
    )
    error_of(
        client.post(f"/api/games/{gid}/seats/0/claim"), 409, "index"
    )  # had a token at creation
    error_of(client.post(f"/api/games/{gid}/seats/7/claim"), 404, "index")
    error_of(client.post("/api/games/nosuch/seats/0/claim"), 404)
    error_of(client.post(f"/api/games/{gid}/seats/1/claim", json={"name": 5}), 400, "name")
    assert everything(client, gid, [claim["token"]]) == before
    assert client.get("/api/games?open=true").get_json()["games"] == []


def test_claim_without_body_and_on_a_finished_game(client):
    listed = {"type": "human", "open": True, "listed": True}
    game = create(client, [listed, listed])
    claim = client.post(f"/api/games/{game['id']}/seats/0/claim")
    assert claim.status_code == 200 and claim.get_json()["name"] is None
    done = create(client, [listed, {"type": "bot"}], options={"rounds": 3})
    token = client.post(f"/api/games/{done['id']}/seats/0/claim").get_json()["token"]
    play_out(client, {**done, "seats": [{"token": token}]})
    imported = client.post(
        "/api/games/import", json=client.get(f"/api/games/{done['id']}/record").get_json()
    ).get_json()
    error_of(client.post(f"/api/games/{imported['id']}/seats/0/claim"), 409, "index")


def test_unknown_api_paths_and_methods_are_json(client):
    error_of(client.get("/api/games/x/y/z"), 404)
    assert client.delete("/api/games").status_code == 405
