"""Tobago's game state: plain mutable dataclasses extending ``games.state.GameState``, with a
lossless JSON form.

The state holds everything, hidden parts included (hands, deck order, the sharing pile); what a
seat may see is cut out of it by ``games.tobago.views``. The island itself is not stored: it is
rebuilt from the options (``games.tobago.islands``), or from the island JSON kept for a custom
island (tests and puzzles build positions on small islands).

Cards are small ints: a clue card is its index in ``solver.deck.DECK``; a treasure card is its
index in ``rules.TREASURE_VALUES`` (the last two are the curses). Decks are lists whose *end* is
the top. Candidate masks are derived data, recomputed by ``refresh`` whenever a column changes.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from errors import IllegalAction
from games.state import GameState, Generator
from hexmap.hexes import Hex
from hexmap.island import Island
from solver.deck import DECK
from solver.engine import SolverOptions, column_mask

Space = Hex
#: The public events a snapshot (``state_to_json``) keeps: the newest, at least as many as a
#: view shows (``views.LOG_TAIL``); the older ones are in the service's log already.
LOG_KEPT = 64

#: The phases of a game, in order (``sharing`` comes and goes between turns; ``games.tobago.kind``
#: declares them): ``place_atv``, ``first_clue``, ``turn``, ``sharing``, ``over``.
#: What the current player has started this turn: nothing yet, action 1, or action 2.


@dataclass
class ClueEntry:
    """A clue card in a column and the compass markers its player has on it (0–2)."""

    card: int
    seat: int
    markers: int = 1


@dataclass
class TreasureMap:
    """One treasure map: its column of clues, spaces removed with amulets, and (while its
    treasure is being shared) the raiser whose marker lies under the column."""

    colour: str
    clues: list[ClueEntry] = field(default_factory=list)
    removed: int = 0
    raiser: int | None = None
    #: Derived: the candidate spaces (mask); kept up to date by ``refresh``.
    candidates: int = 0

    def markers_bottom_up(self) -> list[int]:
        """The seats owning the column's markers, from the bottom of the column upwards."""
        out = [] if self.raiser is None else [self.raiser]
        for entry in reversed(self.clues):
            out.extend([entry.seat] * entry.markers)
        return out


@dataclass
class Player:
    atv: Space | None = None
    hand: list[int] = field(default_factory=list)
    treasures: list[int] = field(default_factory=list)
    amulets: int = 0
    markers: int = 0  # compass markers left in the player's supply
    #: What this seat drew for sharings (values it saw): ``{"sharing", "map", "values"}``.
    memory: list[dict] = field(default_factory=list)


@dataclass
class TurnState:
    """Progress inside the current player's turn (the step it is in, nothing done yet, action 1
    or action 2, is the base's ``GameState.stage``: ``games.tobago.turn.STAGES``)."""

    plays: int = 0  # clues played this turn
    start: Space | None = None  # where the drive action started
    points: int = 0  # movement points left
    bonus: int = 0  # movement points bought with amulets (cannot pay for a pick-up)
    #: This turn played a clue, placed or removed a marker, or raised a treasure (rules §8).
    progress: bool = False


@dataclass
class Sharing:
    """A treasure being shared (rules §7): the sub-state of the ``sharing`` phase, present
    exactly while ``TobagoState.phase == "sharing"`` (``TobagoState.sharing_now`` gives it,
    typed). Between cards ``offer`` is None; while a card is face up it is that card, and
    ``declined`` the seats that said no to it (``Sharing.offered`` gives it, typed)."""

    number: int  # 1 for the game's first sharing
    map: int
    raiser: int
    pile: list[int] = field(default_factory=list)  # face down; the end is turned next
    offer: int | None = None  # the face-up card being offered
    declined: list[int] = field(default_factory=list)  # seats that declined ``offer``
    revealed: list[int] = field(default_factory=list)  # cards turned so far (public values)
    last: bool = False  # the treasure deck ran out while drawing: the game ends after this

    def offered(self) -> int:
        """The face-up card being offered (``IllegalAction`` when no card is face up)."""
        if self.offer is None:
            raise IllegalAction(
                "no treasure card is being offered now", "action.type", reason="nothing_offered"
            )
        return self.offer


