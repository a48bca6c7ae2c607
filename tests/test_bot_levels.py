"""The bot levels of every game: named alike (easy, normal, strong), the older names resolved to
the same bots, worded in both languages for the new-game pages and ``/api/games/kinds``; every
level plays legal moves from its seat's view alone, deterministically from its generator, and a
table of bots of any level ends."""

from __future__ import annotations

import json
import random
from dataclasses import replace

import pytest

from games.base import LEVELS, get_kind, next_bot_action, play_bots
from games.dao import strong as dao_strong
from games.dragons_gold import strong as dragons_gold_strong
from games.isla_dorada import strong as isla_dorada_strong
from games.search import thinking_from_environ
from games.tobago import search
from i18n import translate
from tests.kinds import BUILTIN, covering
from web.game_site import site_of

#: What each game offers (an entry per registered game: ``covering``).
OFFERED = covering(
    {
        "tobago": ["easy", "normal", "strong"],
        "dao": ["easy", "normal", "strong"],
        "isla_dorada": ["easy", "normal", "strong"],
        "dragons_gold": ["easy", "normal", "strong"],
    }
)
OLD_NAMES = covering(
    {
        "tobago": {"random": "easy", "strategic": "normal"},
        "dao": {"random": "easy", "greedy": "normal", "ev": "strong"},
        "isla_dorada": {"random": "easy", "planner": "normal"},
        "dragons_gold": {"random": "easy", "greedy": "normal"},
    }
)
#: Small think budgets for the strong bots that search: tests stay quick (the bench plays the
#: real ones).
SMALL = {"tobago": 8, "dragons_gold": 2, "dao": 4, "isla_dorada": 2}


@pytest.fixture(autouse=True)
def small_budget(monkeypatch):
    for module in (search, dragons_gold_strong, dao_strong, isla_dorada_strong):
        settings = module.SETTINGS
        monkeypatch.setattr(module, "SETTINGS", replace(settings, rollouts=SMALL[settings.kind]))
    monkeypatch.setattr(search, "HORIZON", 2)
    monkeypatch.setattr(search, "CANDIDATES", 3)
    monkeypatch.setattr(dragons_gold_strong, "CANDIDATES", 2)
    monkeypatch.setattr(dragons_gold_strong, "SAMPLES", 2)
    monkeypatch.setattr(isla_dorada_strong, "CANDIDATES", 2)


@pytest.mark.parametrize("name", BUILTIN)
def test_every_game_offers_its_levels_weakest_first_and_keeps_the_old_names(name):
    kind = get_kind(name)
    assert list(kind.levels) == OFFERED[name]
    assert [lv for lv in LEVELS if lv in kind.levels] == list(kind.levels)
    assert kind.aliases == OLD_NAMES[name]
    for old, new in kind.aliases.items():
        assert kind.bots[old] is kind.levels[new] and kind.level(old) == new
    assert next(iter(kind.bots)) == "easy"  # a bot seat's default, as "random" was


@pytest.mark.parametrize("name", BUILTIN)
def test_each_level_has_a_sentence_in_both_languages(name):
    meta = get_kind(name).metadata()
    assert meta["bots"] == OFFERED[name]
    assert [lv["name"] for lv in meta["levels"]] == OFFERED[name]
    for lv in meta["levels"]:
        for text in (lv["description"], lv["description_zh"]):
            assert text != f"games.{name}.levels.{lv['name']}" and text.endswith((".", "。"))
        assert lv["description"] != lv["description_zh"]
        assert lv["aliases"] == [o for o, n in OLD_NAMES[name].items() if n == lv["name"]]
    for lang in ("en", "zh"):
        assert translate(lang, "common.bot_levels") != "common.bot_levels"


def test_the_kinds_api_lists_the_levels_with_their_sentences_and_no_level_a_game_lacks(client):
    listed = {k["name"]: k for k in client.get("/api/games/kinds").get_json()["kinds"]}
    for name in BUILTIN:
        assert listed[name]["bots"] == OFFERED[name]
        assert listed[name]["levels"] == get_kind(name).metadata()["levels"]


def test_a_seat_named_by_an_old_level_plays_the_same_moves(client):
    seats = [{"type": "human", "name": "Ana"}, {"type": "bot", "level": "strategic"}]
    body = {"game": "tobago", "seats": seats, "seed": 5}
    old = client.post("/api/games", json=body).get_json()
    seats[1]["level"] = "normal"
    new = client.post("/api/games", json=body).get_json()
    assert old["seats"][1]["level"] == "strategic" and new["seats"][1]["level"] == "normal"
    kind = get_kind("tobago")
    state = kind.new_state(5, 2, None)
    while not kind.is_over(state) and kind.to_act(state) == [0]:
        kind.apply(state, 0, kind.legal_actions(state, 0)[0])
    moves = [
        next_bot_action(kind, state, [None, level], lambda: random.Random(1))
        for level in ("strategic", "normal")
    ]
    assert moves[0] == moves[1] is not None


