"""Accounts through the JSON API, on both stores (the ``database`` fixture: a real SQLite file and
a real PostgreSQL server): signing up and in, the session cookie and its CSRF token, signing out
here and everywhere, passwords, deletion, personal access tokens, seats held by account on every
device, a guest's seats moved in, my games, ratings, profiles and leaderboards, and the limits
on guessing. The service's clock is the tests' ``FakeClock``, so windows pass when a test says.
"""

from __future__ import annotations

import statistics
import time
from pathlib import Path

import pytest

from tests.bots import bots_move
from web.accounts import limits, ratings, rerate
from web.accounts.credentials import COOKIE, TOKEN_PREFIX

pytestmark = pytest.mark.usefixtures("blind_auction")
PW = "correct horse battery"
GAME = "blind_auction"


@pytest.fixture
def app(database_app):
    """These tests run on each store (``database_app``)."""
    return database_app


def device(app, name=None, password=PW, new=True):
    """A client signed in as ``name`` (signed up first when ``new``); its CSRF token is kept as
    ``client.csrf`` (None for a guest)."""
    c = app.test_client()
    c.csrf = None
    if name is not None:
        path = "/api/accounts" if new else "/api/session"
        r = c.post(path, json={"name": name, "password": password})
        assert r.status_code == (201 if new else 200), r.get_json()
        c.csrf = r.get_json()["csrf_token"]
    return c


def write(c, method, path, body=None, **headers):
    """A write with the client's CSRF token (the pages send it)."""
    if c.csrf:
        headers.setdefault("X-CSRF-Token", c.csrf)
    return c.open(path, method=method, json=body, headers=headers)


def new_game(c, seats=None, **extra):
    seats = seats or [{"type": "human"}, {"type": "human", "open": True, "listed": True}]
    r = write(c, "POST", "/api/games", {"game": GAME, "seats": seats, **extra})
    assert r.status_code == 201, r.get_json()
    return r.get_json()


def play_to_end(app, players):
    """Each client of ``players`` plays its seat of the game ``client.game`` (by its account,
    or by the seat token ``client.token``), bidding its first card, until the game is over;
    the bots answer between. The last snapshot."""
    while True:
        bots_move(app)
        moved = False
        for c in players:
            auth = {"Authorization": f"Bearer {c.token}"} if getattr(c, "token", None) else {}
            g = c.get(f"/api/games/{c.game}", headers=auth).get_json()
            if g["over"]:
                return g
            if g["legal_actions"]:
                body = {"version": g["version"], "action": g["legal_actions"][0]}
                r = write(c, "POST", f"/api/games/{c.game}/actions", body, **auth)
                assert r.status_code == 200, r.get_json()
                moved = True
        assert moved, "nobody could move"


# --- signing up, in and out ---------------------------------------------------------------


def test_sign_up_signs_in_with_a_guarded_cookie_and_a_csrf_token(app):
    c = app.test_client()
    r = c.post("/api/accounts", json={"name": "  Ａｎａ  Maria ", "password": PW})
    assert r.status_code == 201
    assert r.get_json()["name"] == "Ana Maria"  # NFKC, one space, none at the ends
    cookie = r.headers["Set-Cookie"]
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie and "Path=/" in cookie
    assert "Secure" not in cookie  # plain HTTP here
    assert r.headers["Cache-Control"] == "no-store"
    me = c.get("/api/me")
    assert me.status_code == 200 and me.get_json() == {
        "name": "Ana Maria",
        "created": me.get_json()["created"],
        "ratings": [],
        "email": None,
        "mail_off": False,
    }
    secure = app.test_client().post(
        "/api/accounts", json={"name": "Bo", "password": PW}, base_url="https://localhost"
    )
    assert secure.status_code == 400  # two characters: too short
    secure = app.test_client().post(
        "/api/accounts", json={"name": "Bob", "password": PW}, base_url="https://localhost"
    )
    assert "Secure" in secure.headers["Set-Cookie"]


@pytest.mark.parametrize(
    ("name", "reason"),
    [
        ("Al", "name_length"),
        ("x" * 25, "name_length"),
        ("a/b/c", "name_character"),
        ("Ana\u200bX", "hidden_character"),
        ("...", "name_needs_letter"),
    ],
)
def test_a_name_the_rules_refuse_is_a_400_in_words(app, name, reason):
    r = app.test_client().post("/api/accounts", json={"name": name, "password": PW})
    err = r.get_json()["error"]
    assert r.status_code == 400 and err["reason"] == reason and err["field"] == "name"


