"""The review API and pages (``web.review_api``, ``web.review_pages``) over a real store.

Positions equal the engine's view of a replay to that step for the seat asked; the full view is
everything any seat knew; another seat's action is not shown; running games are refused with
409; analyses run in the background, report progress, are stored once and served from the store
by a fresh app (no recomputation); imported records review the same.
"""

from __future__ import annotations

import json
import time

import pytest

from app import create_app
from games.analysis import analyse
from games.base import get_kind, replay
from games.review import GameLog
from games.tobago.analysis import ANALYST as TOBAGO_ANALYST
from tests.bots import bots_move
from tests.kinds import BUILTIN
from web.game_site import site_of
from web.review import reviews


def finished_game(client, kind: str, seats: list[dict], seed: int = 3) -> dict:
    resp = client.post("/api/games", json={"game": kind, "seats": seats, "seed": seed})
    assert resp.status_code == 201, resp.get_json()
    game = resp.get_json()
    bots_move(client)
    snap = client.get(f"/api/games/{game['id']}").get_json()
    assert snap["over"]
    return snap


def record_log(client, game_id: str) -> GameLog:
    return GameLog.from_record(client.get(f"/api/games/{game_id}/record").get_json())


def wait_done(client, game_id: str, timeout: float = 60.0) -> dict:
    until = time.monotonic() + timeout
    while time.monotonic() < until:
        answer = client.get(f"/api/games/{game_id}/analysis").get_json()
        if answer["status"] != "running":
            return answer
        time.sleep(0.05)
    raise AssertionError("the analysis did not finish")


BOTS3 = [{"type": "bot", "level": "strategic"}, {"type": "bot", "level": "random"}] * 1 + [
    {"type": "bot", "level": "random"}
]


