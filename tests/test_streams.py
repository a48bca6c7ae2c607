"""The events stream (``GET /api/games/<id>/stream``, ``web/streams.py``): Server-Sent Events
of the public log, resumable, ending with a finished game.

Through the Flask test client: the format (``retry``, one event per entry with ``id`` = its
version and ``data`` = the events endpoint's entry, ``end``), resuming after ``Last-Event-ID``
or ``after``, the heartbeat, the refusals in the error shape, and a move made while a stream
waits. Over real HTTP (gunicorn, as ``make run``): 300 streams on one server all hear a move,
and a stream resumed with ``Last-Event-ID`` misses nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import threading
import time
from collections import Counter
from collections.abc import Iterator

import pytest
import requests

from tests.bots import bots_move
from tests.servers import gunicorn_in
from tests.sse_client import Follower

HUMANS = [{"type": "human"}, {"type": "human"}]


def _game(client, seed: int = 3) -> tuple[str, list[str]]:
    body = client.post("/api/games", json={"game": "dao", "seats": HUMANS, "seed": seed})
    data = body.get_json()
    return data["id"], [s["token"] for s in data["seats"]]


def _move(client, gid: str, tokens: list[str]) -> int:
    """The seat to act plays its first legal action; the new version."""
    view = client.get(f"/api/games/{gid}").get_json()
    seat = view["to_act"][0]
    auth = {"Authorization": f"Bearer {tokens[seat]}"}
    me = client.get(f"/api/games/{gid}", headers=auth).get_json()
    body = {"version": me["version"], "action": me["legal_actions"][0]}
    resp = client.post(f"/api/games/{gid}/actions", json=body, headers=auth)
    assert resp.status_code == 200, resp.get_json()
    return resp.get_json()["version"]


def _parse(text: str) -> list[dict[str, str]]:
    """The events of a stream's text: each block's fields (comments as ``comment``)."""
    out = []
    for block in text.split("\n\n"):
        if not block:
            continue
        fields: dict[str, str] = {}
        for line in block.split("\n"):
            name, _, value = line.partition(":")
            fields[name or "comment"] = value.removeprefix(" ")
        out.append(fields)
    return out


def _read(resp, count: int) -> list[dict[str, str]]:
    """The first ``count`` events of a streaming test-client answer."""
    chunks = iter(resp.response)
    text = ""
    while len(_parse(text)) < count:
        text += next(chunks).decode()
    return _parse(text)[:count]


@contextlib.contextmanager
def _listening(client, gid: str, count: int) -> Iterator[list[list[dict[str, str]]]]:
    """The game's stream read in a thread for its first ``count`` events, asleep on the watcher
    when the block starts; the block's end waits for them (10 s at most) and closes it. Yields
    the list they arrive in (empty: they did not)."""
    resp = client.get(f"/api/games/{gid}/stream")
    got: list[list[dict[str, str]]] = []
    reader = threading.Thread(target=lambda: got.append(_read(resp, count)), daemon=True)
    reader.start()
    time.sleep(0.3)  # the stream is asleep on the watcher
    try:
        yield got
        reader.join(10)
    finally:
        resp.close()


def test_a_stream_sends_every_entry_as_the_events_endpoint_gives_it(client):
    gid, tokens = _game(client)
    for _ in range(3):
        _move(client, gid, tokens)
    resp = client.get(f"/api/games/{gid}/stream")
    assert resp.status_code == 200
    assert resp.mimetype == "text/event-stream" and resp.headers["Cache-Control"] == "no-cache"
    events = _read(resp, 4)
    resp.close()
    assert 3000 <= int(events[0]["retry"]) <= 6000  # reconnections spread over 3 s
    entries = client.get(f"/api/games/{gid}/events?after=0").get_json()["events"]
    assert [json.loads(e["data"]) for e in events[1:]] == entries
    assert [int(e["id"]) for e in events[1:]] == [1, 2, 3]


def test_a_stream_resumes_after_last_event_id_which_wins_over_after(client):
    gid, tokens = _game(client)
    for _ in range(4):
        _move(client, gid, tokens)
    resp = client.get(f"/api/games/{gid}/stream?after=1", headers={"Last-Event-ID": "2"})
    events = _read(resp, 3)
    resp.close()
    assert [int(e["id"]) for e in events[1:]] == [3, 4]
    resp = client.get(f"/api/games/{gid}/stream?after=3")
    assert [int(e["id"]) for e in _read(resp, 2)[1:]] == [4]
    resp.close()


def test_a_finished_game_streams_to_its_end_and_closes(client):
    body = {"game": "dao", "seats": [{"type": "bot"}, {"type": "bot"}], "seed": 5}
    game = client.post("/api/games", json=body).get_json()
    bots_move(client)
    gid, version = game["id"], client.get(f"/api/games/{game['id']}").get_json()["version"]
    assert client.get(f"/api/games/{gid}").get_json()["over"]
    events = _parse(client.get(f"/api/games/{gid}/stream").get_data(as_text=True))
    assert [int(e["id"]) for e in events if "id" in e] == list(range(1, version + 1))
    assert events[-1] == {"event": "end", "data": json.dumps({"version": version}).replace(" ", "")}
    at_end = _parse(client.get(f"/api/games/{gid}/stream?after={version}").get_data(as_text=True))
    assert [e.get("event") for e in at_end] == [None, "end"]  # retry, then at once the end


def test_refusals_are_errors_in_the_usual_shape(client):
    gid, _ = _game(client)
    resp = client.get("/api/games/AAAAAAAAAAAA/stream")
    assert resp.status_code == 404 and resp.get_json()["error"]["code"] == "not_found"
    resp = client.get(f"/api/games/{gid}/stream?after=3")
    assert resp.status_code == 409
    assert resp.get_json()["error"]["reason"] == "after_past_version"
    for bad in ("x", "-1", "1.5", "²", "9" * 30):
        resp = client.get(f"/api/games/{gid}/stream", headers={"Last-Event-ID": bad})
        assert resp.status_code == 400 and resp.get_json()["error"]["field"] == "Last-Event-ID"


def test_a_silent_stream_sends_a_heartbeat(client, monkeypatch):
    import web.streams

    monkeypatch.setattr(web.streams, "HEARTBEAT_S", 0.1)
    gid, _ = _game(client)
    resp = client.get(f"/api/games/{gid}/stream")
    started = time.monotonic()
    events = _read(resp, 2)
    resp.close()
    assert events[1] == {"comment": "heartbeat"} and time.monotonic() - started < 5


def test_a_move_made_while_a_stream_waits_arrives(client):
    gid, tokens = _game(client)
    with _listening(client, gid, 3) as got:
        _move(client, gid, tokens)
        _move(client, gid, tokens)
    assert got and [int(e["id"]) for e in got[0][1:]] == [1, 2]


def _say(client, gid: str, token: str, text: str) -> int:
    """A seat's chat line (``web.chat_api``); its number."""
    auth = {"Authorization": f"Bearer {token}"}
    resp = client.post(f"/api/games/{gid}/chat", json={"text": text}, headers=auth)
    assert resp.status_code == 201, resp.get_json()
    return resp.get_json()["n"]