@dataclass(kw_only=True)
class TobagoState(GameState):
    island: Island
    solver_options: SolverOptions
    #: The island's source: ``{"spec": ..., "landmarks_seed": ...}`` or ``{"custom": json}``.
    island_source: dict[str, Any]
    turn_number: int = 0
    #: Turns in a row that made no progress (rules §8; ``engine.STALL_ROUNDS``).
    idle_turns: int = 0
    clue_deck: list[int] = field(default_factory=list)
    clue_discard: list[int] = field(default_factory=list)
    drawn: int | None = None  # the clue card drawn for a first clue (face up)
    treasure_deck: list[int] = field(default_factory=list)
    treasure_discard: list[int] = field(default_factory=list)
    treasure_removed: list[int] = field(default_factory=list)  # curses and cursed leftovers
    amulet_supply: int = 0
    amulets: list[Space] = field(default_factory=list)  # amulets lying on the island
    statues: list[list] = field(default_factory=list)  # [space, facing] per statue
    maps: list[TreasureMap] = field(default_factory=list)
    players: list[Player] = field(default_factory=list)
    turn: TurnState = field(default_factory=TurnState)
    sharing: Sharing | None = None
    sharings: int = 0
    log: list[dict] = field(default_factory=list)  # the newest public events, in order
    #: Events older than ``log[0]`` that this state no longer holds (it keeps only the log's
    #: tail: ``engine.emit``, ``state_to_json``): the log's full length is ``log_dropped + len(log)``.
    log_dropped: int = 0
    stats: dict[str, int] = field(default_factory=dict)

    def refresh(self, m: TreasureMap) -> None:
        """Recompute the candidates of map ``m`` after its column or removals changed."""
        m.candidates = column_mask(
            self.island, [DECK[e.card] for e in m.clues], m.removed, self.solver_options
        )

    def place_clue(self, m: TreasureMap, card: int, seat: int) -> None:
        """Put clue ``card`` at the end of map ``m``'s column for ``seat``, who spends one marker
        on it, and recompute the map's candidates."""
        m.clues.append(ClueEntry(card, seat, 1))
        self.players[seat].markers -= 1
        self.refresh(m)

    def bump(self, key: str, n: int = 1) -> None:
        self.stats[key] = self.stats.get(key, 0) + n

    def sharing_now(self) -> Sharing:
        """The sharing in progress (``IllegalAction`` outside the ``sharing`` phase)."""
        if self.phase != "sharing" or self.sharing is None:
            raise IllegalAction(
                "no treasure is being shared now", "action.type", reason="nothing_shared"
            )
        return self.sharing

    def first_clue_card(self) -> int:
        """The face-up card of the first-clue phase (``IllegalAction`` when none is drawn)."""
        if self.drawn is None:
            raise IllegalAction(
                "no clue card is drawn for a first clue now",
                "action.type",
                reason="no_first_clue_card",
            )
        return self.drawn

    def atv(self, seat: int) -> Space:
        """Where ``seat``'s ATV stands (``IllegalAction`` before it was placed)."""
        at = self.players[seat].atv
        if at is None:
            raise IllegalAction(
                f"seat {seat} has not placed its ATV yet",
                "action.type",
                reason="atv_not_placed",
                params={"seat": seat},
            )
        return at


# --- JSON ---------------------------------------------------------------------------------


def _space(h: Space | None) -> list[int] | None:
    return None if h is None else [h.q, h.r]


def _hex(v: Any) -> Space | None:
    return None if v is None else Hex(v[0], v[1])


def _space_of(v: Any) -> Space:
    return Hex(v[0], v[1])


# The state's fields a snapshot stores as they are (numbers and strings), and its card piles
# (lists of card numbers, copied): one list each, read by the snapshot, its rebuild and
# ``copy_state``, so a new field of either sort is named once.
_PLAIN_FIELDS = ("island_source", "turn_number", "idle_turns", "drawn", "amulet_supply", "sharings")
_PILES = ("clue_deck", "clue_discard", "treasure_deck", "treasure_discard", "treasure_removed")


def _plain(get: Callable[[str], Any]) -> dict[str, Any]:
    """The plain fields by name, each read by ``get`` (a state's attribute or a snapshot's key)."""
    return {f: get(f) for f in _PLAIN_FIELDS}


def _piles(get: Callable[[str], Any]) -> dict[str, Any]:
    """The card piles by name, each read by ``get`` and copied."""
    return {f: list(get(f)) for f in _PILES}


def state_to_json(s: TobagoState) -> dict:
    """The engine's part of a snapshot, holding everything (hidden parts included; the base's
    part, ``games.state.common_json``, holds the generator)."""
    return {
        **_plain(partial(getattr, s)),
        **_piles(partial(getattr, s)),
        "amulets": [_space(h) for h in s.amulets],
        "statues": [[_space(h), d] for h, d in s.statues],
        "maps": [
            {
                "colour": m.colour,
                "clues": [[e.card, e.seat, e.markers] for e in m.clues],
                "removed": [_space(h) for h in s.island.spaces_of(m.removed)],
                "raiser": m.raiser,
            }
            for m in s.maps
        ],
        "players": [
            {
                "atv": _space(p.atv),
                "hand": list(p.hand),
                "treasures": list(p.treasures),
                "amulets": p.amulets,
                "markers": p.markers,
                "memory": [dict(r, values=list(r["values"])) for r in p.memory],
            }
            for p in s.players
        ],
        "turn": {
            "plays": s.turn.plays,
            "start": _space(s.turn.start),
            "points": s.turn.points,
            "bonus": s.turn.bonus,
            "progress": s.turn.progress,
        },
        "sharing": None
        if s.sharing is None
        else {
            "number": s.sharing.number,
            "map": s.sharing.map,
            "raiser": s.sharing.raiser,
            "pile": list(s.sharing.pile),
            "offer": s.sharing.offer,
            "declined": list(s.sharing.declined),
            "revealed": list(s.sharing.revealed),
            "last": s.sharing.last,
        },
        # Only the tail the views show: a snapshot's size must not grow with the game.
        "log": [dict(e) for e in s.log[-LOG_KEPT:]],
        "log_dropped": s.log_dropped + max(0, len(s.log) - LOG_KEPT),
        "stats": dict(s.stats),
    }


