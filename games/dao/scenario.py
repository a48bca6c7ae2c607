"""Positions from card text (``"fire3"``): stacked decks for rule scenarios, tests and examples.

Decks are written top card first here; the engine keeps them top card last.
"""

from __future__ import annotations

from typing import Any

from games.dao import cards as C
from games.dao.engine import KIND, DaoState


def pick(texts: list[str], used: set[int]) -> list[int]:
    """Card ids for ``texts`` (e.g. ``["fire3", "wood0"]``), each a physical card not in ``used``."""
    out = []
    for text in texts:
        element, value = C.parse_card(text)
        card = next(c for c in C.ids_of_type(element, value) if c not in used)
        used.add(card)
        out.append(card)
    return out


def stacked(top_first: list[str], fill: bool = True, used: set[int] | None = None) -> list[int]:
    """A deck (top card last, as the engine keeps it) with ``top_first`` on top.

    ``fill``: the rest of the 60 cards (ascending ids) go below, so all 60 are in play.
    """
    used = set() if used is None else used
    chosen = pick(top_first, used)
    rest = [c for c in range(C.CARD_COUNT) if c not in used] if fill else []
    used.update(rest)
    return list(reversed(chosen + rest))


def game(top_first: list[str], seats: int = 3, fill: bool = True, **options: Any) -> DaoState:
    """A one-round game whose display is the first 3 cards of ``top_first``."""
    opts = KIND.resolve_options({"two_rounds": False, **options}, seats)
    return KIND.start(seats, [stacked(top_first, fill)], opts)


def texts(cards: list[dict]) -> list[str]:
    """``[{"element": "fire", "value": 3}]`` → ``["fire3"]``."""
    return [f"{c['element']}{c['value']}" for c in cards]


def display(state: DaoState) -> list[str]:
    return [C.card_text(c) for c in state.display]


def pile(state: DaoState, seat: int) -> list[str]:
    return [C.card_text(c) for c in state.piles[seat]]