def test_names_are_unique_whatever_their_case_and_passwords_have_rules(app):
    device(app, "Ana")
    for taken in ("ana", "ANA", "Ａｎａ"):
        r = app.test_client().post("/api/accounts", json={"name": taken, "password": PW})
        assert r.status_code == 409 and r.get_json()["error"]["reason"] == "name_taken"
    r = app.test_client().post("/api/accounts", json={"name": "Cleo", "password": "short"})
    assert r.status_code == 400 and r.get_json()["error"]["field"] == "password"
    r = app.test_client().post("/api/accounts", json={"name": "Cleopatra", "password": "CLEOPATRA"})
    assert r.get_json()["error"]["reason"] == "password_is_name"


def test_sign_in_out_and_a_wrong_name_answered_as_a_wrong_password(app):
    device(app, "Ana")
    phone = device(app, "ANA", new=False)  # any case signs in
    assert phone.get("/api/me").get_json()["name"] == "Ana"
    wrong = app.test_client().post("/api/session", json={"name": "Ana", "password": "nope nope"})
    unknown = app.test_client().post("/api/session", json={"name": "Zed", "password": PW})
    assert wrong.status_code == unknown.status_code == 401
    assert wrong.get_json() == unknown.get_json()  # the same words: which one is not said
    r = write(phone, "DELETE", "/api/session")
    assert r.status_code == 204 and COOKIE in r.headers["Set-Cookie"]  # the cookie cleared
    assert phone.get("/api/me").status_code == 401


def test_an_unknown_name_costs_about_the_time_of_a_wrong_password(app):
    device(app, "Ana")

    def timed(name: str) -> float:
        """The CPU time of this thread for one failed sign-in (the app runs in it: another
        process's load on the machine does not change it)."""
        c = app.test_client()
        started = time.thread_time()
        c.post("/api/session", json={"name": name, "password": "wrong password"})
        return time.thread_time() - started

    # 5 + 5 failures: the address's limit (10) refuses the next one before any hash
    wrong = statistics.median(timed("Ana") for _ in range(5))
    unknown = statistics.median(timed(f"Nobody{i}") for i in range(5))
    assert 0.5 < unknown / wrong < 2.0, (unknown, wrong)  # both check an argon2 hash


def test_the_eleventh_failed_sign_in_is_429_until_the_window_passes(app, clock):
    device(app, "Ana")
    c = app.test_client()
    for _ in range(limits.SIGN_IN_NAME.count):
        assert c.post("/api/session", json={"name": "Ana", "password": "bad"}).status_code == 401
    r = c.post("/api/session", json={"name": "Ana", "password": PW})  # even the right one
    assert r.status_code == 429 and r.get_json()["error"]["reason"] == "too_many_sign_ins"
    assert 1 <= int(r.headers["Retry-After"]) <= 15 * 60
    assert r.get_json()["error"]["params"]["count"] == 15  # minutes, as pages word it
    clock.advance(15 * 60 + 1)
    assert c.post("/api/session", json={"name": "Ana", "password": PW}).status_code == 200


def test_failures_from_one_address_are_limited_whatever_the_names(app):
    c = app.test_client()
    for i in range(limits.SIGN_IN_ADDRESS.count):
        c.post("/api/session", json={"name": f"Guess{i}", "password": "bad"})
    r = c.post("/api/session", json={"name": "Someone", "password": "bad"})
    assert r.status_code == 429 and "Retry-After" in r.headers


def test_new_accounts_from_one_address_are_limited(app, clock, monkeypatch):
    monkeypatch.setattr(
        limits, "SIGN_UPS", limits.Limit("sign-up", 3, 3600, reason="too_many_sign_ups")
    )
    for i in range(3):
        device(app, f"Player{i}")
    r = app.test_client().post("/api/accounts", json={"name": "Player9", "password": PW})
    assert r.status_code == 429 and r.get_json()["error"]["reason"] == "too_many_sign_ups"
    clock.advance(3601)
    device(app, "Player9")


# --- CSRF, sessions everywhere, passwords ------------------------------------------------------


