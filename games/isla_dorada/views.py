"""What each seat sees (rules, Hidden information), what is secret, and the simulator's figures.

The view (contract, also ``data/view_schema.json``): ``map`` (locations, routes, crash site),
``expedition`` (a location id), ``round``, ``markers_left``, ``leader``, ``phase``, ``to_act``,
``players[i]`` with ``gold``, ``hand_size``, ``hand`` (the seat's own adventure cards; ``null``
for others and spectators until the end), ``goal_cards`` (how many goal cards it holds, backs
alike), ``treasures``/``curses``/``destiny`` (its own; ``null`` for others), ``played``
(treasures with their bonus and Bongo cards, curses), ``bid``, ``passed``, ``barred``, ``chosen``.
Public parts: ``display`` (face-up adventure cards), ``deck``/``discard`` sizes, ``bigfoot``,
``leviathan`` (route ids or ``null``), ``explored`` (markers per location id), ``markers``
(total, red ones, placed), ``auction`` (bidding phase: turn, high bidder, value, minimum),
``pay`` (the auction's winner and its bid, while it pays), ``move`` (the leader's choice, if
one is pending), ``draw``, ``news`` (each of these is its phase's piece, ``*_piece``, which the
phase declares as its ``view``), ``lightning``, ``history`` (a record per round), ``last_events``.
A bid shows its route (or flight), its number and the special cards played with it face up,
never the cards that would pay it (``auction``). ``mine`` carries what only the seat sees
besides its cards: its setup or news offer, while bidding the most its hand can pay on each open
route and on a flight (``can_pay``), its treasure plays chosen but not yet revealed (their
cards stay in its hand and goal cards until all are revealed, so no count moves), its destiny
progress.
At the end everything is open and ``score_breakdown`` (one row per seat: ``gold``,
``treasures``, ``bonuses``, ``destiny``, ``curses``, ``total`` = gold + treasures + bonuses +
destiny - curses) and ``scores`` (the totals) and ``winners`` appear.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from games.isla_dorada import auction as A
from games.isla_dorada import tables as T
from games.isla_dorada.scoring import breakdown, mission_progress
from games.isla_dorada.state import IslaState

_adv = T.adv_json
_goal = T.goal_json


def _played(state: IslaState, seat: int) -> dict[str, Any]:
    plays = []
    for g, bonus, bongo in state.played_treasures[seat]:
        entry: dict[str, Any] = {"card": _goal(g)}
        if bonus >= 0:
            entry["bonus"] = _adv(bonus)
        if bongo >= 0:
            entry["bongo"] = _adv(bongo)
        plays.append(entry)
    return {"treasures": plays, "curses": [_goal(c) for c in state.played_curses[seat]]}


# --- each phase's piece of a view (its ``Phase.view``: the base adds it to ``observe``'s) ----


def auction_piece(state: IslaState, seat: int | None) -> dict[str, Any]:
    """The auction (phase ``bid``): whose turn, the high bid, the least bid, the open routes."""
    high = state.bids[state.high] if state.high >= 0 else None
    return {
        "auction": {
            "turn": state.current,
            "high": state.high if state.high >= 0 else None,
            "value": high["value"] if high is not None else None,
            "minimum": A.minimum(state),
            "open_routes": [T.ROUTE_IDS[r] for r, _ in A.open_exits(state)],
        }
    }


def pay_piece(state: IslaState, seat: int | None) -> dict[str, Any]:
    """The winning bid its winner pays (phase ``pay``)."""
    if state.win is None:
        return {}
    return {"pay": {"seat": state.leader, "bid": A.bid_json(state.win)}}


def move_piece(state: IslaState, seat: int | None) -> dict[str, Any]:
    """The leader's pending choice (phase ``move``)."""
    if state.move is None:
        return {}
    options = [{"route": T.ROUTE_IDS[r], "to": T.LOC_IDS[d]} for r, d in state.move["options"]]
    return {"move": {"kind": state.move["kind"], "options": options}}


