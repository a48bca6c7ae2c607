"""Dragon's Gold's ``normal`` level (once ``greedy``; registered in ``games.dragons_gold.bots``):
a stated, deterministic policy (it never uses ``rng`` and never reads a clock), and the rollout
policy of the ``strong`` level (``games.dragons_gold.strong``). Tokens are worth their public
value (``splits.token_values``).

*Fight.* Every play is scored by what it should bring: a play that slays brings the treasure
(its tokens plus the hidden draw, at the average token's worth) times my share of the attack
(all of it when I fight alone; times 0.85 when a negotiation must follow), plus a token for a
thief among several slayers and the red tokens for a lone wizard (basic rules); a play that
does not slay brings 0.4 × treasure × my share of the attack × how far the stack gets towards
the strength. Best score first; ties: the weaker hunter, then the leftmost dragon. A Sword goes
only with a play that slays thanks to it. Advanced: a Map is used at once; other items never.

*Negotiation.* My fair share is the treasure's worth times my share of the attack. Patience
``p = min(1, proposals / 4)`` grows with the number of proposals made in this negotiation
(the view's ``proposals``), never with time. I accept a proposal worth at least
``(1 - p) × fair`` to me; otherwise I propose the split by attack (``splits.weighted_split``,
me first among equals); with no proposal on the table I propose it; after proposing, or once I
accepted, I wait (``None``). Division: I divide into balanced lots, I pick the richest lot.

*Thief.* A token is worth its public value to me, but the black diamond under the advanced
rules is worth its 19 points less what my own gems would score (``_gem_stake``: each gem at
its public value, each full set 5): stealing it can cost me more than it brings. A random
token from a victim is worth ``p × black + (1 - p) × the average other token``, where ``p``
is the chance of drawing the diamond: one in the victim's tokens when the split just made
gave it the diamond (public), none when the diamond lies in the open (on a dragon, out of the
game) or is mine, else one in every token it might be among (the bag and the other screens).
I steal from the victim worth the most (ties: the most tokens, the lowest seat) and decline
when no theft is worth anything; looking behind a screen, I take the colour worth the most
to me, or decline when none is worth anything.

*Market.* ``games.dragons_gold.trading``: I accept an offer that raises my estimate of my
score (majorities in the balance counted), reject the others, offer the one-for-one swap that
raises it most (never one refused before, at most ``trading.MAX_OFFERS``), and leave when no
swap helps.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from games.base import Action, get_kind
from games.dragons_gold.data import (
    ATTACK,
    DRAGONS,
    GEMS,
    SCORING,
    SWORD_BONUS,
    TOKEN_COUNTS,
    sparse,
)
from games.dragons_gold.splits import token_values, weighted_split, worth
from games.dragons_gold.trading import normal_market
from games.dragons_gold.views import declared_phase

#: A negotiation's expected yield against the split by attack (it may fail).
NEGOTIATION_RISK = 0.85
NOT_SLAYING = 0.4
PATIENCE_PROPOSALS = 4


def _average_token(values: dict[str, float]) -> float:
    return sum(TOKEN_COUNTS[c] * v for c, v in values.items()) / sum(TOKEN_COUNTS.values())


def _play_score(view: dict, action: Action, values: dict[str, float]) -> float | None:
    me = view["me"]
    dragon = view["dragons"][action["dragon"]]
    sword = "card" in action
    a = ATTACK[action["hunter"]] + (SWORD_BONUS if sword else 0)
    total = dragon["attack"] + a
    mine = a + sum(e["attack"] for e in dragon["hunters"] if e["seat"] == me)
    hidden = min(DRAGONS[dragon["id"]]["hidden"], view["bag"])
    treasure = worth(dragon["treasure"], values) + hidden * _average_token(values)
    others = {e["seat"] for e in dragon["hunters"]} - {me}
    if total < dragon["strength"]:
        if sword:
            return None  # a Sword only where it slays
        return NOT_SLAYING * treasure * (mine / total) * (total / dragon["strength"])
    if sword and total - SWORD_BONUS >= dragon["strength"]:
        return None  # it slays without the Sword
    if not others:
        return treasure
    gain = treasure * mine / total * NEGOTIATION_RISK
    if action["hunter"] == "thief":
        gain += _average_token(values)
    wizards = sum(1 for e in dragon["hunters"] if e["hunter"] == "wizard")
    if action["hunter"] == "wizard" and wizards == 0 and not view["options"]["advanced"]:
        gain += dragon["treasure"]["red"] * values["red"] * (1 - mine / total)
    return gain


def _fight(view: dict, legal: list[Action], values: dict[str, float]) -> Action:
    for action in legal:
        if action["type"] == "use" and _item(view, action["card"]) == "map":
            return dict(action)
    return best_play(legal, lambda action: _play_score(view, action, values))


def best_play(legal: list[Action], score: Callable[[Action], float | None]) -> Action:
    """The play of ``legal`` with the best ``score`` (None: never), ties to the weaker hunter,
    then the leftmost dragon; ``legal[0]`` if no play scores (the strong bot's rollouts score
    from the state: ``games.dragons_gold.direct``)."""
    best: tuple[float, int, int] | None = None
    choice = legal[0]
    for action in legal:
        if action["type"] != "play":
            continue
        value = score(action)
        if value is None:
            continue
        key = (value, -ATTACK[action["hunter"]], -action["dragon"])
        if best is None or key > best:
            best, choice = key, action
    return dict(choice)


def _item(view: dict, card: int) -> str:
    hand = view["players"][view["me"]]["hand"] or []
    return next(c["item"] for c in hand if c["card"] == card)


def _negotiate(view: dict, legal: list[Action], values: dict[str, float]) -> Action | None:
    me, neg = view["me"], view["negotiation"]
    treasure = view["dragons"][neg["dragon"]]["treasure"]
    parts, attack = neg["participants"], neg["attack"]
    fair = worth(treasure, values) * attack[parts.index(me)] / sum(attack)
    patience = min(1.0, neg["proposals"] / PATIENCE_PROPOSALS)
    proposal = neg["proposal"]
    if proposal is not None and proposal["by"] == me:
        return None
    if proposal is not None:
        mine = worth(proposal["shares"][str(me)], values)
        if mine >= (1 - patience) * fair - 1e-9:
            if proposal["answers"][str(me)] == "accept":
                return None
            return {"type": "accept", "proposal": proposal["number"]}
    order = [me] + [p for p in parts if p != me]
    weights = [float(attack[parts.index(p)]) for p in order]
    shares = weighted_split(treasure, order, weights, values)
    return {"type": "propose", "shares": {str(p): sparse(shares[str(p)]) for p in parts}}


def greedy_bot(view: dict, legal: list[Action], rng: random.Random) -> Action | None:
    """The stated policy of this module's docstring: the running phase's piece
    (``Phase.bot["greedy"]``, declared with the phase in ``games.dragons_gold.engine``), each
    ``piece(view, legal, values)``; a phase without one (the divide): the first listed."""
    values = token_values(view["seats"], view["options"]["advanced"])
    piece = get_kind("dragons_gold").bot_hook(declared_phase(view), "greedy")
    if piece is None:
        return dict(legal[0])  # divide: the first listed division is the balanced one
    result: Action | None = piece(view, legal, values)
    return result


def fight(view: dict, legal: list[Action], values: dict[str, float]) -> Action:
    """A fight's play (``_fight``)."""
    return _fight(view, legal, values)


