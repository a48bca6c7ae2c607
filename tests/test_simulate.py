"""games.simulate: the generic simulator, on DAO and on a toy game it knows nothing about."""

from __future__ import annotations

import io
import json
from dataclasses import dataclass, field
from typing import Literal

import pytest

from games import base
from games.actions import ActionType
from games.base import GameKind, register
from games.phases import Move, Phase
from games.simulate import main, simulate
from games.state import GameState, enter


@dataclass(kw_only=True)
class RaceState(GameState):
    count: list[int]
    to_move: int = 0
    winner: int | None = None
    steps: list[int] = field(default_factory=list)


class Step(ActionType):
    type: Literal["step"]
    step: Literal[1, 2]


def _step(state: RaceState, seat: int, action: Step, events: list) -> None:
    state.count[seat] += action.step
    state.steps[seat] += 1
    if state.count[seat] >= 10:
        state.winner = seat
        enter(state, "over")
    state.to_move = (seat + 1) % state.seats
    events.append({"seat": seat, "type": "step", "step": action.step})


RACE = Phase(
    "race",
    to_act=lambda state: [state.to_move],
    legal=lambda state, seat: [{"type": "step", "step": 1}, {"type": "step", "step": 2}],
    moves=(Move(Step, _step),),
)


class Race(GameKind):
    """Toy game: in turn, each seat adds 1 or 2 to its own counter; the first to reach 10 wins
    (score 1, others 0). With ``tie_at_start`` the game ends at once with every seat tied."""

    def __init__(self) -> None:
        super().__init__(
            base.GameType(
                "race_test", 2, 3, (base.OptionSpec("tie_at_start", False),), chance="none"
            ),
            (RACE,),
            {
                "one": lambda v, legal, rng: {"type": "step", "step": 1},
                "two": lambda v, legal, rng: {"type": "step", "step": 2},
            },
        )

    def setup(self, seed, seats, opts, rng):
        return RaceState(
            seed=seed,
            seats=seats,
            options=opts,
            rng=rng,
            phase="over" if opts["tie_at_start"] else "race",
            count=[0] * seats,
            steps=[0] * seats,
        )

    def observe(self, state, seat):
        return {"count": state.count[seat] if seat is not None else None}

    def scores(self, state):
        if not self.is_over(state):
            return None
        return [1 if state.winner in (None, s) else 0 for s in range(state.seats)]

    def statistics(self, state):
        return {
            "best_count": max(state.count),
            "moves": list(state.steps),
            "seat": list(range(state.seats)),
        }


@pytest.fixture
def race():
    kind = register(Race())
    yield kind
    base._REGISTRY.pop(kind.name, None)


def test_a_game_the_simulator_never_heard_of_runs_through_the_generic_interface(race):
    # "two" always reaches 10 in 5 steps; "one" needs 10. Seat order rotates every game.
    result = simulate(race, 40, 2, ["two", "one"], seed=1)
    two, one = result["entries"]
    assert two["win_share"] + one["win_share"] == pytest.approx(1)
    assert two["win_share"] > 0.9 and one["win_share"] < 0.1
    assert result["win_share_by_seat"] == pytest.approx([0.5, 0.5])  # rotation evens the seats
    # Each entry sat in each seat half the time (per-seat lists are averaged per entry).
    assert two["statistics"]["seat"] == pytest.approx(0.5)
    assert result["statistics"]["best_count"] == 10  # numbers are averaged per game
    assert two["statistics"]["moves"] == 5


def test_without_rotation_entry_i_keeps_seat_i(race):
    result = simulate(race, 10, 2, ["one", "one"], seed=1, rotate=False)
    assert [e["statistics"]["seat"] for e in result["entries"]] == [0, 1]
    assert result["win_share_by_seat"] == [1, 0]  # equal bots: the first seat gets there first
    assert [e["mean_actions"] for e in result["entries"]] == [10, 9]


