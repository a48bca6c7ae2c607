"""The table chat through the JSON API and its service, on both stores (the ``database`` fixture:
a real SQLite file and a real PostgreSQL server): seats write and everyone reads, in order and
resumed after a line; what a line may say (400 in words); one line a second per seat after a
burst of five (429 with ``Retry-After``, on the service's clock, across processes); spectators
read and cannot write; a finished game's chat stays readable and closed; a line is never in
the engine's log; the events long-poll hears a line. The stream's ``chat`` events are in
``tests/test_streams.py``, the pages in ``tests/test_chat_browser.py``.
"""

from __future__ import annotations

import threading
import time

import pytest

import web.service.chat
from app import create_app
from errors import TooManyRequests
from i18n import catalogue
from tests.test_accounts_api import device, write
from web.schemas_chat import MAX_CHARS
from web.service.chat import BURST, post_line
from web.service.sessions import GameSessions

pytestmark = pytest.mark.usefixtures("blind_auction")
GAME = "blind_auction"
HUMANS = [{"type": "human", "name": "Ana"}, {"type": "human", "name": "Bo"}]


@pytest.fixture
def app(database_app):
    """These tests run on each store (``database_app``)."""
    return database_app


@pytest.fixture
def client(app):
    return app.test_client()


def new_game(client, seats=HUMANS) -> tuple[str, list[dict]]:
    """A game of ``seats``; its id and a Bearer header per human seat (``None`` for a bot)."""
    data = client.post("/api/games", json={"game": GAME, "seats": seats}).get_json()
    auth = [
        {"Authorization": f"Bearer {s['token']}"} if s["token"] else None for s in data["seats"]
    ]
    return data["id"], auth


def say(client, gid: str, auth: dict | None, text: str):
    return client.post(f"/api/games/{gid}/chat", json={"text": text}, headers=auth or {})


def lines(client, gid: str, after: int = 0) -> dict:
    resp = client.get(f"/api/games/{gid}/chat?after={after}")
    assert resp.status_code == 200, resp.get_json()
    return resp.get_json()


def test_seats_write_and_everyone_reads_the_lines_in_order_resumed_after_a_line(client, clock):
    gid, auth = new_game(client)
    said = []
    for i in range(6):
        seat = i % 2
        resp = say(client, gid, auth[seat], f"  line {i} from {seat} ")
        assert resp.status_code == 201, resp.get_json()
        said.append((i + 1, seat, f"line {i} from {seat}"))  # without the spaces around it
        assert resp.get_json() == {"n": i + 1, "seat": seat, "text": said[-1][2], "time": clock()}
        clock.advance(0.5)
    everything = lines(client, gid)
    assert [(x["n"], x["seat"], x["text"]) for x in everything["lines"]] == said
    assert (everything["count"], everything["over"], everything["more"]) == (6, False, False)
    assert [x["n"] for x in lines(client, gid, after=4)["lines"]] == [5, 6]
    assert lines(client, gid, after=6)["lines"] == []
    refused = client.get(f"/api/games/{gid}/chat?after=7")
    assert refused.status_code == 409 and refused.get_json()["error"]["reason"] == "after_past_chat"
    assert client.get("/api/games/AAAAAAAAAAAA/chat").status_code == 404
    assert client.get(f"/api/games/{gid}/chat?after=x").status_code == 400


def test_lines_are_paged(client, clock, monkeypatch):
    monkeypatch.setattr(web.service.chat, "CHAT_PAGE", 4)
    gid, auth = new_game(client)
    for i in range(10):
        assert say(client, gid, auth[i % 2], str(i)).status_code == 201
        clock.advance(1)
    first = lines(client, gid)
    assert [x["text"] for x in first["lines"]] == ["0", "1", "2", "3"] and first["more"]
    rest = lines(client, gid, after=8)
    assert [x["text"] for x in rest["lines"]] == ["8", "9"] and not rest["more"]


@pytest.mark.parametrize(
    ("text", "reason", "params"),
    [
        ("x" * (MAX_CHARS + 1), "chat_too_long", {"limit": MAX_CHARS, "length": MAX_CHARS + 1}),
        ("two\nlines", "chat_control_character", {"character": "U+000A"}),
        ("a\ttab", "chat_control_character", {"character": "U+0009"}),
        ("bell\x07", "chat_control_character", {"character": "U+0007"}),
        ("nul\x00", "chat_control_character", {"character": "U+0000"}),
        ("c1\x85", "chat_control_character", {"character": "U+0085"}),
        ("para\u2029graph", "chat_control_character", {"character": "U+2029"}),
        ("zero\u200bwidth", "chat_hidden_character", {"character": "U+200B"}),
        ("\u202eesrever", "chat_hidden_character", {"character": "U+202E"}),
        ("", "chat_empty", {}),
        ("   ", "chat_empty", {}),
        ("  \u3000 ", "chat_hidden_character", {"character": "U+3000"}),  # a space but U+0020
    ],
)
def test_what_a_line_may_not_say_is_refused_in_words(client, text, reason, params):
    gid, auth = new_game(client)
    resp = say(client, gid, auth[0], text)
    assert resp.status_code == 400
    error = resp.get_json()["error"]
    assert (error["reason"], error["params"], error["field"]) == (reason, params, "text")
    for lang in ("en", "zh"):
        assert f"error.{reason}" in catalogue(lang)
    assert lines(client, gid)["count"] == 0