def test_chat_lines_arrive_as_chat_events_in_order_among_the_entries(client, clock):
    gid, tokens = _game(client)
    _move(client, gid, tokens)
    _say(client, gid, tokens[0], "Deal?")
    _say(client, gid, tokens[1], "No")
    resp = client.get(f"/api/games/{gid}/stream")
    events = _read(resp, 4)
    resp.close()
    assert events[1] == {"id": "1", "data": events[1]["data"]}  # no line sent yet: the version
    chat = [e for e in events if e.get("event") == "chat"]
    assert [e["id"] for e in chat] == ["1:1", "1:2"]  # the version, then the lines sent
    assert [json.loads(e["data"]) for e in chat] == [
        {"n": 1, "seat": 0, "text": "Deal?", "time": clock()},
        {"n": 2, "seat": 1, "text": "No", "time": clock()},
    ]
    assert [json.loads(e["data"]) for e in chat] == client.get(f"/api/games/{gid}/chat").get_json()[
        "lines"
    ]


def test_a_stream_resumes_the_chat_after_last_event_id_or_chat_after(client, clock):
    gid, tokens = _game(client)
    for i in range(3):
        _say(client, gid, tokens[i % 2], f"line {i + 1}")
    _move(client, gid, tokens)
    # a browser back after a drop: entries after version 0, lines after line 2
    resp = client.get(
        f"/api/games/{gid}/stream?after=0&chat_after=0", headers={"Last-Event-ID": "0:2"}
    )
    events = _read(resp, 3)
    resp.close()
    assert [(e.get("event"), e["id"]) for e in events[1:]] == [(None, "1:2"), ("chat", "1:3")]
    assert json.loads(events[2]["data"])["text"] == "line 3"
    resp = client.get(f"/api/games/{gid}/stream?after=1&chat_after=1")
    events = _read(resp, 3)
    resp.close()
    assert [e["id"] for e in events[1:]] == ["1:2", "1:3"]
    # an older client's numeric Last-Event-ID is still a version (the lines from chat_after)
    resp = client.get(f"/api/games/{gid}/stream?chat_after=3", headers={"Last-Event-ID": "0"})
    events = _read(resp, 2)
    resp.close()
    assert events[1]["id"] == "1:3" and json.loads(events[1]["data"])["version"] == 1
    for bad in ("1:", ":1", "1:x", "1:2:3", "1;2"):
        resp = client.get(f"/api/games/{gid}/stream", headers={"Last-Event-ID": bad})
        assert resp.status_code == 400 and resp.get_json()["error"]["field"] == "Last-Event-ID"
    for query, header in (("chat_after=4", None), ("", "1:4")):
        headers = {"Last-Event-ID": header} if header else {}
        resp = client.get(f"/api/games/{gid}/stream?{query}", headers=headers)
        assert resp.status_code == 409 and resp.get_json()["error"]["reason"] == "after_past_chat"


