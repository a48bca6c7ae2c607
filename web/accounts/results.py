"""A game's end for its players: each account seat's place and score, and the ratings.

Called in the game's final write transaction (``web.service.sessions``), so a game never ends
without its results, nor gets them twice. A game no account holds a seat of costs nothing here.
What is rated and how: ``web.accounts.ratings``.
"""

from __future__ import annotations

from typing import Any

from games.base import GameKind
from games.turns import EXPIRED
from web.accounts import ratings
from web.storage import BOT, GameRecord, Transaction
from web.storage.accounts import held


def places(scores: list[float], winners: list[int]) -> list[int]:
    """Each seat's place: 1 for the winners (a tie shares the win), then one more than the
    seats ahead of it (the winners, and every seat with a higher score)."""
    win = set(winners)
    return [
        1
        if i in win
        else 1 + sum(1 for j, t in enumerate(scores) if j != i and (j in win or t > s))
        for i, s in enumerate(scores)
    ]


def is_rated(game: GameRecord) -> bool:
    """Whether the finished ``game`` is rated (``web.accounts.ratings``, module doc)."""
    accounts = sum(1 for s in game.seats if s.account is not None)
    bots = sum(1 for s in game.seats if s.type == BOT)
    return (
        game.rated
        and game.origin == "play"
        and not game.seed_chosen
        and accounts >= 1
        and accounts + bots >= 2
    )


def record_end(
    tx: Transaction, kind: GameKind, state: Any, now: float, end: str | None = None
) -> None:
    """Store the results of the game ``tx`` holds, just ended in ``state``, at ``now`` (the
    service's clock): each account seat's place and score; the ratings if it is rated. A table
    that expired in the lobby (``end``: the table's end entry's reason, ``EXPIRED``) ends its
    seats with no place or score, and is not rated: nobody played it out."""
    game = tx.game
    if not held(game.seats):
        return
    store = tx.accounts()
    if end == EXPIRED:  # it ended, with no result: listed among the finished, counted nowhere
        held_seats = [s.index for s in game.seats if s.account is not None]
        store.end_players(game.id, dict.fromkeys(held_seats, (None, None)), now)
        return
    scores = kind.scores(state) or [0.0] * len(game.seats)
    place = places(scores, kind.winners(state))
    store.end_players(
        game.id,
        {s.index: (place[s.index], scores[s.index]) for s in game.seats if s.account is not None},
        now,
    )
    if not is_rated(game):
        return
    seats, before = [], {}
    store.lock_accounts(s.account for s in game.seats if s.account is not None)
    for s in game.seats:
        if s.account is not None:
            mine = store.rating(s.account, kind.name) or ratings.new_rating(kind.name, now)
            before[s.account] = mine
            seats.append(ratings.Rated(s.index, s.account, place[s.index], (mine.mu, mine.sigma)))
        elif s.type == BOT and s.level is not None:
            anchor = ratings.anchors(kind)[kind.level(s.level)]
            seats.append(ratings.Rated(s.index, None, place[s.index], anchor))
    changes = ratings.rate(game.id, kind.name, seats, now)
    store.save_changes(changes)
    for c in changes:
        if c.account is not None:
            store.save_rating(c.account, ratings.updated(before[c.account], c))
