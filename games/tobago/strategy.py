"""The strategic Tobago bot: it sees only its seat's view and its legal actions.

What it does, in order of priority on its turn:

1. **Raise what it can reach.** A located treasure within its movement points is driven to and
   raised. If a rival could get there first (within 3 points of it) it spends amulets for the
   missing points. A map with two candidates, one of them within reach, costs an amulet to
   locate (the other candidate's marker is removed) and is then raised.
2. **Play the solver's best clue** (the ranking of ``solver.hints``: it pulls treasures toward
   its ATV and away from the others, favours progress, and locates treasures it can raise
   next). A strong hint is played
   at once; an extra play costs an amulet and is made only for a strong hint while an amulet
   stays in reserve for a curse. The extra compass marker goes on the map closest to being
   raised. With a treasure located and two markers or fewer left, it keeps them for raising.
3. **Drive toward** a located treasure it can race for, or the most advanced map (2–4
   candidates), collecting amulets on the way (a free one on its start space first).
4. **Exchange a hopeless hand** (no legal play, or only plays that help rivals).

**Progress when the table stalls** (rules §8: two whole rounds without a clue played, a marker
placed or removed or a treasure raised end the game; a bot never relies on that end). Once a
whole round has gone by without progress (the view's ``stall``), a turn of its own without any
would let the others end the game, so it makes progress if it can: its best clue play, whatever
the hint's score, else, with an amulet, removing a candidate marker (on the map with the fewest
candidates, the one farthest from its ATV), before or after driving, else it drives for the
nearest amulet (picked up on the way, it removes a marker that turn). With no compass marker
left it gathers amulets rather than exchanging a hand it cannot play. Clue plays are ranked against
the rivals that can raise (a seat without a compass marker cannot take a treasure located next to
it).

In a sharing it accepts a card worth 5+, a card at least as good as the best card it drew
itself and has not seen turned yet, a 3+ when cards are scarcer than markers, and anything when
the card is the last one.
"""

from __future__ import annotations

import random
from itertools import groupby
from operator import itemgetter

from games.base import Action, get_kind
from games.tobago.engine import costs_from
from games.tobago.islands import island_for_view
from games.tobago.rules import DRIVE_POINTS
from hexmap.hexes import Hex
from hexmap.island import Island
from solver.clues import Clue, parse_clue
from solver.compiled import remember
from solver.engine import Hint, MapColumn, SolverOptions, hints

#: A hint at least this good is played before any drive toward a map.
STRONG_HINT = 2.0
#: Extra clue plays (one amulet each) are made only for hints at least this good.
EXTRA_PLAY_HINT = 3.5
#: Below this best-hint score a hand counts as hopeless and is exchanged.
HOPELESS_HINT = -1.0
#: Maps with at most this many candidates are worth driving toward.
APPROACH_COUNT = 4
#: Value of an amulet picked up on the way, in movement points of detour.
AMULET_VALUE = 1.5
UNREACHABLE = 99
#: Spaces searched when choosing where to place the ATV.
CENTRAL_SHORTLIST = 8
#: Compass markers kept for raising: no clue is played with this many or fewer left.
RESERVE_MARKERS = 2


