"""Tobago's piece of the review: the deduction helper at any step, decisions judged by the hint
engine, and each seat's expected gold. Everything is a pure function of one seat's view.

**The helper** (``helper``) is what the game page's helper panel shows, built here from the
seat's view alone (the same facts ``POST /api/tobago/helper`` answers from a public position):
per map why each non-candidate space is out (``solver.explain``), the column as steps, the drive
cost from each placed ATV (the seat's first) to the map's nearest candidate, and the hint ranking
of the seat's hand (``solver.hints``).

**Decisions** are judged in the hint engine's own score (*hint points*: ``1.5 × lead +
progress + finish``, see ``solver.hints``), completed by the strategic bot
(``games.tobago.strategy``) where a move is not a clue play:

- *first clue* (setup): the drawn card on each map it may start or continue: hint scores.
- *turn start* with a legal clue play: every clue play scores its hint score. Not playing a clue
  (driving, picking an amulet, exchanging) is worth ``PASS_VALUE`` (0: no lead, no progress),
  unless the strategic bot itself would not play a clue here: then its move is worth the best
  play it passed over (it ranks its move above it), plus ``RAISE_BONUS`` when it goes to raise
  a treasure (or to locate one with an amulet) it can reach. A non-clue move other than the
  bot's, when the bot also would not play, is not rated (the hint engine does not rank drives).
- *after a play* (``clues`` mode) with a legal extra play: an extra play costs an amulet,
  priced ``EXTRA_PLAY_HINT`` hint points (the strategic bot spends one only for a hint that
  good), so it is worth its hint score minus that; stopping (the extra marker, ending the turn)
  is worth 0.
- Drive steps, sharing answers, ATV placement and the choice of extra marker are not rated.

Marks (loss = best value − value of the move made, hint points): **best** ≤ 0.000001 (the best
or a move of equal score), **good** ≤ 0.5 (about a third of a drive step of lead), **inaccuracy**
≤ 1.5 (a whole step of lead, or half the candidates left standing), **mistake** above (e.g. a
missed ``finish``: locating a treasure you can raise next drive is worth +2).

**Expected gold** (the chart) from a seat's own view: the gold of its treasure cards plus, for
every compass marker of its on a map's column, the gold a share there is expected to bring,
``SHARE_GOLD`` by the map's candidate count (measured: ``data/analysis.json`` says how). At the
end it is the seat's score.
"""

from __future__ import annotations

import json
from typing import Any

from games.analysis import Analyst, Judgement, Thresholds, best_of, seeded
from games.base import Action, GameKind
from games.review import merged_players_view
from games.tobago.islands import island_for_view
from games.tobago.shares import share_gold
from games.tobago.strategy import EXTRA_PLAY_HINT, Position, _goal, strategic_bot
from hexmap.hexes import Hex
from solver.answer import helper_maps, play_refusals
from solver.clues import parse_clue
from solver.compiled import compile_island, drive_from
from solver.hints import Hint, hints
from solver.masks import MapColumn
from solver.options import SolverOptions

#: The value of not playing a clue: the hint engine's neutral score.
PASS_VALUE = 0.0
#: Added to the strategic bot's non-clue move when it goes to raise (or locate and raise) a
#: treasure it reaches: the hint engine's own ``finish`` bonus for "you can raise it next drive".
RAISE_BONUS = 2.0
THRESHOLDS = Thresholds(good=0.5, inaccuracy=1.5)
#: The strategic bot's goals that mean "raise a treasure now".
_RAISE_GOALS = ("raise", "remove")


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


def _play_detail(hint: Hint) -> dict:
    return {
        "clue": hint.clue.notation,
        "map": hint.map,
        "remaining": hint.remaining,
        "before": hint.before,
        "my_cost": hint.my_cost,
        "rival_cost": hint.rival_cost,
        "finish": hint.finish,
        "score": round(hint.score, 3),
    }


def _detail(action: Action, by_key: dict[tuple[int, str], Hint], hand: list[dict]) -> dict:
    """What the page says about a move: a clue play's facts, or the action's type."""
    if action.get("type") == "play_clue":
        hint = by_key.get((action.get("card"), action.get("map")))  # type: ignore[arg-type]
        if hint is not None:
            return {"type": "play_clue", "card": action["card"], **_play_detail(hint)}
    if action.get("type") == "first_clue":
        hint = by_key.get((-1, action.get("map")))  # type: ignore[arg-type]
        if hint is not None:
            return {"type": "first_clue", **_play_detail(hint)}
    return {"type": action.get("type")}


def _key(action: Action) -> tuple:
    return tuple(sorted((k, json.dumps(v, sort_keys=True)) for k, v in action.items()))