def test_a_line_of_the_longest_length_and_any_script_is_taken(client):
    gid, auth = new_game(client)
    for text in ("x" * MAX_CHARS, "成交嗎？", "Deal? 🐉❤️", "I want the blue ones"):
        resp = say(client, gid, auth[0], text)
        assert resp.status_code == 201 and resp.get_json()["text"] == text
    for body in ({}, {"text": 5}, {"text": "hi", "seat": 1}):
        resp = client.post(f"/api/games/{gid}/chat", json=body, headers=auth[0])
        assert resp.status_code == 400, body


def test_the_sixth_quick_line_is_429_with_retry_after_and_again_after_a_second(client, clock):
    gid, auth = new_game(client)
    for i in range(BURST):
        assert say(client, gid, auth[0], f"quick {i}").status_code == 201
    refused = say(client, gid, auth[0], "one too many")
    assert refused.status_code == 429 and refused.headers["Retry-After"] == "1"
    error = refused.get_json()["error"]
    assert (error["code"], error["reason"]) == ("rate_limited", "chat_too_fast")
    assert error["params"]["count"] == 1 and error["params"]["burst"] == BURST
    assert say(client, gid, auth[1], "the other seat has its own").status_code == 201
    clock.advance(0.5)
    assert say(client, gid, auth[0], "not yet").status_code == 429
    clock.advance(0.5)  # a second after the burst: one line, then refused again
    assert say(client, gid, auth[0], "one more").status_code == 201
    again = say(client, gid, auth[0], "and another")
    assert again.status_code == 429 and again.headers["Retry-After"] == "1"
    clock.advance(3.0)  # three seconds: three lines
    assert [say(client, gid, auth[0], f"later {i}").status_code for i in range(4)] == [
        201,
        201,
        201,
        429,
    ]
    clock.advance(60)  # a quiet minute: the whole burst again, no more
    codes = [say(client, gid, auth[0], f"burst {i}").status_code for i in range(BURST + 1)]
    assert codes == [201] * BURST + [429]
    assert lines(client, gid)["count"] == 2 * BURST + 5


def test_the_rate_holds_across_processes(database, clock, open_store_):
    """Two processes' services on one database (as two workers or servers): the seat's allowance
    is the stored lines', so the sixth line is refused whichever process takes it."""
    app = create_app({"TESTING": True, "DATABASE": database, "CLOCK": clock})
    gid, _ = new_game(app.test_client())
    first, second = (
        GameSessions(open_store_(), clock=clock),
        GameSessions(open_store_(), clock=clock),
    )
    for i in range(BURST):
        s = (first, second)[i % 2]
        post_line(s.store, s.clock, gid, 0, f"line {i}")
    with pytest.raises(TooManyRequests) as refused:
        post_line(second.store, second.clock, gid, 0, "the sixth")
    assert refused.value.reason == "chat_too_fast" and refused.value.retry_after_s == 1
    assert first.store.get(gid).chat == BURST
    app.extensions["game_sessions"].store.close()


def test_spectators_read_and_cannot_write(app, client):
    gid, auth = new_game(client)
    assert say(client, gid, auth[0], "hello table").status_code == 201
    nobody = say(client, gid, None, "let me in")
    assert nobody.status_code == 401
    assert nobody.get_json()["error"]["reason"] == "seat_token_needed"
    other_gid, other_auth = new_game(client)
    stranger = say(client, gid, other_auth[0], "wrong table")
    assert stranger.status_code == 403
    assert stranger.get_json()["error"]["reason"] == "not_a_seat_token"
    watcher = device(app, "Watcher")  # signed in, but holds no seat of this game
    resp = write(watcher, "POST", f"/api/games/{gid}/chat", {"text": "hi"})
    assert resp.status_code == 403 and resp.get_json()["error"]["reason"] == "no_seat_here"
    for reason in ("no_seat_here", "seat_token_needed", "not_a_seat_token"):
        assert all(f"error.{reason}" in catalogue(lang) for lang in ("en", "zh"))
    assert [x["text"] for x in lines(watcher, gid)["lines"]] == ["hello table"]  # reads it
    assert [x["text"] for x in lines(client, other_gid)["lines"]] == []


def test_an_account_writes_for_its_seat_by_cookie_with_csrf_or_by_access_token(app):
    ana = device(app, "Ana")
    created = write(ana, "POST", "/api/games", {"game": GAME, "seats": HUMANS}).get_json()
    gid = created["id"]
    held = next(s["index"] for s in created["seats"] if s["player"] == "Ana")
    bare = ana.post(f"/api/games/{gid}/chat", json={"text": "no csrf"})
    assert bare.status_code == 403 and bare.get_json()["error"]["reason"] == "csrf_failed"
    resp = write(ana, "POST", f"/api/games/{gid}/chat", {"text": "by my account"})
    assert resp.status_code == 201 and resp.get_json()["seat"] == held
    token = write(ana, "POST", "/api/me/tokens", {"label": "bot"}).get_json()["token"]
    api = app.test_client()
    resp = say(api, gid, {"Authorization": f"Bearer {token}"}, "by my token")
    assert resp.status_code == 201 and resp.get_json()["seat"] == held


