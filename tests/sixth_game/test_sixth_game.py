"""The proof that a game needs no shared edit: Nim (``tests/sixth_game/``: its engine, its
descriptor, its words and its styles, all in this folder) is registered by the test suite
(``tests.sixth_game.game``) and gets what every game gets: the generic engine tests, the hidden
information check, its pages (new game, lobby, game, join, review, home page and menu), its
analysis, and its words in both languages, the shared page words standing in for those it does
not say differently. No file outside this folder names it."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest

import games.base
import i18n
from games.analysis import analyse
from games.base import get_kind, kinds, play_bots
from games.review import GameLog
from i18n import defined, has, lookup, translate
from tests import kinds as test_kinds
from tests import test_engine_shape as shape
from tests import test_failures_show as failures
from tests import test_game_site as game_site_tests
from tests import test_hidden_information as hidden
from tests.bots import bots_move
from tests.sixth_game.engine import NAME, Nim
from tests.sixth_game.game import WORDS, nim_game, registered  # noqa: F401 (the fixture)
from tests.sixth_game.site import ANALYST, SITE
from web.game_site import listed_sites, site_of, sites

HERE = Path(__file__).resolve().parent
LANGS = ("en", "zh")


# --- the engine: the generic tests every registered kind runs ------------------------------


@pytest.mark.parametrize(
    "check",
    [
        shape.test_a_boolean_is_never_taken_for_an_integer,
        shape.test_shapes_are_refused_with_the_shared_reasons_before_the_engine,
        shape.test_every_legal_action_matches_the_declared_json_schema,
        shape.test_the_base_counts_every_applied_action_and_no_refused_one,
        shape.test_a_snapshot_of_another_format_is_refused,
        failures.test_an_engine_refuses_odd_actions_with_a_domain_error_and_changes_nothing,
        failures.test_every_declared_option_value_starts_a_game_or_is_refused_in_words,
    ],
    ids=lambda f: f.__name__,
)
def test_the_generic_engine_tests_pass_on_it(nim_game, check):  # noqa: F811 (the fixture)
    check(nim_game)


def test_the_rules_and_the_bots(nim_game):  # noqa: F811 (the fixture)
    state = nim_game.new_state(3, 2, {"pile": 6})
    assert nim_game.to_act(state) == [0] and len(nim_game.legal_actions(state, 0)) == 3
    assert nim_game.legal_actions(state, 1) == []
    nim_game.apply(state, 0, {"type": "take", "count": 2})  # leaves 4: the winning take
    with pytest.raises(Exception, match="not_your_turn|turn"):
        nim_game.apply(state, 0, {"type": "take", "count": 1})
    state.pile = 2
    assert [a["count"] for a in nim_game.legal_actions(state, 1)] == [1, 2]
    nim_game.apply(state, 1, {"type": "take", "count": 2})
    assert nim_game.is_over(state) and nim_game.winners(state) == [1]
    wish = state.wishes[1]
    assert nim_game.scores(state) == [0.0, 2.0 if wish == 2 else 1.0]
    # the normal bot wins from a pile not a multiple of 4, against any play
    for seed in range(10):
        state = nim_game.new_state(seed, 2, {"pile": 13})
        play_bots(nim_game, state, ["normal", "easy"], random.Random(seed))
        assert nim_game.winners(state) == [0], seed


def test_no_seat_sees_another_seats_wish(nim_game, client, app):  # noqa: F811
    hidden.test_no_seat_sees_another_seats_private_data(client, app, NAME)


# --- the pages --------------------------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGS)
def test_its_new_game_page_is_its_descriptors_in_its_words(nim_game, client, lang):  # noqa: F811
    game_site_tests.test_a_new_game_page_is_its_descriptors(client, NAME, lang)
    html = client.get(f"/{NAME}/new?lang={lang}").get_data(as_text=True)
    assert f"<h1>{translate(lang, 'nim.new_title')}</h1>" in html
    assert 'href="/static/nim/nim.css"' in html
    assert client.get("/static/nim/nim.css").status_code == 200  # from this folder
    # the shared words stand in for Nim's: the seat rows, the shared controls
    words = json.loads(re.search(r'id="i18n-data">(.*?)</script>', html).group(1))["strings"]
    assert words["page.seat_type"] == lookup(lang, "nim.seat_type")
    assert not any(k.startswith("nim.seat_") for k in words)  # Nim words none of them


def test_its_lobby_menu_home_game_join_and_review_pages(nim_game, client):  # noqa: F811
    assert SITE in listed_sites() and site_of(NAME) is SITE
    home = client.get("/?lang=en").get_data(as_text=True)
    assert 'href="/nim"' in home and translate("en", "nim.home_text") in home
    lobby = client.get(f"/{NAME}?lang=zh").get_data(as_text=True)
    assert "尼姆" in lobby and f'href="/{NAME}/new"' in lobby
    seats = [{"type": "human", "name": "Ann"}, {"type": "human", "open": True}]
    made = client.post("/api/games", json={"game": NAME, "seats": seats, "seed": 4}).get_json()
    gid = made["id"]
    page = client.get(f"/{NAME}/games/{gid}?lang=en").get_data(as_text=True)
    assert f'data-kind="{NAME}"' in page and "play/play.js" in page  # the generic game page
    join = client.get(f"/{NAME}/games/{gid}/join/1?lang=zh").get_data(as_text=True)
    assert lookup("zh", "play.join_title") in join
    review = client.get(f"/{NAME}/games/{gid}/review?lang=zh").get_data(as_text=True)
    assert 'href="/static/nim/nim.css"' in review and "review/generic.js" in review


def test_a_finished_game_is_reviewed_with_its_analysis(nim_game, client, app):  # noqa: F811
    seats = [{"type": "human", "name": "Ann"}, {"type": "bot", "level": "normal"}]
    made = client.post("/api/games", json={"game": NAME, "seats": seats, "seed": 2}).get_json()
    gid, token = made["id"], made["seats"][0]["token"]
    auth = {"Authorization": f"Bearer {token}"}
    for _ in range(40):
        bots_move(app)
        snap = client.get(f"/api/games/{gid}", headers=auth).get_json()
        if snap["over"]:
            break
        action = snap["legal_actions"][-1] if snap["legal_actions"] else None
        if action is not None:
            body = {"version": snap["version"], "action": action}
            assert (
                client.post(f"/api/games/{gid}/actions", json=body, headers=auth).status_code == 200
            )
    assert snap["over"]
    step = client.get(f"/api/games/{gid}/positions/1?seat=0").get_json()
    assert step["view"]["my_wish"]["wish"] in (1, 2, 3)
    kind = get_kind(NAME)
    state = kind.new_state(5, 2, {"pile": 9})
    actions: list = []
    record = lambda seat, action, _events: actions.append((seat, action))  # noqa: E731
    play_bots(kind, state, ["easy", "normal"], random.Random(5), on_action=record)
    log = GameLog(NAME, 5, 2, {"pile": 9}, tuple(actions))
    result = analyse(log, ANALYST)
    assert result["summary"] and len(result["chart"]["values"]) == 2
    assert {d["mark"] for d in result["decisions"]} <= {"best", "good", "inaccuracy", "mistake"}


# --- its words ----------------------------------------------------------------------------


def test_its_words_are_in_both_languages_and_copy_no_shared_word(nim_game):  # noqa: F811
    en = json.loads((WORDS / "en/nim.json").read_text("utf-8"))
    zh = json.loads((WORDS / "zh/nim.json").read_text("utf-8"))
    assert set(en) == set(zh) and set(en) <= set(defined("en"))
    for key, text in zh.items():
        assert not re.findall(r"[A-Za-z]{2,}", re.sub(r"\{\w+\}", "", text)), key
    assert not [k for k in en if (s := i18n.shared_key(k)) and lookup("en", s) == en[k]]
    keys = game_site_tests._new_page_keys(SITE)  # what the shared new-game page asks for
    for lang in LANGS:
        assert all(has(lang, k) for k in keys), [k for k in keys if not has(lang, k)]
    assert translate("zh", "review.engine_nim") == zh["review.engine_nim"]  # its review words


def test_no_shared_file_names_it():
    """Nim lives in this folder only: no other file of the project names it (the guard test's
    rule, catalogue keys included)."""
    found = []
    for path in game_site_tests._project_files():
        if path.startswith("tests/sixth_game/"):
            continue
        try:
            text = (game_site_tests.ROOT / path).read_text("utf-8")
        except UnicodeDecodeError:
            continue
        if game_site_tests.names(NAME, text):
            found.append(path)
    assert not found


def test_registered_inside_the_block_only():
    assert NAME not in kinds() and not has("en", "nim.new_title")
    with registered():
        assert NAME in kinds() and NAME in {s.kind for s in sites()}
        assert has("zh", "nim.new_title") and site_of(NAME) is SITE
    assert NAME not in kinds() and not has("en", "nim.new_title")
    assert NAME not in {s.kind for s in sites()}


def test_a_test_over_every_game_fails_for_a_built_in_game_without_its_entry(nim_game, monkeypatch):  # noqa: F811
    """Were Nim built in (its module in ``BUILTIN_GAMES``), every built-in kind's test would
    run over it, and a table with an entry per kind (``tests.kinds.covering``) would refuse to
    load without Nim's."""
    monkeypatch.setattr(games.base, "BUILTIN_GAMES", (*games.base.BUILTIN_GAMES, Nim.__module__))
    monkeypatch.setattr(test_kinds, "BUILTIN_GAMES", games.base.BUILTIN_GAMES)
    built_in = test_kinds.builtin()
    assert built_in[-1] == NAME
    monkeypatch.setattr(test_kinds, "BUILTIN", built_in)
    with pytest.raises(AssertionError, match="missing \\['nim'\\]"):
        test_kinds.covering({k: 1 for k in built_in if k != NAME})
    assert test_kinds.covering({k: 1 for k in built_in})