def judge(view: dict, legal: list[Action], played: Action) -> Judgement | None:
    """``played`` from ``view`` in hint points (module doc), or ``None`` when unrated."""
    phase = view["phase"]
    if phase == "first_clue":
        return _judge_first_clue(view, legal, played)
    if phase != "turn" or view["turn"]["mode"] not in (None, "clues"):
        return None
    plays = [a for a in legal if a["type"] == "play_clue"]
    if not plays:
        return None
    pos = Position(view)
    if pos.me is None:
        return None
    hand = pos.hand
    ranked = hints(
        pos.island,
        [m["column"] for m in pos.maps],
        [parse_clue(c["clue"]) for c in hand],
        pos.me,
        pos.others,
        pos.options,
    )
    by_key = {(hand[h.hand_index]["id"], h.map): h for h in ranked}
    extra = view["turn"]["mode"] == "clues"
    price = EXTRA_PLAY_HINT if extra else 0.0
    values: dict[tuple, float] = {}
    actions: dict[tuple, Action] = {}
    for a in plays:
        hint = by_key.get((a["card"], a["map"]))
        if hint is not None:
            values[_key(a)] = hint.score - price
            actions[_key(a)] = a
    if not values:
        return None
    best_play = max(values.values()) + price
    bot = strategic_bot(view, legal, seeded())
    if bot["type"] == "play_clue" or extra:
        stop: Action = bot if bot["type"] != "play_clue" else _stop_action(legal, played)
        stop_value = PASS_VALUE
    else:
        goal = _goal(pos)
        raising = goal is not None and goal[0] in _RAISE_GOALS
        stop, stop_value = bot, max(best_play, PASS_VALUE) + (RAISE_BONUS if raising else 0.0)
    if played["type"] == "play_clue":
        key = _key(played)
        if key not in values:
            return None
        played_value = values[key]
    elif extra or bot["type"] == "play_clue" or _key(played) == _key(bot):
        played_value = stop_value
    else:
        return None  # two moves that are not clue plays: the hint engine does not rank them
    values[_key(stop)] = stop_value
    actions[_key(stop)] = stop
    best_key = best_of(values)
    best = actions[best_key]
    if best["type"] != "play_clue" and values[best_key] == played_value:
        best = played  # an equal non-clue move: the one made
    detail = {
        "phase": "extra" if extra else "turn",
        "played": _detail(played, by_key, hand),
        "best": _detail(best, by_key, hand),
        "top_hint": _play_detail(ranked[0]),
    }
    return Judgement(played_value, values[best_key], best, len(values), detail)


def _stop_action(legal: list[Action], played: Action) -> Action:
    """The non-clue move standing for "do not play" when the bot would play: the one made if it
    is one, else a representative (an exchange or the first drive)."""
    if played["type"] != "play_clue":
        return played
    for kind in ("exchange", "drive", "end_turn", "extra_marker"):
        for a in legal:
            if a["type"] == kind:
                return a
    return {"type": "end_turn"}


def _judge_first_clue(view: dict, legal: list[Action], played: Action) -> Judgement | None:
    drawn = view.get("drawn")
    if drawn is None or played.get("type") != "first_clue":
        return None
    pos = Position(view)
    ranked = hints(
        pos.island,
        [m["column"] for m in pos.maps],
        [parse_clue(drawn["clue"])],
        pos.me,
        pos.others,
        pos.options,
    )
    allowed = {a["map"] for a in legal}
    by_map = {h.map: h for h in ranked if h.map in allowed}
    if played["map"] not in by_map:
        return None
    values = {m: h.score for m, h in by_map.items()}
    best_map = best_of(values)
    by_key = {(-1, m): h for m, h in by_map.items()}
    detail = {
        "phase": "first_clue",
        "played": _detail(played, by_key, []),
        "best": _detail({"type": "first_clue", "map": best_map}, by_key, []),
    }
    return Judgement(
        values[played["map"]],
        values[best_map],
        {"type": "first_clue", "map": best_map},
        len(values),
        detail,
    )


def full_view(kind: GameKind, state: Any) -> dict:
    """The players' entries with their hands and treasures, and every seat's sharing draws
    (``memory_all``, as the end view has it)."""
    full = merged_players_view(kind, state)
    full["memory_all"] = [kind.view(state, s)["memory"] for s in range(kind.seat_count(state))]
    return full


class TobagoAnalyst(Analyst):
    unit = "hint_points"
    chart = "expected_gold"
    thresholds = THRESHOLDS

    def judge(self, view: dict, legal: list[Action], played: Action) -> Judgement | None:
        return judge(view, legal, played)

    def expected(self, view: dict) -> float | None:
        return expected_gold(view)

    def helper(self, view: dict, legal: list[Action]) -> dict | None:
        return helper(view)


ANALYST = TobagoAnalyst()