def _play_to_end(client, gid: str, auth: list[dict | None]) -> dict:
    while True:
        for seat_auth in auth:
            me = client.get(f"/api/games/{gid}", headers=seat_auth or {}).get_json()
            if me["over"]:
                return me
            if me["legal_actions"]:
                body = {"version": me["version"], "action": me["legal_actions"][0]}
                resp = client.post(f"/api/games/{gid}/actions", json=body, headers=seat_auth)
                assert resp.status_code == 200, resp.get_json()


def test_a_finished_games_chat_stays_readable_closed_and_out_of_the_engines_log(client, clock):
    gid, auth = new_game(client)
    for seat, text in ((0, "Deal?"), (1, "No"), (0, "I want the blue ones")):
        assert say(client, gid, auth[seat], text).status_code == 201
    game = client.get(f"/api/games/{gid}").get_json()
    assert game["version"] == 0  # a line is no log entry
    events = client.get(f"/api/games/{gid}/events?after=0").get_json()
    assert events["events"] == [] and events["chat"] == 3
    end = _play_to_end(client, gid, auth)
    assert end["over"]
    closed = say(client, gid, auth[0], "gg")
    assert closed.status_code == 409 and closed.get_json()["error"]["reason"] == "chat_closed"
    after = lines(client, gid)
    assert [x["text"] for x in after["lines"]] == ["Deal?", "No", "I want the blue ones"]
    assert after["over"] and after["count"] == 3
    record = client.get(f"/api/games/{gid}/record").get_json()
    text = str(record)
    assert "Deal?" not in text and "chat" not in text
    logged = client.get(f"/api/games/{gid}/events?after=0").get_json()
    assert all("Deal?" not in str(e) for e in logged["events"])
    sessions = client.application.extensions["game_sessions"]
    assert len(sessions.store.actions(gid)) == end["version"]
    # an imported copy of the record is a new game with no chat
    imported = client.post("/api/games/import", json=record).get_json()
    assert lines(client, imported["id"])["count"] == 0


def test_a_full_chat_takes_no_more_lines(client, clock, monkeypatch):
    monkeypatch.setattr(web.service.chat, "MAX_LINES", 3)
    gid, auth = new_game(client)
    for i in range(3):
        assert say(client, gid, auth[i % 2], str(i)).status_code == 201
    full = say(client, gid, auth[0], "more")
    assert full.status_code == 409
    assert full.get_json()["error"]["reason"] == "chat_full"
    assert full.get_json()["error"]["params"] == {"limit": 3}


def test_the_events_long_poll_returns_for_a_chat_line(client):
    gid, auth = new_game(client)
    started = time.monotonic()
    quiet = client.get(f"/api/games/{gid}/events?after=0&chat_after=0&wait=0.3").get_json()
    assert quiet["chat"] == 0 and time.monotonic() - started >= 0.25
    sessions = client.application.extensions["game_sessions"]

    def later() -> None:
        time.sleep(0.3)
        post_line(sessions.store, sessions.clock, gid, 1, "are you there?")

    writer = threading.Thread(target=later)
    writer.start()
    started = time.monotonic()
    woke = client.get(f"/api/games/{gid}/events?after=0&chat_after=0&wait=10").get_json()
    writer.join()
    assert woke["chat"] == 1 and woke["events"] == [] and time.monotonic() - started < 5
    at_once = client.get(f"/api/games/{gid}/events?after=0&chat_after=0&wait=10").get_json()
    assert at_once["chat"] == 1  # a line past chat_after already: no waiting
    plain = client.get(f"/api/games/{gid}/events?after=0&wait=0.2").get_json()
    assert plain["chat"] == 1  # without chat_after a line does not end the wait, but is counted
    refused = client.get(f"/api/games/{gid}/events?after=0&chat_after=2")
    assert refused.status_code == 409
    assert refused.get_json()["error"]["reason"] == "after_past_chat"


def test_a_line_reaches_a_waiting_stream_on_both_stores(client):
    """The line's change mark wakes the game's streams: SQLite's ``seq``, PostgreSQL's
    ``pg_notify`` without a version (heard at the commit by the process's listener)."""
    from tests.test_streams import _read

    gid, auth = new_game(client)
    resp = client.get(f"/api/games/{gid}/stream")
    got: list[list[dict]] = []
    reader = threading.Thread(target=lambda: got.append(_read(resp, 3)), daemon=True)
    reader.start()
    time.sleep(0.3)  # the stream sleeps on the watcher
    assert say(client, gid, auth[1], "Deal?").status_code == 201
    assert say(client, gid, auth[0], "No").status_code == 201
    reader.join(10)
    resp.close()
    assert got, "the stream heard nothing"
    assert [(e["event"], e["id"]) for e in got[0][1:]] == [("chat", "0:1"), ("chat", "0:2")]