def test_a_cookie_write_needs_the_sessions_csrf_token(app):
    ana = device(app, "Ana")
    seats = [{"type": "human"}, {"type": "bot", "level": "random"}]
    body = {"game": GAME, "seats": seats}
    for headers in ({}, {"X-CSRF-Token": "forged"}):
        r = ana.post("/api/games", json=body, headers=headers)
        assert r.status_code == 403 and r.get_json()["error"]["reason"] == "csrf_failed"
    r = ana.post("/api/me/tokens", json={"label": "bot"})
    assert r.status_code == 403
    game = new_game(ana, seats)
    # a seat token needs no CSRF token: a browser never sends a bearer header by itself
    token = game["seats"][0]["token"]
    g = ana.get(f"/api/games/{game['id']}").get_json()
    r = ana.post(
        f"/api/games/{game['id']}/actions",
        json={"version": g["version"], "action": g["legal_actions"][0]},
        headers={"Authorization": f"Bearer {token}"},
    )
    assert r.status_code == 200


def test_sign_out_everywhere_ends_every_session_at_once(app):
    laptop = device(app, "Ana")
    phone = device(app, "Ana", new=False)
    r = write(phone, "DELETE", "/api/me/sessions")
    assert r.status_code == 204
    assert laptop.get("/api/me").status_code == 401 and phone.get("/api/me").status_code == 401
    stale = laptop.post("/api/games", json={"game": GAME, "seats": [{"type": "human"}] * 2})
    assert stale.status_code == 201  # an ended session is a guest's, as if signed out
    assert stale.get_json()["seats"][0]["player"] is None


def test_a_new_password_ends_the_other_sessions(app):
    laptop = device(app, "Ana")
    phone = device(app, "Ana", new=False)
    body = {"password": "not it at all", "new_password": "a new long pass"}
    r = write(laptop, "POST", "/api/me/password", body)
    assert r.status_code == 401 and r.get_json()["error"]["reason"] == "wrong_password"
    body["password"] = PW
    assert write(laptop, "POST", "/api/me/password", body).status_code == 204
    assert laptop.get("/api/me").status_code == 200  # this one stays
    assert phone.get("/api/me").status_code == 401
    bad = app.test_client().post("/api/session", json={"name": "Ana", "password": PW})
    assert bad.status_code == 401
    device(app, "Ana", "a new long pass", new=False)


def test_the_database_holds_no_password_or_secret_in_clear(app, database):
    if not database.endswith(".sqlite3"):
        pytest.skip("the file of SQLite is read here")
    c = device(app, "Ana")
    token = write(c, "POST", "/api/me/tokens", {"label": "script"}).get_json()["token"]
    cookie = c.get_cookie(COOKIE).value
    raw = b"".join(Path(p).read_bytes() for p in (database, database + "-wal") if Path(p).exists())
    for secret in (PW, token, cookie, c.csrf):
        assert secret.encode() not in raw
    assert b"$argon2id$v=19$m=19456,t=2,p=1$" in raw


# --- personal access tokens ---------------------------------------------------------------------


def test_a_personal_access_token_acts_for_the_account_until_revoked(app):
    ana = device(app, "Ana")
    made = write(ana, "POST", "/api/me/tokens", {"label": "my script"})
    assert made.status_code == 201
    token = made.get_json()["token"]
    assert token.startswith(TOKEN_PREFIX) and len(token) == 47
    listed = ana.get("/api/me/tokens").get_json()["tokens"]
    assert [t["label"] for t in listed] == ["my script"] and "token" not in listed[0]
    script = app.test_client()
    bearer = {"Authorization": f"Bearer {token}"}
    assert script.get("/api/me", headers=bearer).get_json()["name"] == "Ana"
    r = script.post("/api/me/tokens", json={"label": "more"}, headers=bearer)
    assert r.status_code == 403 and r.get_json()["error"]["reason"] == "session_needed"
    # the token creates a game and plays the account's seat, no CSRF token needed
    seats = [{"type": "human"}, {"type": "bot", "level": "random"}]
    game = script.post("/api/games", json={"game": GAME, "seats": seats}, headers=bearer)
    gid = game.get_json()["id"]
    assert game.get_json()["seats"][0]["player"] == "Ana"
    g = script.get(f"/api/games/{gid}", headers=bearer).get_json()
    assert g["seat"] == 0
    body = {"version": g["version"], "action": g["legal_actions"][0]}
    assert script.post(f"/api/games/{gid}/actions", json=body, headers=bearer).status_code == 200
    assert write(ana, "DELETE", f"/api/me/tokens/{made.get_json()['id']}").status_code == 204
    r = script.get("/api/me", headers=bearer)
    assert r.status_code == 403 and r.get_json()["error"]["reason"] == "unknown_token"
    assert write(ana, "DELETE", "/api/me/tokens/nothing").status_code == 404


