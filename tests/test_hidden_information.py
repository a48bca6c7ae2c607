"""No seat's view holds another seat's private data before the end, for every registered game.

Random games of every kind in ``games.base.kinds()`` (plus the Blind Auction test game) are played
through the HTTP API (Flask test client), every seat a human choosing a random legal action, one
game per kind with a bot seat. After every action each seat's response and the spectator's are
checked against what the game declares secret:

- ``GameKind.private_items(state, seat)``: JSON values only ``seat`` may see, as they appear in its
  view; ``GameKind.hidden_items(state)``: values nobody may see (e.g. the deck's order).

The check counts whole JSON values (every object, list and string in a view is a candidate). The
spectator's view is the public baseline. With ``P_s`` the multiset of ``seat``'s private items:

1. each item of ``P_s`` is in ``s``'s own view (the declaration matches what the view shows);
2. the spectator shows an item no more often than the public rest of the owner's view;
3. another seat ``t`` shows it no more often than the spectator plus ``t``'s own equal items;
   ``t``'s legal actions hold it only if it is public or ``t`` has an equal one;
4. a hidden item is in no view and no legal-action list.

This is sound for items that repeat (DAO's cards have no ids: two fire-1s look alike) and strict
for distinctive ones (Blind Auction's cards carry ids: any sight of one is a leak). Once the game is
over, every private and hidden item is in every view. The responses themselves must equal the
engine's ``view(state, seat)`` and ``legal_actions(state, seat)``: an answer for a seat is built
from that seat's view only, whether the seat is asked for by its token or by the signed-in
account that holds it (seat 0 of every game). The detector itself is tested on a game that leaks on purpose.
"""

from __future__ import annotations

import functools
import json
import random
import time
from collections import Counter
from typing import Any

import pytest

import games.base
from tests.bots import bots_move
from tests.testgame import NAME as TEST_GAME
from tests.testgame import BlindAuction, LeakyAuction
from web.games_api import sessions

#: Kinds found at collection time, plus the test game (registered by the fixture below).
KINDS = sorted({*games.base.kinds(), TEST_GAME})
GAMES_PER_KIND = 3
MAX_ACTIONS = 600
#: After this many seconds on one kind, stop starting new games (once one has ended).
BUDGET_S = 30.0
#: Share of human moves that are uniformly random legal actions (the rest: the game's last bot).
RANDOM_SHARE = 0.2


pytestmark = pytest.mark.usefixtures("blind_auction")


