"""The table chat in a real Chromium (``static/common/chat.js``, ``templates/chat.html``): two
pages of one game, each a seat, see each other's lines in order over the event stream (typed and
sent by keyboard, and quick phrases in both languages); a spectator reads and has no form; a
muted seat's lines are hidden on the muting page only (and stay so after a reload); a seat that
writes too fast is told so in words; in Dragon's Gold the chat sits beside the proposals in the
negotiation panel and beside the offers in the market (below them on a phone); the review of a
finished game shows its chat.

Screenshots land in ``test-output/chat/`` (git-ignored) for a person to look at.
"""

from __future__ import annotations

import pytest

from tests.browser_support import PHONE, api, new_page, open_as, play_by_tokens, say, shots_dir
from tests.game_states import game_at

pytestmark = pytest.mark.browser
expect = pytest.importorskip("playwright.sync_api").expect
SHOTS = shots_dir("chat")
PAIR = [{"type": "human", "name": "Ana"}, {"type": "human", "name": "Bo"}]


def dao_game(server: str, seed: int = 3) -> dict:
    return api(server, "POST", "/api/games", {"game": "dao", "seats": PAIR, "seed": seed})


def ready(page, handle: str = "daoGame") -> None:
    page.wait_for_function(f"() => window.{handle} && window.{handle}.snap")
    page.wait_for_function(  # the chat knows who this page is: a seat's form or a watcher's note
        "() => !document.getElementById('chat-form').hidden"
        " || !document.getElementById('chat-note').hidden"
    )


def lines(page) -> list[str]:
    return page.locator("#chat-lines .chat-text").all_inner_texts()


def test_a_line_typed_on_one_page_shows_on_the_other_in_order(browser, live_server):
    game = dao_game(live_server)
    ana, bo = new_page(browser), new_page(browser, viewport=PHONE)
    open_as(ana, live_server, "dao", game, 0)
    open_as(bo, live_server, "dao", game, 1, "?lang=zh")
    watcher = new_page(browser)
    open_as(watcher, live_server, "dao", game, None)
    for page in (ana, bo, watcher):
        ready(page)
    ana.locator("#chat-text").focus()
    ana.keyboard.type("Hello <b>table</b>")  # text, never markup
    ana.keyboard.press("Enter")
    expect(ana.locator("#chat-text")).to_have_value("")
    expect(ana.locator("#chat-text")).to_be_focused()  # the next line is typed at once
    bo.get_by_role("button", name="成交嗎？").click()  # a quick phrase, in Bo's language
    ana.keyboard.type("I want the blue ones")
    ana.keyboard.press("Enter")
    said = ["Hello <b>table</b>", "成交嗎？", "I want the blue ones"]
    for page in (ana, bo, watcher):
        expect(page.locator("#chat-lines .chat-text")).to_have_count(3)
        assert lines(page) == said
        assert page.locator("#chat-lines b").count() == 0
    expect(ana.locator("#chat-lines .chat-who").nth(0)).to_have_text("Ana (you):")
    expect(bo.locator("#chat-lines .chat-who").nth(1)).to_have_text("Bo（你）:")
    expect(watcher.locator("#chat-form")).to_be_hidden()  # a spectator reads
    expect(watcher.locator("#chat-note")).to_contain_text("only the seats write")
    assert ana.locator("#chat-log").get_attribute("role") == "log"
    ana.locator("#chat").screenshot(path=str(SHOTS / "dao-1280-en.png"))
    bo.locator("#chat").screenshot(path=str(SHOTS / "dao-390-zh.png"))
    watcher.locator("#chat").screenshot(path=str(SHOTS / "dao-spectator.png"))
    for page in (ana, bo, watcher):
        assert not page.js_errors, page.js_errors
        page.context.close()


def test_a_muted_seat_is_hidden_on_the_muting_page_only(browser, live_server):
    game = dao_game(live_server, seed=4)
    ana, bo = new_page(browser), new_page(browser)
    open_as(ana, live_server, "dao", game, 0)
    open_as(bo, live_server, "dao", game, 1)
    ready(ana), ready(bo)
    say(live_server, game, 0, "first from Ana")
    say(live_server, game, 1, "first from Bo")
    expect(bo.locator("#chat-lines .chat-text")).to_have_count(2)
    bo.locator("#chat-mutes summary").click()
    bo.get_by_label("Mute Ana").check()
    expect(bo.locator("#chat-lines .chat-text")).to_have_text(["first from Bo"])
    expect(bo.locator("#chat-hidden")).to_have_text("1 line from a muted player is hidden.")
    say(live_server, game, 0, "second from Ana")
    say(live_server, game, 1, "second from Bo")
    expect(bo.locator("#chat-lines .chat-text")).to_have_text(["first from Bo", "second from Bo"])
    expect(bo.locator("#chat-hidden")).to_have_text("2 lines from muted players are hidden.")
    expect(ana.locator("#chat-lines .chat-text")).to_have_count(4)  # Ana's page mutes nobody
    bo.locator("#chat").screenshot(path=str(SHOTS / "muted.png"))
    bo.reload()  # the mute is this viewer's, kept in this browser
    ready(bo)
    expect(bo.locator("#chat-lines .chat-text")).to_have_text(["first from Bo", "second from Bo"])
    bo.locator("#chat-mutes summary").click()
    bo.get_by_label("Mute Ana").uncheck()
    expect(bo.locator("#chat-lines .chat-text")).to_have_count(4)
    expect(bo.locator("#chat-hidden")).to_be_hidden()
    assert not ana.js_errors and not bo.js_errors
    ana.context.close()
    bo.context.close()