# --- seats held by account ------------------------------------------------------------------


def test_the_same_seat_plays_on_every_device_and_nobody_elses(app):
    laptop = device(app, "Ana")
    game = new_game(laptop)
    gid = game["id"]
    assert game["seats"][0]["name"] == "Ana" and game["seats"][0]["player"] == "Ana"
    phone = device(app, "ana", new=False)
    seen = phone.get(f"/api/games/{gid}").get_json()
    assert seen["seat"] == 0 and seen["legal_actions"]
    # the seat's view, exactly as its token shows it
    token = game["seats"][0]["token"]
    by_token = app.test_client().get(
        f"/api/games/{gid}", headers={"Authorization": f"Bearer {token}"}
    )
    assert by_token.get_json()["view"] == seen["view"]
    assert app.test_client().get(f"/api/games/{gid}").get_json()["seat"] is None  # spectator
    body = {"version": seen["version"], "action": seen["legal_actions"][0]}
    assert write(phone, "POST", f"/api/games/{gid}/actions", body).status_code == 200
    bo = device(app, "Bo Li")  # an account with no seat here watches, and may not act
    assert bo.get(f"/api/games/{gid}").get_json()["seat"] is None
    r = write(bo, "POST", f"/api/games/{gid}/actions", body)
    assert r.status_code == 403 and r.get_json()["error"]["reason"] == "no_seat_here"
    assert app.test_client().post(f"/api/games/{gid}/actions", json=body).status_code == 401
    # Bo takes the free seat by account, under his account's name, and only one
    r = write(bo, "POST", f"/api/games/{gid}/seats/1/claim", {"name": "someone else"})
    assert r.status_code == 200 and r.get_json()["name"] == "Bo Li"
    again = new_game(laptop, [{"type": "human"}, {"type": "human", "open": True, "listed": True}])
    write(bo, "POST", f"/api/games/{again['id']}/seats/1/claim")
    r = write(laptop, "POST", f"/api/games/{again['id']}/seats/1/claim")
    assert r.status_code == 409  # taken by Bo already
    third = new_game(bo, [{"type": "human"}, {"type": "human", "open": True, "listed": True}])
    r = write(bo, "POST", f"/api/games/{third['id']}/seats/1/claim")
    assert r.status_code == 409 and r.get_json()["error"]["reason"] == "already_seated"


def test_a_guests_seats_move_into_the_account(app):
    guest = app.test_client()
    seats = [{"type": "human"}, {"type": "bot", "level": "random"}]
    running = guest.post("/api/games", json={"game": GAME, "seats": seats}).get_json()
    finished = guest.post("/api/games", json={"game": GAME, "seats": seats}).get_json()
    guest.game, guest.token, guest.csrf = finished["id"], finished["seats"][0]["token"], None
    play_to_end(app, [guest])
    held = [
        {"game": running["id"], "seat": 0, "token": running["seats"][0]["token"]},
        {"game": finished["id"], "seat": 0, "token": finished["seats"][0]["token"]},
        {"game": running["id"], "seat": 1, "token": running["seats"][0]["token"]},
        {"game": "nosuchgame12", "seat": 0, "token": "x"},
    ]
    ana = device(app, "Ana")
    r = write(ana, "POST", "/api/me/seats", {"seats": held})
    assert r.status_code == 200
    out = r.get_json()
    assert out["moved"] == [{"game": running["id"], "seat": 0}, {"game": finished["id"], "seat": 0}]
    assert {s["reason"] for s in out["skipped"]} == {"not_a_seat_token", "no_such_game"}
    phone = device(app, "Ana", new=False)
    assert phone.get(f"/api/games/{running['id']}").get_json()["seat"] == 0
    mine = phone.get("/api/me/games").get_json()
    assert [g["id"] for g in mine["running"]] == [running["id"]]
    assert [g["id"] for g in mine["finished"]] == [finished["id"]]
    assert mine["finished"][0]["place"] in (1, 2) and mine["finished"][0]["rating"] is None
    r = write(phone, "POST", "/api/me/seats", {"seats": held[:1]})
    assert r.get_json()["skipped"] == [
        {"game": running["id"], "seat": 0, "reason": "already_seated"}
    ]


