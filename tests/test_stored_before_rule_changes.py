"""Games stored before issue 22 changed the rules, read and acted on through the HTTP API.

The rows are those the service of before wrote (``data/stored_before_issue_22.json``, made by
``data/make_stored_before_issue_22.py`` on that code): written as they are into the real SQLite
file of today's service. A game whose log no longer replays as it was played (an Isla Dorada
opening pass or a bid that names its cards, refused today; Dragon's Gold's market after the 7th
dragon, Tobago's table that made no progress for two whole rounds, which today's rules take
differently) is refused with 409 ``rules_changed`` wherever it is read or acted on, with a
sentence in both languages, and keeps no clock; a game whose log replays as it was played
plays on (``web.service.replay``). Through Flask's test client, through gunicorn as ``make run``
serves it (its table process meets the games whose clocks were due), and on the pages.
"""

from __future__ import annotations

import json
import sqlite3
import time
from pathlib import Path
from typing import Any

import pytest
import requests

from app import create_app
from games.base import get_kind
from i18n import translate
from tests.browser_support import new_page
from tests.servers import Gunicorn, serve_in_thread
from web.storage import open_store

expect = pytest.importorskip("playwright.sync_api").expect


STORED: dict[str, Any] = json.loads(
    (Path(__file__).with_name("data") / "stored_before_issue_22.json").read_text("utf-8")
)
#: Why an entry departs: today's refusal of an opening pass, or other events than recorded.
OPENING = "isla_open_the_auction"
DIFFER = "events_differ"


def store_rows(db: Path, key: str) -> dict[str, Any]:
    """Write the stored game ``key``'s rows into the SQLite file ``db`` as they were written."""
    game = STORED[key]
    with sqlite3.connect(db) as conn:
        for table in ("games", "actions", "snapshots"):
            for row in game[table]:
                columns, marks = ", ".join(row), ", ".join("?" * len(row))
                conn.execute(
                    f"INSERT INTO {table} ({columns}) VALUES ({marks})", list(row.values())
                )
    return game


def row_of(db: Path, game_id: str) -> dict[str, Any]:
    with sqlite3.connect(db) as conn:
        conn.row_factory = sqlite3.Row
        return dict(conn.execute("SELECT * FROM games WHERE id = ?", (game_id,)).fetchone())


def departs_at(game: dict[str, Any], event: str) -> int:
    """The log entry of ``game`` whose recorded events hold an event of type ``event``."""
    for a in game["actions"]:
        if any(e["type"] == event for e in json.loads(a["events"])):
            return a["version"]
    raise AssertionError(f"no {event} event")


def refused(resp, version: int, cause: str) -> dict[str, Any]:
    """``resp`` is the refusal of a game stored under earlier rules, departing at ``version``
    for ``cause`` (the engine's reason for refusing that entry, or ``events_differ``)."""
    assert resp.status_code == 409, resp.get_data(as_text=True)[:300]
    error = resp.get_json()["error"]
    assert error["code"] == "illegal" and error["reason"] == "rules_changed", error
    assert error["params"] == {"version": version, "cause": cause}, error
    assert "earlier rules" in error["message"]
    return error


@pytest.fixture
def db(app, tmp_path) -> Path:
    """The app's real SQLite file (``conftest.app``), its schema made by the app's store."""
    return tmp_path / "test.sqlite3"


def bearer(game: dict[str, Any], seat: int) -> dict[str, str]:
    return {"Authorization": f"Bearer {game['tokens'][str(seat)]}"}


def test_an_isla_dorada_opening_pass_is_refused_when_read_or_acted_on(client, db):
    game = store_rows(db, "isla_leader_pass")
    game_id, version = game["games"][0]["id"], game["games"][0]["version"]
    refused(client.get(f"/api/games/{game_id}"), game["departs"], OPENING)
    refused(client.get(f"/api/games/{game_id}", headers=bearer(game, 0)), game["departs"], OPENING)
    for seat in range(3):  # whoever acts, whatever the move: nothing is applied
        body = {"version": version, "action": {"type": "pass"}}
        resp = client.post(f"/api/games/{game_id}/actions", json=body, headers=bearer(game, seat))
        refused(resp, game["departs"], OPENING)
    assert row_of(db, game_id)["version"] == version  # the log as it was


