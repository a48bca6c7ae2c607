"""Dragon's Gold pages without a browser: routes, the catalogue's completeness in both languages
(every ``dg.`` key the scripts and templates use, the shared scripts' keys, a sentence for every
refusal reason of the engine), and the rules page with the project's tables."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from i18n import has
from web.game_pages import JOIN_KEYS

ROOT = Path(__file__).resolve().parents[1]
SHARED_KEYS = (
    "not_found",
    "err_stale",
    "err_network",
    "err_token",
    "err_refused",
    "share_label",
    "copy",
    "speed",
    "speed_slow",
    "speed_normal",
    "speed_fast",
    "speed_instant",
    "seat_switch",
    "advanced",
    "seed",
    "seed_help",
    "created",
    "share_help",
    "open_seat",
)


def used_keys() -> set[str]:
    """Every literal ``dg.`` key in the page scripts and templates (template-literal keys are
    expanded by the values they take)."""
    text = "".join(
        p.read_text("utf-8")
        for p in [
            *(ROOT / "static/dragons_gold").glob("*.js"),
            *(ROOT / "templates/dragons_gold").glob("*.html"),
        ]
    )
    keys = set(re.findall(r"""["'`](dg\.[a-z_]+)["'`]""", text))
    expand = {
        "dg.c_": ["gold", "silver", "red", "black", "yellow", "blue", "green", "purple", "white"],
        "dg.type_": ["me", "friend", "bot", "none"],
        "dg.level_": ["greedy", "random"],
        "dg.where_": ["up", "down", "played"],
        "dg.answer_": ["accept", "reject", "waiting", "yours"],
        "dg.ev_shared_": ["agreed", "sole", "even", "divided", "empty"],
        "dg.h_": ["wizard", "thief", "knight3", "knight4"],
        "dg.i_": ["sword", "crystal_ball", "wind", "horn", "map", "amulet"],
    }
    for prefix, names in expand.items():
        keys |= {prefix + n for n in names}
    keys |= {f"dg.status_{s}_you" for s in ("divide", "pick", "steal", "look", "split")}
    keys |= {f"dg.{p}_colour" for p in ("give", "get")}
    keys |= {f"dg.i_{i}_effect" for i in expand["dg.i_"]}
    return keys


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_every_string_the_pages_use_is_in_both_catalogues(lang):
    wanted = used_keys() | {f"dg.{k}" for k in SHARED_KEYS} | {f"dg.join_{k}" for k in JOIN_KEYS}
    assert not sorted(k for k in wanted if not has(lang, k))  # its own words or the shared


def test_both_languages_have_the_same_keys_and_a_sentence_for_every_refusal():
    import json

    en = json.loads((ROOT / "i18n/en/dragons_gold.json").read_text("utf-8"))
    zh = json.loads((ROOT / "i18n/zh/dragons_gold.json").read_text("utf-8"))
    assert set(en) == set(zh)
    code = "".join(p.read_text("utf-8") for p in (ROOT / "games/dragons_gold").glob("*.py"))
    reasons = set(re.findall(r'reason="(dg_[a-z_]+)"', code))
    assert reasons and {f"error.{r}" for r in reasons} <= set(en)


def test_the_pages_answer_and_the_home_page_links_the_game(client):
    seats = [{"type": "human"}, {"type": "human", "open": True}, {"type": "human"}]
    made = client.post("/api/games", json={"game": "dragons_gold", "seats": seats}).get_json()
    abc = made["id"]
    for url in (
        "/dragons_gold/new",
        f"/dragons_gold/games/{abc}",
        f"/dragons_gold/games/{abc}/join/1",
    ):
        assert client.get(url).status_code == 200
    assert client.get("/dragons_gold/games/abc").status_code == 404  # no such game: a 404 page
    assert client.get("/dragons_gold/games/" + "x" * 65).status_code == 404
    lobby = client.get("/dragons_gold?lang=en").get_data(as_text=True)  # its lobby
    assert "Dragon&#39;s Gold tables" in lobby and 'href="/dragons_gold/new"' in lobby
    home = client.get("/?lang=en").get_data(as_text=True)
    assert 'href="/dragons_gold"' in home
    zh = client.get(f"/dragons_gold/games/{abc}?lang=zh").get_data(as_text=True)
    assert "龍之金遊戲" in zh and 'id="dg-data"' in zh


def test_the_rules_pages_show_the_dragons_and_the_magic_items(client):
    en = client.get("/rules/dragons_gold?lang=en").get_data(as_text=True)
    assert "Crystal ball" in en and 'href="/dragons_gold/new"' in en
    assert en.count('class="dg-dragon rules-dragon"') == 18 and en.count('class="dg-item"') == 6
    zh = client.get("/rules/dragons_gold?lang=zh").get_data(as_text=True)
    assert "第 18 條龍" in zh and "水晶球" in zh
