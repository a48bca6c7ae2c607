"""Every game's page says which bot is thinking while a bot's move is due (issue 42 item 4), in
both languages: the state's ``bot`` is ``"thinking"`` and the shared page client
(``static/common/gameclient.js``, ``#bot-status``, ``common.bot_thinking``) names the seat. Each
of the four games is watched, in a real Chromium, at a table of bots that think 1.5 s a move
(a level added for the test) on the browser tests' threaded server, whose runner plays them.
"""

from __future__ import annotations

import time

import pytest

from games.base import get_kind
from tests.browser_support import (
    api,
    axe_violations,
    browser,
    live_server,
    new_page,
    open_as,
    shots_dir,
)

__all__ = ["browser", "live_server"]  # fixtures

expect = pytest.importorskip("playwright.sync_api").expect
SHOTS = shots_dir("thinking")

KINDS = ["tobago", "dao", "isla_dorada", "dragons_gold"]
#: The notice's words in each language (``common.bot_thinking``).
WORDS = {"en": "thinking…", "zh": "正在思考…"}
OPTIONS = {"dragons_gold": {"negotiation": "division"}}


def slow_bot(view, legal, rng):
    time.sleep(1.5)
    return legal[0]


@pytest.fixture
def slow_bots(monkeypatch):
    for kind in KINDS:
        monkeypatch.setitem(get_kind(kind).bots, "slow", slow_bot)


@pytest.mark.browser
@pytest.mark.usefixtures("slow_bots")
@pytest.mark.parametrize("lang", sorted(WORDS))
@pytest.mark.parametrize("kind", KINDS)
def test_every_game_page_says_which_bot_is_thinking(browser, live_server, kind, lang):
    seats = [{"type": "bot", "level": "slow"}] * 3
    body = {"game": kind, "seats": seats, "seed": 5, "options": OPTIONS.get(kind, {})}
    game = api(live_server, "POST", "/api/games", body)
    page = new_page(browser)
    open_as(page, live_server, kind, game, None, f"?lang={lang}")
    notice = page.locator("#bot-status")
    expect(notice).to_be_visible(timeout=15_000)
    expect(notice).to_contain_text(WORDS[lang])
    page.screenshot(path=str(SHOTS / f"{kind}-{lang}.png"))
    assert axe_violations(page) == []
    assert page.js_errors == []
