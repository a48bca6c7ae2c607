"""What one seat may see of a Tobago game (rules §9), as a JSON object.

Everyone sees: the island (by its source; landmarks, statue facings, amulets lying on it), every
column with its clue cards and compass markers, the candidates of every map, the ATVs, each
player's amulets, markers left, hand size and number of treasure cards, the size of every deck and
pile, the turn's progress, the sharing in progress (the face-up card, who is asked, who declined,
the cards turned so far), how many turns in a row made no progress (``stall``: the game ends at
its ``limit``, rules §8) and the public log.

A seat also sees its own hand (``{"id", "clue"}`` per card), its own treasure cards
(``{"id", "value"}``) and what it drew for every sharing it took part in (``memory``). Nobody sees
another seat's hand or treasure values, the order of a deck, the raiser's unseen extra card or the
face-down sharing pile. Once the game is over everything is shown: every hand, treasure and
memory, and the cards left in the decks.
"""

from __future__ import annotations

from typing import Any

from games.state import OVER
from games.tobago.engine import stall_limit
from games.tobago.rules import SEAT_COLOURS, TREASURE_VALUES
from games.tobago.sharing import offeree, value_label
from games.tobago.state import LOG_KEPT, TobagoState
from hexmap.hexes import Hex
from hexmap.island import Island
from solver.compiled import remember
from solver.deck import DECK

#: How many of the latest public events a view carries (a snapshot keeps at least as many).
LOG_TAIL = 40
assert LOG_TAIL <= LOG_KEPT
#: Each clue card's notation, by card id.
NOTATIONS: tuple[str, ...] = tuple(c.notation for c in DECK)


def hand_card(card: int) -> dict:
    return {"id": card, "clue": NOTATIONS[card]}


def treasure_card(card: int) -> dict:
    return {"id": card, "value": TREASURE_VALUES[card]}


def score(state: TobagoState, seat: int) -> int:
    return sum(TREASURE_VALUES[c] for c in state.players[seat].treasures)


def island_ref(state: TobagoState) -> dict:
    """How to get the island: its spec and landmarks seed, or (custom) its JSON and key."""
    src = state.island_source
    out = {"name": state.island.name, "spaces": len(state.island)}
    if "custom" in src:
        out.update(custom=src["custom"], key=src["key"])
    else:
        out.update(spec=src["spec"], landmarks_seed=src["landmarks_seed"])
    return out


def _coords(island: Island, mask: int) -> list[list[int]]:
    """The ``[q, r]`` of a mask's spaces, kept per island geometry (views repeat the same few
    masks; building the lists was a third of a view). Shared by every view that shows the
    mask: read only, like the log."""
    return remember(
        ("view-coords", island.geometry_key, mask),
        lambda: [[h.q, h.r] for h in island.spaces_of(mask)],
        lambda coords: 120 + 88 * len(coords),
    )


def _xy(h: Hex | None) -> list[int] | None:
    return None if h is None else [h.q, h.r]


def view(state: TobagoState, seat: int | None, to_act: list[int]) -> dict:
    """What ``seat`` sees (``None``: a spectator); ``to_act``: who acts now (the phase's)."""
    over = state.phase == OVER
    island = state.island
    players = []
    for i, p in enumerate(state.players):
        entry = {
            "seat": i,
            "colour": SEAT_COLOURS[i],
            "atv": _xy(p.atv),
            "amulets": p.amulets,
            "markers_left": p.markers,
            "hand_size": len(p.hand),
            "treasure_count": len(p.treasures),
        }
        if over or i == seat:
            entry["hand"] = [hand_card(c) for c in p.hand]
            entry["treasures"] = [treasure_card(c) for c in p.treasures]
            entry["score"] = score(state, i)
        players.append(entry)
    maps = []
    for m in state.maps:
        cand = _coords(island, m.candidates)
        maps.append(
            {
                "colour": m.colour,
                "clues": [
                    {
                        "card": e.card,
                        "clue": NOTATIONS[e.card],
                        "seat": e.seat,
                        "markers": e.markers,
                    }
                    for e in m.clues
                ],
                "raiser": m.raiser,
                "candidates": cand,  # shared: read only
                "count": len(cand),
                "removed": _coords(island, m.removed) if m.removed else [],
            }
        )
    t = state.turn
    v: dict[str, Any] = {
        "game": "tobago",
        "seat": seat,
        "seats": state.seats,
        "phase": state.phase,
        "to_act": list(to_act),
        "current": state.current,
        "turn_number": state.turn_number,
        "options": dict(state.options),
        "island": island_ref(state),
        "statues": [{"at": _xy(h), "facing": d} for h, d in state.statues],
        "amulets_on_island": [_xy(h) for h in state.amulets],
        "amulet_supply": state.amulet_supply,
        "maps": maps,
        "players": players,
        "clue_deck": len(state.clue_deck),
        "clue_discard": len(state.clue_discard),
        "treasure_deck": len(state.treasure_deck),
        "treasure_discard": len(state.treasure_discard),
        "treasure_removed": len(state.treasure_removed),
        "drawn": None if state.drawn is None else hand_card(state.drawn),
        "turn": {
            "mode": state.stage,
            "plays": t.plays,
            "start": _xy(t.start),
            "points": t.points,
            "bonus": t.bonus,
            "progress": t.progress,
        },
        # Turns in a row without progress; the game ends at the limit (rules §8).
        "stall": {"turns": state.idle_turns, "limit": stall_limit(state)},
        "sharing": _sharing_view(state),
        "memory": []
        if seat is None
        else [dict(r, values=list(r["values"])) for r in state.players[seat].memory],
        # The events are shared with the state's log (never changed once logged): read only.
        "log": state.log[-LOG_TAIL:],
        "log_size": state.log_dropped + len(state.log),
    }
    if over:
        v["scores"] = [score(state, i) for i in range(state.seats)]
        v["memory_all"] = [
            [dict(r, values=list(r["values"])) for r in p.memory] for p in state.players
        ]
        v["clue_deck_cards"] = [hand_card(c) for c in state.clue_deck]
        v["treasure_deck_cards"] = [treasure_card(c) for c in state.treasure_deck]
    return v


def _sharing_view(state: TobagoState) -> dict | None:
    sh = state.sharing
    if sh is None:
        return None
    m = state.maps[sh.map]
    return {
        "number": sh.number,
        "map": m.colour,
        "raiser": sh.raiser,
        "cards_left": len(sh.pile),
        "offer": None if sh.offer is None else value_label(sh.offer),
        "asked": offeree(state),
        "declined": list(sh.declined),
        "revealed": [value_label(c) for c in sh.revealed],
        "markers": m.markers_bottom_up(),
        "last": sh.last,
    }


def private_items(state: TobagoState, seat: int) -> list:
    """What only ``seat`` sees: its hand cards, its treasure cards, its sharing memories."""
    p = state.players[seat]
    return (
        [hand_card(c) for c in p.hand]
        + [treasure_card(c) for c in p.treasures]
        + [dict(r, values=list(r["values"])) for r in p.memory]
    )


def hidden_items(state: TobagoState) -> list:
    """What nobody sees: the decks' and the sharing pile's cards (in the shape a leak would take)."""
    out = [hand_card(c) for c in state.clue_deck]
    out += [treasure_card(c) for c in state.treasure_deck]
    if state.sharing is not None:
        out += [treasure_card(c) for c in state.sharing.pile]
    return out
