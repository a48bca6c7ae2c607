"""Game page states for browser tests: a position found by bots playing every seat in process,
then the same game made on the live server with human seats and the same actions posted through
the API, so a test opens the page of the seat that acts there (its token in hand).

``STATES`` names the states of Isla Dorada and Dragon's Gold the pages draw differently (each phase
and step, a wild card's flights, a four-slayer split, the market, the end); ``game_at(server,
name)`` makes a new game there in that state (tests act in it). ``key`` and
``attack_by_keyboard`` play a control of a page by keyboard. Deterministic: the game's seed
and the bots' random generator are fixed, so a state is the same position on every run.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from games.base import SYSTEM, get_kind, next_bot_action
from tests.browser_support import api

Want = Callable[[dict, list[dict]], bool]


@dataclass(frozen=True)
class State:
    """A position: ``kind`` with ``seats`` played by bots of ``levels`` until a seat's view and
    legal actions satisfy ``want`` (None: until the game is over, opened as seat 0)."""

    kind: str
    seed: int
    levels: tuple[str, ...]
    want: Want | None
    options: dict = field(default_factory=dict)


def _phase(name: str) -> Want:
    return lambda v, legal: v["phase"] == name and bool(legal)


def _move(kind: str) -> Want:
    return lambda v, legal: v["phase"] == "move" and v["move"]["kind"] == kind and bool(legal)


def _draw(step: str) -> Want:
    return lambda v, legal: v["phase"] == "draw" and v["draw"]["step"] == step and bool(legal)


def _lightning(kinds: tuple[str, ...]) -> Want:
    return lambda v, legal: v["phase"] == "lightning" and v["lightning"]["card"]["kind"] in kinds


def _playable_treasure(v: dict, legal: list[dict]) -> bool:
    if v["phase"] != "treasure" or not legal:
        return False
    me = v["players"][v["you"]]
    return any(g["location"] == v["expedition"] for g in me["treasures"] or [])


def _wild_bid(v: dict, legal: list[dict]) -> bool:
    me = v["players"][v["you"]]
    return v["phase"] == "bid" and any(c["kind"] in ("drako", "zeppelin") for c in me["hand"] or [])


def _negotiating(answer: bool, slayers: int = 2) -> Want:
    def want(v: dict, legal: list[dict]) -> bool:
        neg = v["negotiation"]
        if not neg or neg["step"] != "proposals" or len(neg["participants"]) < slayers:
            return False
        kinds = {a["type"] for a in legal}
        return "accept" in kinds if answer else "propose" in kinds and neg["proposal"] is None

    return want


def _step(name: str) -> Want:
    return lambda v, legal: bool(v["negotiation"] and v["negotiation"]["step"] == name and legal)


def _fight_with_items(v: dict, legal: list[dict]) -> bool:
    return v["phase"] == "fight" and any(a["type"] == "use" for a in legal)


ISLA = ("planner", "random", "planner")
DG = ("greedy", "greedy", "greedy")
TIMED = {"negotiation_seconds": 600, "market_seconds": 600}  # no clock runs out while a test looks
DIVISION = {"negotiation": "division", "market_seconds": 600}
STATES: dict[str, State] = {
    "isla-setup": State("isla_dorada", 3, ISLA, _phase("setup")),
    "isla-bid": State("isla_dorada", 3, ISLA, _phase("bid")),
    "isla-bid-flight": State("isla_dorada", 3, ISLA, _wild_bid),
    "isla-river": State("isla_dorada", 1, ("random",) * 3, _move("river")),
    "isla-detour": State("isla_dorada", 4, ISLA, _move("detour")),
    "isla-treasure": State("isla_dorada", 3, ISLA, _playable_treasure),
    "isla-news": State("isla_dorada", 3, ISLA, _phase("news")),
    "isla-take": State("isla_dorada", 3, ISLA, _draw("take")),
    "isla-buy": State("isla_dorada", 3, ISLA, _draw("buy")),
    "isla-figure": State("isla_dorada", 3, ISLA, _lightning(("bigfoot", "leviathan"))),
    "isla-target": State("isla_dorada", 3, ISLA, _lightning(("thief", "voodoo"))),
    "isla-limit": State("isla_dorada", 3, ISLA, _phase("limit")),
    "isla-over": State("isla_dorada", 3, ISLA, None),
    "dg-fight": State("dragons_gold", 3, DG, _phase("fight"), TIMED),
    "dg-items": State("dragons_gold", 3, DG, _fight_with_items, {**TIMED, "advanced": True}),
    "dg-propose": State("dragons_gold", 3, DG, _negotiating(False), TIMED),
    "dg-answer": State("dragons_gold", 3, DG, _negotiating(True), TIMED),
    "dg-four-slayers": State("dragons_gold", 3, DG * 2, _negotiating(False, 4), TIMED),
    "dg-divide": State("dragons_gold", 3, DG, _step("divide"), DIVISION),
    "dg-pick": State("dragons_gold", 3, DG, _step("pick"), DIVISION),
    "dg-steal": State("dragons_gold", 3, DG, _step("steal"), DIVISION),
    "dg-market": State("dragons_gold", 3, DG, _phase("market"), DIVISION),
    "dg-over": State("dragons_gold", 3, DG, None, DIVISION),
}


@cache
def find(name: str, limit: int = 5000) -> tuple[list[tuple[int, dict]], int]:
    """The actions (seat, action) that reach state ``name``, and the seat to open its page as."""
    state = STATES[name]
    kind = get_kind(state.kind)
    game = kind.new_state(state.seed, len(state.levels), state.options)
    rng = random.Random(state.seed)
    actions: list[tuple[int, dict]] = []
    levels: list[str | None] = list(state.levels)
    for _ in range(limit):
        if kind.is_over(game):
            if state.want is None:
                return actions, 0
            break
        if state.want is not None:
            for seat in kind.to_act(game):
                if state.want(kind.view(game, seat), kind.legal_actions(game, seat)):
                    return actions, seat
        found = next_bot_action(kind, game, levels, lambda: rng)
        if found is None or found[0] == SYSTEM:
            raise AssertionError(f"{name}: the bots wait for a clock")
        kind.apply(game, *found)
        actions.append(found)
    raise AssertionError(f"{name}: not reached")


def game_at(server: str, name: str) -> tuple[dict, int]:
    """A new game on ``server`` in state ``name`` (a ``POST /api/games`` answer, with every
    seat's token) and the seat to open its page as."""
    state = STATES[name]
    actions, seat = find(name)
    names = ["Ana", "Bo", "Cy", "Di", "Ed", "Flo"]
    body: dict[str, Any] = {
        "game": state.kind,
        "seed": state.seed,
        "options": state.options,
        "seats": [{"type": "human", "name": names[i]} for i in range(len(state.levels))],
    }
    game = api(server, "POST", "/api/games", body)
    tokens = {s["index"]: s["token"] for s in game["seats"]}
    for version, (who, action) in enumerate(actions):
        _post(server, game["id"], tokens[who], {"version": version, "action": action})
    return game, seat


def _post(server: str, game_id: str, token: str, body: dict) -> None:
    import json
    import urllib.request

    req = urllib.request.Request(
        f"{server}/api/games/{game_id}/actions",
        method="POST",
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json", "Authorization": f"Bearer {token}"},
    )
    with urllib.request.urlopen(req, timeout=60) as resp:
        resp.read()


def key(page, selector: str) -> None:
    """Use a control by keyboard: focus it, press Enter (Space on a box)."""
    page.locator(selector).first.focus()
    kind = page.evaluate("() => document.activeElement.type")
    page.keyboard.press("Space" if kind in ("checkbox", "radio") else "Enter")


def attack_by_keyboard(page) -> None:
    """Dragon's Gold: choose a hunter with Enter, then Tab on to a dragon's attack button (the
    hunters come first in the page, the dragons next) and press Enter."""
    key(page, "#hunters button:not([disabled])")
    for _ in range(12):
        page.keyboard.press("Tab")
        if page.evaluate("() => document.activeElement.matches('.dg-attack')"):
            page.keyboard.press("Enter")
            return
    raise AssertionError("Tab from my hunter never reached a dragon's attack button")
