"""DAO odds helper and bots: known answers, a cross-check against the engine, bot strength."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from games.dao import cards as C
from games.dao import odds, strong
from games.dao.bots import ev_bot, greedy_bot, random_bot
from games.dao.engine import KIND, DaoState
from games.dao.scenario import game
from games.simulate import simulate

TAKE = {"type": "take"}
TURN = {"type": "turn"}


def test_known_position_bust_probability_and_gains():
    # Display fire3 wood4 water4 = 11, nothing taken; 57 unseen cards: values 0 x5, 1 x20, 2 x15,
    # 3 x14, 4 x3. A 2 or 3 busts (29 cards); a 4 matches the previous water4 and is saved (3).
    state = game(["fire3", "wood4", "water4"], seats=3)
    helper = KIND.view(state, 0)["helper"]
    assert (helper["bust_cards"], helper["save_cards"], helper["unseen"]) == (29, 3, 57)
    assert helper["bust_probability"] == pytest.approx(29 / 57)
    assert helper["take"] == {"card": {"element": "fire", "value": 3}, "gain": 3}
    # A bust takes fire3 wood4 water4 + X (a 2 or a 3): X in wood or water scores 4 + v - 2,
    # in fire 3 + v - 2, in metal or earth 1 (wood4 - 3). Unseen 2s and 3s: wood and water 3 + 3
    # each, fire 3 + 2, metal and earth 3 + 3: 27 + 27 + 17 + 6 + 6 = 83 in all.
    assert helper["turn"]["gain"] == pytest.approx(83 / 57)
    assert helper["turn"]["gain_if_bust"] == pytest.approx(83 / 29)
    assert helper["advice"] == "take"
    assert helper["element_scores"] == dict.fromkeys(C.ELEMENTS, 0) and helper["score"] == 0


def test_under_bust_match_first_the_first_card_decides_the_exception():
    state = game(["fire3", "wood4", "water4"], seats=3, bust_match="first")
    helper = KIND.view(state, 0)["helper"]
    # Now a 3 matches the first card fire3 (saved, 14 unseen threes); 2s and 4s bust.
    assert (helper["bust_cards"], helper["save_cards"]) == (15 + 3, 14)


def test_no_helper_for_spectators_or_after_the_end():
    state = KIND.new_state(4, 3)
    assert "helper" not in KIND.view(state, None)
    assert odds.helper(KIND.view(state, None)) is None
    assert KIND.view(state, 2)["helper"] is not None


def _put_on_top(state: DaoState, card: int) -> DaoState:
    """A copy of ``state`` with ``card`` (unseen) on top of the current deck: the same view."""
    copy = KIND.state_from_json(KIND.state_to_json(state))
    current = copy.decks[copy.round - 1]
    for deck in copy.decks[copy.round - 1 :]:
        if card in deck:
            i = deck.index(card)
            deck[i], current[-1] = current[-1], deck[i]
            return copy
    raise AssertionError("card not unseen")


def _pile_after(state: DaoState, seat: int, round_: int) -> list[int]:
    return (
        state.piles[seat]
        if state.round == round_ and not state.over
        else state.finished[round_ - 1]["piles"][seat]
    )


def test_helper_matches_the_engine_card_by_card():
    """For every unseen card: put it on top, turn, and compare busts, saves and score changes."""
    rng = random.Random(11)
    positions = 0
    for i in range(40):
        seats = 2 + i % 5
        options = {
            "bust_match": rng.choice(["previous", "first"]),
            "two_rounds": rng.choice([None, False]),
        }
        state = KIND.new_state(500 + i, seats, options)
        for _ in range(rng.randrange(5, 60)):
            if KIND.is_over(state):
                break
            (seat,) = KIND.to_act(state)
            KIND.apply(state, seat, rng.choice([TURN, TURN, TAKE]))
        if KIND.is_over(state):
            continue
        positions += 1
        (seat,) = KIND.to_act(state)
        view = KIND.view(state, seat)
        helper = view["helper"]
        assert odds.helper(view) == helper  # the engine's shortcut agrees with the view's function
        before = C.pile_score(state.piles[seat])
        unseen = [c for d in state.decks[state.round - 1 :] for c in d]
        busts = saves = 0
        gain = 0
        for card in unseen:
            trial = _put_on_top(state, card)
            assert KIND.view(trial, seat)["helper"] == helper  # the seat cannot tell the difference
            events = KIND.apply(trial, seat, TURN)
            kinds = [e["type"] for e in events]
            busts += "bust" in kinds
            saves += "saved" in kinds
            gain += C.pile_score(_pile_after(trial, seat, state.round)) - before
        assert (helper["bust_cards"], helper["save_cards"], helper["unseen"]) == (
            busts,
            saves,
            len(unseen),
        )
        assert helper["turn"]["gain"] == pytest.approx(gain / len(unseen))
        if busts:
            assert helper["turn"]["gain_if_bust"] == pytest.approx(gain / busts)
        took = KIND.state_from_json(KIND.state_to_json(state))
        KIND.apply(took, seat, TAKE)
        assert helper["take"]["gain"] == C.pile_score(_pile_after(took, seat, state.round)) - before
        scores = C.element_scores(state.piles[seat])
        assert list(helper["element_scores"].values()) == scores
        assert helper["best_element"] == C.ELEMENTS[scores.index(max(scores))]
    assert positions > 25


@pytest.mark.parametrize("two_rounds", [False, True])
def test_others_estimate_is_the_opponents_exact_pile_with_two_seats(two_rounds):
    rng = random.Random(2)
    state = KIND.new_state(8, 2, {"two_rounds": two_rounds})
    checked = 0
    while not KIND.is_over(state):
        (seat,) = KIND.to_act(state)
        g, n = odds.others_estimate(KIND.view(state, seat))
        opponent = state.piles[1 - seat]
        assert g == [float(x) for x in C.pile_gains(opponent)] and n == len(opponent)
        checked += 1
        KIND.apply(state, seat, rng.choice([TAKE, TURN]))
    assert checked > 20


def test_others_estimate_shares_the_others_cards_out_with_more_seats():
    rng = random.Random(4)
    state = KIND.new_state(9, 4)
    for _ in range(30):
        (seat,) = KIND.to_act(state)
        KIND.apply(state, seat, rng.choice([TAKE, TURN]))
    (seat,) = KIND.to_act(state)
    g, n = odds.others_estimate(KIND.view(state, seat))
    others = [c for s in range(4) if s != seat for c in state.piles[s]]
    assert n == pytest.approx(len(others) / 3)
    assert g == pytest.approx([x / 3 for x in C.pile_gains(others)])


def test_weight_zero_is_greedy_and_bots_answer_with_legal_actions():
    rng = random.Random(6)
    state = KIND.new_state(6, 3)
    while not KIND.is_over(state):
        (seat,) = KIND.to_act(state)
        view, legal = KIND.view(state, seat), KIND.legal_actions(state, seat)
        pos = odds.position_from_view(view)
        values = odds.action_values(pos)
        assert values["take"] == view["helper"]["take"]["gain"]
        assert values["turn"] == pytest.approx(view["helper"]["turn"]["gain"])
        for bot in (random_bot, greedy_bot, ev_bot):
            assert bot(view, legal, rng) in legal
        KIND.apply(state, seat, ev_bot(view, legal, rng))


def test_greedy_takes_a_card_that_helps_and_turns_rather_than_take_a_stranger_safely():
    # Display wood1 water1 metal0 = 2: no turn can bust. An empty pile gains 1 from wood1
    # (1 + 1 - 1): take. A pile holding fire4 would lose 1 (fire 4 - 1 stranger): turn.
    state = game(["wood1", "water1", "metal0", "earth2"], seats=2)
    view = KIND.view(state, 0)
    assert view["helper"]["take"]["gain"] == 1 and view["helper"]["bust_probability"] == 0
    assert greedy_bot(view, KIND.legal_actions(state, 0), random.Random(0)) == TAKE
    state.piles[0] = [c for c in range(C.CARD_COUNT) if C.card_text(c) == "fire4"]
    state.decks[0].remove(state.piles[0][0])
    view = KIND.view(state, 0)
    assert view["helper"]["take"]["gain"] == -1 and view["helper"]["turn"]["gain"] == 0
    assert view["helper"]["advice"] == "turn"
    assert greedy_bot(view, KIND.legal_actions(state, 0), random.Random(0)) == TURN


def test_the_ev_bot_clearly_beats_random_bots(monkeypatch):
    # "ev" names the strong level now; with fewer rollouts than moves it plays its default,
    # the one-turn look-ahead ev_bot, without a search
    monkeypatch.setattr(strong, "SETTINGS", replace(strong.SETTINGS, rollouts=1))
    result = simulate(KIND, 100, 4, ["ev", "random", "random", "random"], seed=3)
    ev = result["entries"][0]
    assert ev["win_share"] > 0.5  # fair share 0.25; measured about 0.8 over 5000 games
    assert ev["mean_score"] > result["by_bot"]["random"]["mean_score"] + 3