def canon(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


@functools.lru_cache(maxsize=65536)
def _canon_text(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)


def _canon_scalar(value: Any) -> str:
    if value is True:
        return "true"
    if value is False:
        return "false"
    if value is None:
        return "null"
    if isinstance(value, int):
        return int.__repr__(value)
    return json.dumps(value)


def occurrences(doc: Any) -> Counter[str]:
    """How often every object, list and string occurs anywhere in ``doc`` (keys included),
    keyed by ``canon`` form; built bottom-up in one pass."""
    out: Counter[str] = Counter()

    def walk(node: Any) -> str:
        if isinstance(node, dict):
            parts = []
            for k in sorted(node):
                key = _canon_text(k)
                out[key] += 1
                parts.append(key + ":" + walk(node[k]))
            text = "{" + ",".join(parts) + "}"
        elif isinstance(node, list):
            text = "[" + ",".join([walk(v) for v in node]) + "]"
        elif isinstance(node, str):
            text = _canon_text(node)
        else:
            return _canon_scalar(node)  # numbers, booleans, null: never secret on their own
        out[text] += 1
        return text

    walk(doc)
    return out


def leaks(kind, state, views: dict, legal: dict) -> list[str]:
    """Every breach of rules 1-4 above, as readable lines (empty: nothing leaks)."""
    problems: list[str] = []
    seats = [s for s in views if s is not None]
    private = {s: Counter(canon(x) for x in kind.private_items(state, s)) for s in seats}
    hidden = Counter(canon(x) for x in kind.hidden_items(state))
    for items in [*private.values(), hidden]:
        for x in items:
            if not x.startswith(("{", "[", '"')):
                problems.append(f"{kind.name}: a secret item must be an object, list or text: {x}")
    seen = {v: occurrences(view) for v, view in views.items()}
    seen_legal = {s: occurrences(legal[s]) for s in seats}
    for s in seats:
        problems += _private_leaks(s, private, seen, seen_legal)
    for x in hidden:
        for v in views:
            if seen[v][x] or (v is not None and seen_legal[v][x]):
                problems.append(
                    f"{'the spectator' if v is None else f'seat {v}'} sees a hidden item: {x}"
                )
    return problems


def _private_leaks(s: int, private: dict, seen: dict, seen_legal: dict) -> list[str]:
    """Where seat ``s``'s private items are missing from its view or show elsewhere: in the
    spectator's view, in another seat's view (beyond what is public or also that seat's) or in
    another seat's legal actions. ``private``, ``seen`` and ``seen_legal`` count the canonical
    items by seat (``seen[None]``: the spectator's)."""
    problems = []
    public = seen[None]
    for x, m in private[s].items():
        if seen[s][x] < m:
            problems.append(f"seat {s}'s private item is not (or not {m}x) in its view: {x}")
        if public[x] > seen[s][x] - m:
            problems.append(f"the spectator sees seat {s}'s private item: {x}")
        for t in private:
            if t == s:
                continue
            allowed = public[x] + private[t][x]
            if seen[t][x] > allowed:
                problems.append(f"seat {t} sees seat {s}'s private item: {x}")
            if seen_legal[t][x] and not allowed:
                problems.append(f"seat {t}'s legal actions hold seat {s}'s private item: {x}")
    return problems


def shown_at_end(kind, state, views: dict) -> list[str]:
    """Once over, every private item is in every view (hidden ones, e.g. unused decks, need not)."""
    problems = []
    seats = [s for s in views if s is not None]
    wanted = Counter(canon(x) for s in seats for x in kind.private_items(state, s))
    for v, view in views.items():
        seen = occurrences(view)
        for x, m in wanted.items():
            if seen[x] < 1:
                problems.append(
                    f"at the end, {'the spectator' if v is None else f'seat {v}'} does not see {x} ({m}x)"
                )
    return problems


def observe(
    client, app, game_id: str, tokens: dict[int, str], player=None
) -> tuple[Any, dict, dict, dict]:
    """Every seat's and the spectator's response, checked to be built from the engine's view;
    ``player``: a client signed in to the account holding seat 0, whose answer (by its session
    cookie, no token) must be that seat's."""
    responses = {None: client.get(f"/api/games/{game_id}").get_json()}
    for seat, token in tokens.items():
        resp = client.get(f"/api/games/{game_id}", headers={"Authorization": f"Bearer {token}"})
        assert resp.status_code == 200
        responses[seat] = resp.get_json()
    if player is not None:
        assert player.get(f"/api/games/{game_id}").get_json() == responses[0]
    with app.app_context():
        game, state = sessions().current(game_id)
    kind = games.base.get_kind(game.kind)
    versions = {r["version"] for r in responses.values()}
    assert versions == {game.version}, "the game moved while being observed"
    views, legal = {}, {}
    for seat, r in responses.items():
        assert r["seat"] == seat
        assert r["view"] == json.loads(json.dumps(kind.view(state, seat))), (
            f"seat {seat}: not its view"
        )
        views[seat] = r["view"]
        if seat is not None:
            expected = [] if r["over"] else kind.legal_actions(state, seat)
            assert r["legal_actions"] == json.loads(json.dumps(expected))
            legal[seat] = r["legal_actions"]
        else:
            assert r["legal_actions"] == []
    for seat in range(len(game.seats)):  # bot seats have no token: their views come from the engine
        if seat not in views:
            views[seat] = json.loads(json.dumps(kind.view(state, seat)))
            legal[seat] = json.loads(json.dumps(kind.legal_actions(state, seat)))
    return state, views, legal, responses[None]


def play_random_game(
    client, app, name: str, seed: int, with_bot: bool, max_actions: int = MAX_ACTIONS
) -> tuple[int, bool, list[str]]:
    """Play one game through the API; returns (actions, finished, problems).

    Every seat is a human over HTTP except one bot seat when ``with_bot``. A human's move is a
    uniformly random legal action now and then (``RANDOM_SHARE``), otherwise what the game's
    ``normal`` bot (a game without that level: its last) would choose from that seat's
    response, its view and legal actions: random play alone may never end a game (Tobago's),
    and bot play reaches the positions real games reach (quickly: a strong bot thinks longer).
    """
    kind = games.base.get_kind(name)
    rng = random.Random(seed)
    n_seats = kind.type.min_seats + seed % max(
        1, min(kind.type.max_seats, 4) - kind.type.min_seats + 1
    )
    seats: list[dict] = [{"type": "human", "name": f"P{i}"} for i in range(n_seats)]
    levels = list(kind.levels)
    if with_bot and levels:
        seats[-1] = {"type": "bot", "level": levels[seed % len(levels)]}
    # seat 0 is a signed-in player's: its answers by account are checked against its token's
    player = app.test_client()
    signed = player.post(
        "/api/accounts", json={"name": f"p{seed}-{name}"[:24], "password": "pw " * 4}
    )
    headers = {"X-CSRF-Token": signed.get_json()["csrf_token"]}
    body = {"game": name, "seats": seats, "seed": seed}
    resp = player.post("/api/games", json=body, headers=headers)
    assert resp.status_code == 201, resp.get_json()
    created = resp.get_json()
    assert created["seats"][0]["player"] is not None
    game_id = created["id"]
    tokens = {s["index"]: s["token"] for s in created["seats"] if s["token"]}
    problems: list[str] = []
    for step in range(max_actions + 1):
        bots_move(app)  # the table's bot, if it has a move due
        state, views, legal, spectator = observe(client, app, game_id, tokens, player)
        if spectator["over"]:
            problems += shown_at_end(kind, state, views)
            return step, True, problems
        problems += [
            f"{name} seed {seed} version {spectator['version']}: {p}"
            for p in leaks(kind, state, views, legal)
        ]
        if problems or step == max_actions:
            return step, False, problems
        humans = [s for s in spectator["to_act"] if s in tokens]
        assert humans, f"{name}: nobody with a token may act, to_act={spectator['to_act']}"
        seat = rng.choice(humans)
        if kind.bots and rng.random() >= RANDOM_SHARE:
            bot = kind.levels.get("normal") or list(kind.levels.values())[-1]
            action = bot(views[seat], legal[seat], rng)
        else:
            action = None
        if action is None:  # random share, or a timed phase's bot waiting for others or the clock
            action = rng.choice(legal[seat])
        resp = client.post(
            f"/api/games/{game_id}/actions",
            json={"version": spectator["version"], "action": action},
            headers={"Authorization": f"Bearer {tokens[seat]}"},
        )
        assert resp.status_code == 200, (name, action, resp.get_json())
    return max_actions, False, problems


@pytest.mark.parametrize("name", KINDS)
def test_no_seat_sees_another_seats_private_data(client, app, name):
    finished = 0
    start = time.monotonic()
    for seed in range(GAMES_PER_KIND):
        if finished and time.monotonic() - start > BUDGET_S:
            break
        actions, over, problems = play_random_game(client, app, name, seed, with_bot=seed == 1)
        assert not problems, "\n".join(problems[:10])
        assert actions > 0 or over
        finished += over
    assert finished, f"{name}: no random game ended within {MAX_ACTIONS} actions"


def test_blind_auction_declares_real_secrets(app):
    """The test game's hooks are not vacuous: hands, bids and the prize deck are declared."""
    kind = BlindAuction()
    state = kind.new_state(4, 3, {"rounds": 3})
    assert len(kind.private_items(state, 0)) == 4 and len(kind.hidden_items(state)) == 9
    kind.apply(state, 0, {"type": "bid", "card": state.hands[0][0]})
    assert len(kind.private_items(state, 0)) == 4  # three in hand and the secret bid


def test_the_detector_finds_a_leak(client, app, monkeypatch):
    monkeypatch.setitem(games.base._REGISTRY, "leaky_auction", LeakyAuction("leaky_auction"))
    _, _, problems = play_random_game(client, app, "leaky_auction", 0, with_bot=False)
    assert problems and any("the spectator sees seat 0's private item" in p for p in problems)


def test_the_detector_finds_a_wrong_declaration(client, app, monkeypatch):
    class Misdeclared(BlindAuction):
        def private_items(self, state, seat):
            return [{"card": c} for c in state.hands[seat]]  # not how the view shows cards

    monkeypatch.setitem(games.base._REGISTRY, "misdeclared", Misdeclared("misdeclared"))
    _, _, problems = play_random_game(client, app, "misdeclared", 0, with_bot=False)
    assert any("is not (or not 1x) in its view" in p for p in problems)


def test_the_detector_finds_a_seat_seeing_another_hand_and_hidden_items(app):
    kind = BlindAuction()
    state = kind.new_state(1, 2, None)
    views = {None: kind.view(state, None), 0: kind.view(state, 0), 1: kind.view(state, 1)}
    legal = {s: kind.legal_actions(state, s) for s in (0, 1)}
    assert leaks(kind, state, views, legal) == []
    views[1] = {**views[1], "rival": views[0]["hand"][:1]}
    assert any("seat 1 sees seat 0's private item" in p for p in leaks(kind, state, views, legal))
    views[1] = {**kind.view(state, 1), "next": kind.hidden_items(state)[0]}
    assert any("seat 1 sees a hidden item" in p for p in leaks(kind, state, views, legal))
