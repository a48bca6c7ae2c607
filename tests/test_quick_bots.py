"""Quick bots answer in the player's write (``web.service.moves.quick_table``): a table whose
bots all choose from their legal actions alone gets their replies in the same transaction as
the player's move, seeded as a runner's, so the log is the one a runner would have written;
any other bot (one that reads a view: ``normal``, ``strong``) still thinks in the runner, and
a quick bot that fails leaves the player's move stored alone for the runner, which logs and
marks the failure. Run against both stores (the ``database`` fixture)."""

from __future__ import annotations

import pytest

from games.base import get_kind, legal_only
from tests.testgame import BlindAuction, human_and_bots
from web.service import following
from web.service.moves import BotFailed
from web.service.sessions import GameSessions


@pytest.fixture(autouse=True)
def _kind(monkeypatch):
    """Blind Auction with a quick bot (random, legal actions only), a quick bot that crashes,
    and its own view-reading bots."""
    import games.base

    games.base.kinds()
    kind = BlindAuction()

    @legal_only
    def quick(legal, rng):
        return dict(rng.choice(legal))

    @legal_only
    def broken(legal, rng):
        raise ZeroDivisionError("quick bot bug")

    kind.bots = {**kind.bots, "quick": quick, "broken": broken}
    monkeypatch.setitem(games.base._REGISTRY, "blind_auction", kind)


@pytest.fixture
def sessions(open_store_):
    return lambda **kw: GameSessions(open_store_(), **{"strict_bots": True, **kw})


def _bid(s: GameSessions, game_id: str) -> dict:
    """Seat 0 bids its first card at the game's version; the answer."""
    game, state = s.current(game_id)
    return s.act(game_id, 0, game.version, {"type": "bid", "card": state.hands[0][0]})


def _log(s: GameSessions, game_id: str) -> list[tuple]:
    return [(a.version, a.seat, a.action) for a in s.store.actions(game_id)]


def test_quick_bots_reply_in_the_players_write_as_a_runner_would(sessions):
    seats = human_and_bots("quick", "quick")
    logs = []
    for quick in (True, False):
        s = sessions(quick_bots=quick)
        game, _, _, _ = s.create("blind_auction", seats, {"rounds": 3}, 17)
        s.play_due_bots()  # the bots' first bids (a bot that acts first: the runner's)
        answer = _bid(s, game.id)
        if quick:  # the replies came with the answer: seat 0 may bid again, no bot is due
            assert answer["version"] == 5 and answer["bot"] is None
            assert answer["legal_actions"] and answer["to_act"] == [0]
            assert s.store.bots_due(1e12) == []
        else:
            assert (answer["version"], answer["bot"]) == (3, "thinking")
            assert s.play_due_bots() == 2
        logs.append(_log(s, game.id))
    assert logs[0] == logs[1] and len(logs[0]) == 5  # the same moves, whoever played them


def test_a_moves_answer_carries_the_entries_it_appended_as_events_gives_them(sessions):
    """The player's action and the quick bots' replies, each as ``events`` gives it; with a
    bot that thinks in the runner, only the player's (its reply comes later, as an event)."""
    for level, count in (("quick", 3), ("greedy", 1)):
        s = sessions()
        seats = human_and_bots(level, level)
        game, _, _, _ = s.create("blind_auction", seats, {"rounds": 3}, 17)
        s.play_due_bots()
        before = s.store.version(game.id)
        answer = _bid(s, game.id)
        appended = answer["appended"]
        assert [e["version"] for e in appended] == list(range(before + 1, before + 1 + count))
        assert appended[-1]["version"] == answer["version"] and appended[0]["seat"] == 0
        assert appended == following.events(s, game.id, before, 0)["events"]
        assert all("action" not in e for e in appended)  # public events only, as events gives


def test_a_bot_that_reads_a_view_stays_in_the_runner(sessions):
    s = sessions()
    seats = human_and_bots("quick", "greedy")
    game, _, _, _ = s.create("blind_auction", seats, {"rounds": 3}, 17)
    s.play_due_bots()
    answer = _bid(s, game.id)  # a table with one view-reading bot: every bot in the runner
    assert (answer["version"], answer["bot"]) == (3, "thinking")
    assert s.store.bots_due(1e12) == [game.id]


def test_the_built_in_easy_bots_are_quick_and_the_others_are_not():
    from web.service.moves import quick_table
    from web.storage import GameRecord, Seat

    for name in ("tobago", "dao", "isla_dorada"):
        kind = get_kind(name)
        for level, quick in (("easy", True), ("random", True), ("normal", False)):
            seats = [Seat(0, "human"), Seat(1, "bot", level=level)]
            assert quick_table(kind, GameRecord("g", name, {}, 1, seats)) is quick, (name, level)
        if "strong" in kind.levels:
            seats = [Seat(0, "human"), Seat(1, "bot", level="strong")]
            assert not quick_table(kind, GameRecord("g", name, {}, 1, seats))


def test_a_quick_bot_that_fails_leaves_the_move_stored_and_the_failure_to_the_runner(
    sessions, caplog
):
    seats = [{"type": "human"}, {"type": "bot", "level": "broken"}]
    s = sessions(strict_bots=False)
    game, _, _, _ = s.create("blind_auction", seats, {"rounds": 3}, 5)
    assert s.play_bots(game.id) == 0  # its first bid (a runner's) fails: logged, marked
    row = s.store.get(game.id)
    assert row.bot == "failed" and row.version == 0
    answer = _bid(s, game.id)  # the human's bid: stored alone, the bot left to the runner
    assert answer["version"] == 1 and answer["bot"] == "thinking"
    assert [a.seat for a in s.store.actions(game.id)] == [0]
    assert "quick bot" in caplog.text
    row, state = s.current(game.id)  # the state the failed reply touched was dropped, rebuilt
    assert row.version == 1 and get_kind("blind_auction").to_act(state) == [1]
    with pytest.raises(BotFailed):  # the runner meets the failure (under TESTING: raised)
        strict = sessions()
        strict.play_due_bots()


def test_a_moves_answer_is_its_own_version_while_the_table_plays_on(sessions, monkeypatch):
    """The answer is built under the game's lock. The runner's next write carries the shared
    cached state on in place as soon as the lock is free; an answer built after that would put
    a later version's facts (the bots' replies, the game's end) under the move's number."""
    s = sessions(quick_bots=False)
    game, _, _, _ = s.create("blind_auction", human_and_bots("greedy", "greedy"), {"rounds": 3}, 17)
    s.play_due_bots()
    at_move: list[dict] = []

    def runner_at_once(after: object) -> None:  # the runner wins the lock the moment it is free
        if not at_move:
            row, state = s.current(game.id)
            at_move.append(s.snapshot(row, 0, state))
            s.play_due_bots()

    monkeypatch.setattr(s, "_bots_due", runner_at_once)
    answer = _bid(s, game.id)
    assert s.current(game.id)[0].version == 5  # the bots replied before the answer was sent
    assert (answer["version"], answer["bot"]) == (3, "thinking")
    for key in ("version", "view", "legal_actions", "to_act", "over"):
        assert answer[key] == at_move[0][key], key
