"""Ratings: openskill's Plackett-Luce model (``openskill``), one rating per account and game kind.

**Which games are rated.** A game played here (not imported) whose seed the server chose (a
creator who chose the seed knows the deal), once it is over, when at least one account holds a
seat and at least two seats are rated: the accounts' seats and the bots' seats. A guest's seat
(held by a seat token alone) is not rated and is left out; the others keep their order. Each
rated seat's place is its standing at the end (``web.accounts.results.places``: the winners
first, ties sharing a place).

**Bots are anchors.** Each bot level has a fixed, published rating (``GameKind.level_ratings``:
its ``mu`` from the game's tournament of levels, ``ANCHOR_SIGMA`` for all): a game against bots
moves the accounts' ratings as a game against players of those ratings would, and never the
bots'. So a rating means the same against bots and against people, and the levels' anchors
put every account on one scale per game.

**Stored with the game.** Each rated seat's place and its rating before and after go in
``rating_changes`` in the game's own final write (``web.accounts.results``), the current
ratings in ``ratings``; ``rebuild`` plays every rated game again in the order it was rated,
from the places and anchors stored, and writes both again: the ratings are a function of the
games. New accounts start at openskill's defaults (mu 25, sigma 25/3); the dynamics factor
(``tau``, 25/300) keeps a rating able to move after many games. Leaderboards order by the
conservative ``ordinal`` (mu - 3 sigma); a rating of fewer than ``PROVISIONAL_UNDER`` rated
games is marked provisional.

    python -m web.accounts.rerate   # rebuild on the service's DATABASE (web.accounts.rerate)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from openskill.models import PlackettLuce

from games.base import GameKind
from web.storage.accounts import AccountsSql, Rating, RatingChange

MODEL = PlackettLuce()
#: Every bot level's uncertainty (its ``mu`` is the game's ``level_ratings``).
ANCHOR_SIGMA = 2.0
#: A rating from fewer rated games than this is provisional.
PROVISIONAL_UNDER = 10
#: The spread of a game's levels when it publishes no anchors (weakest to strongest).
DEFAULT_SPREAD = (10.0, 40.0)


def anchors(kind: GameKind) -> dict[str, tuple[float, float]]:
    """Each bot level's fixed ``(mu, sigma)`` in ``kind`` (module doc)."""
    levels = list(kind.levels)
    low, high = DEFAULT_SPREAD
    step = (high - low) / max(1, len(levels) - 1)
    return {
        level: (float(kind.level_ratings.get(level, low + i * step)), ANCHOR_SIGMA)
        for i, level in enumerate(levels)
    }


def new_rating(kind: str, now: float) -> Rating:
    return Rating(kind, MODEL.mu, MODEL.sigma, 0, now)


@dataclass(frozen=True)
class Rated:
    """A rated seat before the game is rated: an account's (with its rating) or a bot's
    anchor (``account`` ``None``), and its place (1: a winner)."""

    seat: int
    account: str | None
    place: int
    before: tuple[float, float]


def rate(game: str, kind: str, seats: Sequence[Rated], at: float) -> list[RatingChange]:
    """Every rated seat's change for one game (anchors stay as they were)."""
    teams = [[MODEL.rating(mu=s.before[0], sigma=s.before[1])] for s in seats]
    after = MODEL.rate(teams, ranks=[float(s.place) for s in seats])
    return [
        RatingChange(
            game,
            s.seat,
            s.account,
            kind,
            s.place,
            s.before,
            s.before if s.account is None else (team[0].mu, team[0].sigma),
            at,
        )
        for s, team in zip(seats, after, strict=True)
    ]


def updated(rating: Rating, change: RatingChange) -> Rating:
    """``rating`` after ``change`` (one more rated game)."""
    mu, sigma = change.after
    return replace(rating, mu=mu, sigma=sigma, games=rating.games + 1, updated=change.time)


def replay(changes: Iterable[RatingChange]) -> tuple[list[RatingChange], dict[str, Rating]]:
    """Every rated game rated again in order, from its stored places and anchors: the changes
    as they come out, and the ratings they leave (by ``"<account> <kind>"``)."""
    ratings: dict[str, Rating] = {}
    out: list[RatingChange] = []
    games: dict[str, list[RatingChange]] = {}
    for c in changes:  # in the order rated: by time, then game
        games.setdefault(c.game, []).append(c)
    for game, rows in games.items():
        seats = []
        for c in rows:
            if c.account is None:
                seats.append(Rated(c.seat, None, c.place, c.before))
            else:
                r = ratings.get(f"{c.account} {c.kind}") or new_rating(c.kind, c.time)
                seats.append(Rated(c.seat, c.account, c.place, (r.mu, r.sigma)))
        for change in rate(game, rows[0].kind, seats, rows[0].time):
            out.append(change)
            if change.account is not None:
                key = f"{change.account} {change.kind}"
                before = ratings.get(key) or new_rating(change.kind, change.time)
                ratings[key] = updated(before, change)
    return out, ratings


def rebuild(store: AccountsSql) -> int:
    """Rate every rated game again (``replay``) and store the result; the games rated."""
    changes, ratings = replay(store.rating_changes())
    store.replace_ratings(changes, ratings)
    return len({c.game for c in changes})