def test_a_position_is_the_seats_view_of_a_replay_to_that_step(client):
    snap = finished_game(client, "tobago", BOTS3)
    log = record_log(client, snap["id"])
    kind = get_kind("tobago")
    for step in (0, 1, 17, log.steps // 2, log.steps):
        state = replay(kind, log.seed, log.seats, log.options, log.actions[:step])
        for seat in range(log.seats):
            answer = client.get(f"/api/games/{snap['id']}/positions/{step}?seat={seat}").get_json()
            assert answer["view"] == json.loads(json.dumps(kind.view(state, seat)))
            assert (answer["step"], answer["steps"], answer["seat"]) == (step, log.steps, seat)
            if step and log.actions[step - 1][0] != seat:
                assert answer["move"]["action"] is None
            elif step:
                assert answer["move"]["action"] == log.actions[step - 1][1]
            assert answer["helper_seat"] == seat and answer["expected"][seat] is not None
            assert [e for i, e in enumerate(answer["expected"]) if i != seat] == [None, None]
        full = client.get(f"/api/games/{snap['id']}/positions/{step}").get_json()
        assert full["seat"] is None
        for seat in range(log.seats):
            assert full["view"]["players"][seat] == json.loads(
                json.dumps(kind.view(state, seat)["players"][seat])
            )
        if step:
            assert full["move"]["action"] == log.actions[step - 1][1]


def test_another_seats_hand_is_hidden_in_a_seats_position(client):
    snap = finished_game(client, "tobago", BOTS3)
    mid = snap["version"] // 2
    for seat in range(3):
        view = client.get(f"/api/games/{snap['id']}/positions/{mid}?seat={seat}").get_json()["view"]
        assert [("hand" in p) for p in view["players"]] == [i == seat for i in range(3)]
    full = client.get(f"/api/games/{snap['id']}/positions/{mid}").get_json()["view"]
    assert all("hand" in p for p in full["players"])


def test_the_tobago_helper_speaks_the_asked_language(client):
    snap = finished_game(client, "tobago", BOTS3)
    for step in range(10, snap["version"]):
        en = client.get(f"/api/games/{snap['id']}/positions/{step}?seat=0&lang=en").get_json()
        if en["helper"] and en["helper"]["hints"]:
            break
    else:
        pytest.fail("no position with hints")
    zh = client.get(f"/api/games/{snap['id']}/positions/{step}?seat=0&lang=zh").get_json()
    assert en["helper"]["maps"] == zh["helper"]["maps"]
    h_en, h_zh = en["helper"]["hints"][0], zh["helper"]["hints"][0]
    assert h_en["score"] == h_zh["score"] and h_en["sentence"] != h_zh["sentence"]
    assert all("\u4e00" <= ch <= "\u9fff" for ch in h_zh["sentence"][:1] + h_zh["reason"][:1])


def test_dao_positions_carry_the_odds_helper_of_the_seat_to_act(client):
    snap = finished_game(client, "dao", [{"type": "bot", "level": "ev"}] * 3)
    answer = client.get(f"/api/games/{snap['id']}/positions/5").get_json()
    assert answer["helper_seat"] == answer["to_act"][0]
    assert 0 <= answer["helper"]["bust_probability"] <= 1
    assert answer["legal_actions"] == [{"type": "take"}, {"type": "turn"}]


def test_running_games_unknown_games_and_bad_steps_are_refused(client):
    running = client.post(
        "/api/games", json={"game": "dao", "seats": [{"type": "human"}] * 2, "seed": 1}
    ).get_json()
    for url in (f"/api/games/{running['id']}/positions/0", f"/api/games/{running['id']}/analysis"):
        resp = client.get(url)
        assert resp.status_code == 409 and resp.get_json()["error"]["reason"] == "game_running"
    assert client.get("/api/games/nope/positions/0").status_code == 404
    assert client.get("/api/games/nope/analysis").status_code == 404
    snap = finished_game(client, "dao", [{"type": "bot"}] * 2)
    for bad in (f"{snap['version'] + 1}", "-1", "x", "1.5"):
        resp = client.get(f"/api/games/{snap['id']}/positions/{bad}")
        assert resp.status_code in (400, 404), bad
    resp = client.get(f"/api/games/{snap['id']}/positions/{snap['version'] + 1}")
    assert resp.status_code == 404 and resp.get_json()["error"]["reason"] == "no_such_step"
    resp = client.get(f"/api/games/{snap['id']}/positions/0?seat=2")
    assert resp.status_code == 404 and resp.get_json()["error"]["reason"] == "no_such_seat"
    for bad in ("x", "-1"):
        resp = client.get(f"/api/games/{snap['id']}/positions/0?seat={bad}")
        assert resp.status_code == 400 and resp.get_json()["error"]["field"] == "seat"


def test_an_analysis_runs_in_the_background_is_stored_and_served_again_without_work(
    tmp_path, clock, monkeypatch
):
    db = str(tmp_path / "review.sqlite3")
    app = create_app({"TESTING": True, "DATABASE": db, "CLOCK": clock})
    client = app.test_client()
    snap = finished_game(
        client,
        "tobago",
        [{"type": "bot", "level": "strategic"}, {"type": "bot", "level": "random"}],
    )
    first = client.get(f"/api/games/{snap['id']}/analysis").get_json()
    assert first["status"] in ("running", "done")
    if first["status"] == "running":
        assert first["progress"]["total"] == snap["version"]
    done = wait_done(client, snap["id"])
    assert done["status"] == "done" and done["progress"] == {
        "done": snap["version"],
        "total": snap["version"],
    }
    expected = analyse(record_log(client, snap["id"]), TOBAGO_ANALYST)
    assert done["analysis"] == json.loads(json.dumps(expected))
    # a fresh app on the same database (another worker, a restart) serves the stored result
    import web.review as review_module

    def refuse(*a, **k):
        raise AssertionError("recomputed")

    monkeypatch.setattr(review_module, "analyse", refuse)
    again = create_app({"TESTING": True, "DATABASE": db, "CLOCK": clock}).test_client()
    stored = again.get(f"/api/games/{snap['id']}/analysis").get_json()
    assert stored["status"] == "done" and stored["analysis"] == done["analysis"]
    chart = again.get(f"/tobago/games/{snap['id']}/review/chart.svg?lang=zh")
    assert chart.status_code == 200 and chart.mimetype == "image/svg+xml"
    assert "期望金幣" in chart.get_data(as_text=True)


def test_another_workers_running_analysis_is_reported_and_a_stale_one_taken_over(tmp_path, clock):
    db = str(tmp_path / "review.sqlite3")
    app = create_app({"TESTING": True, "DATABASE": db, "CLOCK": clock, "REVIEW_BACKGROUND": False})
    client = app.test_client()
    snap = finished_game(client, "dao", [{"type": "bot"}] * 2)
    from games.analysis import ANALYSIS_VERSION
    from web.storage import AnalysisRecord

    with app.app_context():
        store = reviews().sessions.store
    store.save_analysis(
        AnalysisRecord(snap["id"], ANALYSIS_VERSION, "running", 7, snap["version"], updated=clock())
    )
    answer = client.get(f"/api/games/{snap['id']}/analysis").get_json()
    assert answer["status"] == "running" and answer["progress"] == {
        "done": 7,
        "total": snap["version"],
    }
    clock.advance(120)  # that worker stopped moving: this one takes the job (inline here)
    answer = client.get(f"/api/games/{snap['id']}/analysis").get_json()
    assert answer["status"] == "done" and answer["analysis"]["steps"] == snap["version"]


def test_an_imported_record_is_reviewed_like_the_original(client):
    snap = finished_game(client, "isla_dorada", [{"type": "bot", "level": "planner"}] * 3)
    record = client.get(f"/api/games/{snap['id']}/record").get_json()
    imported = client.post("/api/games/import", json=record).get_json()
    for step in (0, 9, snap["version"]):
        a = client.get(f"/api/games/{snap['id']}/positions/{step}?seat=1").get_json()
        b = client.get(f"/api/games/{imported['id']}/positions/{step}?seat=1").get_json()
        assert a["view"] == b["view"] and a["move"] == b["move"]
    page = client.get(f"/isla_dorada/games/{imported['id']}/review")
    assert page.status_code == 200 and b'id="review"' in page.data


def test_review_pages_exist_for_every_kind_and_name_their_renderer(client):
    for kind in BUILTIN:
        renderer = f"review/{kind}.js"  # every built-in game draws its own positions
        assert site_of(kind).review_script == renderer
        page = client.get(f"/{kind}/games/abc/review?lang=zh")
        html = page.get_data(as_text=True)
        assert page.status_code == 200 and renderer in html and 'data-kind="' + kind in html
        assert "<h1>覆盤：" in html and ">review." not in html
        assert client.get(f"/static/{renderer}").status_code == 200
    assert client.get("/nosuchgame/games/abc/review").status_code == 404
    assert client.get("/tobago/games/" + "x" * 80 + "/review").status_code == 404
    hub = client.get("/review")
    assert hub.status_code == 200 and b"import-form" in hub.data


def test_the_chart_is_404_until_the_analysis_is_done(tmp_path, clock):
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "c.sqlite3"), "CLOCK": clock})
    client = app.test_client()
    snap = finished_game(client, "dao", [{"type": "bot"}] * 2)
    assert client.get(f"/dao/games/{snap['id']}/review/chart.svg").status_code == 404
    wait_done(client, snap["id"])
    assert client.get(f"/dao/games/{snap['id']}/review/chart.svg").status_code == 200
    assert client.get(f"/tobago/games/{snap['id']}/review/chart.svg").status_code == 404


def test_the_openapi_document_describes_both_routes(client):
    doc = client.get("/openapi.json").get_json()
    positions = doc["paths"]["/api/games/{game_id}/positions/{step}"]["get"]
    analysis = doc["paths"]["/api/games/{game_id}/analysis"]["get"]
    assert {"200", "400", "404", "409"} <= set(positions["responses"])
    assert {"200", "404", "409"} <= set(analysis["responses"])
    assert {p["name"] for p in positions["parameters"]} >= {"game_id", "step", "seat", "lang"}
