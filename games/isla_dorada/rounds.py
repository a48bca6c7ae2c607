"""A round after its auction (rules, A round, 2-5): moving, curses, treasures and cable news;
drawing, lightning cards and the hand limit are ``drawing``'s, the round's start and the game's
end ``phases``'.

Actions handled here (declared in ``games.isla_dorada.actions``; the rules are checked before any
change):

- move: ``{"type": "detour", "route": "r7"}`` (Sangaia: which route the expedition takes on
  from the skipped destination), ``{"type": "continue"}`` / ``{"type": "stop"}`` (a river leg:
  go on downstream to the next stop or stay);
- treasure (every seat at once, hidden until all have chosen):
  ``{"type": "treasures", "plays": [{"card": "t5", "bonus": "a90", "bongo": "a75"}, ...]}``:
  any of the seat's treasure cards for this location, each with at most one bonus card of its
  location's family; a treasure card of a neighbouring location needs a Bongo card each;
- news (every seat at once): ``{"type": "news", "keep": ["t3"]}``.
"""

from __future__ import annotations

from itertools import combinations
from typing import Any

from games.isla_dorada import tables as T
from games.isla_dorada.actions import Detour, News, Treasures
from games.isla_dorada.auction import open_exits
from games.isla_dorada.drawing import begin_draw
from games.isla_dorada.phases import check_distinct, finish, illegal
from games.isla_dorada.state import IslaState
from games.state import enter

_KIND = T.ADV_KIND


# --- moving ----------------------------------------------------------------------------------


def _travel(state: IslaState, route: int, dest: int, events: list[dict]) -> None:
    state.location = dest
    state.path.append(dest)
    if route >= 0 and T.ROUTE_TYPE[route] == "river":
        state.river_steps += 1
    events.append(
        {
            "type": "travel",
            "route": T.ROUTE_IDS[route] if route >= 0 else None,
            "to": T.LOC_IDS[dest],
        }
    )


def sangaia_options(state: IslaState, route: int) -> list[tuple[int, int]]:
    """Where Sangaia takes the expedition on from the skipped destination (its location now),
    after a move along ``route`` (``-1``: a flight): another open route of the same type out of
    it; after a flight, any neighbour, whatever a river's direction (a figure still blocks)."""
    if route < 0:
        bf, lv = state.bigfoot, state.leviathan
        return [(r, d) for r, d in T.LINKS[state.location] if r != bf and r != lv]
    rtype = T.ROUTE_TYPE[route]
    return [(r, d) for r, d in open_exits(state) if r != route and T.ROUTE_TYPE[r] == rtype]


def begin_move(state: IslaState, events: list[dict]) -> None:
    """The winner's move: to the bid's destination, then Sangaia's detour and river legs."""
    bid = state.win
    assert bid is not None
    route, dest = bid["route"], bid["to"]
    state.path = [state.location]
    if route < 0:
        state.flights += 1
        state.stats["flights"] += 1
    _travel(state, route, dest, events)
    if bid["sangaia"] >= 0:
        options = sangaia_options(state, route)
        events.append({"type": "sangaia", "seat": state.leader, "options": len(options)})
        if len(options) > 1:
            enter(state, "move")
            state.move = {"kind": "detour", "options": [list(o) for o in options]}
            state.move["flight"] = route < 0
            return
        if options:
            state.stats["detours"] += 1
            on, dest = options[0]
            route = on if route >= 0 else -1  # a flight's detour flies on
            _travel(state, route, dest, events)
    _river_or_arrive(state, route, events)


def _river_or_arrive(state: IslaState, last: int, events: list[dict]) -> None:
    """After a river leg the leader may go on downstream (if that river route is open)."""
    if last >= 0 and T.ROUTE_TYPE[last] == "river":
        down = [(r, d) for r, d in open_exits(state) if T.ROUTE_TYPE[r] == "river"]
        if down:
            enter(state, "move")
            state.move = {"kind": "river", "options": [list(down[0])]}
            return
    state.move = None
    _arrive(state, events)


def legal_move(state: IslaState, seat: int) -> list[dict[str, Any]]:
    move = state.move
    assert move is not None
    if move["kind"] == "detour":
        return [{"type": "detour", "route": T.ROUTE_IDS[r]} for r, _ in move["options"]]
    return [{"type": "continue"}, {"type": "stop"}]


def play_detour(state: IslaState, seat: int, action: Detour, events: list[dict]) -> None:
    """Sangaia's route on from the skipped destination."""
    move = state.move
    assert move is not None
    if move["kind"] != "detour":
        raise illegal("continue downstream or stop", "action.type", "isla_river_now")
    options = {r: d for r, d in move["options"]}
    if action.route not in options:
        raise illegal(
            f"the expedition cannot take on along {T.ROUTE_IDS[action.route]!r}",
            "action.route",
            "isla_detour_route",
            options=sorted(T.ROUTE_IDS[r] for r in options),
        )
    route, dest = action.route, options[action.route]
    if move.get("flight"):
        route = -1  # a flight's detour flies on to the neighbour: no river leg
    state.stats["detours"] += 1
    _travel(state, route, dest, events)
    _river_or_arrive(state, route, events)


