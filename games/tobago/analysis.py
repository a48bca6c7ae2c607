"""Tobago's piece of the review: the deduction helper at any step, decisions judged by the
strong bot's search, and each seat's expected gold. Everything is a pure function of one seat's
view.

**The helper** (``helper``) is what the game page's helper panel shows, built here from the
seat's view alone (the same facts ``POST /api/tobago/helper`` answers from a public position):
per map why each non-candidate space is out (``solver.explain``), the column as steps, the drive
cost from each placed ATV (the seat's first) to the map's nearest candidate, and the hint ranking
of the seat's hand (``solver.hints``).

**Decisions** are judged by the ``strong`` level's search (``games.tobago.search``), the
strongest Tobago bot, in *gold of lead*: the seat's gold plus its markers' expected shares less
the best other seat's, once the seat's next turn is played (a sharing's answer: once the sharing
ends). At each step where the strong bot would
compare moves (a turn's first action, an extra clue play or the extra marker, a first clue's map,
a sharing's accept or decline), its candidates (``search.candidates``: the normal bot's move, the
solver's best clue plays, an exchange, an amulet, up to ``ANALYSIS_CANDIDATES``) and the move made
are each played on in the same ``ANALYSIS_ROLLOUTS`` states sampled from the seat's view; a
move's value is its mean. Drive steps and the ATV's placement are not rated (the strong bot
drives as the normal one does). The analysis has a budget of its own, smaller than the bot's
(it judges every decision of a game; ``bench/review_bench.py`` prints what a full analysis
costs), and one fixed generator: the same record gives the same analysis.

Marks (loss = best value − value of the move made, gold of lead): **best** ≤ 0.000001 (the best
or a move of equal value), **good** ≤ 0.5 (half a gold: within the search's noise),
**inaccuracy** ≤ 1.5 (about a share's worth), **mistake** above (e.g. a treasure card of 4
passed over for nothing better).

**Expected gold** (the chart) from a seat's own view: the gold of its treasure cards plus, for
every compass marker of its on a map's column, the gold a share there is expected to bring,
``SHARE_GOLD`` by the map's candidate count (measured: ``data/analysis.json`` says how). At the
end it is the seat's score.
"""

from __future__ import annotations

from typing import Any

from games.analysis import Analyst, Judgement, Thresholds, best_of, seeded
from games.base import Action, get_kind
from games.review import merged_with_own
from games.tobago import search
from games.tobago.islands import island_for_view
from games.tobago.shares import share_gold
from hexmap.hexes import Hex
from solver.answer import helper_maps, play_refusals
from solver.clues import parse_clue
from solver.compiled import compile_island, drive_from
from solver.hints import Hint, hints
from solver.masks import MapColumn, clue_mask
from solver.options import SolverOptions

THRESHOLDS = Thresholds(good=0.5, inaccuracy=1.5)
#: The analysis's think budget (module doc): states sampled per move, the most candidates beside
#: the move made; each sampled state is played on through the seat's next turn.
ANALYSIS_ROLLOUTS = 3
ANALYSIS_CANDIDATES = 3


def _hex(v: Any) -> Hex | None:
    return None if v is None else Hex(v[0], v[1])


def _options(view: dict) -> SolverOptions:
    o = view["options"]
    return SolverOptions(o["near_includes_target"], o["treasure_on_landmarks"])


def _columns(island: Any, view: dict) -> list[MapColumn]:
    mask_of = island.mask_of
    return [
        MapColumn(
            m["colour"],
            tuple(parse_clue(c["clue"]) for c in m["clues"]),
            mask_of(tuple(r) for r in m["removed"]),
        )
        for m in view["maps"]
    ]


def _atvs(view: dict) -> tuple[Hex | None, list[int], list[Hex]]:
    """The seat's ATV, then the other placed ATVs' seats and spaces (the helper's cost order)."""
    seat = view["seat"]
    players = view["players"]
    me = _hex(players[seat]["atv"]) if seat is not None else None
    others = [p for p in players if p["seat"] != seat and p["atv"] is not None]
    return me, [p["seat"] for p in others], [Hex(*p["atv"]) for p in others]


def hint_json(hint: Hint, hand: list[dict], island: Any) -> dict:
    """A hint as the review sends it (the web layer words ``sentence`` and ``reason``)."""
    return {
        **hint.to_json(island),
        "card": hand[hint.hand_index]["id"],
        "rival_cost": hint.rival_cost,
        "finish": hint.finish,
    }


