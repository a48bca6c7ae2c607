"""The rules pages are written for players (issue 43): no developer's word in either language,
headings in order, every picture drawn from the game's own data (as many pictures as the engine
has kinds, each named from the data), worked examples whose numbers are the engine's own
scoring, and every option the new-game page offers explained under the table rules with the
words that page shows.
"""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest

from games.dao import cards as dao_cards
from games.dragons_gold import data as dg_data
from games.dragons_gold import scoring as dg_scoring
from games.isla_dorada import tables as isla_tables
from hexmap.terrain import LANDMARK_COUNTS, TERRAINS
from i18n import translate
from tests.kinds import BUILTIN
from web.game_site import site_of
from web.rules_pictures import fill

ROOT = Path(__file__).resolve().parents[1]
GAMES = BUILTIN  # every built-in game has a rules page
LANGS = ("en", "zh")
#: Words of a specification, not of a rule book (the Chinese ones today's zh pages used).
DEVELOPER_WORDS = re.compile(
    r"\bseeds?\b|coordinat|\baxial\b|\bcube\b|decision|data file|json|\bcode\b|\.\./|\.md\b|\.py\b"
    r"|種子|座標|軸座標|立方|決定|資料檔|程式|數據",
    re.IGNORECASE,
)


def _article(client, game: str, lang: str) -> str:
    page = client.get(f"/rules/{game}?lang={lang}")
    assert page.status_code == 200
    body = page.get_data(as_text=True)
    return re.search(r'<article class="rules-page" id="rules">(.*?)</article>', body, re.S).group(1)


def _text(fragment: str) -> str:
    """The words a reader sees or hears: text and the pictures' accessible names."""
    names = " ".join(re.findall(r'aria-label="([^"]*)"', fragment))
    text = html.unescape(re.sub(r"<[^>]+>", " ", fragment) + " " + names)
    return re.sub(r"\s+", " ", text)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game", GAMES)
def test_a_rules_page_has_no_developer_word(client, game, lang):
    source = (ROOT / "web/rules" / lang / f"{game}.md").read_text(encoding="utf-8")
    assert not DEVELOPER_WORDS.findall(source), source[:80]
    text = _text(_article(client, game, lang))
    assert not DEVELOPER_WORDS.findall(text)
    assert "[[" not in text and "`" not in text  # every picture drawn, no code spans


def test_the_word_list_catches_what_the_old_pages_said():
    for old in (
        "Source: seed `000_…txt` (Chinese rule description, in `../seeds/`)",
        "Coordinates: axial `(q, r)`",
        "the cube distance",
        "**Decision:** the published list",
        "Keep the table in a data file.",
        "來源：種子文件",
        "座標：軸座標 `(q, r)`",
        "**決定：**",
    ):
        assert DEVELOPER_WORDS.search(old), old


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game", GAMES)
def test_headings_go_in_order_and_name_the_sections_a_player_needs(client, game, lang):
    article = _article(client, game, lang)
    levels = [int(n) for n in re.findall(r"<h([1-6])\b", article)]
    assert levels[0] == 1 and levels.count(1) == 1
    assert all(b - a <= 1 for a, b in zip(levels, levels[1:], strict=False))
    heads = [html.unescape(h) for h in re.findall(r"<h2>(.*?)</h2>", article)]
    wanted = {"en": ("Scoring", "Table rules"), "zh": ("計分", "本桌規則")}[lang]
    if game == "isla_dorada":
        wanted = {
            "en": ("The end and scoring", "Table rules"),
            "zh": ("遊戲結束與計分", "本桌規則"),
        }[lang]
    assert set(wanted) <= set(heads), heads
    assert heads[-1] == wanted[1]  # the table rules close the page
    assert "<table>" in article or game == "isla_dorada"
    assert re.search(r"<em>(Example|例子)", article), "a worked example"


def _pictures(article: str, cls: str) -> list[str]:
    """The pictures (role="img") of the first picture list with class ``cls``."""
    block = re.search(rf'<ul class="rules-pics {cls}"[^>]*>(.*?)</ul>', article, re.S)
    assert block, cls
    return re.findall(r'role="img" aria-label="([^"]*)"', block.group(1))


