"""``TobagoKind``: the Tobago engine behind the shared ``GameKind`` shape (``games.base``)."""

from __future__ import annotations

from typing import Any

from errors import IllegalAction, InvalidInput
from games.base import Action, Event, GameKind, GameType
from games.tobago import engine, islands, sharing, turn, views
from games.tobago.bots import BOTS
from games.tobago.rules import OPTIONS, TREASURE_VALUES
from games.tobago.state import TobagoState, state_from_json, state_to_json
from hexmap.island import Island
from hexmap.seeds import check_seed
from solver.engine import SolverOptions

#: Which actions each phase accepts, and the function applying each.
_TURN_ACTIONS = {
    "play_clue": turn.apply_play_clue,
    "extra_marker": turn.apply_extra_marker,
    "exchange": turn.apply_exchange,
    "drive": turn.apply_drive,
    "pick_amulet": turn.apply_pick_amulet,
    "spend_amulet": turn.apply_spend_amulet,
    "remove_marker": turn.apply_remove_marker,
    "raise": turn.apply_raise,
    "end_turn": turn.apply_end_turn,
}
_PHASE_ACTIONS: dict[str, dict[str, Any]] = {
    "place_atv": {"place_atv": turn.apply_place_atv},
    "first_clue": {"first_clue": turn.apply_first_clue},
    "turn": _TURN_ACTIONS,
    "sharing": {"accept": None, "decline": None},
}

_KNOWN = frozenset(k for acts in _PHASE_ACTIONS.values() for k in acts)


class TobagoKind(GameKind):
    def __init__(self) -> None:
        super().__init__(
            GameType("tobago", 2, 4, OPTIONS, chance="seeded", information="imperfect"), BOTS
        )

    # --- creation ------------------------------------------------------------------------

    def resolve_options(self, given: dict | None, seats: int | None = None) -> dict:
        options = super().resolve_options(given, seats)
        islands.check_island_options(options)
        return options

    def setup(self, seed: int, seats: int, options: dict) -> TobagoState:
        return engine.new_state(seed, seats, options)

    def new_state_on(
        self, island: Island, seed: int, seats: int, options: dict | None = None
    ) -> TobagoState:
        """A new game played on a given island instead of the options' (tests, studies)."""
        check_seed(seed, "seed")
        self.check_seats(seats)
        return engine.new_state(seed, seats, self.resolve_options(options, seats), island)

    # --- play ----------------------------------------------------------------------------

    def to_act(self, state: TobagoState) -> list[int]:
        return views.to_act(state)

    def legal(self, state: TobagoState, seat: int) -> list[Action]:
        phase = state.phase
        if phase == "place_atv":
            return turn.legal_place_atv(state)
        if phase == "first_clue":
            return turn.legal_first_clue(state)
        if phase == "sharing":
            return [{"type": "accept"}, {"type": "decline"}]
        out = turn.legal_plays(state, seat)
        out += turn.legal_extra_markers(state, seat)
        if state.turn.mode is None and state.players[seat].hand:
            out.append({"type": "exchange"})
        out += turn.legal_drive(state, seat)
        out += turn.legal_end_turn(state, seat)
        return out

    def play(self, state: TobagoState, seat: int | None, action: Action) -> list[Event]:
        assert seat is not None  # Tobago has no timer: only seats act
        kind = action["type"]
        if kind not in _KNOWN:
            raise InvalidInput(
                f"unknown action type {kind!r} (known: {', '.join(sorted(_KNOWN))})",
                "action.type",
                reason="unknown_action",
                params={"action": kind},
            )
        accepted = _PHASE_ACTIONS[state.phase]
        if kind not in accepted:
            raise IllegalAction(
                f"a {kind!r} action is not possible now (phase {state.phase}; "
                f"possible: {', '.join(accepted)})",
                "action.type",
                reason="action_not_now",
                params={"action": kind, "phase": state.phase},
            )
        events: list[Event] = []
        passing = kind == "end_turn" and state.phase == "turn" and state.turn.mode is None
        if state.phase == "sharing":
            engine.check_fields(action, ())
            (sharing.accept if kind == "accept" else sharing.decline)(state, seat, events)
        else:
            accepted[kind](state, seat, action, events)
        if not passing:
            state.passes = 0  # the table plays: passes in a row start again
        return events

    # --- views and results ---------------------------------------------------------------

    def observe(self, state: TobagoState, seat: int | None) -> dict:
        return views.view(state, seat)

    def is_over(self, state: TobagoState) -> bool:
        return state.phase == "over"

    def scores(self, state: TobagoState) -> list[float] | None:
        if state.phase != "over":
            return None
        return [sum(TREASURE_VALUES[c] for c in p.treasures) for p in state.players]

    def seat_count(self, state: TobagoState) -> int:
        return state.seats

    def private_items(self, state: TobagoState, seat: int) -> list[Any]:
        return views.private_items(state, seat)

    def hidden_items(self, state: TobagoState) -> list[Any]:
        return views.hidden_items(state)

    def statistics(self, state: TobagoState) -> dict:
        """Figures for ``games.simulate``: treasures raised, curses, turns, amulets, exchanges…"""
        s = state.stats
        return {
            "turns": state.turn_number,
            "treasures_raised": s.get("treasures_raised", 0),
            "curses": s.get("curses", 0),
            "cursed_players": s.get("cursed_players", 0),
            "clues_played": s.get("clues_played", 0),
            "exchanges": s.get("exchanges", 0),
            "amulets_picked": s.get("amulets_picked", 0),
            "amulets_spent": s.get("amulets_spent", 0),
            "markers_removed": s.get("markers_removed", 0),
            # a game that stopped because nobody could raise any more (rules §5: no marker left)
            "ended_without_markers": int(
                state.phase == "over" and all(p.markers == 0 for p in state.players)
            ),
            "treasure_cards": [len(p.treasures) for p in state.players],
            "amulets_left": [p.amulets for p in state.players],
        }

    # --- snapshots -----------------------------------------------------------------------

    def state_to_json(self, state: TobagoState) -> dict:
        return state_to_json(state)

    def state_from_json(self, data: dict) -> TobagoState:
        island = islands.island_from_source(data["island_source"])
        o = data["options"]
        return state_from_json(
            data, island, SolverOptions(o["near_includes_target"], o["treasure_on_landmarks"])
        )


KIND = TobagoKind()