def helper(view: dict) -> dict:
    """The deduction helper for the seat of ``view`` (see the module doc); a spectator's view
    gets the maps' part and no hints."""
    island = island_for_view(view["island"])
    options = _options(view)
    t = compile_island(island, options)
    columns = _columns(island, view)
    me, other_seats, others = _atvs(view)
    seat = view["seat"]
    cost_seats = ([seat] if me is not None else []) + other_seats
    layers = [drive_from(island, h) for h in ([me] if me is not None else []) + others]
    maps_out = helper_maps(t, columns, layers)
    hand = view["players"][seat].get("hand") or [] if seat is not None else []
    clues = [parse_clue(c["clue"]) for c in hand]
    ranked = hints(island, columns, clues, me, others, options)
    return {
        "refusals": play_refusals(t, columns, clues),
        "seat": seat,
        "cost_seats": cost_seats,
        "with_me": me is not None,
        "maps": maps_out,
        "hints": [hint_json(h, hand, island) for h in ranked] if hand else [],
    }


def expected_gold(view: dict) -> float:
    """The seat's treasure gold plus its shares' expected gold (module doc); its score at the
    end."""
    seat = view["seat"]
    me = view["players"][seat]
    held = float(sum(c["value"] for c in me.get("treasures") or []))
    if view["phase"] == "over":
        return held
    shares = 0.0
    for m in view["maps"]:
        n = sum(e["markers"] for e in m["clues"] if e["seat"] == seat)
        n += 1 if m["raiser"] == seat else 0
        if n:
            shares += n * share_gold(m["count"])
    return held + shares


# --- judging decisions ----------------------------------------------------------------------


def _described(action: Action, view: dict) -> dict:
    """What the page says about a move: a clue play's clue, map and candidates left (the
    solver's), or the action's type."""
    out: dict[str, Any] = {"type": action["type"]}
    if action["type"] == "play_clue":
        hand = view["players"][view["seat"]]["hand"]
        clue = next(c["clue"] for c in hand if c["id"] == action["card"])
    elif action["type"] == "first_clue" and view.get("drawn"):
        clue = view["drawn"]["clue"]
    else:
        return out
    island = island_for_view(view["island"])
    shown = next(m for m in view["maps"] if m["colour"] == action["map"])
    candidates = island.mask_of(tuple(c) for c in shown["candidates"])
    remaining = (candidates & clue_mask(island, parse_clue(clue), _options(view))).bit_count()
    return {**out, "clue": clue, "map": action["map"], "remaining": remaining}


def judge(view: dict, legal: list[Action], played: Action) -> Judgement | None:
    """A move judged by its phase's own hook (``Phase.analysis``, declared with the phase in
    ``games.tobago.kind``: the first clue, the turn, the sharing; the ATV's placing is not
    rated)."""
    hook = get_kind("tobago").phase_hook(view["phase"], "analysis")
    return None if hook is None else hook(view, legal, played)


def judge_searched(view: dict, legal: list[Action], played: Action) -> Judgement | None:
    """``played`` from ``view`` in gold of lead (module doc), or ``None`` when unrated."""
    if played not in legal:
        return None
    moves = search.candidates(view, legal, ANALYSIS_CANDIDATES)
    if played not in moves:
        if len(moves) < 2:  # a step the strong bot does not search (a drive's)
            return None
        moves.append(played)
    if len(moves) < 2:
        return None
    horizon = search.horizon_of(view, view["seats"] + 1)
    found = search.values(view, moves, seeded(), ANALYSIS_ROLLOUTS, horizon)
    if found is None:
        return None
    values = {i: v for i, v in enumerate(found)}
    best = best_of(values)
    mine = moves.index(played)
    if values[mine] >= values[best]:
        best = mine  # an equal move: the one made
    detail = {
        "phase": view["phase"] if view["phase"] != "turn" else view["turn"]["mode"] or "turn",
        "played": _described(played, view),
        "best": _described(moves[best], view),
        "compared": len(moves),
    }
    return Judgement(values[mine], values[best], moves[best], len(moves), detail)


#: The players' entries with their hands and treasures, and every seat's sharing draws
#: (``memory_all``, as the end view has it).
full_view = merged_with_own("memory", "memory_all")

ANALYST = Analyst(
    "gold_lead", "expected_gold", THRESHOLDS, judge, expected_gold, lambda view, _: helper(view)
)