@pytest.mark.parametrize("lang", LANGS)
def test_every_picture_is_drawn_from_the_games_data(client, lang):
    def tr(key: str, **kw: object) -> str:
        return html.escape(translate(lang, key, **kw))

    dao = _article(client, "dao", lang)
    assert _pictures(dao, "rules-dao") == [tr(f"dao.el_{e}") for e in dao_cards.ELEMENTS]
    values = re.findall(r'<ul class="rules-pics rules-dao"[^>]*>.*?</ul>', dao, re.S)[1]
    assert len(re.findall(r'class="dcard ', values)) == len(dao_cards.VALUES)
    for v, n in zip(dao_cards.VALUES, dao_cards.VALUE_COUNTS, strict=True):
        label = tr("dao.card", element=translate(lang, f"dao.el_{dao_cards.ELEMENTS[0]}"), value=v)
        assert f'aria-label="{label}"' in values and tr("rules.pic_cards", count=n) in values

    dg = _article(client, "dragons_gold", lang)
    assert _pictures(dg, "rules-dg") == [
        tr("rules.pic_hunter", hunter=translate(lang, f"dg.h_{h}"), attack=dg_data.ATTACK[h])
        for h in dg_data.HUNTERS
    ]
    chips = re.findall(r'<ul class="rules-pics rules-dg"[^>]*>.*?</ul>', dg, re.S)[1]
    assert re.findall(r'class="dg-chip c-([a-z]+)"', chips) == list(dg_data.COLOURS)
    for c, n in dg_data.TOKEN_COUNTS.items():
        assert tr("rules.pic_tokens", count=n, colour=translate(lang, f"dg.c_{c}")) in chips
    assert sum(dg_data.TOKEN_COUNTS.values()) == 126  # the sentence before the chips says so
    assert _pictures(dg, "rules-dg rules-dragons") == [
        tr("rules.pic_dragon", n=n, **{k: d[k] for k in ("strength", "visible", "hidden")})
        for n, d in dg_data.DRAGONS.items()
    ]
    assert _pictures(dg, "rules-dg rules-items") == [
        tr(f"dg.i_{i['item']}") for i in dg_data.ITEM_KINDS
    ]

    isla = _article(client, "isla_dorada", lang)
    cards = _pictures(isla, "rules-isla")
    assert len(cards) == len(isla_tables.ADVENTURE_KINDS)
    for label, kind in zip(cards, isla_tables.ADVENTURE_KINDS, strict=True):
        assert html.escape(translate(lang, f"isla.kind_{kind['kind']}")) in label
    counts = re.findall(r'rules-pic-caption">([^<]*)<', isla)
    assert counts == [tr("rules.pic_cards", count=k["count"]) for k in isla_tables.ADVENTURE_KINDS]
    assert sum(k["count"] for k in isla_tables.ADVENTURE_KINDS) == 112  # as the page says

    tobago = _article(client, "tobago", lang)
    spaces = re.findall(r'<ul class="rules-pics rules-tobago".*?</ul>', tobago, re.S)
    svgs = re.findall(r'<svg role="img" aria-label="([^"]*)"', "".join(spaces))
    names = [tr(f"terrain.{t}") for t in TERRAINS] + [tr(f"terrain.{k}") for k in LANDMARK_COUNTS]
    assert svgs == names
    assert "".join(spaces).count('class="hex terrain-') == len(TERRAINS) + len(LANDMARK_COUNTS)
    for kind, n in LANDMARK_COUNTS.items():
        assert tr("rules.pic_landmarks", count=n, kind=translate(lang, f"terrain.{kind}")) in tobago
    ids = re.findall(r'\bid="([^"]+)"', tobago)
    assert len(ids) == len(set(ids))  # several island pictures, no id twice


