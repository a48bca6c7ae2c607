"""The 52-card clue deck (rules §2), loaded once from ``solver/data/deck.json``.

The published split of the deck is not known; the project's split is in the rules file:
in T ×6, not in T ×6, in the largest T ×6, within 1 of X ×10, within 2 of X ×10,
not within 1 of X ×7, not within 2 of X ×7. A card's id is its index in ``DECK``.
"""

from __future__ import annotations

import json
from pathlib import Path

from errors import InvalidInput
from solver.clues import Clue, parse_clue

DECK_FILE = Path(__file__).with_name("data") / "deck.json"
DECK_SIZE = 52


def load_deck(path: Path = DECK_FILE) -> tuple[Clue, ...]:
    """Read and validate a deck file (a JSON object whose ``cards`` are clue notations)."""
    with open(path, encoding="utf-8") as f:
        data = json.load(f)
    cards = tuple(parse_clue(c, f"cards[{i}]") for i, c in enumerate(data["cards"]))
    if len(cards) != DECK_SIZE:
        raise ValueError(f"{path} holds {len(cards)} cards, expected {DECK_SIZE}")
    return cards


#: The 52 cards; a card's id is its index.
DECK: tuple[Clue, ...] = load_deck()


def card(card_id: int) -> Clue:
    """The clue of card ``card_id`` (0–51); ``InvalidInput`` for any other id."""
    if isinstance(card_id, bool) or not isinstance(card_id, int) or not 0 <= card_id < len(DECK):
        raise InvalidInput(f"card id must be 0-{len(DECK) - 1}, got {card_id!r}", "card")
    return DECK[card_id]