def test_shared_wins_count_fractionally_and_whole_incl_ties(race):
    result = simulate(race, 12, 3, ["one"], seed=2, options={"tie_at_start": True})
    for entry in result["entries"]:
        assert entry["win_share"] == pytest.approx(1 / 3)
        assert entry["wins_incl_ties"] == 1
    assert result["mean_actions"] == 0


def test_the_same_seed_gives_the_same_summary():
    from games.dao import KIND

    a = simulate(KIND, 30, 3, ["greedy", "random", "random"], seed=4)
    b = simulate(KIND, 30, 3, ["greedy", "random", "random"], seed=4)
    c = simulate(KIND, 30, 3, ["greedy", "random", "random"], seed=5)
    for r in (a, b, c):
        r.pop("seconds"), r.pop("games_per_second")
    assert a == b and a != c


def test_command_line_prints_win_rates_and_dao_statistics():
    out, err = io.StringIO(), io.StringIO()
    status = main(
        [
            "dao",
            "--games",
            "30",
            "--seats",
            "4",
            "--bots",
            "ev,random,random,random",
            "--seed",
            "1",
        ],
        out,
        err,
    )
    assert status == 0
    text = out.getvalue()
    assert "ev#0" in text and "random#3" in text and "win share" in text and "busts" in text
    assert err.getvalue() == ""  # stderr is no terminal here: no progress bar


class _Terminal(io.StringIO):
    """A stderr that says it is a terminal (where a person watches the bar)."""

    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize("quiet", [False, True])
def test_a_long_run_shows_a_progress_bar_on_a_terminal_unless_quiet(monkeypatch, quiet):
    import progress

    monkeypatch.setattr(progress, "DELAY", 0.0)  # as if the run had lasted over a second
    out, err = io.StringIO(), _Terminal()
    argv = ["dao", "--games", "20", "--bots", "random", "--seats", "2"]
    assert main(argv + (["--quiet"] if quiet else []), out, err) == 0
    assert "win share" in out.getvalue() and "100%" not in out.getvalue()
    if quiet:
        assert err.getvalue() == ""
    else:
        assert "100%" in err.getvalue() and "20/20" in err.getvalue()


def test_a_quick_run_on_a_terminal_shows_no_bar():
    out, err = io.StringIO(), _Terminal()
    assert main(["dao", "--games", "3", "--bots", "random", "--seats", "2"], out, err) == 0
    assert err.getvalue() == ""  # over in well under a second: tqdm's delay never passed


def test_command_line_json_and_options():
    out = io.StringIO()
    argv = [
        "dao",
        "--games",
        "12",
        "--bots",
        "random,greedy",
        "--option",
        "bust_match=first",
        "--json",
        "--quiet",
    ]
    assert main(argv, out, io.StringIO()) == 0
    result = json.loads(out.getvalue())
    assert result["seats"] == 2 and result["options"] == {"bust_match": "first", "two_rounds": True}
    assert sum(e["win_share"] for e in result["entries"]) == pytest.approx(1)
    assert {"busts", "saves", "takes", "turns"} <= set(result["statistics"])
    assert "busts_by_seat" in result["entries"][0]["statistics"]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["nogame"], "unknown game"),
        (["dao", "--bots", "ev,wizard"], "unknown bot 'wizard'"),
        (["dao", "--seats", "3", "--bots", "ev,random"], "2 bots for 3 seats"),
        (["dao", "--seats", "9"], "2-6 seats"),
        (["dao", "--option", "bust_match=never"], "options.bust_match"),
        (["dao", "--games", "0"], "at least 1"),
    ],
)
def test_command_line_refuses_bad_arguments_with_status_2(argv, message):
    err = io.StringIO()
    assert main([*argv, "--quiet"], io.StringIO(), err) == 2
    assert message in err.getvalue()


def test_bots_see_views_only(race):
    """The simulator hands bots views (via bot_action), never states."""
    seen = []
    race.bots["spy"] = lambda view, legal, rng: seen.append(view) or legal[0]
    simulate(race, 3, 2, ["spy", "spy"], seed=1)
    assert seen and all(set(v) == {"count"} for v in seen)