def test_my_games_say_whose_turn_it_is_and_page_the_finished_ones(app, clock):
    ana = device(app, "Ana")
    seats = [{"type": "human"}, {"type": "bot", "level": "random"}]
    timed = new_game(ana, seats, options={"turn_seconds": 60})
    ended = []
    for _ in range(3):
        ana.game = new_game(ana, seats)["id"]
        play_to_end(app, [ana])
        ended.append(ana.game)
        clock.advance(1)
    mine = ana.get("/api/me/games").get_json()
    assert mine["now"] == clock.now and not mine["more"]
    (running,) = mine["running"]
    assert running["id"] == timed["id"] and running["your_turn"] and running["to_act"] == [0]
    assert running["deadline"] == pytest.approx(clock.now - 3 + 60)
    assert [g["id"] for g in mine["finished"]] == ended[::-1]  # newest first
    accounts = app.extensions["accounts"]  # a page is 20 games: the store's pages of 2 here
    first = accounts.store.finished_rows(accounts.named("Ana").id, float("inf"), 2)
    after = ana.get(f"/api/me/games?before={first[-1]['ended']}").get_json()
    assert [g["id"] for g in after["finished"]] == [ended[0]]
    assert ana.get("/api/me/games?before=nan").status_code == 400


# --- ratings, profiles and leaderboards -----------------------------------------------------------


def _rated_game(app, ana, bo, **extra):
    seats = [
        {"type": "human"},
        {"type": "human", "open": True, "listed": True},
        {"type": "bot", "level": "greedy"},
    ]
    game = new_game(ana, seats, **extra)
    assert write(bo, "POST", f"/api/games/{game['id']}/seats/1/claim").status_code == 200
    ana.game = bo.game = game["id"]
    return play_to_end(app, [ana, bo])


def test_a_game_between_accounts_rates_both_and_the_leaderboard_shows_them(app):
    ana, bo = device(app, "Ana"), device(app, "Bo Li")
    end = _rated_game(app, ana, bo)
    mine = {c: c.get("/api/me").get_json()["ratings"] for c in (ana, bo)}
    for c in (ana, bo):
        (r,) = mine[c]
        assert r["game"] == GAME and r["games"] == 1 and r["provisional"]
        assert r["mu"] != ratings.MODEL.mu and r["sigma"] < ratings.MODEL.sigma
    places = {}
    for c, seat in ((ana, 0), (bo, 1)):
        (f,) = c.get("/api/me/games").get_json()["finished"]
        places[seat] = f["place"]
        assert f["rating"]["before"] == ratings.MODEL.mu
        assert f["rating"]["after"] == pytest.approx(mine[c][0]["mu"], abs=1e-3)
        assert f["place"] == (1 if seat in end["winners"] else f["place"])
    board = app.test_client().get(f"/api/leaderboards/{GAME}").get_json()
    assert [p["name"] for p in board["players"]] == sorted(
        ["Ana", "Bo Li"], key=lambda n: -{"Ana": mine[ana], "Bo Li": mine[bo]}[n][0]["ordinal"]
    )
    assert board["provisional_under"] == ratings.PROVISIONAL_UNDER
    assert [b["level"] for b in board["bots"]] == ["random", "greedy", "patient"]
    assert board["bots"][0]["mu"] < board["bots"][1]["mu"] < board["bots"][2]["mu"]
    profile = app.test_client().get("/api/players/bo%20li").get_json()
    assert profile["name"] == "Bo Li" and profile["stats"] == [
        {"game": GAME, "played": 1, "won": int(places[1] == 1)}
    ]
    assert [g["id"] for g in profile["recent"]] == [end["id"]]
    assert app.test_client().get("/api/players/nobody").status_code == 404
    assert app.test_client().get("/api/leaderboards/chess").status_code == 404


