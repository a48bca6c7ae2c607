"""Hints: every legal clue play of a hand, what it leaves, and a ranking for the player to move.

For each legal play (hand card × map, rules §3) a ``Hint`` gives the candidates it leaves, and the
driving cost (rules §5) from every ATV to the nearest remaining candidate. Drive costs come from
``solver.compiled.drive_from``, kept per island geometry and start, so a call costs a few
microseconds per play:
the game's strategic bot ranks its plays with it on every decision, the web helper on every
request.

The ranking heuristic (higher score = better for the player ``me``)::

    score = 1.5 × lead + progress + finish

- ``lead`` = (closest rival's cost − my cost) to the nearest remaining candidate, clamped to
  [−3, 3] (0 with no rivals; an unreachable candidate set counts as cost 9). A play that leaves
  the treasure nearer to me than to anyone else is worth more: I am the likelier one to raise it.
- ``progress`` = log2(candidates before / candidates after): the information the clue adds. Every
  clue placed earns a share of the treasure, and a narrower map is raised sooner.
- ``finish`` applies when the play leaves exactly one candidate (the treasure is located):
  +2 if I can reach it in one drive (≤ 3 movement points) no later than any rival,
  −1 if a rival reaches it strictly sooner (I still hold a share, but they raise it).

Ties are broken by fewer remaining candidates, then hand order, then map order. The reason line
(``Hint.reason``, worded on demand) states the dominant facts in words.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from errors import InvalidInput
from hexmap.drive import DRIVE_POINTS, DriveCosts
from hexmap.hexes import Hex
from hexmap.island import Island
from hexmap.island_json import parse_space
from solver.clues import Clue, describe_clue
from solver.compiled import CompiledIsland, compile_island, drive_from
from solver.masks import MapColumn, as_map_column
from solver.options import DEFAULT_OPTIONS, SolverOptions

#: Cost standing in for "cannot be reached" in the lead term.
UNREACHABLE = 9
LEAD_WEIGHT = 1.5
LEAD_CAP = 3


@dataclass(frozen=True, slots=True)
class Hint:
    """One legal play and its consequences, with its score (``reason`` words it)."""

    hand_index: int
    map: str
    clue: Clue
    candidates: int  # mask of the candidates the play leaves
    remaining: int
    before: int
    #: Drive cost from each ATV (``me`` first, then ``others`` in order) to the nearest remaining
    #: candidate; ``None`` if none is reachable (or for ``me`` when no ATV was given).
    costs: tuple[int | None, ...]
    score: float

    @property
    def my_cost(self) -> int | None:
        return self.costs[0]

    @property
    def rival_cost(self) -> int | None:
        """The least cost among the other ATVs (None with no rivals or none reachable)."""
        known = [c for c in self.costs[1:] if c is not None]
        return min(known) if known else None

    @property
    def finish(self) -> float:
        """The score's finish term: +2 when the play locates the treasure and I reach it first
        within one drive, −1 when a rival reaches it strictly sooner, else 0."""
        return _finish(self.remaining, self.costs[0], self.rival_cost)

    @property
    def reason(self) -> str:
        """The play in words: what it leaves, then who is nearer (English; the web layer words
        it in the page's language from the same fields)."""
        return _reason(self.before, self.remaining, self.costs)

    def to_json(self, island: Island) -> dict:
        return {
            "hand_index": self.hand_index,
            "map": self.map,
            "clue": self.clue.notation,
            "remaining": self.remaining,
            "before": self.before,
            "candidates": [[h.q, h.r] for h in island.spaces_of(self.candidates)],
            "costs": list(self.costs),
            "score": round(self.score, 3),
            "reason": self.reason,
        }


def _position(island: Island, value: Any, field: str) -> Hex:
    h = parse_space(value, field)
    if h not in island.terrain:
        raise InvalidInput(f"({h.q}, {h.r}) is not an island space", field)
    return h


def hints(
    island: Island,
    maps: Sequence[MapColumn | Any],
    hand: Sequence[Clue],
    me: tuple[int, int] | None,
    others: Iterable[tuple[int, int]] = (),
    options: SolverOptions = DEFAULT_OPTIONS,
) -> list[Hint]:
    """Every legal play of ``hand`` on ``maps``, best first for the player whose ATV is ``me``.

    ``others`` are the other players' ATV spaces. See the module doc for the heuristic.
    """
    t = compile_island(island, options)
    columns = [as_map_column(island, m) for m in maps]
    atvs: list[DriveCosts | None] = [
        drive_from(island, _position(island, me, "me")) if me is not None else None
    ]
    atvs += [drive_from(island, _position(island, o, f"others[{i}]")) for i, o in enumerate(others)]
    return ranked_plays(
        [(col.id, t.column(col.clues, col.removed)) for col in columns], t, hand, atvs
    )


def ranked_plays(
    columns: Sequence[tuple[str, int]],
    compiled: CompiledIsland,
    hand: Sequence[Clue],
    atvs: Sequence[DriveCosts | None],
    best_only: bool = False,
) -> list[Hint]:
    """``hints``' work on what it has checked and looked up: each map as ``(id, candidates
    mask)``, the compiled island, the hand, and the drive tables of ``me`` (``None``: no ATV)
    and then of the others. A caller that holds the candidates already (the strong bot's
    rollouts read them off a state) ranks its plays without a column's clues recombined or a
    space checked again; the same plays, scores and order as ``hints``. ``best_only``: the
    first of them alone (the others' ``Hint`` not built)."""
    rivals = len(atvs) > 1
    masks = compiled.masks
    hand_masks = [masks[clue.code] for clue in hand]
    # (-score, after, hand index, map index): the order, unique per play; then the rest.
    found: list[tuple[float, int, int, int, str, int, int, tuple[int | None, ...]]] = []
    for mi, (mid, before_mask) in enumerate(columns):
        before = before_mask.bit_count()
        for hi, clue_mask in enumerate(hand_masks):
            after_mask = before_mask & clue_mask
            after = after_mask.bit_count()
            if not 0 < after < before:
                continue
            costs = tuple([a.nearest(after_mask) if a is not None else None for a in atvs])
            known = [c for c in costs[1:] if c is not None]
            score = _scored(before, after, costs[0], min(known) if known else None, rivals)
            found.append((-score, after, hi, mi, mid, after_mask, before, costs))
    if best_only:
        found = [min(found)] if found else []
    else:
        found.sort()
    return [
        Hint(hi, mid, hand[hi], mask, after, before, costs, -neg)
        for neg, after, hi, _, mid, mask, before, costs in found
    ]


def _rival(costs: tuple[int | None, ...]) -> int | None:
    rivals = [c for c in costs[1:] if c is not None]
    return min(rivals) if rivals else None


def _finish(after: int, mine: int | None, rival: int | None) -> float:
    """+2: I locate the treasure and reach it first within one drive; −1: a rival gets there
    strictly sooner; 0 otherwise."""
    if after == 1 and mine is not None:
        if mine <= DRIVE_POINTS and (rival is None or mine <= rival):
            return 2.0
        if rival is not None and rival < mine:
            return -1.0
    return 0.0


def _scored(before: int, after: int, mine: int | None, rival: int | None, rivals: bool) -> float:
    """``1.5 × lead + progress + finish`` (see the module doc) from my cost to the nearest
    candidate left and the closest rival's (``None``: unreachable, or no rival)."""
    if rivals:
        my_eff = UNREACHABLE if mine is None else mine
        rival_eff = UNREACHABLE if rival is None else rival
        lead = max(-LEAD_CAP, min(LEAD_CAP, rival_eff - my_eff))
    else:
        lead = 0
    return LEAD_WEIGHT * lead + math.log2(before / after) + _finish(after, mine, rival)


def _reason(before: int, after: int, costs: tuple[int | None, ...]) -> str:
    """What the play leaves, then who is nearer."""
    mine = costs[0]
    rival = _rival(costs)
    finish = _finish(after, mine, rival)
    spaces = "space" if after == 1 else "spaces"
    head = "locates the treasure" if after == 1 else f"leaves {after} of {before} {spaces}"
    where = "out of your reach" if mine is None else f"{_moves(mine)} from you"
    if len(costs) > 1:
        where += "; closest rival " + (_moves(rival) if rival is not None else "cannot reach it")
    if finish > 0:
        where += " — you can raise it next drive"
    elif finish < 0:
        where += " — a rival gets there first"
    return f"{head}, nearest {where}"


def _moves(n: int | None) -> str:
    if n is None:
        return "unreachable"
    return f"{n} move" if n == 1 else f"{n} moves"


def hint_lines(island: Island, hint_list: Sequence[Hint], lang: str = "en") -> list[str]:
    """Readable lines for a list of hints (used by the CLI and for debugging)."""
    return [
        f"{k + 1}. card {h.hand_index} ({describe_clue(h.clue, lang)}) on {h.map}: {h.reason} "
        f"[score {h.score:.2f}]"
        for k, h in enumerate(hint_list)
    ]
