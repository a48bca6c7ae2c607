"""``TobagoKind``: the Tobago engine behind the shared ``GameKind`` shape (``games.base``).

The phases (rules §4-§8): ``place_atv`` and ``first_clue`` (the setup, seat by seat), ``turn``
(the current seat's actions, ``games.tobago.turn``) and ``sharing`` (the seat asked about the
face-up treasure card, ``games.tobago.sharing``), then ``over``. The action types are declared
in ``games.tobago.actions``.
"""

from __future__ import annotations

import random
from typing import Any

from games.base import GameKind, GameType
from games.phases import Event, Move, Phase
from games.state import OVER, generator
from games.tobago import actions as A
from games.tobago import analysis, engine, islands, search, sharing, strategy, turn, views
from games.tobago.bots import ALIASES, BOTS
from games.tobago.rules import OPTIONS, TREASURE_VALUES
from games.tobago.state import TobagoState, state_from_json, state_to_json
from hexmap.island import Island
from hexmap.seeds import check_seed
from solver.engine import SolverOptions

PHASES: tuple[Phase[TobagoState], ...] = (
    Phase(
        "place_atv",
        to_act=engine.SETUP,
        legal=turn.legal_place_atv,
        moves=(Move(A.PlaceAtv, turn.apply_place_atv),),
        bot={"strategic": strategy.place_atv},
    ),
    Phase(
        "first_clue",
        to_act=engine.SETUP,
        legal=turn.legal_first_clue,
        moves=(Move(A.FirstClue, turn.apply_first_clue),),
        analysis=analysis.judge_searched,
        bot={"strategic": strategy.first_clue, "candidates": search.first_clues},
    ),
    Phase(
        "turn",
        to_act=engine.TURNS,
        legal=turn.legal_turn,
        stages=turn.STAGES,
        moves=(
            Move(A.PlayClue, turn.apply_play_clue),
            Move(A.ExtraMarker, turn.apply_extra_marker),
            Move(A.Exchange, turn.apply_exchange),
            Move(A.Drive, turn.apply_drive),
            Move(A.PickAmulet, turn.apply_pick_amulet),
            Move(A.SpendAmulet, turn.apply_spend_amulet),
            Move(A.RemoveMarker, turn.apply_remove_marker),
            Move(A.Raise, turn.apply_raise),
            Move(A.EndTurn, turn.apply_end_turn),
        ),
        analysis=analysis.judge_searched,
        bot={"strategic": strategy.turn, "candidates": search.turn_moves},
    ),
    Phase(
        "sharing",
        to_act=sharing.to_act,
        legal=sharing.legal,
        moves=(
            Move(A.Accept, sharing.accept),
            Move(A.Decline, sharing.decline),
        ),
        analysis=analysis.judge_searched,
        bot={
            "strategic": strategy.sharing,
            "candidates": search.every_answer,
            "horizon": search.to_the_sharing_end,
        },
    ),
)


class TobagoKind(GameKind[TobagoState]):
    snapshot_format = 3

    #: The bot levels' anchors (``GameKind.level_ratings``): each level's mu in
    #: ``python -m games.tournament tobago --games 10`` (README, "Bot levels"), rounded.
    level_ratings = {"easy": 9.4, "normal": 25.3, "strong": 40.7}

    def __init__(self) -> None:
        super().__init__(
            GameType("tobago", 2, 4, OPTIONS, chance="seeded", information="imperfect"),
            PHASES,
            BOTS,
            ALIASES,
        )

    # --- creation ------------------------------------------------------------------------

    def resolve_options(self, given: dict | None, seats: int | None = None) -> dict:
        options = super().resolve_options(given, seats)
        islands.check_island_options(options)
        return options

    def setup(self, seed: int, seats: int, options: dict, rng: random.Random) -> TobagoState:
        return engine.new_state(seed, seats, options, rng)

    def new_state_on(
        self, island: Island, seed: int, seats: int, options: dict | None = None
    ) -> TobagoState:
        """A new game played on a given island instead of the options' (tests, studies)."""
        check_seed(seed, "seed")
        self.check_seats(seats)
        options = self.resolve_options(options, seats)
        return engine.new_state(seed, seats, options, generator(seed), island)

    # --- views and results ---------------------------------------------------------------

    def observe(self, state: TobagoState, seat: int | None) -> dict:
        return views.view(state, seat, self.to_act(state))

    def scores(self, state: TobagoState) -> list[float] | None:
        if state.phase != OVER:
            return None
        return [sum(TREASURE_VALUES[c] for c in p.treasures) for p in state.players]

    def finish(self, state: TobagoState, end: str, events: list[Event]) -> None:
        """The game ends now (``end``: e.g. ``log_full``), each seat scoring its treasures."""
        engine.end_game(state, events, f"the table ended the game ({end})", end)

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
                state.phase == OVER and all(p.markers == 0 for p in state.players)
            ),
            # two whole rounds without progress (rules §8)
            "ended_stalled": int(
                state.phase == OVER and state.idle_turns >= engine.stall_limit(state)
            ),
            "treasure_cards": [len(p.treasures) for p in state.players],
            "amulets_left": [p.amulets for p in state.players],
        }

    # --- snapshots -----------------------------------------------------------------------

    def encode(self, state: TobagoState) -> dict:
        return state_to_json(state)

    def decode(self, data: dict, common: dict[str, Any]) -> TobagoState:
        island = islands.island_from_source(data["island_source"])
        o = common["options"]
        return state_from_json(
            data,
            common,
            island,
            SolverOptions(o["near_includes_target"], o["treasure_on_landmarks"]),
        )


KIND = TobagoKind()
