"""Tobago by keyboard on a phone: after the ATV is placed with Enter on the island, focus goes to
the next step (the first clue's choice) as the other games move it, whether the bots place theirs
after mine or before; both languages, bots' moves paced as a new player sees them; axe finds
nothing."""

from __future__ import annotations

import pytest

from tests.browser_support import OUT, api, axe_violations, new_page, open_as
from tests.tobago_ui import snapshot, wait_idle

pytestmark = pytest.mark.browser
expect = pytest.importorskip("playwright.sync_api").expect

PHONE = {
    "viewport": {"width": 390, "height": 844},
    "is_mobile": True,
    "has_touch": True,
    "device_scale_factor": 2,
}


@pytest.mark.parametrize("me", [0, 2], ids=["first", "last"])
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_atv_placed_by_enter_moves_focus_to_the_first_clue(browser, live_server, lang, me):
    seats: list[dict] = [{"type": "bot", "level": "strong"}] * 3
    seats[me] = {"type": "human", "name": "Ana"}
    game = api(live_server, "POST", "/api/games", {"game": "tobago", "seats": seats, "seed": 7})
    page = new_page(browser, **PHONE)
    open_as(page, live_server, "tobago", game, me, f"?lang={lang}")
    page.evaluate("() => localStorage.removeItem('tobago.speed')")  # the bots' moves paced
    page.reload()
    expect(page.locator("#board svg polygon.hex").first).to_be_attached()
    wait_idle(page)
    page.wait_for_function(
        "() => window.tobagoGame.snap.legal_actions.some((a) => a.type === 'place_atv')"
    )
    page.locator("#board polygon.hex[tabindex='0']").first.focus()
    for key in ("ArrowRight", "ArrowDown"):
        page.keyboard.press(key)
    page.keyboard.press("Enter")
    page.wait_for_function("() => window.tobagoGame.snap.view.phase !== 'place_atv'")
    wait_idle(page, timeout=60_000)
    assert snapshot(page)["view"]["players"][me]["atv"] is not None
    expect(page.locator("#actions button.first-map").first).to_be_focused(timeout=15_000)
    page.screenshot(path=str(OUT / f"atv-enter-focus-{lang}-{me}.png"))
    assert axe_violations(page) == []
    assert not page.js_errors, page.js_errors
