"""Failures that show (issue 27): an engine refuses odd input with a domain error, and anything
else it raises is a bug that is never dressed up as a refusal: a logged 500 in production, the
exception itself under ``TESTING`` (a failing test), with nothing written and the half-changed
state dropped; no import of our own code is guarded, so a broken module fails at start, never
quietly as a missing feature. Bots that fail are ``tests/test_storage.py``'s."""

from __future__ import annotations

import ast
import copy
import json
import logging
import random
from pathlib import Path
from typing import Any

import pytest

import games.base
from app import create_app
from errors import ProjectError
from games.base import SYSTEM, TIMEOUT, GameKind, kinds
from tests.testgame import BlindAuction

#: Values put in place of a field of a legal action: wrong types, out-of-range numbers, lists of
#: the wrong length and content, the empty and the huge.
ODD_VALUES: tuple[Any, ...] = (
    None, True, False, 0, 1, -1, 2, 7, 99, 10**20, -(10**20), 1.5, "", "x", "a" * 50,
    [], [0], [1, 2], [[0]], {}, {"a": 1}, [None], ["x"], [-1], [99], [0, 0], [1] * 10,
)  # fmt: skip


ROOT = Path(__file__).resolve().parents[1]
#: Our own top-level modules and packages (the code the service and its tools are made of).
FIRST_PARTY = (
    "app", "table_app", "errors", "i18n", "progress", "hexmap", "solver", "games", "web", "bench",
    "tests",
)  # fmt: skip
#: Odd actions tried per game kind.
TRIES = 300


def _kinds() -> list[GameKind]:
    return [*sorted(kinds().values(), key=lambda k: k.name), BlindAuction()]


def _paths(value: Any, path: tuple = ()) -> list[tuple]:
    """Every place in an action (its ``type`` left alone) a value can be put."""
    out = [path] if path and path != ("type",) else []
    if isinstance(value, dict):
        for key, item in value.items():
            out += _paths(item, (*path, key))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            out += _paths(item, (*path, i))
    return out


def _odd(rng: random.Random, action: dict) -> dict:
    """``action`` with one place changed: an odd value put in, a field dropped or an item of a
    list repeated."""
    out = copy.deepcopy(action)
    paths = _paths(out)
    if not paths:
        return {**out, "extra": rng.choice(ODD_VALUES)}
    path = rng.choice(paths)
    parent = out
    for key in path[:-1]:
        parent = parent[key]
    roll = rng.random()
    if roll < 0.1 and isinstance(parent, dict):
        del parent[path[-1]]
    elif roll < 0.2 and isinstance(parent, list):
        parent.append(copy.deepcopy(parent[path[-1]]))
    else:
        parent[path[-1]] = rng.choice(ODD_VALUES)
    return out


@pytest.mark.parametrize("kind", _kinds(), ids=lambda k: k.name)
def test_an_engine_refuses_odd_actions_with_a_domain_error_and_changes_nothing(kind):
    """Along random games, actions made odd from legal ones are either taken (an odd action can
    still be a legal one) or refused with a ``ProjectError`` and no change: an engine never
    raises anything else on what a client may send (so the service need not catch it)."""
    tried = refused = 0
    for seed in range(100):  # games until enough odd actions were tried (short games: many)
        if tried >= TRIES:
            break
        rng = random.Random(f"odd/{kind.name}/{seed}")
        state = kind.new_state(seed, rng.randint(kind.type.min_seats, kind.type.max_seats))
        while tried < TRIES and not kind.is_over(state):
            choices = [(s, a) for s in kind.to_act(state) for a in kind.legal_actions(state, s)]
            if not choices:
                kind.apply(state, SYSTEM, dict(TIMEOUT))
                continue
            seat, action = rng.choice(choices)
            if rng.random() < 0.5:
                odd = _odd(rng, action)
                before = json.dumps(kind.state_to_json(state), sort_keys=True)
                tried += 1
                try:
                    kind.apply(state, seat, odd)
                    continue  # taken: a legal action after all, and the game goes on from it
                except ProjectError:
                    refused += 1
                    assert json.dumps(kind.state_to_json(state), sort_keys=True) == before, odd
            kind.apply(state, seat, action)
    assert tried == TRIES and refused > tried // 2


@pytest.mark.parametrize("kind", _kinds(), ids=lambda k: k.name)
def test_every_declared_option_value_starts_a_game_or_is_refused_in_words(kind):
    """Options are checked before ``setup``: each allowed value starts a game at every seat
    count, and a refused one is a ``ProjectError`` (the service no longer turns an engine's
    ``KeyError`` on options into a 400). An option given with those it needs (an increment
    goes with a time bank: ``games.turns``)."""
    needs = {"increment_s": {"time_bank_s": 60}}
    for spec in kind.type.options:
        values = list(spec.choices or [spec.default])
        if spec.bounds is not None:
            values += list(spec.bounds)
        for value in [*values, None, "x", -1, 10**20]:
            for seats in range(kind.type.min_seats, kind.type.max_seats + 1):
                try:
                    kind.new_state(3, seats, {**needs.get(spec.name, {}), spec.name: value})
                except ProjectError:
                    assert value not in values, (spec.name, value, seats)


class CrashOnBid(BlindAuction):
    """Blind Auction with a bug: a bid of card ``BAD`` empties the hand, then raises."""

    BAD = -1

    def apply(self, state: Any, seat: int | None, action: Any, *, limits: bool = False) -> list:
        if seat is not None and action.get("card") == self.BAD:
            state.hands[seat].clear()
            raise KeyError("engine bug")
        return super().apply(state, seat, action, limits=limits)