def test_an_unknown_picture_or_card_is_a_bug_not_a_blank():
    dao, dragons = site_of("dao").rules_pictures, site_of("dragons_gold").rules_pictures
    with pytest.raises(KeyError):
        fill("<p>[[no-such-picture]]</p>", "en", dao)
    with pytest.raises(KeyError):
        fill("<p>[[tokens: gold-1]]</p>", "en", dao)  # another game's picture
    for bad in ("[[cards: fire-9]]", "[[cards: smoke-1]]", "[[cards: fire]]"):
        with pytest.raises(ValueError):
            fill(f"<p>{bad}</p>", "en", dao)
    with pytest.raises(ValueError):
        fill("<p>Cara: [[tokens: black-2]]</p>", "en", dragons)


@pytest.mark.parametrize("game", GAMES)
def test_every_picture_a_game_draws_is_asked_for_in_both_languages(game):
    for lang in LANGS:
        source = (ROOT / "web/rules" / lang / f"{game}.md").read_text(encoding="utf-8")
        asked = set(re.findall(r"\[\[([a-z-]+)", source))
        assert asked == set(site_of(game).rules_pictures), lang


def _example_cards(source: str, name: str) -> list[list[str]]:
    return [m.split() for m in re.findall(rf"\[\[{name}: ([a-z0-9 -]+)\]\]", source)]


@pytest.mark.parametrize("lang", LANGS)
def test_dao_example_scores_as_the_engine_does(client, lang):
    source = (ROOT / "web/rules" / lang / "dao.md").read_text(encoding="utf-8")
    display, pile = _example_cards(source, "cards")
    values = [int(w.rsplit("-", 1)[1]) for w in display]
    assert sum(values[:-1]) <= dao_cards.BUST_ABOVE < sum(values) and values[-1] != values[-2]
    ids = [dao_cards.ids_of_type(dao_cards.ELEMENT_INDEX[e], int(v))[0] for e, v in
           (w.rsplit("-", 1) for w in pile)]  # fmt: skip
    scores = dict(zip(dao_cards.ELEMENTS, dao_cards.element_scores(ids), strict=True))
    assert (scores["fire"], scores["water"], scores["metal"]) == (5, 1, -5)
    assert (
        dao_cards.pile_score(ids) == 5 and dao_cards.ELEMENTS[dao_cards.best_element(ids)] == "fire"
    )
    text = _text(_article(client, "dao", lang))
    assert "8 − 3 = 5" in text and "5 − 4 = 1" in text and "0 − 5 = −5" in text
    assert dao_cards.BUST_ABOVE == 12 and dao_cards.DISPLAY_SIZE == 3


def _hoards(source: str) -> list[dict[str, int]]:
    out = []
    for words in _example_cards(source, "tokens"):
        hoard = dict.fromkeys(dg_data.COLOURS, 0)
        for w in words:
            colour, n = w.rsplit("-", 1)
            hoard[colour] = int(n)
        out.append(hoard)
    return out


@pytest.mark.parametrize("lang", LANGS)
def test_dragons_gold_example_scores_as_the_engine_does(client, lang):
    source = (ROOT / "web/rules" / lang / "dragons_gold.md").read_text(encoding="utf-8")
    hoards = _hoards(source)
    assert len(hoards) == 3
    assert dg_scoring.scores(hoards, advanced=False) == [40, 33, 11]
    assert dg_scoring.scores(hoards, advanced=True) == [28, 21, 23]
    text = _text(_article(client, "dragons_gold", lang))
    for total in ("40", "33", "11", "10 + 6 + 12 = 28", "3 + 6 + 12", "= 21", "4 + 19 = 23"):
        assert total in text, total
    basic = dg_data.SCORING["basic"]
    assert basic["points"] == {"gold": 3, "silver": 1, "red": 1, "black": 7}
    assert basic["majority"] == {"3": 15, "4": 12, "5": 12, "6": 10}
    advanced = dg_data.SCORING["advanced"]
    assert advanced["points"]["black"] == 19 and advanced["set"] == 5
    assert advanced["majority"] == {"3": 12, "4": 10, "5": 10, "6": 8}