def test_a_line_said_while_a_stream_waits_arrives_and_a_finished_game_ends_after_its_lines(
    client, clock
):
    gid, tokens = _game(client)
    with _listening(client, gid, 4) as got:
        _say(client, gid, tokens[0], "first")
        time.sleep(0.3)  # (within one look the entries go first: the two orders are apart)
        _move(client, gid, tokens)
        time.sleep(0.3)
        _say(client, gid, tokens[1], "second")
    assert got, "the stream heard nothing"
    kinds = [(e.get("event"), e["id"]) for e in got[0][1:]]
    assert kinds == [("chat", "0:1"), (None, "1:1"), ("chat", "1:2")]
    body = {"game": "dao", "seats": [{"type": "bot"}, {"type": "bot"}], "seed": 5}
    over = client.post("/api/games", json=body).get_json()["id"]
    bots_move(client)
    text = client.get(f"/api/games/{over}/stream?chat_after=0").get_data(as_text=True)
    assert _parse(text)[-1]["event"] == "end"  # a finished game without lines ends as before


def test_the_followers_of_a_game_in_one_process_share_their_reads(client, monkeypatch):
    """Five streams of one table woken by one line: the game's row and the line are read once
    for all of them (``web.streams._Shared``), and each stream sends the line."""
    gid, tokens = _game(client)
    store = client.application.extensions["game_sessions"].store
    calls: Counter[str] = Counter()
    for name in ("get", "chat"):
        real = getattr(store, name)

        def counted(*args, _real=real, _name=name, **kw):
            calls[_name] += 1
            return _real(*args, **kw)

        monkeypatch.setattr(store, name, counted)
    streams = [client.get(f"/api/games/{gid}/stream") for _ in range(5)]
    got: list[list[dict]] = []
    readers = [
        threading.Thread(target=lambda r=r: got.append(_read(r, 2)), daemon=True) for r in streams
    ]
    for reader in readers:
        reader.start()
    time.sleep(0.3)  # every stream has looked once and sleeps on the watcher
    calls.clear()
    _say(client, gid, tokens[0], "one line, five pages")
    for reader in readers:
        reader.join(10)
    for resp in streams:
        resp.close()
    assert len(got) == 5
    assert all(json.loads(events[1]["data"])["text"] == "one line, five pages" for events in got)
    assert calls["chat"] == 1  # the line, read once for the five
    assert calls["get"] <= 2  # the POST's own read of the game, and one for the five


# --- over HTTP ------------------------------------------------------------------------------