def _crashing_app(tmp_path, monkeypatch, testing: bool):
    """An app (``testing``: under ``TESTING``) with a new two-human game whose engine crashes
    on seat 0's bid of its first card; the client, the game's id, seat 0's token, the card."""
    kinds()
    kind = CrashOnBid()
    monkeypatch.setitem(games.base._REGISTRY, kind.name, kind)
    config = {"TESTING": testing, "TABLE_RUNNER": False, "DATABASE": str(tmp_path / "g.sqlite3")}
    client = create_app(config).test_client()
    seats = [{"type": "human"}, {"type": "human"}]
    made = client.post("/api/games", json={"game": kind.name, "seats": seats, "seed": 4})
    assert made.status_code == 201, made.get_json()
    game = made.get_json()
    token = game["seats"][0]["token"]
    view = client.get(f"/api/games/{game['id']}", headers={"Authorization": f"Bearer {token}"})
    card = view.get_json()["view"]["hand"][0]["id"]
    kind.BAD = card
    return client, game["id"], token, card


def _bid(client, game_id: str, token: str, card: int):
    return client.post(
        f"/api/games/{game_id}/actions",
        json={"version": 0, "action": {"type": "bid", "card": card}},
        headers={"Authorization": f"Bearer {token}"},
    )


def test_an_engine_crash_on_a_move_is_a_logged_500_and_nothing_is_written(
    tmp_path, monkeypatch, caplog
):
    client, game_id, token, card = _crashing_app(tmp_path, monkeypatch, testing=False)
    with caplog.at_level(logging.ERROR):
        resp = _bid(client, game_id, token, card)
    assert resp.status_code == 500
    assert resp.get_json()["error"]["code"] == "http_error"
    assert any(r.exc_info and "engine bug" in str(r.exc_info[1]) for r in caplog.records)
    view = client.get(f"/api/games/{game_id}", headers={"Authorization": f"Bearer {token}"})
    got = view.get_json()
    assert got["version"] == 0  # nothing written, and the half-emptied hand was dropped
    assert card in [c["id"] for c in got["view"]["hand"]]


def test_under_testing_an_engine_crash_on_a_move_fails_the_test(tmp_path, monkeypatch):
    client, game_id, token, card = _crashing_app(tmp_path, monkeypatch, testing=True)
    with pytest.raises(KeyError, match="engine bug"):
        _bid(client, game_id, token, card)


@pytest.mark.parametrize("testing", [False, True], ids=["production", "testing"])
def test_an_engine_crash_replaying_a_stored_game_is_a_bug_never_rules_changed(
    tmp_path, monkeypatch, caplog, testing
):
    """A stored entry the engine crashes on, replayed from the log (the state not cached), is a
    logged 500 (the exception under ``TESTING``), never 409 ``rules_changed``: that is for
    what today's rules refuse in words."""
    client, game_id, token, card = _crashing_app(tmp_path, monkeypatch, testing)
    kind = games.base._REGISTRY["blind_auction"]
    kind.BAD = -1
    assert _bid(client, game_id, token, card).status_code == 200
    client.application.extensions["game_sessions"].forget(game_id)
    kind.BAD = card  # the stored bid now crashes the engine
    if testing:
        with pytest.raises(KeyError, match="engine bug"):
            client.get(f"/api/games/{game_id}")
        return
    with caplog.at_level(logging.ERROR):
        resp = client.get(f"/api/games/{game_id}")
    assert resp.status_code == 500 and resp.get_json()["error"]["code"] == "http_error"
    assert any(r.exc_info and "engine bug" in str(r.exc_info[1]) for r in caplog.records)
    kind.BAD = -1  # the bug fixed: the game is as it was, its bid kept
    assert client.get(f"/api/games/{game_id}").get_json()["version"] == 1


def _first_party_imports(body: list[ast.stmt]) -> list[str]:
    """The modules of ours that ``body`` imports (statements and ``importlib.import_module``)."""
    names = []
    for node in ast.walk(ast.Module(body=body, type_ignores=[])):
        if isinstance(node, ast.Import):
            names += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.append(node.module)
        elif isinstance(node, ast.Call) and getattr(node.func, "attr", "") == "import_module":
            names.append("(importlib)")
    return [n for n in names if n == "(importlib)" or n.split(".")[0] in FIRST_PARTY]


def _catches_import_errors(handler: ast.ExceptHandler) -> bool:
    caught = handler.type
    names = caught.elts if isinstance(caught, ast.Tuple) else [caught]
    return caught is None or any(
        isinstance(n, ast.Name) and n.id in {"ImportError", "ModuleNotFoundError", "Exception"}
        for n in names
    )


def test_no_import_of_our_own_code_is_guarded():
    """A ``try`` around an import of our own modules that catches ``ImportError`` would turn a
    broken module into a feature quietly missing (a puzzle page always in English)."""
    files = [ROOT / f"{m}.py" for m in FIRST_PARTY if (ROOT / f"{m}.py").exists()]
    files += [p for m in FIRST_PARTY for p in (ROOT / m).rglob("*.py")]
    found = []
    for path in files:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Try) and any(map(_catches_import_errors, node.handlers)):
                where = f"{path.relative_to(ROOT)}:{node.lineno}"
                found += [f"{where} {m}" for m in _first_party_imports(node.body)]
    assert len(files) > 100 and found == []
