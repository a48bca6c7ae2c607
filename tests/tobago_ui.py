"""Driving the Tobago game page like a person: every action is a click (or keys) on the page.

``act_by_clicks(page, action)`` performs one legal action of the seat through the UI (the
buttons and island spaces a player uses) and waits until the page shows the new position.
``choose(snapshot, rng)`` picks the action a strategic player would take from what the page
holds (its seat's view and legal actions: what the player sees), so a test can play a whole game
through the page without hard-coding a game.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from games.tobago.bots import strategic_bot

BOARD = "#board polygon.hex"


def hex_locator(page, q: int, r: int, board: str = BOARD):
    return page.locator(f'{board}[data-q="{q}"][data-r="{r}"]')


def snapshot(page) -> dict:
    """The snapshot the page shows (its seat's view and legal actions)."""
    return page.evaluate("() => window.tobagoGame.snap")


def wait_idle(page, after_version: int | None = None, timeout: float = 30_000) -> None:
    """Wait until the page is neither sending nor replaying, no bot is thinking (the table's
    replies have come), and it is past ``after_version``."""
    page.wait_for_function(
        "v => window.tobagoGame && window.tobagoGame.snap && !window.tobagoGame.busy"
        " && window.tobagoGame.snap.bot !== 'thinking'"
        " && window.tobagoGame.shownVersion === window.tobagoGame.snap.version"
        " && (v === null || window.tobagoGame.snap.version > v)",
        arg=after_version,
        timeout=timeout,
    )


def my_turn(page) -> bool:
    snap = snapshot(page)
    return bool(snap["legal_actions"])


def choose(snap: dict, rng: random.Random, collect_amulets: bool = True) -> dict:
    """The strategic bot's choice from the seat's view and legal actions (what the page has).

    With ``collect_amulets`` the player is keener on amulets than the bot: it picks up an amulet
    whenever it may, and drives onto a reachable amulet when its turn has no raise, so that a
    test game sees every kind of action.
    """
    legal = snap["legal_actions"]
    types = {a["type"] for a in legal}
    if collect_amulets and "raise" not in types:
        if "pick_amulet" in types:
            return {"type": "pick_amulet"}
        amulets = {tuple(a) for a in snap["view"]["amulets_on_island"]}
        for a in legal:
            if a["type"] == "drive" and tuple(a["to"]) in amulets:
                return a
    return strategic_bot(snap["view"], legal, rng)


#: The one control that performs an action, by action type (its CSS selector from the action).
_ONE_CLICK: dict[str, Callable[[dict], str]] = {
    "first_clue": lambda a: f'#actions button.first-map[data-map="{a["map"]}"]',
    "play_clue": lambda a: f'#hand button.play-map[data-card="{a["card"]}"][data-map="{a["map"]}"]',
    "pick_amulet": lambda a: "#pick-amulet",
    "spend_amulet": lambda a: "#spend-amulet",
    "raise": lambda a: f"#raise-{a['map']}",
    "end_turn": lambda a: "#end-turn",
    "accept": lambda a: "#accept",
    "decline": lambda a: "#decline",
}


def act_by_clicks(page, action: dict) -> None:
    """Perform ``action`` through the page's controls and wait for the new position."""
    version = snapshot(page)["version"]
    kind = action["type"]
    if kind in _ONE_CLICK:
        page.click(_ONE_CLICK[kind](action))
    elif kind == "place_atv":
        hex_locator(page, *action["at"]).click()
    elif kind == "extra_marker":
        page.locator(f'#columns section[data-map="{action["map"]}"] li.column-clue').nth(
            action["clue"]
        ).locator("button.extra-marker").click()
    elif kind == "exchange":
        page.click("#exchange")
        page.click("#exchange")
    elif kind == "drive":
        if page.get_attribute("#drive-mode", "aria-pressed") != "true":
            page.click("#drive-mode")
        hex_locator(page, *action["to"]).click()
    elif kind == "remove_marker":
        page.click(f'#actions button.remove-map[data-map="{action["map"]}"]')
        hex_locator(page, *action["space"]).click()
    else:  # pragma: no cover - a new action type the page does not offer yet
        raise AssertionError(f"no control for {action!r}")
    wait_idle(page, version)