def state_from_json(
    d: dict, common: dict[str, Any], island: Island, solver_options: SolverOptions
) -> TobagoState:
    """Rebuild a state from ``state_to_json`` output and the base's part ``common`` (the island
    is rebuilt by the caller)."""
    s = TobagoState(
        **common,
        island=island,
        solver_options=solver_options,
        **_plain(d.__getitem__),
        **_piles(d.__getitem__),
        amulets=[_space_of(v) for v in d["amulets"]],
        statues=[[_space_of(h), f] for h, f in d["statues"]],
        log=[dict(e) for e in d["log"]],
        log_dropped=d["log_dropped"],
        stats=dict(d["stats"]),
    )
    for m in d["maps"]:
        tm = TreasureMap(
            colour=m["colour"],
            clues=[ClueEntry(c, seat, n) for c, seat, n in m["clues"]],
            removed=island.mask_of(_space_of(v) for v in m["removed"]),
            raiser=m["raiser"],
        )
        s.maps.append(tm)
        s.refresh(tm)
    for p in d["players"]:
        s.players.append(
            Player(
                atv=_hex(p["atv"]),
                hand=list(p["hand"]),
                treasures=list(p["treasures"]),
                amulets=p["amulets"],
                markers=p["markers"],
                memory=[dict(r, values=list(r["values"])) for r in p["memory"]],
            )
        )
    t = d["turn"]
    s.turn = TurnState(t["plays"], _hex(t["start"]), t["points"], t["bonus"], t["progress"])
    sh = d["sharing"]
    if sh is not None:
        s.sharing = Sharing(
            number=sh["number"],
            map=sh["map"],
            raiser=sh["raiser"],
            pile=list(sh["pile"]),
            offer=sh["offer"],
            declined=list(sh["declined"]),
            revealed=list(sh["revealed"]),
            last=sh["last"],
        )
    return s


def copy_state(s: TobagoState, rng: random.Random | None = None) -> TobagoState:
    """An independent copy of ``s`` (its generator too: the copy draws what ``s`` would), much
    cheaper than a deep copy or a JSON round trip: the strong bot's search samples each world
    once and plays every candidate in a copy of it. The island, the options' values, the
    statues' spaces and the log's events are shared (never changed once made).

    Built field by field on a bare object (no ``dataclasses.replace``: its per-field
    introspection and ``__init__`` were a third of a copy), and the generator made bare before
    its state is set (``random.Random()`` seeds itself from the system first). ``rng``: the
    copy's generator instead of a copy of ``s``'s (a sampled world's own)."""
    if rng is None:
        rng = Generator.__new__(Generator)
        rng.setstate(s.rng.getstate())
    sh = s.sharing
    c: TobagoState = object.__new__(TobagoState)
    d = c.__dict__
    d.update(s.__dict__)  # the plain fields; every mutable one is replaced below
    d.update(_piles(partial(getattr, s)))
    d["rng"] = rng
    d["options"] = dict(s.options)
    d["turn_since"] = dict(s.turn_since)
    d["phase_moves"] = dict(s.phase_moves)
    d["timeouts"] = dict(s.timeouts)
    d["absent"] = set(s.absent)
    d["order"] = list(s.order)
    d["amulets"] = list(s.amulets)
    d["statues"] = [list(st) for st in s.statues]
    d["maps"] = [
        TreasureMap(
            m.colour,
            [ClueEntry(e.card, e.seat, e.markers) for e in m.clues],
            m.removed,
            m.raiser,
            m.candidates,
        )
        for m in s.maps
    ]
    d["players"] = [
        Player(
            p.atv,
            list(p.hand),
            list(p.treasures),
            p.amulets,
            p.markers,
            [dict(r, values=list(r["values"])) for r in p.memory],
        )
        for p in s.players
    ]
    t = s.turn
    d["turn"] = TurnState(t.plays, t.start, t.points, t.bonus, t.progress)
    d["sharing"] = (
        None
        if sh is None
        else Sharing(
            sh.number,
            sh.map,
            sh.raiser,
            list(sh.pile),
            sh.offer,
            list(sh.declined),
            list(sh.revealed),
            sh.last,
        )
    )
    d["log"] = list(s.log)
    d["stats"] = dict(s.stats)
    return c