def test_isla_dorada_bids_that_name_their_cards_are_refused_and_the_bot_is_not_tried_again(
    app, client, db
):
    """The first bid of the log names its cards; the stored snapshot (at 50) is of the old
    format, so it does not hide the log; the bot seat that was due is due no more."""
    game = store_rows(db, "isla_bids_with_cards")
    game_id = game["games"][0]["id"]
    first_bid = next(
        a["version"] for a in game["actions"] if json.loads(a["action"])["type"] == "bid"
    )
    assert "cards" in json.loads(game["actions"][first_bid - 1]["action"])
    assert game["snapshots"] and row_of(db, game_id)["bot_due"] is not None
    sessions = app.extensions["game_sessions"]
    assert sessions.play_due_bots() == 0  # the table runner meets it first: no bot failure
    assert row_of(db, game_id)["bot_due"] is None
    refused(client.get(f"/api/games/{game_id}"), first_bid, "unknown_field")
    assert sessions.store.bots_due(sessions.clock()) == []


def test_a_refusal_is_kept_so_asking_again_costs_no_replay(client, db, monkeypatch):
    game = store_rows(db, "isla_bids_with_cards")
    game_id = game["games"][0]["id"]
    first = client.get(f"/api/games/{game_id}").get_json()

    def replayed(*args: Any) -> None:
        raise AssertionError("replayed again")

    monkeypatch.setattr(get_kind("isla_dorada"), "apply", replayed)
    for _ in range(3):
        again = client.get(f"/api/games/{game_id}")
        assert again.status_code == 409 and again.get_json() == first


def test_a_dragons_gold_market_of_the_old_timing_is_refused_and_its_clock_stopped(app, client, db):
    """Every action of this log is legal today; the entry that opened the market (the 7th
    dragon) gives other events under today's rules, so the game would silently be another."""
    game = store_rows(db, "dg_old_market")
    game_id = game["games"][0]["id"]
    opened = departs_at(game, "market_opened")
    assert opened == game["games"][0]["version"] and row_of(db, game_id)["deadline"] is not None
    sessions = app.extensions["game_sessions"]
    assert sessions.clock() > row_of(db, game_id)["deadline"]  # the market's time is up
    assert sessions.settle_due() == 0
    assert row_of(db, game_id)["deadline"] is None and sessions.store.due(sessions.clock()) == []
    refused(client.get(f"/api/games/{game_id}"), opened, DIFFER)
    body = {"version": opened, "action": {"type": "done"}}
    resp = client.post(f"/api/games/{game_id}/actions", json=body, headers=bearer(game, 1))
    refused(resp, opened, DIFFER)
    assert row_of(db, game_id)["version"] == opened


def test_a_finished_dragons_gold_game_of_the_old_rules_is_neither_shown_nor_reviewed(client, db):
    game = store_rows(db, "dg_finished")
    game_id = game["games"][0]["id"]
    opened = departs_at(game, "market_opened")
    refused(client.get(f"/api/games/{game_id}"), opened, DIFFER)
    refused(client.get(f"/api/games/{game_id}/positions/{opened}"), opened, DIFFER)
    refused(client.get(f"/api/games/{game_id}/analysis"), opened, DIFFER)
    page = client.get(f"/dragons_gold/games/{game_id}/review/chart.svg")
    assert page.status_code == 404  # no chart for it
    # the record stays what it is: the log as it was played, the table's entries and all
    record = client.get(f"/api/games/{game_id}/record").get_json()
    assert len(record["actions"]) == len(game["actions"])


def test_a_tobago_game_that_stalled_is_refused(client, db):
    """Random bots of before played on through two whole rounds without progress, which end
    the game today (rules §8): its log departs where today's game ends."""
    game = store_rows(db, "tobago_finished")
    game_id = game["games"][0]["id"]
    refused(client.get(f"/api/games/{game_id}"), 11, DIFFER)