def draw_piece(state: IslaState, seat: int | None) -> dict[str, Any]:
    """The drawing seat and its step (phases ``draw`` and ``lightning``)."""
    return {"draw": {"seat": state.current, "step": state.draw_step}}


def news_piece(state: IslaState, seat: int | None) -> dict[str, Any]:
    """How many cable news cards are kept (phase ``news``)."""
    return {"news": {"keep": state.keep}}


def observe(kind: Any, state: IslaState, seat: int | None) -> dict:
    over = state.phase == "over"
    players = []
    for s in range(state.seats):
        open_ = over or s == seat
        bid = state.bids[s] if state.phase == "bid" else None
        goal_cards = len(state.treasures[s]) + len(state.curses[s]) + (state.destiny[s] >= 0)
        players.append(
            {
                "seat": s,
                "gold": state.gold[s],
                "hand_size": len(state.hands[s]),
                "hand": sorted((_adv(c) for c in state.hands[s]), key=_order) if open_ else None,
                "goal_cards": goal_cards,
                "treasures": [_goal(g) for g in state.treasures[s]] if open_ else None,
                "curses": [_goal(g) for g in state.curses[s]] if open_ else None,
                "destiny": _goal(state.destiny[s]) if open_ and state.destiny[s] >= 0 else None,
                "played": _played(state, s),
                "wins": state.wins[s],
                "bid": A.bid_json(bid) if bid is not None else None,
                "passed": state.phase == "bid" and state.passed[s],
                "barred": state.phase == "bid" and state.barred[s],
                "chosen": state.phase in ("setup", "treasure", "news") and state.chosen[s],
            }
        )
    view: dict[str, Any] = {
        "game": "isla_dorada",
        "map": T.map_json(),
        "expedition": T.LOC_IDS[state.location],
        "round": state.round,
        "markers_left": state.markers_left,
        "markers": {
            "total": T.MARKERS,
            "red": list(T.RED_MARKERS),
            "placed": T.MARKERS - state.markers_left,
        },
        "leader": state.leader,
        "phase": state.phase,
        "to_act": kind.to_act(state),
        "you": seat,
        "over": over,
        "players": players,
        "display": [_adv(c) for c in state.display],
        "deck": len(state.deck),
        "discard": len(state.discard),
        "bigfoot": T.ROUTE_IDS[state.bigfoot] if state.bigfoot >= 0 else None,
        "leviathan": T.ROUTE_IDS[state.leviathan] if state.leviathan >= 0 else None,
        "explored": {T.LOC_IDS[i]: n for i, n in enumerate(state.explored) if n},
        "flights": state.flights,
        "river_steps": state.river_steps,
        "history": json.loads(json.dumps(state.history)),
        "last_events": json.loads(json.dumps(state.last_events)),
        "actions": state.moves,
    }
    if state.lightning is not None:
        view["lightning"] = {"seat": state.lightning["seat"], "card": _adv(state.lightning["card"])}
    if seat is not None and not over:
        view["mine"] = _mine(state, seat)
    if over:
        rows = [breakdown(state, s) for s in range(state.seats)]
        view["score_breakdown"] = rows
        view["scores"] = [r["total"] for r in rows]
        best = max(r["total"] for r in rows)
        view["winners"] = [s for s, r in enumerate(rows) if r["total"] == best]
        view["end"] = state.end
        for s, p in enumerate(players):
            if state.destiny[s] >= 0:
                done, needed = mission_progress(state, s, state.destiny[s])
                p["mission"] = {"done": done, "needed": needed, "achieved": done >= needed}
    return view


def _mine(state: IslaState, seat: int) -> dict[str, Any]:
    out: dict[str, Any] = {"offer": [_goal(g) for g in state.offers[seat]]}
    if state.phase == "bid" and not state.barred[seat]:
        out["can_pay"] = A.can_pay(state, seat)
    pending = state.pending[seat] if state.phase == "treasure" else None
    if pending is not None:
        out["plays"] = [
            {
                "card": _goal(g),
                **({"bonus": _adv(b)} if b >= 0 else {}),
                **({"bongo": _adv(x)} if x >= 0 else {}),
            }
            for g, b, x in pending
        ]
    if state.destiny[seat] >= 0:
        done, needed = mission_progress(state, seat, state.destiny[seat])
        out["mission"] = {"done": done, "needed": needed, "achieved": done >= needed}
    return out