class Position:
    """The parts of a view the bot reasons about, parsed once per decision."""

    def __init__(self, view: dict) -> None:
        self.view = view
        self.seat: int = view["seat"]
        self.island: Island = island_for_view(view["island"])
        opts = view["options"]
        self.options = SolverOptions(opts["near_includes_target"], opts["treasure_on_landmarks"])
        players = view["players"]
        me = players[self.seat]
        self.me: Hex | None = _hex(me["atv"])
        #: Rivals that can raise (a compass marker left): the ones to race.
        self.rivals: list[Hex] = [
            Hex(*p["atv"])
            for p in players
            if p["seat"] != self.seat and p["atv"] is not None and p["markers_left"] > 0
        ]
        self.amulets: int = me["amulets"]
        self.markers: int = me["markers_left"]
        hand = me.get("hand", [])
        self.hand_ids: list[int] = [c["id"] for c in hand]
        self.hand_clues: list[Clue] = [parse_clue(c["clue"]) for c in hand]
        drawn = view["drawn"]
        self.drawn_clue: Clue | None = None if drawn is None else parse_clue(drawn["clue"])
        mask_of = self.island.mask_of
        self.maps = []
        for m in view["maps"]:
            cand = [tuple(c) for c in m["candidates"]]
            self.maps.append(
                {
                    "colour": m["colour"],
                    "count": m["count"],
                    "cands": [Hex(*c) for c in cand],
                    "column": MapColumn(
                        m["colour"],
                        tuple(parse_clue(c["clue"]) for c in m["clues"]),
                        mask_of(tuple(r) for r in m["removed"]),
                    ),
                }
            )
        self.seats: int = view["seats"]
        self.stall_turns: int = view["stall"]["turns"]
        self.stall_limit: int = view["stall"]["limit"]
        t = view["turn"]
        self.progress: bool = t["progress"]
        self.mode = t["mode"]
        if self.mode == "drive":
            self.points, self.bonus = t["points"], t["bonus"]
            self.start = _hex(t["start"])
        else:
            self.points, self.bonus, self.start = DRIVE_POINTS, 0, self.me
        self.amulet_spaces = {Hex(*a) for a in view["amulets_on_island"]}
        self._tables: dict[Hex, dict[Hex, int]] = {}

    def costs(self, start: Hex) -> dict[Hex, int]:
        """Drive costs from ``start`` (``engine.costs_from``), looked up once per position: a
        decision asks about the same few spaces again and again."""
        table = self._tables.get(start)
        if table is None:
            table = self._tables[start] = costs_from(self.island, start)
        return table

    def cost(self, a: Hex, b: Hex) -> int:
        """Drive cost between two spaces (the cost is symmetric)."""
        return self.costs(a).get(b, UNREACHABLE)

    def rival_cost(self, target: Hex) -> int:
        costs = self.costs(target)
        return min((costs.get(o, UNREACHABLE) for o in self.rivals), default=UNREACHABLE)

    def ranked_hints(self, hand: list[Clue], best_only: bool = False) -> list[Hint]:
        """Every legal play of ``hand``, best first (``solver.hints``; the ATV is placed);
        ``best_only``: the first alone."""
        maps = [m["column"] for m in self.maps]
        ranked = hints(self.island, maps, hand, self.me, self.rivals, self.options)
        return ranked[:1] if best_only else ranked


def _hex(v: list[int] | None) -> Hex | None:
    return None if v is None else Hex(v[0], v[1])


def _by_type(legal: list[Action]) -> dict[str, list[Action]]:
    out: dict[str, list[Action]] = {}
    for kind, run in groupby(legal, itemgetter("type")):  # the engine lists them type by type
        same = out.get(kind)
        if same is None:
            out[kind] = list(run)
        else:
            same.extend(run)
    return out


def strategic_bot(view: dict, legal: list[Action], rng: random.Random) -> Action:
    """The strategic bot's action for ``view`` (see the module doc): the running phase's piece
    (``Phase.bot["strategic"]``, declared with the phase in ``games.tobago.kind``), each
    ``piece(view, legal)``."""
    if len(legal) == 1:
        return dict(legal[0])
    piece = get_kind("tobago").bot_hook(view["phase"], "strategic")
    return dict(legal[0]) if piece is None else piece(view, legal)


def place_atv(view: dict, legal: list[Action]) -> Action:
    """The ATV on a central space (``central_space``)."""
    return {"type": "place_atv", "at": list(central_space(island_for_view(view["island"])))}


def first_clue(view: dict, legal: list[Action]) -> Action:
    """The first clue's map (``_first_clue``)."""
    return _first_clue(Position(view), _by_type(legal))


def turn(view: dict, legal: list[Action]) -> Action:
    """A turn's step, by the stage the turn is in: its start, after a clue play, driving."""
    return turn_step(Position(view), _by_type(legal))


def turn_step(pos: Position, kinds: dict[str, list[Action]]) -> Action:
    """``turn``'s choice from a parsed position and the legal actions by type (the strong
    bot's rollouts build the position from a sampled state: ``games.tobago.direct``)."""
    if pos.mode == "clues":
        return _after_play(pos, kinds)
    if pos.mode == "drive":
        return _drive_step(pos, kinds)
    return _turn_start(pos, kinds)


def sharing(view: dict, legal: list[Action]) -> Action:
    """A sharing's answer (``_sharing``)."""
    return _sharing(view)


# --- setup --------------------------------------------------------------------------------


def central_space(island: Island) -> Hex:
    """A space with a low total drive cost to every space: the ``CENTRAL_SHORTLIST`` spaces
    with the least total hex distance are searched, and the cheapest in drive cost is taken
    (a full search from every space would take too long for one decision)."""
    return remember(("central-space", island.geometry_key), lambda: _central(island), lambda _: 100)


