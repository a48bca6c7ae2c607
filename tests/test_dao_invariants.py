"""DAO invariants over many random games: conservation, clean ends, replay, public events, views
that hide what they must, and bots whose decision is a function of their view only."""

from __future__ import annotations

import json
import random

import pytest

from games.base import play_bots, replay
from games.dao import cards as C
from games.dao.engine import KIND, DaoState

SEAT_COUNTS = (2, 3, 4, 5, 6)


def random_options(rng: random.Random) -> dict:
    return {
        "bust_match": rng.choice(["previous", "first"]),
        "two_rounds": rng.choice([None, True, False]),
    }


def every_card(state: DaoState) -> list[int]:
    cards = [c for d in state.decks for c in d] + list(state.display)
    cards += [c for p in state.piles for c in p] if not state.over else []
    for r in state.finished:
        cards += [c for p in r["piles"] for c in p] + list(r["left"])
    return cards


def reference_score(pile: list[int]) -> int:
    """Straight from the rules: pick an element, its values minus 1 per card of another element."""
    best = None
    for e in range(len(C.ELEMENTS)):
        mine = sum(C.CARD_VALUE[c] for c in pile if C.CARD_ELEMENT[c] == e)
        others = sum(1 for c in pile if C.CARD_ELEMENT[c] != e)
        best = mine - others if best is None else max(best, mine - others)
    return best if best is not None else 0


def canonical(value) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False)


def contains(tree_text: str, item) -> bool:
    """Is ``item`` a value nested in the JSON text ``tree_text`` (both canonical)? A canonical
    object or list can only match a whole object or list, as no card text holds a bracket."""
    return canonical(item) in tree_text


def test_thousands_of_random_games_conserve_cards_follow_the_bust_rule_and_end_cleanly():
    rng = random.Random(2024)
    for i in range(2000):
        seats = SEAT_COUNTS[i % len(SEAT_COUNTS)]
        options = random_options(rng)
        state = KIND.new_state(i, seats, options)
        expected_two = seats == 2 if options["two_rounds"] is None else options["two_rounds"]
        assert state.options["two_rounds"] is expected_two
        rounds = 2 if expected_two else 1
        checked = i < 250
        while not KIND.is_over(state):
            (seat,) = KIND.to_act(state)
            before = {c for d in state.decks for c in d} if checked else None
            events = KIND.apply(state, seat, rng.choice(KIND.legal_actions(state, seat)))
            if checked:
                for a, b in zip(events, events[1:] + [{"type": None}], strict=True):
                    if a["type"] == "turn":
                        # Above 12 a turn always ends in a save or a bust; a bust only above 12.
                        assert (b["type"] in ("saved", "bust")) is (a["total"] > C.BUST_ABOVE)
                assert sorted(every_card(state)) == list(range(C.CARD_COUNT))
                # Events name exactly the cards that left the deck (now face up), never one still in it.
                named = sorted(
                    (c["element"], c["value"])
                    for e in events
                    for c in (
                        [e["card"]]
                        if e["type"] == "turn"
                        else e["cards"]
                        if e["type"] == "refill"
                        else []
                    )
                )
                left_deck = before - {c for d in state.decks for c in d}
                assert named == sorted(
                    (C.ELEMENTS[C.CARD_ELEMENT[c]], C.CARD_VALUE[c]) for c in left_deck
                )
                if not state.over:
                    assert state.display and state.decks[state.round - 1]
        assert sorted(every_card(state)) == list(range(C.CARD_COUNT))
        assert len(state.finished) == rounds and all(not d for d in state.decks)
        assert KIND.to_act(state) == [] and all(
            KIND.legal_actions(state, s) == [] for s in range(seats)
        )
        for r in state.finished:
            assert r["scores"] == [reference_score(p) for p in r["piles"]]
        totals = KIND.scores(state)
        assert totals == [sum(r["scores"][s] for r in state.finished) for s in range(seats)]
        assert KIND.winners(state) == [s for s in range(seats) if totals[s] == max(totals)]
        stats = KIND.statistics(state)
        assert stats["takes"] + stats["turns"] == state.moves


def test_replay_from_seed_options_and_log_rebuilds_the_same_state():
    rng = random.Random(7)
    for i in range(100):
        seats = SEAT_COUNTS[i % len(SEAT_COUNTS)]
        options = random_options(rng)
        state = KIND.new_state(1000 + i, seats, options)
        log = []
        while not KIND.is_over(state):
            (seat,) = KIND.to_act(state)
            action = rng.choice(KIND.legal_actions(state, seat))
            KIND.apply(state, seat, action)
            log.append((seat, action))
            if len(log) == 20:  # a snapshot taken mid-game plays on identically
                snapshot = KIND.state_from_json(json.loads(json.dumps(KIND.state_to_json(state))))
                assert KIND.state_to_json(snapshot) == KIND.state_to_json(state)
        again = replay(KIND, 1000 + i, seats, options, log)
        assert KIND.state_to_json(again) == KIND.state_to_json(state)


