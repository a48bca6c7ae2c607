"""Bots trade at Dragon's Gold's market (``games.dragons_gold.trading``, ``strong_trading``):
swaps that raise the trader's own estimate, never a refused offer again, and the market ends."""

from __future__ import annotations

import random

import pytest

from games.base import SYSTEM, get_kind, play_bots
from games.dragons_gold.trading import MAX_OFFERS, change, estimate_of, normal_market

KIND = get_kind("dragons_gold")


def _market_game(levels: list[str], seed: int, advanced: bool = False) -> list[dict]:
    """Play a bot game; the market's events, each with the views of its seats just before."""
    state = KIND.new_state(seed, len(levels), {"advanced": advanced})
    seen: list[dict] = []
    views: list[dict] = []

    def keep(seat, action, events):
        for e in events:
            if e["type"] in ("offer", "trade", "offer_rejected", "market_opened", "left_market"):
                seen.append({**e, "views": views[:]})

    rng = random.Random(seed)
    while not KIND.is_over(state):
        views[:] = (
            [KIND.view(state, s) for s in range(state.seats)] if state.phase == "market" else []
        )
        found = None
        for seat in KIND.to_act(state):
            action = KIND.bot_action(state, seat, levels[seat], rng)
            if action is not None:
                found = seat, action
                break
        seat, action = found if found else (SYSTEM, KIND.timeout_action(state, rng))
        keep(seat, action, KIND.apply(state, seat, action))
    return seen


def _key(e: dict) -> tuple:
    return e["from"], e["to"], tuple(sorted(e["give"].items())), tuple(sorted(e["get"].items()))


@pytest.mark.parametrize("advanced", [False, True])
def test_normal_bots_trade_at_most_markets_and_every_trade_raises_both_estimates(advanced):
    markets = traded = 0
    for seed in range(8):
        events = _market_game(["normal"] * (3 + seed % 4), seed, advanced)
        if not any(e["type"] == "market_opened" for e in events):
            continue
        markets += 1
        trades = [e for e in events if e["type"] == "trade"]
        traded += bool(trades)
        for t in trades:
            for seat, gets, gives in (
                (t["to"], t["give"], t["get"]),
                (t["from"], t["get"], t["give"]),
            ):
                view = t["views"][seat]
                mine = view["players"][seat]["hoard"]
                estimate = estimate_of(view)
                assert estimate(change(mine, gives, gets)) > estimate(mine), (seed, t)
    assert markets >= 6 and traded / markets > 0.5


@pytest.mark.parametrize(
    "levels",
    [["normal"] * 4, pytest.param(["strong", "normal", "normal"], marks=pytest.mark.slow)],
)
def test_no_bot_repeats_a_refused_offer_nor_makes_more_than_its_share(levels):
    for seed in range(3 if "strong" in levels else 6):
        refused: set[tuple] = set()
        made: dict[int, int] = {}
        for e in _market_game(levels, seed):
            if e["type"] == "offer":
                assert _key(e) not in refused, (seed, e)
                made[e["from"]] = made.get(e["from"], 0) + 1
            elif e["type"] == "offer_rejected":
                refused.add(_key(e))
        assert all(n <= MAX_OFFERS for n in made.values())


@pytest.mark.slow
def test_the_strong_bot_trades_and_the_market_ends():
    trades = 0
    for seed in range(3):
        state = KIND.new_state(seed, 3, None)
        levels = ["normal"] * 3
        levels[seed % 3] = "strong"
        play_bots(KIND, state, levels, random.Random(seed))
        assert KIND.is_over(state)
        trades += state.stats["trades"]
    assert trades >= 2


def _at_market(seed: int = 1, seats: int = 4):
    state = KIND.new_state(seed, seats, None)
    rng = random.Random(seed)
    while state.phase != "market":
        assert not KIND.is_over(state)
        seat, action = next(
            (s, a)
            for s in KIND.to_act(state)
            if (a := KIND.bot_action(state, s, "normal", rng)) is not None
        )
        KIND.apply(state, seat, action)
    return state


def test_a_bot_offers_to_a_human_waits_for_the_answer_and_never_repeats_a_refused_one():
    state = _at_market()
    human = 0
    offered: list[tuple] = []
    for _ in range(200):
        if state.phase != "market":
            break
        to_me = [o for o in state.market.offers if o["to"] == human]
        for o in to_me:  # the human refuses everything
            KIND.apply(state, human, {"type": "reject", "offer": o["id"]})
            offered.append(_key(o))
        moved = False
        for seat in KIND.to_act(state):
            if seat == human:
                continue
            action = KIND.bot_action(state, seat, "normal", random.Random(0))
            if action is not None:
                KIND.apply(state, seat, action)
                moved = True
                break
        if not moved and not to_me:
            break
    assert offered, "no bot offered the human anything"
    assert len(offered) == len(set(offered))
    # every bot has left: only the human is in the market (the clock or the human ends it)
    assert state.phase != "market" or sorted(state.market.done) == [1, 2, 3]


def test_a_bot_accepts_a_helpful_offer_and_rejects_a_gift_request():
    state = _at_market()
    bot = 1
    view = KIND.view(state, bot)
    mine = view["players"][bot]["hoard"]
    estimate = estimate_of(view)
    held = [c for c, n in mine.items() if n]
    begging = {"id": 99, "from": 0, "to": bot, "give": {}, "get": {held[0]: 1}}
    view["market"]["offers"] = [begging]
    legal = [{"type": "accept", "offer": 99}, {"type": "reject", "offer": 99}, {"type": "done"}]
    assert normal_market(view, legal) == {"type": "reject", "offer": 99}
    gift = {"id": 99, "from": 0, "to": bot, "give": {"gold": 1}, "get": {}}
    assert estimate(change(mine, {}, gift["give"])) > estimate(mine)
    view["market"]["offers"] = [gift]
    assert normal_market(view, legal) == {"type": "accept", "offer": 99}
