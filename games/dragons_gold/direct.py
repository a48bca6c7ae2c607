"""The normal bot's fight (``games.dragons_gold.greedy``) read from the state itself, for a
strong bot's rollouts: the same play, with no view built.

A rollout (``games.dragons_gold.strong``) asks the fight's policy for about thirty plays a game,
each time over every hunter, Sword and dragon of the seat; the view it read (every dragon's
entry, every player's) cost more than the choice. ``Fight`` scores each play as
``greedy._play_score`` does, term by term and in the same order (so the very same floats), on
the sampled state: the treasure's worth and each seat's attack on a dragon computed once per
dragon rather than once per play, ``greedy._average_token`` once per rollout. Ties break as the
normal bot's do (the weaker hunter, then the leftmost dragon); a Map is used at once.
``tests/test_dragons_gold_cheap.py`` checks it against ``greedy.fight`` on the whole view.
"""

from __future__ import annotations

from games.actions import Action
from games.dragons_gold.data import ATTACK, COLOURS, DRAGONS, ITEM_OF_CARD, SWORD_BONUS
from games.dragons_gold.greedy import NEGOTIATION_RISK, NOT_SLAYING, _average_token, best_play
from games.dragons_gold.splits import token_values
from games.dragons_gold.table import DragonsGoldState, attack


class Fight:
    """The normal bot's fight for the seats of one game (its token values fixed)."""

    def __init__(self, seats: int, advanced: bool) -> None:
        self.values = token_values(seats, advanced)
        self.average = _average_token(self.values)
        self.advanced = advanced

    def move(self, state: DragonsGoldState, seat: int, legal: list[Action]) -> Action:
        """``greedy.fight``'s play for ``seat`` among ``legal`` (module doc)."""
        for action in legal:
            if action["type"] == "use" and ITEM_OF_CARD[action["card"]] == "map":
                return dict(action)
        dragons = [self._dragon(state, seat, i) for i in range(len(state.row))]
        return best_play(legal, lambda action: self._score(dragons[action["dragon"]], action))

    def _dragon(self, state: DragonsGoldState, seat: int, index: int) -> tuple:
        """What every play on dragon ``index`` reads: its attack, my attack on it, its
        strength, the treasure's expected worth, whether others hunt it, its wizards and
        its red tokens."""
        dragon = state.row[index]
        card = DRAGONS[dragon.id]
        hidden = min(card["hidden"], len(state.bag))
        tokens, values = dragon.treasure, self.values
        # ``worth(full(tokens), values)``: the same products summed in the same order
        treasure = sum(tokens.get(c, 0) * values[c] for c in COLOURS) + hidden * self.average
        stack = dragon.stack
        mine = sum(e["attack"] for e in stack if e["seat"] == seat)
        others = bool({e["seat"] for e in stack} - {seat})
        wizards = sum(1 for e in stack if e["hunter"] == "wizard")
        red = dragon.treasure.get("red", 0)
        return (attack(dragon), mine, card["strength"], treasure, others, wizards, red)

    def _score(self, dragon: tuple, action: Action) -> float | None:
        """``greedy._play_score`` of ``action`` on the dragon's facts (``_dragon``)."""
        attacked, already, strength, treasure, others, wizards, red = dragon
        sword = "card" in action
        a = ATTACK[action["hunter"]] + (SWORD_BONUS if sword else 0)
        total = attacked + a
        mine = a + already
        if total < strength:
            if sword:
                return None
            return NOT_SLAYING * treasure * (mine / total) * (total / strength)
        if sword and total - SWORD_BONUS >= strength:
            return None
        if not others:
            return treasure
        gain = treasure * mine / total * NEGOTIATION_RISK
        if action["hunter"] == "thief":
            gain += self.average
        if action["hunter"] == "wizard" and wizards == 0 and not self.advanced:
            gain += red * self.values["red"] * (1 - mine / total)
        return gain