def test_state_from_json_refuses_garbage():
    from errors import InvalidInput

    good = KIND.state_to_json(KIND.new_state(1, 3))
    for bad in ({}, {**good, "piles": [[]]}, {**good, "round": 3}, {**good, "decks": 5}):
        with pytest.raises(InvalidInput):
            KIND.state_from_json(bad)


def test_views_hide_other_seats_cards_until_the_end_then_show_everything():
    rng = random.Random(3)
    for i in range(15):
        seats = SEAT_COUNTS[i % len(SEAT_COUNTS)]
        state = KIND.new_state(50 + i, seats, random_options(rng))
        while not KIND.is_over(state):
            (seat,) = KIND.to_act(state)
            KIND.apply(state, seat, rng.choice(KIND.legal_actions(state, seat)))
            if KIND.is_over(state):
                break
            hidden = KIND.hidden_items(state)
            private = {s: KIND.private_items(state, s) for s in range(seats)}
            for viewer in [*range(seats), None]:
                view = KIND.view(state, viewer)
                assert view["deck"] == len(state.decks[state.round - 1])
                assert view["unseen_total"] == sum(len(d) for d in state.decks[state.round - 1 :])
                for s, entry in enumerate(view["players"]):
                    assert entry["count"] == len(state.piles[s])
                    if s == viewer:
                        assert [C.type_of(*C.parse_card(c)) for c in entry["cards"]] == [
                            C.CARD_TYPE[c] for c in state.piles[s]
                        ]
                        assert entry["score"] == reference_score(state.piles[s])
                    else:
                        assert entry["cards"] is None and "score" not in entry
                text = canonical(view)
                for item in hidden:
                    assert not contains(text, item)
                for s in range(seats):
                    for item in private[s]:
                        assert contains(text, item) is (viewer == s)
                assert ("helper" in view) is (viewer is not None)
        for viewer in [*range(seats), None]:
            view = KIND.view(state, viewer)
            assert view["over"] and view["scores"] == KIND.scores(state)
            assert all(entry["cards"] is not None for entry in view["players"])
            assert "helper" not in view
            assert len(view["finished"]) == len(state.decks)


def test_the_view_shape_is_the_public_one():
    view = KIND.view(KIND.new_state(2, 3), 1)
    assert {"display", "deck", "round", "players"} <= set(view)
    assert all(set(c) == {"element", "value"} for c in view["display"])
    assert all({"count", "cards"} <= set(p) for p in view["players"])
    assert view["players"][1]["cards"] == [] and view["players"][0]["cards"] is None
    json.dumps(view)


def _variant_with_other_hidden_parts(state: DaoState, seat: int, rng: random.Random) -> DaoState:
    """The same position as ``seat`` knows it: the unseen cards reordered (across the rounds'
    decks too) and, with 3+ seats, one card swapped between two other seats' piles."""
    other = KIND.state_from_json(KIND.state_to_json(state))
    decks = other.decks[other.round - 1 :]
    pool = [c for d in decks for c in d]
    rng.shuffle(pool)
    for d in decks:
        d[:] = [pool.pop() for _ in range(len(d))]
    others = [s for s in range(state.seats) if s != seat and other.piles[s]]
    if len(others) >= 2:
        a, b = rng.sample(others, 2)
        i, j = rng.randrange(len(other.piles[a])), rng.randrange(len(other.piles[b]))
        other.piles[a][i], other.piles[b][j] = other.piles[b][j], other.piles[a][i]
    return other


@pytest.mark.parametrize("level", ["random", "greedy", "ev"])
def test_no_peeking_a_bot_decides_from_its_view_only(level):
    """Same view and same rng state give the same action, whatever the hidden parts hold."""
    bot = KIND.bots[level]
    rng = random.Random(level)
    differing = 0
    for i in range(60):
        seats = SEAT_COUNTS[i % len(SEAT_COUNTS)]
        state = KIND.new_state(300 + i, seats, random_options(rng))
        for _ in range(rng.randrange(0, 40)):
            if KIND.is_over(state):
                break
            (seat,) = KIND.to_act(state)
            KIND.apply(state, seat, rng.choice(KIND.legal_actions(state, seat)))
        if KIND.is_over(state):
            continue
        (seat,) = KIND.to_act(state)
        other = _variant_with_other_hidden_parts(state, seat, rng)
        differing += KIND.state_to_json(other) != KIND.state_to_json(state)
        view, other_view = KIND.view(state, seat), KIND.view(other, seat)
        assert view == other_view
        legal = KIND.legal_actions(state, seat)
        seed = rng.random()
        action = bot(view, legal, random.Random(seed))
        assert action in legal
        assert bot(other_view, legal, random.Random(seed)) == action
        assert bot(json.loads(json.dumps(view)), legal, random.Random(seed)) == action
    assert differing > 40  # the hidden parts really differed


def test_bots_play_whole_games_through_the_generic_loop():
    rng = random.Random(5)
    for seats in SEAT_COUNTS:
        state = KIND.new_state(seats, seats)
        levels = ["ev", "greedy", "random", "ev", "greedy", "random"][:seats]
        actions = play_bots(KIND, state, levels, rng)
        assert KIND.is_over(state) and actions == state.moves
