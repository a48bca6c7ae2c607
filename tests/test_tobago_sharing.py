"""Tobago rules §6-§8 in constructed positions: raising, sharing, curses, restart, statues, end.

The raise scene: three seats; the white column holds seat 1's ``near1:palm`` (one marker) and
seat 2's ``in:beach`` (two markers), which locates white at (1, 0), where seat 0's ATV stands.
Markers from the bottom up: raiser 0, then 2, 2, then 1 — so 4 shares and 5 cards. With
``NoShuffle`` the cards are turned in the order given to ``stack_treasures``; seat 0 drew the
last of them, seat 1 the fourth, seat 2 the third and second, and the first is the extra card.
"""

from __future__ import annotations

import pytest

from errors import IllegalAction, ProjectError
from games.base import get_kind
from games.tobago.rules import TREASURE_VALUES
from hexmap.hexes import Hex
from tests.tobago_positions import (
    CURSE_IDS,
    amulet_count,
    card,
    clue_cards,
    gold,
    position,
    put_clue,
    stack_clues,
    stack_treasures,
    take_treasure,
    treasure_cards,
)

KIND = get_kind("tobago")


def scene(turned: list[int]):
    s = position(seats=3, atvs=[(1, 0), (5, 4), (5, 4)])
    put_clue(s, "white", "near1:palm", 1)
    put_clue(s, "white", "in:beach", 2, markers=2)
    stack_treasures(s, turned)
    return s


def raise_white(s):
    return KIND.apply(s, 0, {"type": "raise", "map": "white"})


def act(s, seat, kind):
    assert KIND.to_act(s) == [seat], f"{seat} is not asked; {KIND.to_act(s)} is"
    return KIND.apply(s, seat, {"type": kind})


def test_each_marker_is_a_share_and_offers_go_from_the_bottom_of_the_column_up():
    s = scene([gold(6), gold(2), gold(5), gold(3), gold(4)])
    events = raise_white(s)
    started = next(e for e in events if e["type"] == "sharing_started")
    assert started["shares"] == [1, 1, 2] and started["cards"] == 5
    # Every seat saw what it drew; the extra card (the 6) nobody saw.
    assert [p.memory for p in s.players] == [
        [{"sharing": 1, "map": "white", "values": [4]}],
        [{"sharing": 1, "map": "white", "values": [3]}],
        [{"sharing": 1, "map": "white", "values": [5, 2]}],
    ]
    assert s.phase == "sharing" and s.sharing.offer == gold(6)
    assert KIND.view(s, 1)["sharing"]["offer"] == 6  # face up: public
    act(s, 0, "accept")  # the raiser is asked first; its marker leaves the column
    assert s.maps[0].raiser is None and s.players[0].treasures == [gold(6)]
    # The 2: seat 2 is asked once (not once per marker), then seat 1; all decline: discarded.
    act(s, 2, "decline")
    act(s, 1, "decline")
    assert gold(2) in s.treasure_discard
    act(s, 2, "accept")  # the 5
    assert [e.markers for e in s.maps[0].clues] == [1, 1]
    act(s, 2, "decline")  # the 3
    act(s, 1, "accept")
    act(s, 2, "accept")  # the 4: the last marker and the last card
    assert s.phase == "turn" and KIND.to_act(s) == [1] and s.sharing is None
    assert [sorted(TREASURE_VALUES[c] for c in p.treasures) for p in s.players] == [
        [6],
        [3],
        [4, 5],
    ]
    # The column is cleared (its cards discarded, markers home) and restarted by the raiser.
    white = s.maps[0]
    assert len(white.clues) == 1 and white.clues[0].seat == 0 and white.removed == 0
    assert [p.markers for p in s.players] == [14, 15, 15]
    assert card("near1:palm") in s.clue_discard and card("in:beach") in s.clue_discard
    # Memories stay: each seat still sees what it drew, nobody else does.
    assert KIND.view(s, 2)["memory"] == [{"sharing": 1, "map": "white", "values": [5, 2]}]
    assert KIND.view(s, 1)["memory"] == [{"sharing": 1, "map": "white", "values": [3]}]
    assert KIND.view(s, None)["memory"] == []
    assert len(set(treasure_cards(s))) == len(treasure_cards(s)) == 41
    assert sorted(clue_cards(s)) == list(range(52))


def test_sharing_ends_when_the_markers_run_out_and_leftovers_are_discarded():
    s = scene([gold(6), gold(5), gold(5, 1), gold(4), gold(2)])
    raise_white(s)
    for seat in (0, 2, 2, 1):
        act(s, seat, "accept")
    assert s.phase == "turn" and gold(2) in s.treasure_discard
    assert sum(len(p.treasures) for p in s.players) == 4