def test_a_seat_writing_too_fast_is_told_in_words(browser, live_server):
    from tests.test_axe_browser import _phrase_answered

    game = dao_game(live_server, seed=5)
    ana = new_page(browser)
    open_as(ana, live_server, "dao", game, 0)
    ready(ana)
    answers: list[str] = []
    while "refused" not in answers and len(answers) < 20:  # each tap once the last is answered
        answers.append(_phrase_answered(ana))
    # the burst of five passes (on a slow machine the allowance refills meanwhile: a few more)
    assert answers[-1] == "refused" and answers[:5] == ["said"] * 5, answers
    expect(ana.locator("#chat-error")).to_contain_text("Slow down")
    expect(ana.locator("#chat-lines .chat-text")).to_have_count(len(answers) - 1)
    ana.locator("#chat").screenshot(path=str(SHOTS / "too-fast.png"))
    ana.context.close()


@pytest.mark.parametrize(
    ("state", "panel", "body"),
    [
        ("dg-propose", "negotiation", "neg-body"),
        ("dg-market", "market", "market-body"),
    ],
)
def test_dragons_gold_has_the_chat_beside_the_proposals_and_the_offers(
    browser, live_server, state, panel, body
):
    game, seat = game_at(live_server, state)
    other = (seat + 1) % len(game["seats"])
    say(live_server, game, other, "Deal? 3 red for me")
    for count, viewport in enumerate(({"width": 1280, "height": 900}, PHONE), 1):
        page = new_page(browser, viewport=viewport)
        open_as(page, live_server, "dragons_gold", game, seat)
        page.wait_for_function("() => window.dgGame && window.dgGame.snap && !window.dgGame.busy")
        wide = viewport["width"] > 960  # Dragon's Gold's two columns
        chat = page.locator(".dg-side #chat" if wide else f"#{panel} #chat")
        expect(chat).to_be_visible()
        expect(chat.locator(".chat-text")).to_have_count(count)
        expect(chat.locator(".chat-text").first).to_have_text("Deal? 3 red for me")
        own, talk = page.locator(f"#{panel}").bounding_box(), chat.bounding_box()
        if wide:  # beside the panel: to its right, their tops together
            assert talk["x"] >= own["x"] + own["width"] - 1 and abs(talk["y"] - own["y"]) < 40
        else:  # on a phone inside the panel, after the proposals or the offers
            body_box = page.locator(f"#{body}").bounding_box()
            assert talk["y"] >= body_box["y"] + body_box["height"] - 1
        page.locator("#chat-text").fill("I want the blue ones")
        page.locator("#chat-text").press("Enter")
        expect(chat.locator(".chat-text")).to_have_count(count + 1)
        page.screenshot(path=str(SHOTS / f"{state}-{viewport['width']}.png"))
        assert not page.js_errors, page.js_errors
        page.context.close()


def test_the_review_of_a_finished_game_shows_its_chat(browser, live_server):
    game = dao_game(live_server, seed=6)
    say(live_server, game, 0, "Good luck!")
    say(live_server, game, 1, "打得好")
    play_by_tokens(live_server, game)
    for viewport, lang in (({"width": 1280, "height": 900}, "en"), (PHONE, "zh")):
        page = new_page(browser, viewport=viewport)
        page.goto(f"{live_server}/dao/games/{game['id']}/review?lang={lang}")
        page.wait_for_function("() => window.tobagoReview && window.tobagoReview.ready")
        expect(page.locator("#chat .chat-text")).to_have_text(["Good luck!", "打得好"])
        expect(page.locator("#chat .chat-who").first).to_have_text("Ana:")
        expect(page.locator("#chat-form")).to_be_hidden()
        page.locator("#chat").screenshot(path=str(SHOTS / f"review-{lang}.png"))
        assert not page.js_errors, page.js_errors
        page.context.close()
    page = new_page(browser)  # the finished game's own page: the chat is there, closed
    open_as(page, live_server, "dao", game, 0)
    page.wait_for_function("() => window.daoGame && window.daoGame.snap")
    expect(page.locator("#chat .chat-text")).to_have_text(["Good luck!", "打得好"])
    expect(page.locator("#chat-note")).to_have_text("The game is over: its chat is closed.")
    expect(page.locator("#chat-form")).to_be_hidden()
    page.context.close()
