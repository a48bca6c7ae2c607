"""Whole Tobago games with mixed bots: invariants after every action, hidden cards, replay.

300 games on small generated islands (60 spaces, so a game takes a few dozen milliseconds),
2-4 seats, every mix of random and strategic bots, the rule options toggled. After every action:
52 clue cards, 39 gold + 2 curse cards and 20 amulets, each exactly once; every seat's compass
markers (in its supply plus on the columns) add up to 15. Every few actions: no view shows another
seat's hand, treasure cards or sharing memories, nor any card of a deck or the sharing pile. At the
end: replaying the action log, and reloading a snapshot taken half-way, give the same state.
"""

from __future__ import annotations

import json
import random

import pytest

from errors import IllegalAction
from games.base import get_kind, play_bots, replay
from hexmap.generator import generate
from tests.tobago_positions import (
    amulet_count,
    clue_cards,
    markers_on_columns,
    treasure_cards,
)

KIND = get_kind("tobago")
GAMES = 300
ISLANDS = [generate(seed, 60) for seed in (11, 12, 13)]
#: Views are checked after every this many actions (and at the end).
VIEW_EVERY = 10


def canon(d: dict) -> tuple:
    """A hashable form of a card-like object (its items, lists as tuples)."""
    return tuple(sorted((k, tuple(v) if isinstance(v, list) else v) for k, v in d.items()))


def nodes(doc) -> set[tuple]:
    """Every card-like object anywhere in ``doc`` (one with an ``id`` or a ``values`` key: the
    shape of every private or hidden item)."""
    out, stack = set(), [doc]
    while stack:
        n = stack.pop()
        if isinstance(n, dict):
            if "id" in n or "values" in n:
                out.add(canon(n))
            stack.extend(v for v in n.values() if v.__class__ in (dict, list))
        elif n and n[0].__class__ in (dict, list):
            stack.extend(n)
    return out


def check_counts(s) -> None:
    assert sorted(clue_cards(s)) == list(range(52))
    assert sorted(treasure_cards(s)) == list(range(41))
    assert amulet_count(s) == 20
    assert s.amulet_supply >= 0 and all(p.amulets >= 0 for p in s.players)
    assert len(set(s.amulets)) == len(s.amulets)
    for seat, p in enumerate(s.players):
        assert 0 <= p.markers <= 15
        assert p.markers + markers_on_columns(s, seat) == 15


def check_views(s) -> None:
    hidden = {canon(x) for x in KIND.hidden_items(s)}
    private = {seat: {canon(x) for x in KIND.private_items(s, seat)} for seat in range(s.seats)}
    everything = hidden.union(*private.values())
    for seat in [None, *range(s.seats)]:
        seen = nodes(KIND.view(s, seat))
        if KIND.is_over(s):  # then every view shows everything
            assert everything <= seen
            continue
        assert not seen & hidden, f"seat {seat} sees a hidden card"
        mine = private.get(seat, set())
        for other, items in private.items():
            if other != seat:
                leaked = (seen & items) - mine
                assert not leaked, f"seat {seat} sees seat {other}'s {sorted(leaked)[:3]}"
        if seat is not None:
            assert private[seat] <= seen


def mix(i: int) -> tuple[int, list[str]]:
    seats = 2 + i % 3
    rng = random.Random(i)
    levels = [rng.choice(["random", "strategic"]) for _ in range(seats)]
    if i % 5 == 0:
        levels = ["random"] * seats
    return seats, levels


def options(i: int) -> dict:
    return {
        "near_includes_target": i % 7 == 3,
        "treasure_on_landmarks": i % 4 != 1,
        "extra_marker": i % 6 != 5,
    }


def play(i: int, check_every: bool = True):
    seats, levels = mix(i)
    island = ISLANDS[i % len(ISLANDS)]
    opts = options(i)
    s = KIND.new_state_on(island, i, seats, opts)
    log: list[tuple[int, dict]] = []
    snapshots: list[tuple[int, dict]] = []

    def on_action(seat, action, events):
        log.append((seat, action))
        json.dumps(events)  # events are JSON
        if check_every:
            check_counts(s)
            if len(log) % VIEW_EVERY == 0:
                check_views(s)
        if len(log) == 40:
            snapshots.append((len(log), KIND.state_to_json(s)))

    play_bots(KIND, s, levels, random.Random(i), max_actions=20_000, on_action=on_action)
    return s, log, snapshots, (seats, opts, island)