def test_a_game_against_bots_rates_but_a_chosen_seed_or_no_second_rated_seat_does_not(app):
    ana, bo = device(app, "Ana"), device(app, "Bo Li")
    ana.game = new_game(ana, [{"type": "human"}, {"type": "bot", "level": "patient"}])["id"]
    play_to_end(app, [ana])
    assert ana.get("/api/me").get_json()["ratings"][0]["games"] == 1
    _rated_game(app, ana, bo, seed=7)  # its creator knew the deal
    # one account and a guest: a single rated seat, not rated
    guest = app.test_client()
    guest.csrf = None
    seats = [{"type": "human"}, {"type": "human", "open": True, "listed": True}]
    game = new_game(ana, seats)
    guest.token = guest.post(f"/api/games/{game['id']}/seats/1/claim").get_json()["token"]
    ana.game = guest.game = game["id"]
    play_to_end(app, [ana, guest])
    assert ana.get("/api/me").get_json()["ratings"][0]["games"] == 1
    assert bo.get("/api/me").get_json()["ratings"] == []
    assert len(ana.get("/api/me/games").get_json()["finished"]) == 3  # every one is a result


def test_ratings_rebuild_from_the_games_to_the_same_values(app):
    ana, bo, cy = device(app, "Ana"), device(app, "Bo Li"), device(app, "Cyd")
    for first, second in ((ana, bo), (bo, cy), (cy, ana), (ana, bo)):
        _rated_game(app, first, second)
    before = {c: c.get("/api/me").get_json()["ratings"] for c in (ana, bo, cy)}
    store = app.extensions["accounts"].store
    assert ratings.rebuild(store) == 4
    after = {c: c.get("/api/me").get_json()["ratings"] for c in (ana, bo, cy)}
    assert after == before
    assert before[ana][0]["games"] == 3


def test_deleting_an_account_keeps_its_games_and_frees_its_name(app):
    ana, bo = device(app, "Ana"), device(app, "Bo Li")
    end = _rated_game(app, ana, bo)
    running = new_game(ana)
    r = write(ana, "DELETE", "/api/me", {"password": "wrong one!"})
    assert r.status_code == 401
    assert write(ana, "DELETE", "/api/me", {"password": PW}).status_code == 204
    assert ana.get("/api/me").status_code == 401
    for gid in (end["id"], running["id"]):
        seat = app.test_client().get(f"/api/games/{gid}").get_json()["seats"][0]
        assert seat["deleted"] and seat["name"] is None and seat["player"] is None
        assert not seat["open"]  # nobody may take a deleted player's seat
    assert app.test_client().get("/api/players/ana").status_code == 404
    board = app.test_client().get(f"/api/leaderboards/{GAME}").get_json()
    assert [p["name"] for p in board["players"]] == ["Bo Li"]
    assert bo.get("/api/me").get_json()["ratings"][0]["games"] == 1  # Bo's history stays
    assert ratings.rebuild(app.extensions["accounts"].store) == 1
    device(app, "ANA")  # the name is free again


def test_account_answers_are_never_cached(app):
    ana = device(app, "Ana")
    for path in ("/api/me", "/api/me/games", "/api/me/tokens", f"/api/leaderboards/{GAME}"):
        assert ana.get(path).headers["Cache-Control"] == "no-store", path


def test_an_account_store_is_migrated_from_schema_6(tmp_path):
    """A SQLite file from before accounts gains their tables and games keep playing."""
    from tests.schema_rewinds import before_accounts
    from tests.test_storage_sqlite import old_database
    from web.storage.sqlite import SCHEMA_VERSION

    store = old_database(str(tmp_path / "old.sqlite3"), 6, before_accounts)
    assert store.schema_version == SCHEMA_VERSION and store.get("g1").to_act == []
    assert store.account_named("ana") is None
    store.close()


def test_the_rebuild_command_rates_the_stored_games_again(app, database, capsys):
    ana, bo = device(app, "Ana"), device(app, "Bo Li")
    _rated_game(app, ana, bo)
    before = ana.get("/api/me").get_json()["ratings"]
    with app.app_context():
        store = app.extensions["accounts"].store
        with store._writing() as conn:  # a rating lost, as a restored backup might have it
            conn.execute("DELETE FROM ratings")
    assert ana.get("/api/me").get_json()["ratings"] == []
    assert rerate.main(["--database", database]) == 0
    assert "rated again: 1 games" in capsys.readouterr().out
    assert ana.get("/api/me").get_json()["ratings"] == before