def _central(island: Island) -> Hex:
    pairs = [(h.q, h.r) for h in island.index]

    def hex_total(h: Hex) -> int:
        q0, r0 = h
        return sum(abs(q0 - q) + abs(r0 - r) + abs(q0 - q + r0 - r) for q, r in pairs)

    shortlist = sorted(island.index, key=lambda h: (hex_total(h), h))[:CENTRAL_SHORTLIST]
    return min(shortlist, key=lambda h: (sum(costs_from(island, h).values()), h))


def _first_clue(pos: Position, kinds: dict[str, list[Action]]) -> Action:
    legal = kinds["first_clue"]
    if pos.drawn_clue is None:
        return dict(legal[0])
    ranked = _hints(pos, [pos.drawn_clue])
    allowed = {a["map"] for a in legal}
    for h in ranked:
        if h.map in allowed:
            return {"type": "first_clue", "map": h.map}
    # Empty columns only (no reduction needed): the one whose candidates lie nearest.
    return dict(legal[0])


# --- a turn -------------------------------------------------------------------------------


def _hints(pos: Position, hand: list[Clue] | None = None, best_only: bool = False) -> list[Hint]:
    """Every legal play of ``hand`` (the bot's hand by default), best first: ``solver.hints``
    for the bot's ATV against every other ATV on the island."""
    if pos.me is None:
        return []
    return pos.ranked_hints(pos.hand_clues if hand is None else hand, best_only)


def _play(pos: Position, hint: Hint) -> Action:
    return {"type": "play_clue", "card": pos.hand_ids[hint.hand_index], "map": hint.map}


def _turn_start(pos: Position, kinds: dict[str, list[Action]]) -> Action:
    goal = _goal(pos)
    if goal is not None and goal[0] in ("raise", "remove"):
        return _drive_step(pos, kinds, goal)
    ranked = _hints(pos, best_only=True) if "play_clue" in kinds else []
    best = ranked[0] if ranked else None
    # With a treasure located, keep the compass markers needed to raise it: a play and its
    # extra marker would leave none.
    reserve = pos.markers <= RESERVE_MARKERS and any(m["count"] == 1 for m in pos.maps)
    if best is not None and not reserve and best.score >= STRONG_HINT:
        return _play(pos, best)
    if _urgent(pos):  # a whole round without progress: make some now if I can
        if best is not None:
            return _play(pos, best)
        removal = _removal(pos, kinds)
        if removal is not None:
            return removal
        fetch = _amulet_goal(pos)  # pick one up on the way, then remove a marker with it
        if fetch is not None and (goal is None or _in_reach(pos, fetch[1][0])):
            goal = fetch
    return _weak_start(pos, kinds, goal, best, reserve)


def _weak_start(
    pos: Position,
    kinds: dict[str, list[Action]],
    goal: tuple | None,
    best: Hint | None,
    reserve: bool,
) -> Action:
    """The turn's first step without a strong play: pick up a free amulet, drive for ``goal``,
    a play that helps, an exchange for a hopeless hand, any play (progress beats passing), and
    else drive or exchange."""
    if "pick_amulet" in kinds:  # free on the start space: the drive begins with it
        return {"type": "pick_amulet"}
    if goal is not None:
        step = _drive_step(pos, kinds, goal)
        if step["type"] != "end_turn":
            return step
    if best is not None and not reserve and best.score >= 0:
        return _play(pos, best)
    if "exchange" in kinds and not reserve and (best is None or best.score < HOPELESS_HINT):
        return {"type": "exchange"}
    if best is not None:  # progress beats passing
        return _play(pos, best)
    step = _drive_step(pos, kinds, goal)
    if step["type"] == "end_turn" and "exchange" in kinds:
        return {"type": "exchange"}
    return step


def _urgent(pos: Position) -> bool:
    """This turn has made no progress yet and the table has gone a whole round without any: a
    turn of mine without progress would let the others end the game (rules §8)."""
    return not pos.progress and pos.stall_turns + pos.seats >= pos.stall_limit


def _removal(pos: Position, kinds: dict[str, list[Action]]) -> Action | None:
    """A candidate marker to remove (an amulet's progress): on the map with the fewest
    candidates, the one farthest from my ATV (``None``: no removal is possible)."""
    removals = kinds.get("remove_marker", [])
    if not removals or pos.me is None:
        return None
    here = pos.me
    counts = {m["colour"]: m["count"] for m in pos.maps}
    return dict(min(removals, key=lambda a: (counts[a["map"]], -pos.cost(here, Hex(*a["space"])))))