def test_a_refused_sharing_answer_changes_nothing():
    s = scene([gold(6), gold(2), gold(5), gold(3), gold(4)])
    raise_white(s)
    before = KIND.state_to_json(s)
    for seat, action in [
        (1, {"type": "accept"}),
        (0, {"type": "drive", "to": [1, 1]}),
        (0, {"type": "accept", "card": 1}),
    ]:
        with pytest.raises(ProjectError):
            KIND.apply(s, seat, action)
        assert KIND.state_to_json(s) == before


def test_a_curse_costs_an_amulet_or_else_the_highest_treasure_card():
    s = scene([gold(5), CURSE_IDS[0], gold(3), gold(4), gold(2)])
    s.players[1].amulets = 1
    s.amulet_supply -= 1
    take_treasure(s, 2, gold(6, 1))
    take_treasure(s, 2, gold(3, 1))
    raise_white(s)
    act(s, 0, "accept")  # the raiser's only marker leaves: the raiser escapes the curse
    curse = next(e for e in s.log if e["type"] == "curse")
    assert curse["cursed"] == [{"seat": 1, "lost": "amulet"}, {"seat": 2, "lost": "treasure"}]
    assert curse["removed"] == 1 and curse["discarded"] == 3  # the curse leaves; 3 discarded
    assert s.players[1].amulets == 0 and s.amulet_supply == 19  # the statue took one after
    assert s.players[2].treasures == [gold(3, 1)] and gold(6, 1) in s.treasure_discard
    assert s.treasure_removed == [CURSE_IDS[0]]
    assert {gold(3), gold(4), gold(2)} <= set(s.treasure_discard)
    assert s.players[0].treasures == [gold(5)]
    assert s.phase == "turn" and [p.markers for p in s.players] == [14, 15, 15]
    assert len(set(treasure_cards(s))) == 41 and amulet_count(s) == 20


def test_a_second_curse_among_the_undealt_cards_leaves_the_game_too():
    s = scene([CURSE_IDS[0], gold(3), CURSE_IDS[1], gold(2), gold(5)])
    raise_white(s)
    curse = next(e for e in s.log if e["type"] == "curse")
    assert curse["removed"] == 2 and curse["discarded"] == 3
    assert sorted(s.treasure_removed) == sorted(CURSE_IDS)
    assert not set(CURSE_IDS) & set(s.treasure_discard)
    assert len(set(treasure_cards(s))) == 41


def test_a_cursed_player_with_neither_amulet_nor_treasure_loses_nothing():
    s = scene([CURSE_IDS[1], gold(3), gold(4), gold(2), gold(5)])
    raise_white(s)
    curse = next(e for e in s.log if e["type"] == "curse")
    assert curse["cursed"] == [{"seat": s, "lost": "nothing"} for s in (0, 1, 2)]
    assert all(p.treasures == [] for p in s.players) and s.phase == "turn"


def test_the_restart_card_must_leave_a_candidate():
    s = scene([gold(6), gold(2), gold(5), gold(3), gold(4)])
    stack_clues(s, ["near2:hut", "near1:hut"])  # no hut on the island: they leave nothing
    raise_white(s)
    for seat, a in [(0, "accept"), (2, "accept"), (2, "accept"), (1, "accept")]:
        act(s, seat, a)
    white = s.maps[0]
    assert card("near1:hut") in s.clue_discard and card("near2:hut") in s.clue_discard
    assert len(white.clues) == 1 and white.candidates
    assert sum(e["type"] == "clue_discarded" for e in s.log) == 2


def _share_out(s):
    while s.phase == "sharing":
        act(s, KIND.to_act(s)[0], "accept")


def test_statues_place_an_amulet_at_the_end_of_their_ray_then_turn_clockwise():
    s = scene([gold(6), gold(2), gold(5), gold(3), gold(4)])
    raise_white(s)
    _share_out(s)
    assert s.amulets == [Hex(5, 2)] and s.amulet_supply == 19  # east of (2, 2), at the coast
    assert s.statues == [[Hex(2, 2), 5]]  # facing SE now
    view = KIND.view(s, 0)
    assert view["statues"] == [{"at": [2, 2], "facing": 5}]
    assert view["amulets_on_island"] == [[5, 2]]


def test_a_statue_ray_ending_on_an_amulet_adds_none_but_the_statue_still_turns():
    s = scene([gold(6), gold(2), gold(5), gold(3), gold(4)])
    s.amulets = [Hex(5, 2)]
    s.amulet_supply -= 1
    raise_white(s)
    _share_out(s)
    assert s.amulets == [Hex(5, 2)] and s.amulet_supply == 19
    assert s.statues == [[Hex(2, 2), 5]]
    assert not any(e["type"] == "amulet_appeared" for e in s.log)


