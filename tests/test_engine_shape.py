"""The declared engine shape (``games.base``, ``games.phases``, ``games.actions``, ``games.state``)
holds for every game: the base checks each action against its declaration before the engine,
counts the moves, starts a phase's clock when the phase is entered, runs a phase's ``begin``,
versions snapshots; and no game's modules import each other in a cycle or inside a function.
"""

from __future__ import annotations

import ast
import copy
import json
import random
from pathlib import Path
from typing import Any

import jsonschema_rs
import pytest

from errors import IllegalAction, InvalidInput
from games.base import SYSTEM, TIMEOUT, GameKind, kinds
from games.phases import Phase
from games.state import COMMON_FORMAT, generator, generator_from_json, generator_json
from tests.kinds import BUILTIN
from tests.testgame import BlindAuction

ROOT = Path(__file__).resolve().parents[1]


def _kinds() -> list[GameKind]:
    return [*sorted(kinds().values(), key=lambda k: k.name), BlindAuction()]


def _other_options(kind: GameKind) -> dict[str, Any]:
    """Every option that is a switch or a choice set away from its default."""
    out: dict[str, Any] = {}
    for o in kind.type.options:
        if isinstance(o.default, bool):
            out[o.name] = not o.default
        elif o.choices:
            out[o.name] = next(c for c in o.choices if c != o.default)
    return out


def _positions(
    kind: GameKind, seed: int, steps: int = 400, every: int = 7, options: dict | None = None
):
    """States along a random game (one every ``every`` actions), with a seat to act and its
    legal actions; the game goes on from each."""
    rng = random.Random(f"{kind.name}/{seed}")
    seats = rng.randint(kind.type.min_seats, kind.type.max_seats)
    state = kind.new_state(seed, seats, options)
    for step in range(steps):
        if kind.is_over(state):
            return
        choices = [(s, a) for s in kind.to_act(state) for a in kind.legal_actions(state, s)]
        if step % every == 0 and choices:
            yield state, choices
        if choices:
            seat, action = rng.choice(choices)
        else:
            seat, action = SYSTEM, dict(TIMEOUT)
        kind.apply(state, seat, action)


def _refused(kind: GameKind, state: Any, seat: int | None, action: Any) -> Exception:
    before = json.dumps(kind.state_to_json(state), sort_keys=True)
    with pytest.raises((InvalidInput, IllegalAction)) as info:
        kind.apply(state, seat, action)
    assert json.dumps(kind.state_to_json(state), sort_keys=True) == before
    return info.value


