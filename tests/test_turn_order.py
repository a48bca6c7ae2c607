"""The declared turn orders (``games.order``), phase stages and phase hooks (``games.phases``):
each preset on a bare state, the base's use of them through a small game, and their place in
a snapshot."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest

from errors import IllegalAction
from games.actions import bare
from games.base import GameKind, GameType
from games.order import by_ranking, no_turn, once_around, round_robin, simultaneous
from games.phases import Move, Phase, Stage
from games.state import GameState, enter, generator


def _state(seats: int = 4) -> GameState:
    return GameState(seed=0, seats=seats, options={}, rng=generator(0), phase="play")


def _turns(order: Any, state: GameState, count: int) -> list[int | None]:
    return [order.pass_turn(state) for _ in range(count)]


# --- the presets ---------------------------------------------------------------------------


def test_round_robin_goes_up_the_seats_from_the_first_and_wraps():
    state = _state()
    order = round_robin()
    assert order.start(state, 2) == 2
    assert state.current == 2 and state.order == [2, 3, 0, 1]
    assert order(state) == [2]
    assert _turns(order, state, 5) == [3, 0, 1, 2, 3]


def test_round_robin_passes_over_skipped_seats():
    barred = {1, 3}
    state = _state()
    order = round_robin(skip=lambda s, seat: seat in barred)
    assert order.start(state, 1) == 2  # the first seat itself is skipped
    assert _turns(order, state, 3) == [0, 2, 0]


def test_round_robin_stays_with_the_one_seat_left():
    state = _state(3)
    order = round_robin(skip=lambda s, seat: seat != 1)
    order.start(state, 1)
    assert _turns(order, state, 2) == [1, 1]


def test_once_around_gives_every_seat_one_turn_then_nobody():
    state = _state(3)
    order = once_around()
    assert order.start(state, 1) == 1
    assert _turns(order, state, 3) == [2, 0, None]
    assert state.current is None and order(state) == []
    assert order.pass_turn(state) is None


def test_by_ranking_orders_the_seats_once_as_ranked_at_the_start():
    scores = [5, 1, 3]
    state = _state(3)
    order = by_ranking(lambda s: sorted(range(s.seats), key=lambda seat: scores[seat]))
    assert order.start(state) == 1
    scores[:] = [0, 0, 0]  # later changes of the ranking do not reorder the turns
    assert _turns(order, state, 3) == [2, 0, None]


def test_simultaneous_names_its_seats_and_nobody_has_the_turn():
    chosen = {2}
    state = _state(3)
    order = simultaneous(lambda s: [seat for seat in range(s.seats) if seat not in chosen])
    assert order.start(state) is None
    assert state.current is None and state.order == []
    assert order(state) == [0, 1]
    chosen.add(0)
    assert order(state) == [1]
    assert order.pass_turn(state) is None


def test_an_order_never_laid_out_goes_in_seat_order():
    """A state rebuilt from a view (a bot's sample) holds the current seat and no order."""
    state = _state(3)
    state.current = 2
    assert round_robin().pass_turn(state) == 0
    state.current = 1
    assert once_around().pass_turn(state) == 2


def test_no_turn_clears_the_turn():
    state = _state()
    round_robin().start(state, 1)
    no_turn(state)
    assert state.current is None and state.order == []


# --- the base with a declared order, stages and hooks ---------------------------------------

Step, Play, Pass = bare("step"), bare("play"), bare("finish")


@dataclass(kw_only=True)
class RaceState(GameState):
    """A tiny game: seats take turns; a turn is a ``step`` or ``play`` (the stage ``open``), and
    after a ``play`` only ``finish`` (the stage ``done``); the first to 3 plays wins."""

    plays: list[int] = field(default_factory=list)
    played: bool = False


TURNS: Any = round_robin()


def _play(state: RaceState, seat: int, action: Any, events: list[dict]) -> None:
    state.plays[seat] += 1
    state.played = True
    if state.plays[seat] >= 3:
        enter(state, "over")


def _step(state: RaceState, seat: int, action: Any, events: list[dict]) -> None:
    TURNS.pass_turn(state)


def _finish(state: RaceState, seat: int, action: Any, events: list[dict]) -> None:
    state.played = False
    TURNS.pass_turn(state)


STAGES = (
    Stage("open", frozenset({"step", "play"})),
    Stage("done", frozenset({"finish"}), {"step": ("one_action", "a turn is one action")}),
)


class Race(GameKind[RaceState]):
    def __init__(self) -> None:
        play: Phase[RaceState] = Phase(
            "play",
            TURNS,
            lambda s, seat: [{"type": "step"}, {"type": "play"}, {"type": "finish"}],
            (Move(Step, _step), Move(Play, _play), Move(Pass, _finish)),
            stages=STAGES,
            stage=lambda s: "done" if s.played else "open",
            view=lambda s, seat: {"plays": list(s.plays)},
            analysis=lambda view, legal, played: "judged",
        )
        super().__init__(GameType("race", 2, 4, ()), (play,))

    def setup(self, seed: int, seats: int, options: dict, rng: Any) -> RaceState:
        state = RaceState(
            seed=seed, seats=seats, options=options, rng=rng, phase="play", plays=[0] * seats
        )
        TURNS.start(state, 1)
        return state

    def observe(self, state: RaceState, seat: int | None) -> dict:
        return {"you": seat}

    def scores(self, state: RaceState) -> list[float] | None:
        return [float(p) for p in state.plays] if self.is_over(state) else None

    def encode(self, state: RaceState) -> dict:
        return {"plays": list(state.plays), "played": state.played}


def test_the_declared_order_says_who_acts_and_the_stage_what():
    kind = Race()
    state = kind.new_state(1, 3)
    assert kind.to_act(state) == [1] and state.order == [1, 2, 0]
    assert [a["type"] for a in kind.legal_actions(state, 1)] == ["step", "play"]
    kind.apply(state, 1, {"type": "play"})
    assert kind.to_act(state) == [1]
    assert [a["type"] for a in kind.legal_actions(state, 1)] == ["finish"]
    with pytest.raises(IllegalAction) as refused:
        kind.apply(state, 1, {"type": "step"})
    assert refused.value.reason == "one_action"
    with pytest.raises(IllegalAction) as refused:
        kind.apply(state, 1, {"type": "play"})
    assert refused.value.reason == "action_not_now"
    assert state.plays == [0, 1, 0] and state.moves == 1  # refusals change nothing
    kind.apply(state, 1, {"type": "finish"})
    assert kind.to_act(state) == [2]


def test_a_phase_adds_its_piece_to_the_view_and_names_its_hooks():
    kind = Race()
    state = kind.new_state(1, 2)
    assert kind.view(state, 0) == {"you": 0, "plays": [0, 0]}
    assert kind.phase_hook("play", "analysis")({}, [], {}) == "judged"
    assert kind.phase_hook("play", "bot") is None
    assert kind.phase_hook("over", "analysis") is None


def test_the_turn_is_in_the_snapshot_of_the_base():
    kind = Race()
    state = kind.new_state(1, 3)
    kind.apply(state, 1, {"type": "step"})
    snapshot = kind.state_to_json(state)
    assert snapshot["current"] == 2 and snapshot["order"] == [1, 2, 0]


def test_a_stage_declared_with_a_move_the_phase_lacks_is_an_error():
    with pytest.raises(ValueError):
        Phase(
            "p",
            TURNS,
            lambda s, seat: [],
            (Move(Step, _step),),
            stages=(Stage("s", frozenset({"fly"})),),
            stage=lambda s: "s",
        )


# --- the built-in games' declarations -------------------------------------------------------


def test_the_built_in_games_declare_their_orders_and_judges_with_their_phases():
    from games.base import get_kind
    from games.dragons_gold import analysis as dg_analysis
    from games.isla_dorada import analysis as isla_analysis

    isla, dg = get_kind("isla_dorada"), get_kind("dragons_gold")
    assert isla.phases["bid"].turns is not None and isla.phases["draw"].turns is not None
    assert isla.phases["pay"].turns is None  # the leader acts: a function, no order
    assert isla.phase_hook("bid", "analysis") is isla_analysis.judge_bid
    assert isla.phase_hook("draw", "analysis") is None  # draws are not rated
    assert isla_analysis.judge({"phase": "draw"}, [{"type": "done"}], {"type": "done"}) is None
    assert dg.phase_hook("pick", "analysis") is dg_analysis.judge_pick
    assert dg.phase_hook("steal", "analysis") is None
    tobago = get_kind("tobago")
    assert [st.name for st in tobago.phases["turn"].stages] == ["choose", "clues", "drive"]
    assert tobago.phase_hook("place_atv", "analysis") is None  # the ATV's placing is not rated
    assert tobago.phase_hook("sharing", "analysis") is tobago.phase_hook("turn", "analysis")


def test_a_new_game_starts_its_declared_order():
    from games.base import get_kind

    for name, first_phase in [("dao", "play"), ("dragons_gold", "fight")]:
        kind = get_kind(name)
        state = kind.new_state(3, 3)
        assert state.phase == first_phase
        assert kind.to_act(state) == [state.current] and state.order == [0, 1, 2]
