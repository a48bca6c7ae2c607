"""Ways to split a treasure, by a public valuation of tokens (pure functions of public facts).

The engine lists them as the representative proposals and divisions of ``legal_actions``; the
greedy bot proposes, divides and judges splits with them. The valuation is the score a token is
worth on its own: gold 3, silver 1, red 1, black 7 (advanced: 12, its 19 points less the gems it
stops scoring), and a gem a quarter of its colour's majority (a player rarely wins more than a
few majorities).
"""

from __future__ import annotations

from collections.abc import Mapping

from games.dragons_gold.data import COLOURS, GEMS, empty
from games.dragons_gold.scoring import majority_points


def token_values(seats: int, advanced: bool) -> dict[str, float]:
    """The public worth of one token of each colour."""
    gem = majority_points(seats, advanced) / 4
    values = {"gold": 3.0, "silver": 1.0, "red": 1.0, "black": 12.0 if advanced else 7.0}
    values.update(dict.fromkeys(GEMS, gem))
    return {c: values[c] for c in COLOURS}


def worth(tokens: Mapping[str, float], values: dict[str, float]) -> float:
    return sum(n * values[c] for c, n in tokens.items())


def _tokens_by_value(treasure: dict[str, int], values: dict[str, float]) -> list[str]:
    """Every token of ``treasure``, the most valuable first (ties in colour order)."""
    order = sorted(COLOURS, key=lambda c: (-values[c], COLOURS.index(c)))
    return [c for c in order for _ in range(treasure.get(c, 0))]


def weighted_split(
    treasure: dict[str, int],
    seats: list[int],
    weights: list[float],
    values: dict[str, float],
) -> dict[str, dict[str, int]]:
    """Every token to one of ``seats``, aiming at each seat's ``weight`` share of the worth:
    the most valuable token first, each to the seat furthest below its aim (ties: the earlier
    seat in ``seats``). Keys are seat numbers as text, as in a proposal."""
    total_weight = sum(weights) or 1.0
    total = worth(treasure, values)
    aim = [total * w / total_weight for w in weights]
    got = [0.0] * len(seats)
    shares = [empty() for _ in seats]
    for colour in _tokens_by_value(treasure, values):
        k = max(range(len(seats)), key=lambda i: (aim[i] - got[i], -i))
        shares[k][colour] += 1
        got[k] += values[colour]
    return {str(s): share for s, share in zip(seats, shares, strict=True)}


def balanced_lots(treasure: dict[str, int], lots: int, values: dict[str, float]) -> list[dict]:
    """``lots`` lots of near-equal worth: the most valuable token first, each to the poorest lot
    (ties: the first)."""
    out = [empty() for _ in range(lots)]
    got = [0.0] * lots
    for colour in _tokens_by_value(treasure, values):
        k = min(range(lots), key=lambda i: (got[i], i))
        out[k][colour] += 1
        got[k] += values[colour]
    return out