def _post_move(url: str, gid: str, tokens: list[str]) -> int:
    view = requests.get(f"{url}/api/games/{gid}", timeout=10).json()
    auth = {"Authorization": f"Bearer {tokens[view['to_act'][0]]}"}
    me = requests.get(f"{url}/api/games/{gid}", headers=auth, timeout=10).json()
    body = {"version": me["version"], "action": me["legal_actions"][0]}
    resp = requests.post(f"{url}/api/games/{gid}/actions", json=body, headers=auth, timeout=10)
    assert resp.status_code == 200, resp.text
    return resp.json()["version"]


def _new_game(url: str, seed: int) -> tuple[str, list[str]]:
    body = {"game": "dao", "seats": HUMANS, "seed": seed}
    data = requests.post(f"{url}/api/games", json=body, timeout=10).json()
    return data["id"], [s["token"] for s in data["seats"]]


@pytest.mark.slow
def test_three_hundred_streams_on_one_server_all_hear_a_move(tmp_path):
    with gunicorn_in(tmp_path) as server:
        gid, tokens = _new_game(server.url, 7)

        async def run() -> list[Follower]:
            followers = [Follower("127.0.0.1", server.port, gid) for _ in range(300)]
            tasks = [asyncio.create_task(f.run()) for f in followers]
            await asyncio.wait_for(asyncio.gather(*(f.connected.wait() for f in followers)), 30)
            version = await asyncio.to_thread(_post_move, server.url, gid, tokens)
            await asyncio.gather(*(f.until(version, 20) for f in followers))
            for f in followers:
                f.close()
            await asyncio.gather(*tasks)
            return followers

        followers = asyncio.run(run())
        assert all(f.status == 200 for f in followers)
        assert sum(1 in f.arrived for f in followers) == 300


@pytest.mark.slow
def test_a_stream_resumed_with_last_event_id_misses_nothing(tmp_path):
    with gunicorn_in(tmp_path) as server:
        gid, tokens = _new_game(server.url, 8)

        async def run() -> list[int]:
            first = Follower("127.0.0.1", server.port, gid)
            task = asyncio.create_task(first.run())
            await asyncio.wait_for(first.connected.wait(), 10)
            for _ in range(3):
                await asyncio.to_thread(_post_move, server.url, gid, tokens)
            assert await first.until(3, 10)
            first.close()  # the connection drops ...
            await task
            for _ in range(3):  # ... while the game goes on
                await asyncio.to_thread(_post_move, server.url, gid, tokens)
            last = str(max(first.arrived))
            again = Follower("127.0.0.1", server.port, gid, headers={"Last-Event-ID": last})
            task = asyncio.create_task(again.run())
            await asyncio.wait_for(again.connected.wait(), 10)
            await asyncio.to_thread(_post_move, server.url, gid, tokens)
            assert await again.until(7, 10)
            again.close()
            await task
            return sorted(first.arrived) + sorted(again.arrived)

        assert asyncio.run(run()) == [1, 2, 3, 4, 5, 6, 7]  # each once, none missed


def test_a_bot_that_fails_while_a_stream_waits_is_told_by_a_bot_event(client, monkeypatch):
    import games.base
    from tests.testgame import BlindAuction

    def crashing_bot(view, legal, rng):
        raise ZeroDivisionError("bot bug")

    kind = BlindAuction()
    kind.bots = {**kind.bots, "crash": crashing_bot}
    monkeypatch.setitem(games.base._REGISTRY, "blind_auction", kind)
    seats = [{"type": "human"}, {"type": "bot", "level": "crash"}]
    gid = client.post("/api/games", json={"game": "blind_auction", "seats": seats}).get_json()["id"]
    assert client.get(f"/api/games/{gid}").get_json()["bot"] == "thinking"
    with _listening(client, gid, 2) as got:  # (it has looked once: the bot is thinking)
        sessions = client.application.extensions["game_sessions"]
        assert sessions.play_bots(gid) == 0  # the runner's way: logged and marked
    assert got and got[0][1]["event"] == "bot"
    assert json.loads(got[0][1]["data"]) == {"version": 0, "bot": "failed"}
    assert client.get(f"/api/games/{gid}").get_json()["bot"] == "failed"
