"""The lobby through the API, on both stores: open tables listed by game kind, "Play now"
joining the longest waiting table that fits or opening one (two players asking at once meet at
one table), tables that fill with bots after a wait, tables that expire unrated and without
results, and casual tables. The service's clock is the tests' ``FakeClock``."""

from __future__ import annotations

import threading
import time
from types import SimpleNamespace

import pytest

from tests.bots import bots_move
from web.service import lobby, table_settings
from web.storage import OVER

PW = "correct horse battery"


@pytest.fixture
def app(database_app):
    """These tests run on each store (``database_app``)."""
    return database_app


def quick(app, seats=(2, 2), client=None, **body):
    c = client or app.test_client()
    r = c.post("/api/quick-play", json={"game": "dao", "seats": list(seats), **body})
    assert r.status_code == 200, r.get_json()
    return r.get_json()


def listing(app, kind="dao"):
    from web import lobby_api

    lobby_api._LISTED.clear()  # the tests read the store, not a second-old answer
    r = app.test_client().get(f"/api/lobby/{kind}")
    assert r.status_code == 200
    return r.get_json()


def open_table(app, client=None, **extra):
    c = client or app.test_client()
    seats = [{"type": "human", "name": "Host"}, {"type": "human", "open": True, "listed": True}]
    r = c.post(
        "/api/games",
        json={"game": "dao", "seats": seats, **extra},
        headers=extra.pop("headers", {}),
    )
    assert r.status_code == 201, r.get_json()
    return r.get_json()


def test_the_lobby_lists_open_tables_of_its_kind_the_longest_waiting_first(app):
    first = open_table(app)
    second = open_table(app, options={"time_bank_s": 600, "increment_s": 5})
    friends = app.test_client().post(
        "/api/games",
        json={"game": "dao", "seats": [{"type": "human"}, {"type": "human", "open": True}]},
    )
    assert friends.status_code == 201  # an invitation only: not in the lobby
    found = listing(app)
    assert found["count"] == 2
    assert [t["id"] for t in found["tables"]] == [first["id"], second["id"]]
    table = found["tables"][1]
    assert table["free"] == [1] and table["rated"]
    assert table["clock"] == {"mode": "bank", "time_bank_s": 600, "increment_s": 5}
    assert table["expires"] == pytest.approx(found["now"] + table_settings.LOBBY_WAIT_S)
    assert listing(app, "tobago")["count"] == 0
    assert app.test_client().get("/api/lobby/chess").status_code == 404
    app.test_client().post(f"/api/games/{first['id']}/seats/1/claim")  # full: it leaves
    assert [t["id"] for t in listing(app)["tables"]] == [second["id"]]


def test_play_now_joins_the_longest_waiting_table_that_fits_or_opens_one(app):
    opened = quick(app, (2, 3))
    assert not opened["joined"] and opened["seat"] == 0
    assert [s["listed"] for s in opened["seats"]] == [False, True]  # the fewest seats asked
    other_clock = quick(app, (2, 2), time_control={"turn_seconds": 86400})
    assert not other_clock["joined"]  # another time control: another table
    joined = quick(app, (2, 4))
    assert joined["joined"] and joined["id"] == opened["id"] and joined["seat"] == 1
    assert joined["token"] != opened["token"]
    game = (
        app.test_client()
        .get(f"/api/games/{opened['id']}", headers={"Authorization": f"Bearer {joined['token']}"})
        .get_json()
    )
    assert game["seat"] == 1
    mine = quick(app, (2, 2), time_control={"turn_seconds": 86400}, avoid=[other_clock["id"]])
    assert not mine["joined"]  # a guest's own table is not joined
    r = app.test_client().post("/api/quick-play", json={"game": "dao", "seats": [3, 2]})
    assert r.status_code == 400 and r.get_json()["error"]["reason"] == "seats_range"
    r = app.test_client().post("/api/quick-play", json={"game": "dao", "seats": [2, 9]})
    assert r.status_code == 400


def test_a_signed_in_player_never_joins_their_own_table(app):
    c = app.test_client()
    signed = c.post("/api/accounts", json={"name": "Ana", "password": PW}).get_json()
    headers = {"X-CSRF-Token": signed["csrf_token"]}
    r = c.post("/api/quick-play", json={"game": "dao", "seats": [2, 2]}, headers=headers)
    first = r.get_json()
    assert first["seats"][0]["player"] == "Ana"
    again = c.post("/api/quick-play", json={"game": "dao", "seats": [2, 2]}, headers=headers)
    assert not again.get_json()["joined"] and again.get_json()["id"] != first["id"]
    assert quick(app)["id"] == first["id"]  # someone else does


