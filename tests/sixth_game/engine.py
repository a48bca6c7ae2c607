"""Nim, the sixth game: a tiny engine that proves a game added from outside the project's tree
(the test suite registers it: ``tests.sixth_game.game``) gets the generic tests, pages, review
and words with no shared file edited.

Rules. A pile of stones (option ``pile``, 50 by default) lies between two players; they take
turns, seat 0 first, each taking 1, 2 or 3 stones (never more than are left). Whoever takes the
last stone wins. Each player is dealt a secret wish at the start, a take size from 1 to 3 (the
game's seed deals it): a winner whose last take was its wish scores 2, another winner 1, the
loser 0. The wishes are shown when the game ends.

The bots: ``easy`` takes at random; ``normal`` leaves a multiple of 4 when it can (the winning
rule of this Nim), else takes one.
"""

from __future__ import annotations

import copy
import random
from dataclasses import dataclass, fields
from typing import Any, Literal

from errors import IllegalAction
from games.actions import ActionType, Number
from games.base import GameKind, GameType, OptionSpec
from games.phases import Event, Move, Phase
from games.state import OVER, GameState, enter

NAME = "nim"
MOST = 3


@dataclass(kw_only=True)
class NimState(GameState):
    """A game of Nim: phase ``take``, then ``over``."""

    pile: int
    mover: int
    wishes: list[int]
    last: list[int | None]
    winner: int | None = None


#: What a snapshot holds besides the base's part (``games.state``).
OWN_FIELDS = tuple(
    f.name for f in fields(NimState) if f.name not in {g.name for g in fields(GameState)}
)


class Take(ActionType):
    """``{"type": "take", "count": 1..3}``: stones taken from the pile."""

    type: Literal["take"]
    count: Number


def _to_act(state: NimState) -> list[int]:
    return [state.mover]


def _legal(state: NimState, seat: int) -> list[dict]:
    if seat != state.mover:
        return []
    return [{"type": "take", "count": n} for n in range(1, min(MOST, state.pile) + 1)]


def _take(state: NimState, seat: int, action: Take, events: list[Event]) -> None:
    if not 1 <= action.count <= min(MOST, state.pile):
        raise IllegalAction(f"take 1 to {min(MOST, state.pile)} stones", "action.count")
    state.pile -= action.count
    state.last[seat] = action.count
    events.append({"type": "taken", "seat": seat, "count": action.count, "left": state.pile})
    if state.pile == 0:
        state.winner = seat
        enter(state, OVER)
        events.append({"type": "game_over", "scores": _scores(state)})
    else:
        state.mover = 1 - seat


def _scores(state: NimState) -> list[float]:
    out = [0.0, 0.0]
    if state.winner is not None:
        w = state.winner
        out[w] = 2.0 if state.last[w] == state.wishes[w] else 1.0
    return out


def random_bot(view: dict, legal: list[dict], rng: random.Random) -> dict:
    """Any legal take."""
    return rng.choice(legal)


def normal_bot(view: dict, legal: list[dict], rng: random.Random) -> dict:
    """Leave a multiple of 4 when a take does; else take one."""
    return best_take(view["pile"], legal)


def best_take(pile: int, legal: list[dict]) -> dict:
    """The take that leaves a multiple of 4 (the first legal take when none does)."""
    return next((a for a in legal if (pile - a["count"]) % 4 == 0), legal[0])


class Nim(GameKind[NimState]):
    """The engine (the module doc)."""

    snapshot_format = 1

    def __init__(self) -> None:
        super().__init__(
            GameType(NAME, 2, 2, (OptionSpec("pile", 50, bounds=(5, 99)),)),
            (Phase("take", to_act=_to_act, legal=_legal, moves=(Move(Take, _take),)),),
            {"easy": random_bot, "normal": normal_bot},
        )

    def setup(self, seed: int, seats: int, options: dict, rng: random.Random) -> NimState:
        wishes = [rng.randint(1, MOST) for _ in range(seats)]
        return NimState(
            seed=seed,
            seats=seats,
            options=options,
            rng=rng,
            phase="take",
            pile=options["pile"],
            mover=0,
            wishes=wishes,
            last=[None] * seats,
        )

    def observe(self, state: NimState, seat: int | None) -> dict:
        out: dict[str, Any] = {"pile": state.pile, "mover": state.mover, "last": list(state.last)}
        if seat is not None:
            out["my_wish"] = {"wish": state.wishes[seat]}
        if self.is_over(state):
            out["wishes"] = [{"wish": w} for w in state.wishes]
            out["winner"] = state.winner
        return out

    def scores(self, state: NimState) -> list[float] | None:
        return _scores(state) if self.is_over(state) else None

    def finish(self, state: NimState, end: str, events: list[Event]) -> None:
        """Ended by the table: nobody took the last stone, nobody scores."""
        enter(state, OVER)
        events.append({"type": "game_over", "end": end, "scores": _scores(state)})

    def encode(self, state: NimState) -> dict:
        return {name: copy.copy(getattr(state, name)) for name in OWN_FIELDS}

    def decode(self, data: dict, common: dict[str, Any]) -> NimState:
        return NimState(**common, **{name: copy.copy(data[name]) for name in OWN_FIELDS})

    def private_items(self, state: NimState, seat: int) -> list[Any]:
        return [{"wish": state.wishes[seat]}]
