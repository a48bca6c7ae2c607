"""The determinized search every strong bot shares: candidates tried in worlds sampled from the
seat's view, each played out by the game's rollout policy and valued by its evaluation, the
budget spread by sequential halving and raced (a candidate clearly worse than the leader drops
out early), the bot's own default move kept unless another clearly beats it.

What a game supplies (``Problem``, built per decision by its strong module): the candidates,
its default move first; how to sample a world from the view (``sample``: a generator in, a
world out; it raises the game's ``Inconsistent`` when the view does not add up); and how a
candidate plays out in a world (``play``: apply it, roll out by the game's policy, evaluate:
one number, higher better for the seat). What it tunes (``Settings``): its kind's name (the key
of ``Thinking.rollouts``), its default budget, the margin a candidate must beat the default
by, and optionally a paired test (Isla Dorada's) and one round for all candidates instead of
halving.

**The budget** is a count of rollouts, never a clock (``budget``): the configured full count
(``Thinking.rollouts[kind]``, else the game's default) times ``Thinking.effort``, at least one
rollout per candidate (two with a paired test) so a low effort still searches; at the lowest
effort a game whose candidates cannot all get that much plays its default move (``spent`` 0).
The same view, generator and ``Thinking`` give the same move: every random draw comes from the
generator, every candidate still in the race gets the same next seeds (the same worlds), so
comparisons are paired and fair.

**Cheaper at the same strength.** Trials are spent in steps (``STEP`` seeds per candidate at a
time). After each step a candidate whose values trail the leader's, seed for seed on the same
worlds, by more than ``RACE_Z`` standard errors of that paired difference is dropped (after
at least ``RACE_MIN`` seeds); when one candidate is left the decision ends, its unspent budget
saved. A decision whose candidates are close spends the whole budget, as before; one whose
default is clearly best (most of them) spends a fraction. ``Decision.spent`` says how many
rollouts were played; ``observe`` (a callback a bench sets) hears of each decision.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Generic, TypeVar

from games.actions import Action
from games.thinking import DEFAULT as DEFAULT_THINKING
from games.thinking import Thinking

W = TypeVar("W")

#: Seeds given to every candidate still racing before the racing test runs again.
STEP = 4
#: A candidate trailing the leader by more than this many standard errors of the paired
#: difference drops out of the race ...
RACE_Z = 2.5
#: ... once both have been tried on at least this many of the same worlds.
RACE_MIN = 6


@dataclass(frozen=True)
class Settings:
    """A game's search settings. ``rollouts``: the full budget when the ``Thinking`` names no
    other (rollouts in all, or per candidate with ``per_candidate``); ``margin``: what another
    candidate's mean value must beat the default's by; ``z``: besides, by this many standard
    errors of the paired difference (``None``: no such test); ``halving``: sequential halving
    (else one round, every candidate the same seeds); ``inconsistent``: the error the game's
    sampler raises for a view that does not add up (the default move is then played)."""

    kind: str
    rollouts: int
    margin: float
    inconsistent: type[Exception]
    z: float | None = None
    halving: bool = True
    per_candidate: bool = False


@dataclass(frozen=True)
class Problem(Generic[W]):
    """One decision: ``moves`` (the default first), ``sample`` (a world from the view, by the
    generator given) and ``play`` (a candidate's value in a world, which it may change);
    ``copy``, when a world is cheaper to copy than to sample: each seed's world is sampled once
    and every candidate plays a copy of it."""

    moves: Sequence[Action]
    sample: Callable[[random.Random], W]
    play: Callable[[W, Action], float]
    copy: Callable[[W], W] | None = None


@dataclass
class Decision:
    """The move chosen (``index`` into the candidates) and the rollouts spent on it (of the
    ``budget`` granted)."""

    move: Action
    index: int = 0
    spent: int = 0
    budget: int = 0
    values: list[list[float]] = field(default_factory=list)


#: Told of every decision searched (its kind's name and ``Decision``): a bench counts budgets.
observe: Callable[[str, Decision], None] | None = None


class thinker:
    """A bot that searches: ``thinker(fn)`` with ``fn(view, legal, rng, thinking)``. Its
    ``thinks`` attribute tells whoever asks it to move (``GameKind.bot_action``) to hand it the
    ``Thinking`` budget; called without one (a tool, a test) it thinks at the defaults."""

    thinks = True

    def __init__(
        self, choose: Callable[[dict, list[Action], random.Random, Thinking], Action | None]
    ) -> None:
        self.choose = choose
        self.__doc__ = choose.__doc__
        self.__name__ = getattr(choose, "__name__", "bot")

    def __call__(
        self,
        view: dict,
        legal: list[Action],
        rng: random.Random,
        thinking: Thinking = DEFAULT_THINKING,
    ) -> Action | None:
        return self.choose(view, legal, rng, thinking)


def full_rollouts(settings: Settings, thinking: Thinking) -> int:
    """The kind's full budget: ``thinking``'s count for it, else the game's default."""
    return int(thinking.rollouts.get(settings.kind, settings.rollouts))


def budget(settings: Settings, thinking: Thinking, candidates: int) -> int:
    """The rollouts in all this decision may spend (module doc): the full budget times the
    effort, at least the least that searches (one per candidate, two with a paired test);
    0 when even that exceeds the full budget (the default move is played)."""
    full = full_rollouts(settings, thinking)
    if settings.per_candidate:
        full *= candidates
    least = candidates * (2 if settings.z is not None else 1)
    if full < least:
        return 0
    return max(least, round(full * thinking.effort))


def _paired(a: list[float], b: list[float]) -> tuple[float, float, int]:
    """The mean of ``a - b`` over their common seeds, its standard error and the count."""
    n = min(len(a), len(b))
    if n == 0:
        return 0.0, math.inf, 0
    diffs = [a[i] - b[i] for i in range(n)]
    mean = sum(diffs) / n
    if n < 2:
        return mean, math.inf, n
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    return mean, math.sqrt(var / n), n


def _mean(xs: list[float]) -> float:
    return sum(xs) / len(xs) if xs else -math.inf


class _Race(Generic[W]):
    """The trials of one decision: each candidate's values, seed by seed."""

    def __init__(self, problem: Problem[W], seeds: list[int], settings: Settings) -> None:
        self.problem = problem
        self.seeds = seeds
        self.settings = settings
        self.values: list[list[float]] = [[] for _ in problem.moves]
        self.spent = 0
        self.worlds: dict[int, W] = {}

    def world(self, k: int) -> W:
        """The world of seed ``k``: sampled, or a copy of the one sampled for it before."""
        copy = self.problem.copy
        if copy is None:
            return self.problem.sample(random.Random(self.seeds[k]))
        if k not in self.worlds:
            self.worlds[k] = self.problem.sample(random.Random(self.seeds[k]))
        return copy(self.worlds[k])

    def run(self, i: int, count: int) -> None:
        """Candidate ``i``'s next ``count`` seeds (the seeds the others got at those places)."""
        got = self.values[i]
        for k in range(len(got), min(len(got) + count, len(self.seeds))):
            got.append(self.problem.play(self.world(k), self.problem.moves[i]))
            self.spent += 1

    def race(self, alive: list[int]) -> list[int]:
        """``alive`` less the candidates clearly worse than the leader (module doc)."""
        leader = max(alive, key=lambda i: (_mean(self.values[i]), -i))
        kept = []
        for i in alive:
            mean, se, n = _paired(self.values[leader], self.values[i])
            if i == leader or n < RACE_MIN or mean <= RACE_Z * se:
                kept.append(i)
        return kept

    def round(self, alive: list[int], per: int) -> list[int]:
        """Give each candidate of ``alive`` ``per`` more seeds, in steps, racing after each."""
        target = {i: min(len(self.values[i]) + per, len(self.seeds)) for i in alive}
        while len(alive) > 1 and any(len(self.values[i]) < target[i] for i in alive):
            for i in alive:
                self.run(i, min(STEP, target[i] - len(self.values[i])))
            alive = self.race(alive)
        return alive

    def choice(self, alive: list[int]) -> int:
        """The candidate to play: the best mean left, unless the default beats it or it does
        not beat the default, over the same worlds, by ``margin`` (and ``z`` standard errors)."""
        best = max(alive, key=lambda i: (_mean(self.values[i]), -i))
        if best == 0:
            return 0
        mean, se, n = _paired(self.values[best], self.values[0])
        if n == 0:
            return best  # the default dropped out of the halving: clearly worse
        if mean <= self.settings.margin:
            return 0
        z = self.settings.z
        if z is not None and not (se == 0.0 or mean > z * se):
            return 0
        return best


def search(
    settings: Settings,
    problem: Problem[W],
    rng: random.Random,
    thinking: Thinking = DEFAULT_THINKING,
    granted: int | None = None,
) -> Decision:
    """The decision (module doc): ``granted`` rollouts (default ``budget``) over
    ``problem.moves`` in worlds seeded from ``rng``; the default move when there is no choice,
    no budget, or the view does not add up (``settings.inconsistent``)."""
    moves = problem.moves
    n = budget(settings, thinking, len(moves)) if granted is None else granted
    if len(moves) < 2 or n < len(moves):
        return Decision(dict(moves[0]))
    seeds = [rng.randrange(2**63) for _ in range(n)]
    race: _Race[W] = _Race(problem, seeds, settings)
    alive = list(range(len(moves)))
    try:
        if settings.halving:
            rounds = max(1, math.ceil(math.log2(len(moves))))
            planned, size = 0, len(moves)  # the schedule without racing: what racing saves
            for r in range(rounds):
                per = max(1, (n - planned) // (size * (rounds - r)))
                per = min(per, (n - planned) // size)  # never past the budget
                if per < 1:
                    break
                planned += per * size
                size = math.ceil(size / 2)
                alive = race.round(alive, per)
                if len(alive) == 1:
                    break
                alive.sort(key=lambda i: (-_mean(race.values[i]), i))
                alive = alive[: max(1, math.ceil(len(alive) / 2))]
        else:
            alive = race.round(alive, n // len(moves))
    except settings.inconsistent:
        return Decision(dict(moves[0]), spent=race.spent, budget=n)
    index = race.choice(alive)
    decision = Decision(dict(moves[index]), index, race.spent, n, race.values)
    if observe is not None:
        observe(settings.kind, decision)
    return decision


def mean_values(
    moves: Sequence[Action],
    rng: random.Random,
    each: int,
    value: Callable[[Action, random.Random], float],
    inconsistent: type[Exception],
) -> list[float] | None:
    """Every move's mean ``value(move, world)`` over the same ``each`` worlds, each a generator
    seeded from ``rng`` (``None``: a view the game's sampler cannot add up, ``inconsistent``
    raised): the comparison the reviews' analyses make."""
    seeds = [rng.randrange(2**63) for _ in range(each)]
    try:
        return [sum(value(move, random.Random(seed)) for seed in seeds) / each for move in moves]
    except inconsistent:
        return None


def win_share(final: Sequence[float], seat: int) -> float:
    """The seat's share of the win in final scores: 1 for the best, 1/k for a win shared by k
    seats, else 0 (a rollout's main value for the strong bots that play games to the end)."""
    best = max(final)
    return 1.0 / list(final).count(best) if final[seat] == best else 0.0


def lead(final: Sequence[float], seat: int) -> float:
    """The seat's score less the best other seat's."""
    return final[seat] - max(v for i, v in enumerate(final) if i != seat)


def thinking_from_environ(environ: Mapping[str, str] | None = None) -> Thinking:
    """A full-effort ``Thinking`` with the budgets the environment sets: the app's setting
    ``BOT_ROLLOUTS`` as ``web.config`` reads it (the ``<KIND>_STRONG_ROLLOUTS`` variables are
    declared there, once), for the command-line tools and benches, which have no app at hand.
    A bad value is refused (``web.config.ConfigError``, a ``ValueError``), never guessed."""
    from web.config import from_environment  # the settings' one reader, needed at the edge only

    return Thinking(rollouts=dict(from_environment("BOT_ROLLOUTS", environ)))