def market(view: dict, legal: list[Action], values: dict[str, float]) -> Action | None:
    """The market's trade (``games.dragons_gold.trading.normal_market``)."""
    return normal_market(view, legal)


def proposals(view: dict, legal: list[Action], values: dict[str, float]) -> Action | None:
    """A negotiation's proposal or answer (``_negotiate``)."""
    return _negotiate(view, legal, values)


def pick(view: dict, legal: list[Action], values: dict[str, float]) -> Action:
    """The lot worth most by the public values (the first of equals)."""
    lots = view["negotiation"]["lots"]
    picks = [a for a in legal if a["type"] == "pick"]
    return dict(max(picks, key=lambda a: (worth(lots[a["lot"]], values), -a["lot"])))


def theft(view: dict, legal: list[Action], values: dict[str, float]) -> Action:
    """A thief's steal or look (``_theft``)."""
    return _theft(view, legal, values)


def _gem_stake(view: dict, values: dict[str, float]) -> float:
    """What my gems score by the public values (advanced: with 5 per full set)."""
    hoard = view["players"][view["me"]]["hoard"] or {}
    stake = sum(hoard.get(g, 0) * values[g] for g in GEMS)
    if view["options"]["advanced"]:
        stake += min(hoard.get(g, 0) for g in GEMS) * SCORING["advanced"]["set"]
    return stake


def _worth_to_me(view: dict, values: dict[str, float]) -> dict[str, float]:
    """One more token of each colour, to me (the diamond's cost to my gems counted)."""
    mine = dict(values)
    if view["options"]["advanced"]:
        mine["black"] = SCORING["advanced"]["points"]["black"] - _gem_stake(view, values)
    return mine


def _diamond_chance(view: dict, victim: int) -> float:
    """The chance that a random token from ``victim`` is the black diamond (docstring)."""
    players = view["players"]
    tokens = players[victim]["tokens"]
    received = view["negotiation"]["received"] or {}
    holder = next((int(s) for s, got in received.items() if got.get("black")), None)
    in_open = view["removed"].get("black", 0) or any(
        d["treasure"]["black"] for d in view["dragons"]
    )
    if holder is not None:
        return 1 / tokens if holder == victim and tokens else 0.0
    if in_open or (players[view["me"]]["hoard"] or {}).get("black"):
        return 0.0
    unknown = view["bag"] + sum(p["tokens"] for p in players if p["seat"] != view["me"])
    return 1 / unknown if unknown else 0.0


def _theft(view: dict, legal: list[Action], values: dict[str, float]) -> Action:
    mine = _worth_to_me(view, values)
    if view["negotiation"]["step"] == "look":
        takes = [a for a in legal if a["type"] == "take"]
        pick = max(takes, key=lambda a: mine[a["colour"]], default=None)
        if pick is None or mine[pick["colour"]] <= 0:
            return {"type": "decline"}
        return dict(pick)
    others = {c: n for c, n in TOKEN_COUNTS.items() if c != "black"}
    average = sum(n * values[c] for c, n in others.items()) / sum(others.values())
    tokens = {p["seat"]: p["tokens"] for p in view["players"]}

    def expected(a: Action) -> float:
        p = _diamond_chance(view, a["from"])
        return p * mine["black"] + (1 - p) * average

    steals = [a for a in legal if a["type"] == "steal"]
    best = max(steals, key=lambda a: (expected(a), tokens[a["from"]], -a["from"]), default=None)
    if best is None or expected(best) <= 0:
        return {"type": "decline"}
    return dict(best)