def test_games_whose_logs_replay_as_they_were_played_are_served_and_play_on(client, db):
    """Dragon's Gold before its market (no rule that changed has come into play) and DAO (whose
    rules did not change) are the games they were."""
    dao = store_rows(db, "dao_finished")
    snap = client.get(f"/api/games/{dao['games'][0]['id']}").get_json()
    assert snap["over"] and snap["version"] == dao["games"][0]["version"]
    game = store_rows(db, "dg_before_market")
    game_id, version = game["games"][0]["id"], game["games"][0]["version"]
    snap = client.get(f"/api/games/{game_id}").get_json()
    assert snap["version"] == version and not snap["over"]
    seat = snap["to_act"][0]
    mine = client.get(f"/api/games/{game_id}", headers=bearer(game, seat)).get_json()
    body = {"version": version, "action": mine["legal_actions"][0]}
    resp = client.post(f"/api/games/{game_id}/actions", json=body, headers=bearer(game, seat))
    assert resp.status_code == 200 and resp.get_json()["version"] == version + 1


def old_database(path: Path, *keys: str) -> Path:
    """A SQLite file with today's schema (made by today's store) holding the stored games."""
    open_store(str(path))
    for key in keys:
        store_rows(path, key)
    return path


@pytest.mark.slow
def test_over_real_http_the_table_process_stops_their_clocks_and_requests_are_refused(tmp_path):
    """gunicorn as ``make run`` serves it, with its table process: the Dragon's Gold market
    whose time is up and the Isla Dorada bot that was due are met once by the table (their
    clocks dropped, not tried at every tick), and a read or a move is a 409 in words."""
    db = old_database(tmp_path / "games.sqlite3", "dg_old_market", "isla_bids_with_cards")
    market, isla = STORED["dg_old_market"], STORED["isla_bids_with_cards"]
    with Gunicorn(db, log=tmp_path / "gunicorn.log", start_timeout=60) as server:
        until = time.monotonic() + 30
        clocks = lambda: [  # noqa: E731
            (r["deadline"], r["bot_due"])
            for r in (row_of(db, g["games"][0]["id"]) for g in (market, isla))
        ]
        while clocks() != [(None, None)] * 2 and time.monotonic() < until:
            time.sleep(0.1)
        assert clocks() == [(None, None)] * 2, server.log_tail()
        for game in (market, isla):
            game_id, version = game["games"][0]["id"], game["games"][0]["version"]
            resp = requests.get(f"{server.url}/api/games/{game_id}", timeout=10)
            assert resp.status_code == 409 and resp.headers["Content-Type"] == "application/json"
            assert resp.json()["error"]["reason"] == "rules_changed"
            body = {"version": version, "action": {"type": "done"}}
            resp = requests.post(
                f"{server.url}/api/games/{game_id}/actions",
                json=body,
                headers=bearer(game, 0),
                timeout=10,
            )
            assert resp.status_code == 409 and resp.json()["error"]["reason"] == "rules_changed"
            assert row_of(db, game_id)["version"] == version
        assert requests.get(f"{server.url}/healthz", timeout=10).ok
    assert "Traceback" not in (tmp_path / "gunicorn.log").read_text()


@pytest.fixture(scope="module")
def old_server(tmp_path_factory):
    """The app on loopback over a database holding stored games of the old rules."""
    db = old_database(
        tmp_path_factory.mktemp("old") / "games.sqlite3", "isla_leader_pass", "dg_finished"
    )
    app = create_app({"TESTING": True, "DATABASE": str(db)})
    with serve_in_thread(app) as url:
        yield url


@pytest.mark.browser
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_their_pages_say_so_in_the_readers_language(browser, old_server, lang):
    """The Isla Dorada game page and the Dragon's Gold review page word the refusal in the
    page's language (``error.rules_changed``), and draw no game behind it."""
    sentence = translate(lang, "error.rules_changed")
    assert sentence != "error.rules_changed"
    page = new_page(browser)
    isla = STORED["isla_leader_pass"]["games"][0]["id"]
    page.goto(f"{old_server}/isla_dorada/games/{isla}?lang={lang}")
    expect(page.locator("#status")).to_have_text(sentence)
    assert page.evaluate("() => window.islaGame.snap") is None
    dg = STORED["dg_finished"]["games"][0]["id"]
    page.goto(f"{old_server}/dragons_gold/games/{dg}/review?lang={lang}")
    expect(page.locator("#error")).to_have_text(sentence)
    expect(page.locator(".review-grid")).to_be_hidden()
    assert not page.js_errors