def test_two_players_asking_at_once_meet_at_one_table(app):
    results: list[dict] = []
    start = threading.Barrier(2)

    def ask() -> None:
        start.wait()
        results.append(quick(app))

    threads = [threading.Thread(target=ask) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert len(results) == 2
    assert results[0]["id"] == results[1]["id"]
    assert {r["seat"] for r in results} == {0, 1}
    assert listing(app)["count"] == 0  # a table opened in the race was closed
    store = app.extensions["game_sessions"].store
    closed = [g for g in (store.get(i) for i in store.game_ids()) if g.id != results[0]["id"]]
    assert all(g.status == OVER for g in closed)


def test_a_key_s_open_tables_are_older_in_the_order_they_were_stored(app, monkeypatch):
    """A table stored after another of its key is the newer, even when the server that
    stored the first had a clock an hour ahead (else two players who open tables at once
    could each miss the other's); a game that is no open table keeps its own time."""
    import web.storage.lobby as stored

    store = app.extensions["game_sessions"].store
    now = time.time()
    monkeypatch.setattr(stored, "time", SimpleNamespace(time=lambda: now + 3600))
    first = store.get(open_table(app)["id"])
    monkeypatch.setattr(stored, "time", SimpleNamespace(time=lambda: now))
    second = store.get(open_table(app)["id"])
    assert first.created == pytest.approx(now + 3600)
    assert second.created > first.created
    other = app.test_client().post(
        "/api/games", json={"game": "dao", "seats": [{"type": "human"}, {"type": "human"}]}
    )
    assert store.get(other.get_json()["id"]).created == pytest.approx(now)


def test_bots_take_the_free_seats_after_the_wait_the_host_chose(app, clock):
    table = open_table(app, fill_bots_after_s=60, fill_level="normal")
    found = listing(app)["tables"][0]
    assert found["fill_at"] == pytest.approx(listing(app)["now"] + 60)
    s = app.extensions["game_sessions"]
    clock.advance(59)
    assert lobby.tidy(s) == 0
    clock.advance(2)
    assert lobby.tidy(s) == 1
    seats = app.test_client().get(f"/api/games/{table['id']}").get_json()["seats"]
    assert (seats[1]["type"], seats[1]["level"]) == ("bot", "normal")
    assert listing(app)["count"] == 0
    r = app.test_client().post(
        "/api/games",
        json={
            "game": "dao",
            "seats": [{"type": "human"}, {"type": "human", "open": True, "listed": True}],
            "fill_bots_after_s": 60,
            "fill_level": "grandmaster",
        },
    )
    assert r.status_code == 400
    # a level the game has not is refused on a table with no seat for anyone too
    bots = [{"type": "human"}, {"type": "bot", "level": "easy"}]
    r = app.test_client().post(
        "/api/games", json={"game": "dao", "seats": bots, "fill_level": "grandmaster"}
    )
    assert r.status_code == 400 and r.get_json()["error"]["field"] == "fill_level"


def test_a_table_nobody_fills_expires_unrated_and_without_results(app, clock):
    c = app.test_client()
    signed = c.post("/api/accounts", json={"name": "Ana", "password": PW}).get_json()
    headers = {"X-CSRF-Token": signed["csrf_token"]}
    seats = [{"type": "human"}, {"type": "human", "open": True, "listed": True}]
    r = c.post("/api/games", json={"game": "dao", "seats": seats}, headers=headers)
    gid = r.get_json()["id"]
    clock.advance(table_settings.LOBBY_WAIT_S + 1)
    assert lobby.tidy(app.extensions["game_sessions"]) == 1
    over = c.get(f"/api/games/{gid}").get_json()
    assert over["over"]
    events = c.get(f"/api/games/{gid}/events").get_json()["events"]
    assert {"type": "game_ended", "end": "expired"} in events[-1]["events"]
    mine = c.get("/api/me/games").get_json()
    assert mine["running"] == []
    (ended,) = mine["finished"]  # listed as over, with no result
    assert ended["id"] == gid and ended["place"] is None and ended["rating"] is None
    assert c.get("/api/me").get_json()["ratings"] == []
    assert c.get("/api/players/Ana").get_json()["stats"] == []  # counted nowhere


def test_a_casual_table_is_never_rated(app):
    c = app.test_client()
    signed = c.post("/api/accounts", json={"name": "Ana", "password": PW}).get_json()
    headers = {"X-CSRF-Token": signed["csrf_token"]}
    seats = [{"type": "human"}, {"type": "bot", "level": "easy"}]
    r = c.post("/api/games", json={"game": "dao", "seats": seats, "rated": False}, headers=headers)
    gid = r.get_json()["id"]
    while True:
        bots_move(app)
        g = c.get(f"/api/games/{gid}").get_json()
        if g["over"]:
            break
        body = {"version": g["version"], "action": g["legal_actions"][0]}
        assert c.post(f"/api/games/{gid}/actions", json=body, headers=headers).status_code == 200
    assert c.get("/api/me").get_json()["ratings"] == []
    (finished,) = c.get("/api/me/games").get_json()["finished"]
    assert finished["rating"] is None and finished["place"] in (1, 2)