def _integers(value: Any, path: tuple = ()):
    """Paths to every integer in a JSON value (not booleans)."""
    if isinstance(value, bool):
        return
    if isinstance(value, int):
        yield path
    elif isinstance(value, dict):
        for k, v in value.items():
            yield from _integers(v, (*path, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _integers(v, (*path, i))


def _replaced(action: dict, path: tuple, new: Any) -> dict:
    out = copy.deepcopy(action)
    target = out
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = new
    return out


@pytest.mark.parametrize("kind", _kinds(), ids=lambda k: k.name)
def test_a_boolean_is_never_taken_for_an_integer(kind):
    """Every integer of a legal action (a seat, a card, a position, a count), given as
    ``true`` or ``false``, is refused as malformed and changes nothing: every integer field of
    every action type met along random games, with the default options and with every switch
    and choice turned (each field tried once, wherever it is nested)."""
    tried: set[tuple[str, tuple]] = set()
    for seed, options in ((1, None), (2, _other_options(kind))):
        for state, choices in _positions(kind, seed, steps=1500, every=1, options=options):
            for seat, action in choices:
                for path in _integers(action):
                    field = (action["type"], tuple(p for p in path if isinstance(p, str)))
                    if field in tried:
                        continue
                    for fake in (True, False):
                        error = _refused(kind, state, seat, _replaced(action, path, fake))
                        assert isinstance(error, InvalidInput), (action, path, error)
                    tried.add(field)
    assert tried or kind.name == "dao"  # DAO's actions have no field


@pytest.mark.parametrize("kind", _kinds(), ids=lambda k: k.name)
def test_shapes_are_refused_with_the_shared_reasons_before_the_engine(kind):
    seen = set()
    for state, choices in _positions(kind, 2):
        seat, action = choices[0]
        assert _refused(kind, state, seat, {"type": "no_such_action"}).reason == "unknown_action"
        assert _refused(kind, state, seat, {**action, "zz": 1}).reason == "unknown_field"
        required = [k for k in action if k != "type"]
        phase = kind.phase(state)
        assert phase is not None
        declared = phase.by_name[action["type"]].declared
        fields = {(f.alias or name): f for name, f in declared.model_fields.items()}
        for key in required:
            if fields[key].is_required():
                missing = {k: v for k, v in action.items() if k != key}
                assert _refused(kind, state, seat, missing).reason == "missing_field"
                seen.add("missing")
        elsewhere = [t for t in kind.action_types if t not in phase.by_name]
        if elsewhere:
            error = _refused(kind, state, seat, {"type": elsewhere[0]})
            assert error.reason == "action_not_now" and error.field == "action.type"
            seen.add("not_now")
    assert "not_now" in seen or len(kind.phases) == 1


@pytest.mark.parametrize("kind", _kinds(), ids=lambda k: k.name)
def test_every_legal_action_matches_the_declared_json_schema(kind):
    validator = jsonschema_rs.validator_for(kind.action_schema())
    count = 0
    for _, choices in _positions(kind, 3, every=3):
        for _, action in choices:
            validator.validate(json.loads(json.dumps(action)))
            count += 1
    assert count > 20
    with pytest.raises(jsonschema_rs.ValidationError):
        validator.validate({"type": "no_such_action"})


@pytest.mark.parametrize("kind", _kinds(), ids=lambda k: k.name)
def test_the_base_counts_every_applied_action_and_no_refused_one(kind):
    rng = random.Random(5)
    state = kind.new_state(5, kind.type.min_seats, None)
    n = 0
    while not kind.is_over(state) and n < 300:
        choices = [(s, a) for s in kind.to_act(state) for a in kind.legal_actions(state, s)]
        seat, action = rng.choice(choices) if choices else (SYSTEM, dict(TIMEOUT))
        if choices:
            _refused(kind, state, seat, {**action, "zz": 1})
        kind.apply(state, seat, action)
        n += 1
        assert state.moves == n


def test_a_phase_clock_starts_after_the_action_that_entered_it():
    kind = BlindAuction()
    state = kind.new_state(3, 2, {"bid_seconds": 30, "rounds": 3})
    assert kind.timer(state).since == 0 and kind.timer(state).seconds == 30.0
    kind.apply(state, 0, kind.legal_actions(state, 0)[0])
    assert kind.timer(state).since == 0  # the round goes on
    kind.apply(state, 1, kind.legal_actions(state, 1)[0])
    assert state.round == 2 and kind.timer(state).since == 2  # a new round: entered again
    kind.apply(state, SYSTEM, dict(TIMEOUT))
    assert state.round == 3 and kind.timer(state).since == 3 and state.moves == 3
    assert _refused(kind, state, SYSTEM, {"type": "pass"}).reason == "not_a_timeout"
    untimed = kind.new_state(3, 2, {"rounds": 3})
    assert kind.timer(untimed) is None
    assert _refused(kind, untimed, SYSTEM, dict(TIMEOUT)).reason == "not_a_timeout"


def test_entering_a_phase_runs_its_begin_after_the_actions_own_work():
    """Dragon's Gold: the market closes by the clock; the fight's ``begin`` then gives the turn
    to the seat left of the slayer, after the market's own event."""
    from games.dragons_gold.engine import KIND
    from games.dragons_gold.market import open_market
    from games.dragons_gold.scenario import position

    state = position(4)
    for seat in range(4):  # every hunter of seat 1 played: its turn is skipped
        state.hunters[seat] = dict.fromkeys(state.hunters[seat], "played" if seat == 1 else "up")
    open_market(state, 1, [])
    events = KIND.apply(state, SYSTEM, dict(TIMEOUT))
    assert [e["type"] for e in events] == ["market_closed", "turn_skipped"]
    assert state.phase == "fight" and KIND.to_act(state) == [2] and not state.entering


@pytest.mark.parametrize("kind", _kinds(), ids=lambda k: k.name)
def test_a_snapshot_of_another_format_is_refused(kind):
    state = kind.new_state(6, kind.type.min_seats, None)
    snapshot = json.loads(json.dumps(kind.state_to_json(state)))
    assert snapshot["format"] == [COMMON_FORMAT, kind.snapshot_format]
    assert kind.state_to_json(kind.state_from_json(snapshot)) == snapshot
    older = ([COMMON_FORMAT, kind.snapshot_format - 1], [COMMON_FORMAT - 1, kind.snapshot_format])
    for other in [{**snapshot, "format": f} for f in (*older, kind.snapshot_format, None)]:
        with pytest.raises(InvalidInput):
            kind.state_from_json(other)
    del snapshot["format"]
    with pytest.raises(InvalidInput):
        kind.state_from_json(snapshot)


def test_the_games_generator_compares_by_what_it_will_draw():
    a, b = generator(7), generator(7)
    assert a == b and a is not b
    a.random()
    assert a != b
    b.random()
    assert a == b == generator_from_json(json.loads(json.dumps(generator_json(a))))
    assert generator(7).random() == random.Random(7).random()  # the seed convention


def test_a_phase_declares_each_action_type_once():
    from games.actions import bare

    with pytest.raises(ValueError, match="twice"):
        Phase("p", lambda s: [], lambda s, seat: [], (_move(bare("x")), _move(bare("x"))))


def _move(declared):
    from games.phases import Move

    return Move(declared, lambda state, seat, action, events: None)


def _imports(path: Path) -> tuple[set[str], list[int]]:
    """The project modules ``path`` imports at module level, and the lines of imports inside
    functions."""
    tree = ast.parse(path.read_text("utf-8"))
    top: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and node.module:
            top.add(node.module)
            top |= {f"{node.module}.{a.name}" for a in node.names}
        elif isinstance(node, ast.Import):
            top |= {a.name for a in node.names}
    inner = [
        n.lineno
        for fn in ast.walk(tree)
        if isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef)
        for n in ast.walk(fn)
        if isinstance(n, ast.Import | ast.ImportFrom)
    ]
    return top, inner


@pytest.mark.parametrize("game", BUILTIN)
def test_a_games_modules_import_no_cycle_and_nothing_inside_a_function(game):
    package = ROOT / "games" / game
    modules = {f"games.{game}.{p.stem}": p for p in package.glob("*.py") if p.stem != "__init__"}
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        top, inner = _imports(path)
        assert not inner, f"{name} imports inside a function at lines {inner}"
        graph[name] = {m for m in top if m in modules}

    def reaches(start: str, goal: str, seen: set[str]) -> bool:
        return any(nxt == goal or reaches(nxt, goal, seen | {nxt}) for nxt in graph[start] - seen)

    cycles = [m for m in graph if reaches(m, m, set())]
    assert not cycles, f"import cycle through {cycles}"