def _after_play(pos: Position, kinds: dict[str, list[Action]]) -> Action:
    if "play_clue" in kinds and pos.amulets >= 2:
        ranked = _hints(pos, best_only=True)
        if ranked and ranked[0].score >= EXTRA_PLAY_HINT:
            return _play(pos, ranked[0])
    if "extra_marker" in kinds:
        counts = {m["colour"]: m["count"] for m in pos.maps}
        return dict(min(kinds["extra_marker"], key=lambda a: (counts[a["map"]], -a["clue"])))
    return {"type": "end_turn"}


def _goal(pos: Position) -> tuple | None:
    """What to drive for: ``("raise", space)``, ``("remove", map, space_to_remove, space)``,
    ``("approach", spaces)`` or None."""
    me = pos.me
    if me is None:
        return None
    if pos.markers < 1:  # nothing to play or raise with: gather amulets (each removes a marker)
        return _amulet_goal(pos)
    budget = pos.points + pos.bonus
    raise_at, approach = _raise_or_race(pos, me, budget)
    if raise_at is not None:
        return ("raise", raise_at)
    if pos.amulets >= 1:
        remove = _best_remove(pos, me, budget)
        if remove is not None:
            return remove
    if approach is None:
        approach = _nearest_small_map(pos, me)
    return None if approach is None else ("approach", approach)


def _raise_or_race(pos: Position, me: Hex, budget: int) -> tuple[Hex | None, list[Hex] | None]:
    """Among located treasures, the cheapest one ``me`` can raise (within ``budget``, or with
    the amulets while no rival is more than a drive away), and else the cheapest one whose race
    it does not lose by more than a drive (as the spaces to approach)."""
    best_raise: tuple[int, Hex] | None = None
    race: tuple[int, list[Hex]] | None = None
    for m in pos.maps:
        if m["count"] != 1:
            continue
        t = m["cands"][0]
        mine, rival = pos.cost(me, t), pos.rival_cost(t)
        if mine <= budget or (mine <= budget + pos.amulets and rival <= DRIVE_POINTS):
            if best_raise is None or mine < best_raise[0]:
                best_raise = (mine, t)
        elif mine - DRIVE_POINTS <= rival and (race is None or mine < race[0]):
            race = (mine, [t])
    return (
        None if best_raise is None else best_raise[1],
        None if race is None else race[1],
    )


def _best_remove(pos: Position, me: Hex, budget: int) -> tuple | None:
    """On a map down to two candidates, the marker to remove with an amulet: the one that
    leaves the candidate cheapest to reach, when the budget and the amulets left reach it."""
    best: tuple[int, tuple] | None = None
    for m in pos.maps:
        if m["count"] != 2:
            continue
        a, b = m["cands"]
        for keep, drop in ((a, b), (b, a)):
            c = pos.cost(me, keep)
            if c <= budget + pos.amulets - 1 and (best is None or c < best[0]):
                best = (c, ("remove", m["colour"], drop, keep))
    return None if best is None else best[1]


def _nearest_small_map(pos: Position, me: Hex) -> list[Hex] | None:
    """The candidates of the most advanced map (at most ``APPROACH_COUNT`` left), while its
    nearest candidate is more than a step away. One map only: switching between maps as the
    ATV moves would make it shuttle to and fro."""
    small = []
    for m in pos.maps:
        if 2 <= m["count"] <= APPROACH_COUNT:
            d = min(pos.cost(me, c) for c in m["cands"])
            small.append((m["count"], d, m["colour"], m["cands"]))
    if small:
        _, d, _, cands = min(small)
        if d > 1:
            return cands
    return None


def _in_reach(pos: Position, amulet: Hex) -> bool:
    """An amulet I can drive to and pick up this turn (one point for the pick-up)."""
    return pos.me is not None and pos.cost(pos.me, amulet) + 1 <= pos.points + pos.bonus


def _amulet_goal(pos: Position) -> tuple | None:
    """Drive for the nearest amulet lying on the island (``None``: none lies there)."""
    if pos.me is None or not pos.amulet_spaces:
        return None
    here = pos.me
    return ("approach", [min(pos.amulet_spaces, key=lambda h: (pos.cost(here, h), h))])