_KIND_ORDER = {k["kind"]: i for i, k in enumerate(T.ADVENTURE_KINDS)}


def _order(card: dict) -> tuple[int, int]:
    return _KIND_ORDER[card["kind"]], int(card["id"][1:])


def private_items(state: IslaState, seat: int) -> list[Any]:
    """The seat's own cards as its view shows them: hand, treasures, curses, destiny, offers, and
    treasure plays chosen but not revealed (each card has a unique id: the check is strict)."""
    items: list[Any] = [_adv(c) for c in state.hands[seat]]
    items += [_goal(g) for g in state.treasures[seat] + state.curses[seat]]
    if state.destiny[seat] >= 0:
        items.append(_goal(state.destiny[seat]))
    items += [_goal(g) for g in state.offers[seat]]
    pending = state.pending[seat] if state.phase == "treasure" else None
    for g, b, x in pending or []:
        items.append(_goal(g))
        items += [_adv(c) for c in (b, x) if c >= 0]
    return items


def hidden_items(state: IslaState) -> list[Any]:
    """What nobody sees before the end: the order of every deck (2+ cards) and the goal cards
    out of the game (discarded at setup or from the news, face down)."""
    if state.phase == "over":
        return []
    items: list[Any] = []
    for deck, form in (
        (state.deck, _adv),
        (state.tdeck, _goal),
        (state.cdeck, _goal),
        (state.ddeck, _goal),
    ):
        if len(deck) >= 2:
            items.append([form(c) for c in reversed(deck)])
    items += [_goal(g) for g in state.out]
    return items


def statistics(state: IslaState) -> dict:
    out = {k: (list(v) if isinstance(v, list) else v) for k, v in state.stats.items()}
    rows = [breakdown(state, s) for s in range(state.seats)]
    out["markers_placed"] = T.MARKERS - state.markers_left
    out["river_steps"] = state.river_steps
    for key in ("gold", "treasures", "bonuses", "destiny", "curses"):
        out[f"score_{key}"] = [r[key] for r in rows]
    out["destiny_achieved"] = [r["destiny"] > 0 for r in rows]
    out["treasures_played"] = [len(p) for p in state.played_treasures]
    out["treasures_unplayed"] = [len(t) for t in state.treasures]
    out["auctions_won"] = list(state.wins)
    missions: dict[str, float] = {}
    for s in range(state.seats):
        m = T.GOAL_MISSION[state.destiny[s]] if state.destiny[s] >= 0 else None
        if m is not None:
            name = m["mission"]
            missions[f"{name}_held"] = missions.get(f"{name}_held", 0) + 1
            missions[f"{name}_done"] = missions.get(f"{name}_done", 0) + (rows[s]["destiny"] > 0)
    out["missions"] = missions
    return out


@cache
def _schema_text() -> str:
    return (Path(__file__).parent / "data" / "view_schema.json").read_text(encoding="utf-8")


def schema() -> dict:
    """The JSON Schema of a view (``data/view_schema.json``; a fresh copy), its ``$defs`` written
    in place so it stays valid wherever it is embedded (the OpenAPI document's components)."""
    data = json.loads(_schema_text())
    defs = data.pop("$defs", {})

    def inline(node: Any) -> Any:
        if isinstance(node, dict):
            ref = node.get("$ref")
            if isinstance(ref, str) and ref.startswith("#/$defs/"):
                return inline(defs[ref[len("#/$defs/") :]])
            return {k: inline(v) for k, v in node.items()}
        if isinstance(node, list):
            return [inline(v) for v in node]
        return node

    return inline(data)