def play_river(state: IslaState, seat: int, action: Any, events: list[dict]) -> None:
    """A river leg's end: ``continue`` downstream or ``stop``."""
    move = state.move
    assert move is not None
    if move["kind"] != "river":
        raise illegal("choose the route the expedition takes on", "action.type", "isla_detour_now")
    if action.type == "stop":
        state.move = None
        _arrive(state, events)
        return
    route, dest = move["options"][0]
    state.stats["river_continues"] += 1
    _travel(state, route, dest, events)
    _river_or_arrive(state, route, events)


def _arrive(state: IslaState, events: list[dict]) -> None:
    """Marker (not at the crash site), curses, then the treasure phase."""
    loc = state.location
    marker = loc != T.CRASH
    if marker:
        state.markers_left -= 1
        state.explored[loc] += 1
        placed = T.MARKERS - state.markers_left
        if placed in T.NEWS:
            state.news = list(T.NEWS[placed])
    else:
        state.stats["crash_returns"] += 1
    events.append(
        {
            "type": "arrive",
            "at": T.LOC_IDS[loc],
            "marker": marker,
            "markers_left": state.markers_left,
        }
    )
    record: dict[str, Any] = {
        "round": state.round,
        "leader": state.leader,
        "path": [T.LOC_IDS[x] for x in state.path],
        "marker": marker,
        "curses": [],
        "treasures": [],
    }
    if state.win is not None:
        record["value"] = state.win["value"]
        record["flight"] = state.win["route"] < 0
    state.history.append(record)
    for s in range(state.seats):
        hit = [c for c in state.curses[s] if T.GOAL_LOC[c] == loc]
        for c in hit:
            state.curses[s].remove(c)
            state.played_curses[s].append(c)
            record["curses"].append({"seat": s, "card": T.goal_json(c)})
        if hit:
            events.append({"type": "cursed", "seat": s, "cards": [T.goal_json(c) for c in hit]})
    if loc == T.CRASH:
        _after_treasures(state, events)
        return
    enter(state, "treasure")
    state.chosen = [False] * state.seats
    state.pending = [None] * state.seats


# --- treasures -------------------------------------------------------------------------------


def _playable(state: IslaState, seat: int) -> tuple[list[int], list[int], list[int], list[int]]:
    """(treasures for here, treasures next door, Bongo cards, bonus cards) of ``seat``."""
    here, near = state.location, T.NEIGHBOURS[state.location]
    direct = [g for g in state.treasures[seat] if T.GOAL_LOC[g] == here]
    hand = state.hands[seat]
    bongos = [c for c in hand if _KIND[c] == "bongo"]
    side = [g for g in state.treasures[seat] if T.GOAL_LOC[g] in near] if bongos else []
    bonuses = [c for c in hand if _KIND[c] == "bonus"]
    return direct, side, bongos, bonuses


def legal_treasures(state: IslaState, seat: int) -> list[dict[str, Any]]:
    """Play nothing, each single play (with a bonus where one fits), and everything at once."""
    direct, side, bongos, bonuses = _playable(state, seat)
    out: list[dict[str, Any]] = [{"type": "treasures", "plays": []}]
    everything: list[dict[str, str]] = []
    free_bonus = list(bonuses)
    free_bongo = list(bongos)
    for g in direct + side:
        play = {"card": T.GOAL_ID[g]}
        if g in side:
            play["bongo"] = T.ADV_ID[bongos[0]]
        out.append({"type": "treasures", "plays": [play]})
        fits = [b for b in bonuses if T.ADV_FAMILY[b] == T.GOAL_FAMILY[g]]
        if fits:
            out.append({"type": "treasures", "plays": [{**play, "bonus": T.ADV_ID[fits[0]]}]})
        whole = {"card": T.GOAL_ID[g]}
        if g in side:
            if not free_bongo:
                continue
            whole["bongo"] = T.ADV_ID[free_bongo.pop()]
        fit = next((b for b in free_bonus if T.ADV_FAMILY[b] == T.GOAL_FAMILY[g]), None)
        if fit is not None:
            free_bonus.remove(fit)
            whole["bonus"] = T.ADV_ID[fit]
        everything.append(whole)
    if len(everything) > 1:
        out.append({"type": "treasures", "plays": everything})
    return out


