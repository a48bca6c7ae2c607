"""Whether a game's review can be trusted: the analysis of games a ``strong`` bot played against
``normal`` ones should rate the strong seat better, and the winner at least as well as the
loser.

``trial(name, seats, game)`` plays one seeded game (the strong seat is ``game % seats``), keeps
its log, analyses it with the game's analyst (``games.<kind>.analysis.ANALYST``: the one the
review pages use) and returns a ``Trial``: each seat's *rating* (its mean loss per rated
decision, in the analysis's points: lower is better), the final scores, and (Dragon's Gold) the
trades made in each market. ``summary`` adds trials up: the strong seat's mean rating against
the normal seats', and the share of games whose winner (the highest score) is rated at least as
well as the loser (the lowest score); a game with a tie at the top or the bottom, or a seat
without a rated decision, is left out of that share. ``tests/test_review_trust.py`` checks a
few games per kind, ``bench/review_trust_bench.py`` prints the figures over many.
"""

from __future__ import annotations

import importlib
import random
import statistics
from dataclasses import dataclass, field

from games.analysis import analyse
from games.base import Action, Event, get_kind, play_bots
from games.review import GameLog


@dataclass(frozen=True)
class Trial:
    """One analysed game: the strong seat, each seat's rating (``None``: nothing rated), the
    final scores and the trades of each market held (Dragon's Gold)."""

    strong: int
    ratings: list[float | None]
    scores: list[float]
    markets: list[int] = field(default_factory=list)

    def winner_rated_as_well(self) -> bool | None:
        """The winner's rating is at least as good as the loser's (``None``: no single winner
        or loser, or one of them has no rating)."""
        top, bottom = max(self.scores), min(self.scores)
        winners = [s for s, v in enumerate(self.scores) if v == top]
        losers = [s for s, v in enumerate(self.scores) if v == bottom]
        if len(winners) != 1 or len(losers) != 1 or top == bottom:
            return None
        won, lost = self.ratings[winners[0]], self.ratings[losers[0]]
        if won is None or lost is None:
            return None
        return won <= lost


def play_logged(name: str, seats: int, game: int, options: dict | None = None) -> GameLog:
    """Game ``game`` of ``name``: the deal and the bots' generator seeded ``game``, ``strong`` in
    seat ``game % seats`` and ``normal`` elsewhere, played to its end; its log."""
    kind = get_kind(name)
    levels = ["normal"] * seats
    levels[game % seats] = "strong"
    state = kind.new_state(game, seats, options)
    actions: list[tuple[int | None, Action]] = []

    def keep(seat: int | None, action: Action, events: list[Event]) -> None:
        actions.append((seat, action))

    play_bots(kind, state, levels, random.Random(game), on_action=keep)
    return GameLog.of(name, game, seats, options, actions)


def markets(log: GameLog) -> list[int]:
    """Trades made in each market of a Dragon's Gold log (the accepted offers between a market's
    opening and its close); other games: none."""
    if log.kind != "dragons_gold":
        return []
    out: list[int] = []
    kind = get_kind(log.kind)
    state = kind.new_state(log.seed, log.seats, log.options)
    for seat, action in log.actions:
        for event in kind.apply(state, seat, action):
            if event["type"] == "market_opened":
                out.append(0)
            elif event["type"] == "trade" and out:
                out[-1] += 1
    return out


def trial(name: str, seats: int, game: int, options: dict | None = None) -> Trial:
    """Play game ``game`` (``play_logged``) and analyse it (module doc)."""
    log = play_logged(name, seats, game, options)
    analyst = importlib.import_module(f"games.{name}.analysis").ANALYST
    found = analyse(log, analyst)
    ratings = [row["average_loss"] for row in found["summary"]]
    return Trial(game % seats, ratings, list(found["scores"]), markets(log))


@dataclass(frozen=True)
class Summary:
    """Trials added up (module doc); a mean is ``None`` when nothing was rated."""

    games: int
    strong_rating: float | None
    normal_rating: float | None
    winner_share: float | None
    judged: int
    markets: int
    trades_per_market: float | None
    markets_with_trades: float | None


def _mean(values: list[float]) -> float | None:
    return statistics.fmean(values) if values else None


def summary(trials: list[Trial]) -> Summary:
    strong = [t.ratings[t.strong] for t in trials if t.ratings[t.strong] is not None]
    normal = [r for t in trials for s, r in enumerate(t.ratings) if s != t.strong and r is not None]
    verdicts = [v for t in trials if (v := t.winner_rated_as_well()) is not None]
    held = [n for t in trials for n in t.markets]
    return Summary(
        games=len(trials),
        strong_rating=_mean([float(r) for r in strong if r is not None]),
        normal_rating=_mean([float(r) for r in normal if r is not None]),
        winner_share=_mean([float(v) for v in verdicts]),
        judged=len(verdicts),
        markets=len(held),
        trades_per_market=_mean([float(n) for n in held]),
        markets_with_trades=_mean([float(n > 0) for n in held]),
    )