def test_a_new_game_page_words_every_offered_level(client):
    for name in BUILTIN:
        page_words = site_of(name).new_page
        assert page_words is not None, name
        prefix = page_words.level_strings
        for lang in ("en", "zh"):
            for level in OFFERED[name]:
                key = f"{prefix}level_{level}"
                assert translate(lang, key) != key, (lang, key)
            page = client.get(f"/{name}/new?lang={lang}").get_data(as_text=True)
            assert 'id="bot-levels"' in page


@pytest.mark.parametrize("name", BUILTIN)
def test_the_pages_have_a_short_name_for_every_level_and_old_name(name):
    """A bot seat is shown as "Bot 2 (normal)" on every page (static/common/seats.js) and in the
    review's chart legend (web/seat_names.py): by keys made from its level, which no static
    check of the pages' keys sees; the lists of games on the account pages say the review's."""
    kind = get_kind(name)
    for level in [*kind.levels, *kind.aliases]:
        for lang in ("en", "zh"):
            for key in (f"common.bot_level_{level}", f"review.level_{level}"):
                assert translate(lang, key) != key, (lang, key)


@pytest.mark.parametrize(
    ("kind", "variable"),
    [
        ("tobago", "TOBAGO_STRONG_ROLLOUTS"),
        ("dao", "DAO_STRONG_ROLLOUTS"),
        ("isla_dorada", "ISLA_DORADA_STRONG_ROLLOUTS"),
        ("dragons_gold", "DRAGONS_GOLD_STRONG_ROLLOUTS"),
    ],
)
def test_a_strong_bots_budget_comes_from_the_environment_at_the_edge_or_is_refused(kind, variable):
    assert thinking_from_environ({}).rollouts == {}
    assert thinking_from_environ({variable: "7"}).rollouts == {kind: 7}
    for bad in ("0", "-3", "many", "1.5"):
        with pytest.raises(ValueError, match=variable):
            thinking_from_environ({variable: bad})


def test_the_app_configures_the_strong_bots_budgets_from_the_environment(monkeypatch, tmp_path):
    from app import create_app

    monkeypatch.setenv("DAO_STRONG_ROLLOUTS", "12")
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "db.sqlite3")})
    assert app.config["BOT_ROLLOUTS"] == {"dao": 12}


# --- playing ------------------------------------------------------------------------------------


def _play_from_json_views(name: str, level: str, seed: int, seats: int, steps: int) -> int:
    """Play up to ``steps`` actions of a game whose every seat is ``level``, each move chosen
    from a JSON copy of the seat's view and legal actions, and checked against the move chosen
    from the originals with the same generator; returns the actions played."""
    kind = get_kind(name)
    bot = kind.levels[level]
    state = kind.new_state(seed, seats, None)
    played = 0
    while not kind.is_over(state) and played < steps:
        acted = False
        for seat in kind.to_act(state):
            view, legal = kind.view(state, seat), kind.legal_actions(state, seat)
            a = bot(view, legal, random.Random(played))
            b = bot(
                json.loads(json.dumps(view)), json.loads(json.dumps(legal)), random.Random(played)
            )
            assert a == b, (name, level, seat, a, b)
            if a is None:
                continue
            # a listed action, or (a game whose legal actions are representative forms:
            # Dragon's Gold's splits and offers) a complete form of a listed type, which the
            # engine's apply judges: it raises on an illegal one
            assert a in legal or a["type"] in {x["type"] for x in legal}, (name, level, a)
            kind.apply(state, seat, a, limits=True)
            played += 1
            acted = True
            break
        if not acted:
            timer = kind.timer(state)
            assert timer is not None, f"{name}: no {level} bot acts and no clock runs"
            kind.apply(state, None, timer.action)
    return played


@pytest.mark.parametrize(("name", "level"), [(n, lv) for n in BUILTIN for lv in OFFERED[n]])
def test_each_level_plays_legal_moves_from_its_view_alone(name, level):
    kind = get_kind(name)
    assert _play_from_json_views(name, level, 3, kind.type.min_seats + 1, 150) > 20


@pytest.mark.parametrize(("name", "level"), [(n, lv) for n in BUILTIN for lv in OFFERED[n]])
def test_a_table_of_bots_of_any_level_ends(name, level):
    kind = get_kind(name)
    seats = kind.type.min_seats
    state = kind.new_state(11, seats, None)
    n = play_bots(kind, state, [level] * seats, random.Random(11), max_actions=5_000)
    assert kind.is_over(state) and n > 0
    assert kind.scores(state) is not None