@pytest.mark.slow  # 300 random games
@pytest.mark.parametrize("block", range(10))
def test_random_games_keep_every_invariant_and_replay_identically(block):
    for i in range(block * GAMES // 10, (block + 1) * GAMES // 10):
        s, log, snapshots, (seats, opts, island) = play(i)
        assert KIND.is_over(s) and KIND.to_act(s) == []
        check_counts(s)
        check_views(s)
        scores = KIND.scores(s)
        assert scores == [
            sum(c["value"] for c in p["treasures"]) for p in KIND.view(s, None)["players"]
        ]
        final = KIND.state_to_json(s)
        again = KIND.new_state_on(island, i, seats, opts)
        for seat, action in log:
            KIND.apply(again, seat, action)
        assert KIND.state_to_json(again) == final
        if i % 10 == 0 and snapshots:
            n, snap = snapshots[0]
            loaded = KIND.state_from_json(json.loads(json.dumps(snap)))
            assert KIND.state_to_json(loaded) == snap
            for seat, action in log[n:]:
                KIND.apply(loaded, seat, action)
            assert KIND.state_to_json(loaded) == final


def test_a_game_on_a_classic_island_replays_from_its_options_alone():
    opts = {"island": "classic-3", "landmarks_seed": 5}
    s = KIND.new_state(77, 4, opts)
    log = []
    play_bots(
        KIND,
        s,
        ["strategic", "random", "strategic", "random"],
        random.Random(3),
        on_action=lambda seat, a, e: log.append((seat, a)),
    )
    assert s.island.name == "classic-3"
    assert KIND.state_to_json(replay(KIND, 77, 4, opts, log)) == KIND.state_to_json(s)
    check_views(s)


def test_strategic_bots_beat_random_bots():
    wins = [0, 0]
    for i in range(40):
        levels = ["strategic", "random"] if i % 2 == 0 else ["random", "strategic"]
        s = KIND.new_state_on(ISLANDS[i % 3], 1000 + i, 2, None)
        play_bots(KIND, s, levels, random.Random(i))
        for w in KIND.winners(s):
            wins[levels[w] == "strategic"] += 1
    assert wins[1] >= 30, wins


def test_the_view_check_catches_a_leak(monkeypatch):
    s = KIND.new_state_on(ISLANDS[0], 3, 3, None)
    check_views(s)  # nothing leaks at the start
    real = KIND.view

    def leaky(state, seat):
        v = real(state, seat)
        v["peek"] = real(state, 0 if seat else 1)["players"]  # another seat's hand
        return v

    monkeypatch.setattr(KIND, "view", leaky)
    with pytest.raises(AssertionError, match="sees seat"):
        check_views(s)


def universe(s, seat) -> list[dict]:
    """Every action of the shapes a turn accepts, legal or not, for this position."""
    island = s.island
    out: list[dict] = [{"type": t} for t in ("exchange", "pick_amulet", "spend_amulet", "end_turn")]
    out += [{"type": "drive", "to": [h.q, h.r]} for h in island.index]
    for m in s.maps:
        out.append({"type": "raise", "map": m.colour})
        out += [{"type": "play_clue", "card": c, "map": m.colour} for c in s.players[seat].hand]
        out += [
            {"type": "extra_marker", "map": m.colour, "clue": i} for i in range(len(m.clues) + 1)
        ]
        out += [
            {"type": "remove_marker", "map": m.colour, "space": [h.q, h.r]}
            for h in island.spaces_of(m.candidates)
        ]
    return out


@pytest.mark.parametrize("game", range(4))
def test_apply_accepts_exactly_the_listed_legal_actions(game):
    s = KIND.new_state_on(ISLANDS[game % 3], 500 + game, 2 + game % 3, None)
    rng = random.Random(game)
    checked = 0
    while not KIND.is_over(s):
        seat = KIND.to_act(s)[0]
        legal = KIND.legal_actions(s, seat)
        if s.phase == "turn" and rng.random() < 0.1:
            before = KIND.state_to_json(s)
            for action in universe(s, seat):
                if action in legal:
                    KIND.apply(KIND.state_from_json(KIND.state_to_json(s)), seat, action)
                else:
                    with pytest.raises(IllegalAction):
                        KIND.apply(s, seat, action)
            assert KIND.state_to_json(s) == before
            checked += 1
        level = "strategic" if seat == 0 else "random"
        KIND.apply(s, seat, KIND.bot_action(s, seat, level, rng))
    assert checked >= 3