def test_an_empty_amulet_supply_makes_no_amulet_appear():
    s = scene([gold(6), gold(2), gold(5), gold(3), gold(4)])
    s.players[2].amulets = s.amulet_supply
    s.amulet_supply = 0
    raise_white(s)
    _share_out(s)
    assert s.amulets == [] and s.statues == [[Hex(2, 2), 5]] and amulet_count(s) == 20


def test_the_treasure_deck_running_out_mid_sharing_reshuffles_the_discards_then_the_game_ends():
    s = scene([gold(6), gold(2), gold(5), gold(3), gold(4)])
    # Only two cards left (the 3 and the 4: drawn by seats 0 and 1); eight in the discards.
    rest = [c for c in s.treasure_deck if c not in (gold(3), gold(4))]
    s.treasure_discard = rest[:8]
    s.treasure_removed = rest[8:]  # out of the game, so the counts stay whole
    s.treasure_deck = [gold(3), gold(4)]
    events = raise_white(s)
    assert any(e["type"] == "treasure_deck_reshuffled" and e["cards"] == 8 for e in events)
    assert s.sharing.last and len(s.sharing.pile) + 1 == 5
    assert s.players[2].memory[0]["values"] != []  # seat 2 drew from the new deck
    _share_out(s)
    assert s.phase == "over" and KIND.is_over(s) and KIND.to_act(s) == []
    assert len(s.treasure_deck) == 5  # 2 + 8 reshuffled - 5 drawn: left, but the game is over
    over = next(e for e in s.log if e["type"] == "game_over")
    # not "the deck is used up": 5 cards are left, and the end says so (pages word ``end``)
    assert over["end"] == "deck_reshuffled" and over["treasure_deck"] == 5
    assert KIND.statistics(s)["ended_without_markers"] == 0
    assert s.maps[0].clues == []  # not restarted
    scores = KIND.scores(s)
    assert scores == [sum(TREASURE_VALUES[c] for c in p.treasures) for p in s.players]
    assert len(set(treasure_cards(s))) == 41
    with pytest.raises(IllegalAction):
        KIND.apply(s, 1, {"type": "exchange"})


def test_the_game_ends_after_the_sharing_that_empties_the_treasure_deck():
    s = scene([gold(6), gold(2), gold(5), gold(3), gold(4)])
    s.treasure_removed = s.treasure_deck[:-5]
    s.treasure_deck = s.treasure_deck[-5:]
    raise_white(s)
    assert not s.sharing.last and s.treasure_deck == []
    _share_out(s)
    assert s.phase == "over"
    over = next(e for e in s.log if e["type"] == "game_over")
    assert over["scores"] == KIND.scores(s)
    assert over["end"] == "deck_empty" and over["treasure_deck"] == 0


def test_most_gold_wins_and_ties_are_shared():
    s = scene([gold(6), gold(2), gold(5), gold(3), gold(4)])
    s.treasure_removed = s.treasure_deck[:-5]
    s.treasure_deck = s.treasure_deck[-5:]
    raise_white(s)
    act(s, 0, "accept")  # 6
    act(s, 2, "decline")  # 2
    act(s, 1, "decline")
    act(s, 2, "decline")  # 5
    act(s, 1, "accept")
    act(s, 2, "accept")  # 3
    act(s, 2, "accept")  # 4 ... the sharing ends: markers are gone
    assert KIND.scores(s) == [6, 5, 7] and KIND.winners(s) == [2]
    s.players[0].treasures.append(s.treasure_discard.pop())  # the discarded 2: seat 0 has 8
    assert KIND.winners(s) == [0]
    three = next(c for c in s.treasure_removed if TREASURE_VALUES[c] == 3)
    s.treasure_removed.remove(three)
    s.players[1].treasures.append(three)  # seat 1: 5 + 3 = 8, a tie for the win
    assert KIND.scores(s) == [8, 8, 7] and KIND.winners(s) == [0, 1]


def test_at_the_end_every_view_shows_every_hand_and_treasure():
    s = scene([gold(6), gold(2), gold(5), gold(3), gold(4)])
    s.treasure_removed = s.treasure_deck[:-5]
    s.treasure_deck = s.treasure_deck[-5:]
    raise_white(s)
    _share_out(s)
    v = KIND.view(s, None)
    assert v["scores"] == KIND.scores(s)
    assert all("hand" in p and "treasures" in p for p in v["players"])
    assert v["memory_all"][2] == s.players[2].memory
