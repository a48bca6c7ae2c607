"""Issue 43, items 6, 8 and 10 without a browser: the page texts that name a space name it as a
player finds it (never by coordinates), the review's hints are words, and the daily puzzle and
the list grade by one measure."""

from __future__ import annotations

import html as html_lib
import re
from datetime import date, timedelta

import pytest

from solver.places import place_name
from solver.puzzles.codes import daily_difficulty, daily_puzzle, puzzle_for_seed
from solver.puzzles.generate import grade_of_points, points_range
from solver.puzzles.sheet import render_sheet, sheet_puzzles
from tests.bots import bots_move
from tests.places_support import COORDS


def _text(page: str) -> str:
    """What a reader of an HTML page sees: the body without tags, styles and scripts (SVG
    titles, the maps' hover names, are kept: they are text for players too)."""
    body = re.sub(r"(?s)<(style|script)\b.*?</\1>", " ", page)
    return html_lib.unescape(re.sub(r"<[^>]+>", " ", body))


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_answer_key_names_each_answer_as_a_player_finds_it(lang):
    puzzles = sheet_puzzles(3, "medium", seed=5)
    sheet = render_sheet(puzzles, lang=lang)
    assert not COORDS.search(_text(sheet))
    key = sheet.split('class="answer-key"', 1)[1]
    for p in puzzles:
        assert html_lib.escape(place_name(p.island, p.answer, lang), quote=False) in key


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_puzzle_page_and_its_check_replies_show_no_coordinates(client, lang):
    p = puzzle_for_seed(4, "hard")
    body = client.get("/api/tobago/puzzles?difficulty=hard&seed=4&reveal=true").get_json()
    page = client.get(f"/puzzles/{body['code']}?lang={lang}").get_data(as_text=True)
    assert not COORDS.search(_text(page))
    # every hex's hover name is the space's name for players
    first = p.island.index[0]
    assert (
        f"<title>{html_lib.escape(place_name(p.island, first, lang), quote=False)}</title>" in page
    )
    for space in (body["answer"], body["steps"][0]["removed"][0]):
        why = client.post(
            f"/api/tobago/puzzles/{body['code']}/check", json={"space": space, "lang": lang}
        ).get_json()["why"]
        assert place_name(p.island, tuple(space), lang) in why
        assert not COORDS.search(why)
    texts = [*body["conclusion"].values(), *(t for s in body["steps"] for t in s["text"].values())]
    assert not any(COORDS.search(t) for t in texts)


def test_the_reviews_hints_are_words_without_scores_or_coordinates(client):
    seats = [{"type": "bot", "level": "strategic"}] + [{"type": "bot", "level": "random"}] * 2
    game = client.post("/api/games", json={"game": "tobago", "seats": seats, "seed": 3})
    gid = game.get_json()["id"]
    bots_move(client)
    snap = client.get(f"/api/games/{gid}").get_json()
    assert snap["over"]
    seen = 0
    for step in range(10, snap["version"], 7):
        for lang, unit in (("en", "movement point"), ("zh", "行動點")):
            pos = client.get(f"/api/games/{gid}/positions/{step}?seat=0&lang={lang}").get_json()
            for h in (pos["helper"] or {}).get("hints", []):
                seen += 1
                assert not COORDS.search(h["reason"]) and not re.search(r"\d\.\d", h["reason"])
                assert "score" not in h["reason"] and "分數" not in h["reason"]
                if "locate" not in h["reason"] and "定位" not in h["reason"]:
                    assert (
                        unit in h["reason"]
                        or "drive there" in h["reason"]
                        or "開不到" in h["reason"]
                    ), h["reason"]
    assert seen


def test_the_daily_hard_puzzle_is_graded_as_the_lists_hard_puzzles():
    """One grading: the daily puzzle's level is its measured grade, which lies in the points
    range the list shows for that level, as every listed puzzle's does."""
    day = date(2026, 12, 6)  # the day: a hard daily puzzle of 8 points
    assert daily_difficulty(day) == "hard"
    hardest_days = [
        d for d in (day + timedelta(i) for i in range(14)) if daily_difficulty(d) == "hard"
    ]
    for d in hardest_days:
        p = daily_puzzle(d)
        least, most = points_range("hard")
        assert p.difficulty == grade_of_points(p.grade.points) == "hard"
        assert least <= p.grade.points and (most is None or p.grade.points <= most)
    for level in ("easy", "medium", "hard"):
        least, most = points_range(level)
        for seed in range(1, 7):
            listed = puzzle_for_seed(seed, level)
            assert listed.difficulty == level == grade_of_points(listed.grade.points)
            assert least <= listed.grade.points and (most is None or listed.grade.points <= most)
        assert grade_of_points(least) == level and (most is None or grade_of_points(most) == level)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_list_shows_each_levels_points_range_and_the_dailys_points(client, lang):
    page = _text(client.get(f"/puzzles?lang={lang}").get_data(as_text=True))
    daily = daily_puzzle(date.today())
    word = "points" if lang == "en" else "分"
    assert f"{daily.grade.points} {word}" in page
    ranges = (
        ["up to 4 points", "5–7 points", "8 points or more"]
        if lang == "en"
        else ["最多 4 分", "5–7 分", "8 分以上"]
    )
    assert all(r in page for r in ranges)