def _drive_step(pos: Position, kinds: dict[str, list[Action]], goal: tuple | None = None) -> Action:
    if "raise" in kinds:
        return dict(kinds["raise"][0])
    if goal is None:
        goal = _goal(pos)
    here = pos.me
    if here is None:  # no ATV on the island yet: nothing to drive
        return {"type": "end_turn"}
    if "pick_amulet" in kinds and _picks_amulet(pos, here, goal):
        return {"type": "pick_amulet"}
    step, goal = _toward_goal(pos, kinds, here, goal)
    if step is not None:
        return step
    drives = kinds.get("drive", [])
    if not drives:
        return _or_progress(pos, kinds)
    best = _best_drive(pos, drives, here, goal[1] if goal is not None else [])
    return _or_progress(pos, kinds) if best is None else dict(best)


def _picks_amulet(pos: Position, here: Hex, goal: tuple | None) -> bool:
    """Take the amulet here: free on the start space, and elsewhere unless its drive point is
    needed to raise the treasure aimed at."""
    return (
        here == pos.start
        or goal is None
        or goal[0] != "raise"
        or pos.cost(here, goal[1]) <= pos.points - 1 + pos.bonus
    )


def _toward_goal(
    pos: Position, kinds: dict[str, list[Action]], here: Hex, goal: tuple | None
) -> tuple[Action | None, tuple | None]:
    """The move a ``remove`` or ``raise`` goal makes now (the marker's removal, the drive to
    the treasure, an amulet spent for the points), or ``None`` with the goal turned into the
    spaces to approach."""
    if goal is not None and goal[0] == "remove":
        _, colour, drop, keep = goal
        for a in kinds.get("remove_marker", []):
            if a["map"] == colour and Hex(*a["space"]) == drop:
                return dict(a), goal
        goal = ("approach", [keep])
    if goal is not None and goal[0] == "raise":
        target = goal[1]
        budget = pos.points + pos.bonus
        c = pos.cost(here, target)
        if c <= budget:
            return {"type": "drive", "to": [target.q, target.r]}, goal
        if "spend_amulet" in kinds and c <= budget + pos.amulets:
            return {"type": "spend_amulet"}, goal
        goal = ("approach", [target])
    return None, goal


def _best_drive(
    pos: Position, drives: list[Action], here: Hex, targets: list[Hex]
) -> Action | None:
    """The drive that brings the ATV nearest ``targets`` (and onto an amulet it can still
    use), or ``None`` when staying is as good."""
    target_costs = [pos.costs(t) for t in targets]

    def distance_left(h: Hex) -> float:
        if not target_costs:
            return 0.0
        ds = [tc.get(h, UNREACHABLE) for tc in target_costs]
        return min(ds) + 0.25 * (sum(ds) / len(ds))

    def value(h: Hex, spent: int) -> float:
        v = -distance_left(h)
        base_left = pos.points - max(0, spent - pos.bonus)
        if h in pos.amulet_spaces and base_left >= 1:
            v += AMULET_VALUE
        return v

    stay = value(here, 0) - (AMULET_VALUE if here in pos.amulet_spaces else 0)
    costs = pos.costs(here)
    best, best_v = None, stay
    for a in drives:
        h = Hex(*a["to"])
        v = value(h, costs[h]) - 0.01 * costs[h]
        if v > best_v + 1e-9:
            best, best_v = a, v
    return best


def _or_progress(pos: Position, kinds: dict[str, list[Action]]) -> Action:
    """The end of my turn; or, when the table stalls and this turn made no progress, a
    candidate marker removed first if I can (``_urgent``)."""
    if _urgent(pos):
        removal = _removal(pos, kinds)
        if removal is not None:
            return removal
    return {"type": "end_turn"}


# --- sharing ------------------------------------------------------------------------------


def unturned_draws(view: dict) -> list[int | str]:
    """The seat's own draws for the running sharing that are not turned yet (its memory less
    the values turned; the offer counts as turned); the strong bot's sampling reads them too."""
    sh = view["sharing"]
    drawn: list[int | str] = []
    for record in view["memory"]:
        if record["sharing"] == sh["number"]:
            drawn = [v for v in record["values"] if v != "curse"]
    for v in sh["revealed"]:
        if v in drawn:
            drawn.remove(v)
    return drawn


def _sharing(view: dict) -> Action:
    sh = view["sharing"]
    offer = sh["offer"]
    left = sh["cards_left"]
    markers = sh["markers"]
    seat = view["seat"]
    mine_unseen = unturned_draws(view)
    best_mine = max(mine_unseen, default=0)
    accept = (
        left == 0
        or offer >= 5
        or (offer >= 4 and offer >= best_mine)
        or (offer >= 3 and left + 1 < len(markers))
        or (offer >= 3 and markers.count(seat) == 1 and left <= 2)
    )
    return {"type": "accept" if accept else "decline"}