def play_treasures(state: IslaState, seat: int, action: Treasures, events: list[dict]) -> None:
    here, near = state.location, T.NEIGHBOURS[state.location]
    held = set(state.treasures[seat])
    hand = set(state.hands[seat])
    chosen: list[list[int]] = []
    for i, play in enumerate(action.plays):
        field = f"action.plays[{i}]"
        g, gid = play.card, T.GOAL_ID[play.card]
        if g not in held:
            raise illegal(
                f"{gid} is not one of your treasure cards",
                f"{field}.card",
                "isla_not_your_card",
                card=gid,
            )
        if not T.IS_TREASURE[g]:
            raise illegal(
                f"{gid} is not a treasure card",
                f"{field}.card",
                "isla_wrong_card",
                card=gid,
                kind="treasure",
            )
        bongo = -1
        if play.bongo is not None:
            bongo = _hand_card(play.bongo, hand, "bongo", f"{field}.bongo")
            if T.GOAL_LOC[g] not in near:
                raise illegal(
                    "Bongo plays a treasure card of a location next to the expedition",
                    f"{field}.card",
                    "isla_treasure_not_here",
                    card=gid,
                )
        elif T.GOAL_LOC[g] != here:
            raise illegal(
                f"{gid} is not for this location",
                f"{field}.card",
                "isla_treasure_not_here",
                card=gid,
            )
        bonus = -1
        if play.bonus is not None:
            bonus = _hand_card(play.bonus, hand, "bonus", f"{field}.bonus")
            if T.ADV_FAMILY[bonus] != T.GOAL_FAMILY[g]:
                raise illegal(
                    "a bonus card goes with a treasure of its symbol",
                    f"{field}.bonus",
                    "isla_bonus_family",
                    card=T.ADV_ID[bonus],
                    family=T.GOAL_FAMILY[g],
                )
        chosen.append([g, bonus, bongo])
    state.pending[seat] = chosen  # the cards stay in the holdings until all are revealed
    state.chosen[seat] = True
    events.append({"type": "chosen", "seat": seat, "phase": "treasure"})
    if all(state.chosen):
        _reveal_treasures(state, events)


def _hand_card(card: int, hand: set[int], kind: str, field: str) -> int:
    cid = T.ADV_ID[card]
    if card not in hand:
        raise illegal(f"card {cid} is not in your hand", field, "isla_not_your_card", card=cid)
    if _KIND[card] != kind:
        raise illegal(f"card {cid} is not a {kind}", field, "isla_wrong_card", card=cid, kind=kind)
    return card


def _reveal_treasures(state: IslaState, events: list[dict]) -> None:
    record = state.history[-1]
    for s in range(state.seats):
        plays = state.pending[s] or []
        for g, bonus, bongo in plays:
            state.treasures[s].remove(g)
            for c in (bonus, bongo):
                if c >= 0:
                    state.hands[s].remove(c)
            state.played_treasures[s].append([g, bonus, bongo])
            if bongo >= 0:
                state.discard.append(bongo)
            entry = {"seat": s, "card": T.goal_json(g)}
            if bonus >= 0:
                entry["bonus"] = T.adv_json(bonus)
            if bongo >= 0:
                entry["bongo"] = T.adv_json(bongo)
            record["treasures"].append(entry)
        if plays:
            events.append(
                {
                    "type": "treasures",
                    "seat": s,
                    "plays": [e for e in record["treasures"] if e["seat"] == s],
                }
            )
    state.pending = [None] * state.seats
    _after_treasures(state, events)


def _after_treasures(state: IslaState, events: list[dict]) -> None:
    if state.markers_left <= 0:
        finish(state, "markers", events)
    elif state.news is not None:
        _begin_news(state, events)
    else:
        begin_draw(state, events)


# --- cable news ------------------------------------------------------------------------------


def _begin_news(state: IslaState, events: list[dict]) -> None:
    assert state.news is not None
    drawn, kept = state.news
    enter(state, "news")
    state.keep = kept
    state.chosen = [False] * state.seats
    for i in range(state.seats):
        s = (state.leader + i) % state.seats
        state.offers[s] = [state.tdeck.pop() for _ in range(min(drawn, len(state.tdeck)))]
        state.chosen[s] = not state.offers[s]
    events.append({"type": "news", "draw": drawn, "keep": kept})
    if all(state.chosen):
        begin_draw(state, events)


def news_keep(state: IslaState, seat: int) -> int:
    return min(state.keep, len(state.offers[seat]))


def legal_news(state: IslaState, seat: int) -> list[dict[str, Any]]:
    offer = [T.GOAL_ID[g] for g in state.offers[seat]]
    return [{"type": "news", "keep": list(c)} for c in combinations(offer, news_keep(state, seat))]


def play_news(state: IslaState, seat: int, action: News, events: list[dict]) -> None:
    keep = action.keep
    n = news_keep(state, seat)
    check_distinct(
        keep, n, f"keep is a list of {n} of the cards drawn", "action.keep", "isla_keep_count"
    )
    for i, g in enumerate(keep):
        if g not in state.offers[seat]:
            raise illegal(
                f"{T.GOAL_ID[g]!r} is not among the cards you drew",
                f"action.keep[{i}]",
                "isla_not_your_card",
                card=T.GOAL_ID[g],
            )
    kept = list(keep)
    state.treasures[seat].extend(kept)
    state.out.extend(g for g in state.offers[seat] if g not in kept)
    state.offers[seat] = []
    state.chosen[seat] = True
    events.append({"type": "chosen", "seat": seat, "phase": "news"})
    if all(state.chosen):
        begin_draw(state, events)