def test_isla_dorada_example_uses_real_cards():
    cards = isla_tables.CARD_DATA
    assert {"mission": "gold", "count": 6, "points": 5}.items() <= next(
        d for d in cards["destiny"] if d["mission"] == "gold"
    ).items()
    assert {5, 4} <= {t["points"] for t in cards["treasures"]}
    assert 3 in {c["points"] for c in cards["curses"]}
    bonus = next(k for k in cards["adventure"] if k["kind"] == "bonus")
    assert 3 in {b["points"] for b in bonus["bonus"]}
    assert cards["rules"]["gold"] == 10 and cards["rules"]["markers"] == 16
    assert cards["rules"]["red_markers"] == [4, 9] and cards["rules"]["hand_limit"] == 10
    assert 6 + 5 + 4 + 3 + 5 - 3 == 20


def test_tobago_facts_on_the_page_are_the_engines():
    from games.tobago import rules as tobago_rules

    data = tobago_rules._DATA
    assert sum(data["treasure_values"].values()) == 39 and data["curses"] == 2
    assert (
        min(map(int, data["treasure_values"])) == 2 and max(map(int, data["treasure_values"])) == 6
    )
    assert data["curse_free_top"] == 12 and data["amulets"] == 20
    assert data["compass_markers"] == 15 and data["hand_size"] == {"2": 6, "3": 4, "4": 4}
    assert LANDMARK_COUNTS == {"palm": 3, "hut": 4, "statue": 3}


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game", GAMES)
def test_every_option_of_the_new_game_page_is_a_table_rule(client, game, lang):
    article = _article(client, game, lang)
    table_rules = _text(article.rsplit("<h2>", 1)[1])
    flat = re.sub(r"\s+", "", table_rules)
    page = site_of(game).new_page
    assert page is not None
    labels = []
    for field in page.options:
        if field.widget == "turn":
            labels += [
                "common.clock",
                "common.clock_none",
                "common.clock_turn",
                "common.clock_bank",
            ]
        else:
            labels += [field.label, *field.words]
    if game == "tobago":
        labels += ["new.island", "new.generated"]
    for key in labels:
        words = translate(lang, key).rstrip("…:：")
        assert re.sub(r"\s+", "", words) in flat, (key, words)


def test_a_chinese_sentence_across_two_lines_gets_no_space():
    from web.rules_pages import _markdown

    html_out = _markdown().render("就得在時間內談好\n怎麼分。\n\n座位 1\n先開始；three\nwords 。\n")
    assert "<p>就得在時間內談好怎麼分。</p>" in html_out
    assert "座位 1\n先開始；three\nwords" in html_out


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game", GAMES)
def test_the_page_opens_with_the_engines_player_count(client, game, lang):
    from games.base import get_kind

    facts = get_kind(game).type
    first = re.search(r"<p>(.*?)</p>", _article(client, game, lang).split("</h1>", 1)[1], re.S)
    wanted = {"en": "{} to {} players", "zh": "{} 到 {} 位玩家"}[lang]
    assert first.group(1).startswith(wanted.format(facts.min_seats, facts.max_seats))


@pytest.mark.parametrize("lang", LANGS)
def test_tobagos_clue_picture_marks_what_the_clue_engine_allows(client, lang):
    from hexmap.catalog import generated_island
    from solver.clues import describe_clue, parse_clue
    from solver.compiled import compile_island

    tobago = _article(client, "tobago", lang)
    figure = re.search(r'<figure class="rules-island">(.*?)</figure>', tobago, re.S).group(1)
    clue = parse_clue("near1:hut")
    island = generated_island(1)
    allowed = set(island.spaces_of(compile_island(island).mask(clue)))
    marked = re.findall(r'class="highlight clue" data-q="(-?\d+)" data-r="(-?\d+)"', figure)
    assert {(int(q), int(r)) for q, r in marked} == allowed and len(marked) == len(allowed)
    huts = {lm.space for lm in island.landmarks_of("hut")}
    assert huts and not huts & allowed  # "within 1 space" leaves the hut's own space out
    assert figure.count('class="hex terrain-') == len(island)
    label = html.escape(translate(lang, "rules.pic_clue", clue=describe_clue(clue, lang)))
    assert f'aria-label="{label}"' in figure and f"<figcaption>{label}</figcaption>" in figure
