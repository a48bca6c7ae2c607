"""What every bench shares: interleaved rounds, figures with their median and range and target,
and the file ``bench/run.py`` (``make bench``) collects them from.

A bench measures each of its figures once per round, all figures in turn, for ``--rounds``
rounds (at least ``MIN_ROUNDS``): whatever else the machine runs meanwhile weighs on every
figure alike, and each figure is printed as the median of its rounds with their range. A ratio
against a baseline is taken per round (both measured in that round) and its median printed.

``Figure`` is one row: a stable key (``solver.solve_cpu_ratio``), what it is in words, the
values of the rounds, the unit, and optionally a target (``(">=", 0.9)``). ``report`` prints a
bench's rows and, with ``--json PATH``, writes them for ``bench/run.py``. ``--quick`` asks each
bench for a tiny configuration (the tests' run: it checks that the bench works; its figures
mean little).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from games.base import Bot, GameKind
    from web.storage.sqlite import SqliteStore

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

#: Rounds of every figure in a full run (``--quick`` may use fewer).
MIN_ROUNDS = 5
QUICK_ROUNDS = 2
#: The CPU seconds per figure and round of an engine bench's ``--quick`` run.
QUICK_SECONDS = 0.05

#: A target: an operator and a threshold (``(">=", 0.9)``, ``("<=", 4.0)``).
Target = tuple[str, float]
_OPS: dict[str, Callable[[float, float], bool]] = {
    ">=": lambda v, t: v >= t,
    "<=": lambda v, t: v <= t,
}
_SHOWN = {">=": "≥", "<=": "≤"}


@dataclass
class Figure:
    """One measured figure: ``values`` holds one value per round."""

    key: str
    label: str
    values: list[float]
    unit: str
    target: Target | None = None
    #: Said beside the figure (the baseline it is a ratio to, a count, a caveat).
    note: str = ""
    #: Extra facts for results.json (counts, the configuration).
    extra: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not self.values:
            raise ValueError(f"figure {self.key} has no values")
        if self.target is not None and self.target[0] not in _OPS:
            raise ValueError(f"figure {self.key}: unknown target operator {self.target[0]!r}")

    @property
    def median(self) -> float:
        return statistics.median(self.values)

    @property
    def low(self) -> float:
        return min(self.values)

    @property
    def high(self) -> float:
        return max(self.values)

    @property
    def passed(self) -> bool | None:
        """Whether the median meets the target (None: no target)."""
        if self.target is None:
            return None
        op, threshold = self.target
        return _OPS[op](self.median, threshold)

    def as_json(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "label": self.label,
            "unit": self.unit,
            "median": self.median,
            "low": self.low,
            "high": self.high,
            "rounds": self.values,
            "target": list(self.target) if self.target else None,
            "pass": self.passed,
            "note": self.note,
            **({"extra": self.extra} if self.extra else {}),
        }


def number(value: float) -> str:
    """A figure's value with about three significant digits (``1,234``, ``12.3``, ``0.912``)."""
    a = abs(value)
    if a >= 1000:
        return f"{value:,.0f}"
    if a >= 100:
        return f"{value:.0f}"
    if a >= 10:
        return f"{value:.1f}"
    if a >= 1:
        return f"{value:.2f}"
    return f"{value:.3f}"


def target_text(target: Target | list | None, unit: str = "") -> str:
    if not target:
        return ""
    op, threshold = target
    return f"{_SHOWN[op]} {number(threshold)}{(' ' + unit) if unit else ''}".rstrip()


def verdict(passed: bool | None) -> str:
    return {True: "pass", False: "FAIL", None: ""}[passed]


def row(fig: Figure) -> str:
    """A figure as one printed line: median, range, target and verdict."""
    spread = f"[{number(fig.low)} – {number(fig.high)}]"
    target = target_text(fig.target, fig.unit)
    tail = f"  target {target} {verdict(fig.passed)}" if target else ""
    note = f"  ({fig.note})" if fig.note else ""
    return f"  {fig.label:<58} {number(fig.median):>9} {fig.unit:<6} {spread:<21}{tail}{note}"


def quantile(values: Iterable[float], q: float) -> float:
    """The ``q`` quantile of ``values`` (``0.99``: the p99), the nearest rank below: the value at
    ``int(q * n)`` of the ``n`` sorted (the last at most); NaN when there are none."""
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def interleaved(rounds: int, measures: dict[str, Callable[[], float]]) -> dict[str, list[float]]:
    """Call every measure once per round, in turn, for ``rounds`` rounds: each one's values."""
    out: dict[str, list[float]] = {name: [] for name in measures}
    for _ in range(rounds):
        for name, measure in measures.items():
            out[name].append(measure())
    return out


def ratios(values: Sequence[float], baseline: Sequence[float]) -> list[float]:
    """Per-round ratios ``values[r] / baseline[r]``."""
    return [v / b for v, b in zip(values, baseline, strict=True)]


def median_ratio(values: Sequence[float], baseline: Sequence[float]) -> float:
    """The median of the per-round ratios ``values[r] / baseline[r]`` (for a figure's note)."""
    return statistics.median(ratios(values, baseline))


def ratio(
    key: str, label: str, values: Sequence[float], baseline: Sequence[float], **more: Any
) -> Figure:
    """A figure of per-round ratios ``values[r] / baseline[r]`` (unit ``x``; ``more``: the
    figure's ``target``, ``note``, ``extra``)."""
    return Figure(key, label, ratios(values, baseline), "x", **more)


def cpu_median(fn: Callable[[Any], Any], items: Sequence[Any], repeat: int = 1) -> float:
    """The median over ``items`` of one call's CPU time (this process's, in seconds; the mean of
    ``repeat`` calls of ``fn(item)``)."""
    times = []
    for item in items:
        t = time.process_time()
        for _ in range(repeat):
            fn(item)
        times.append((time.process_time() - t) / repeat)
    return statistics.median(times)


def per_second(fn: Callable[[int], Any], seconds: float) -> Callable[[], float]:
    """A measure: calls of ``fn(i)`` per second of this process's CPU time, for about
    ``seconds`` of it (``i`` counts on across rounds, so each round sees new inputs)."""
    counter = [0]

    def measure() -> float:
        start = time.process_time()
        n = 0
        while True:
            fn(counter[0])
            counter[0] += 1
            n += 1
            elapsed = time.process_time() - start
            if elapsed >= seconds:
                return n / elapsed

    return measure


def play_out(
    kind: GameKind,
    state: Any,
    bot: Bot,
    rng: random.Random,
    before: Callable[[Any, int], Any] | None = None,
) -> int:
    """Play ``state`` to its end through the kind's interface alone: the first seat to act plays
    ``bot``'s choice from its legal actions, with no view built (a ``legal_only`` bot's way);
    ``before(state, seat)`` runs before each action. Returns the number of actions."""
    n = 0
    while not kind.is_over(state):
        seat = kind.to_act(state)[0]
        if before is not None:
            before(state, seat)
        action = bot({}, kind.legal_actions(state, seat), rng)
        kind.apply(state, seat, action)
        n += 1
    return n


class PlayedOut:
    """A measure's step: game ``i`` (its seed) of ``seats`` played out by ``bot`` at every seat
    (``play_out``), counting the games and their actions."""

    def __init__(self, kind: GameKind, seats: int, bot: Bot, rng: random.Random) -> None:
        self.kind, self.seats, self.bot, self.rng = kind, seats, bot, rng
        self.games = self.actions = 0

    def __call__(self, i: int) -> None:
        self.actions += play_out(self.kind, self.kind.new_state(i, self.seats), self.bot, self.rng)
        self.games += 1

    @property
    def per_game(self) -> float:
        """Actions per game played so far."""
        return self.actions / self.games


@dataclass
class EngineBench:
    """An engine bench's run (``engine_start``): its name (its figures' keys start with it), its
    game's title, its command line and its engine loop's step."""

    name: str
    title: str
    args: argparse.Namespace
    game: PlayedOut

    @property
    def seats(self) -> int:
        return int(self.args.seats)

    @property
    def seconds(self) -> float:
        """The CPU seconds per figure and round (``cpu_seconds``)."""
        return cpu_seconds(self.args)

    @property
    def rng(self) -> random.Random:
        """The engine loop's generator, which the bench's other steps share."""
        return self.game.rng

    def rounds(
        self, baseline: Callable[[int], Any], **more: Callable[[int], Any]
    ) -> dict[str, list[float]]:
        """Calls per CPU second (``per_second``) of the engine loop (``"engine"``), of
        ``baseline`` (``"baseline"``) and of each of ``more`` (by its name), in ``args.rounds``
        interleaved rounds, in that order: each one's values."""
        steps: dict[str, Callable[[int], Any]] = {
            "engine": self.game,
            "baseline": baseline,
            **more,
        }
        return interleaved(
            self.args.rounds, {name: per_second(step, self.seconds) for name, step in steps.items()}
        )

    def loop_figures(
        self,
        got: dict[str, list[float]],
        target: float,
        deal: str,
        per_game: str = ".1f",
        **deal_more: Any,
    ) -> list[Figure]:
        """The first two figures of ``rounds``' values ``got``: random-bot games a second
        through the engine loop (``target`` the least) and the cost of an engine game in
        ``baseline``'s steps (``deal``: that ratio's label; ``deal_more``: its note)."""
        return [
            Figure(
                f"{self.name}.engine_games_per_s",
                f"{self.title} random-bot games/s, engine loop",
                got["engine"],
                "games/s",
                (">=", target),
                note=f"{self.game.per_game:{per_game}} actions/game",
            ),
            ratio(f"{self.name}.engine_vs_deal", deal, got["baseline"], got["engine"], **deal_more),
        ]

    def report(self, figures: list[Figure]) -> None:
        """``report`` of the bench's ``figures``, with its seats among the facts."""
        report(self.name, figures, self.args, seats=self.seats)


def engine_start(doc: str | None, kind: GameKind, title: str, bot: Bot) -> EngineBench:
    """The engine bench of ``kind`` (named by it; ``title``: the game in words): its command
    line (``engine_parser``, four seats by default) and its engine loop's step: ``bot`` at every
    seat, on a ``random.Random(1)`` (``EngineBench.rng``)."""
    args = parse(engine_parser(doc, seats=4))
    return EngineBench(kind.name, title, args, PlayedOut(kind, args.seats, bot, random.Random(1)))


def sample_positions(
    kind: GameKind,
    seeds: Iterable[int],
    seats: int,
    bot: Bot,
    rng: random.Random,
    keep: Callable[[int, int], bool] = lambda seed, taken: True,
) -> list[tuple[Any, int]]:
    """Positions to decide in: ``(state, seat to act)`` at the decision points of one game per
    seed played out by ``bot`` (each state a copy, through its snapshot) where ``keep(seed,
    positions taken so far)`` says so."""
    out: list[tuple[Any, int]] = []
    for seed in seeds:

        def take(state: Any, seat: int, seed: int = seed) -> None:
            if keep(seed, len(out)):
                out.append((kind.state_from_json(kind.state_to_json(state)), seat))

        play_out(kind, kind.new_state(seed, seats), bot, rng, take)
    return out


@contextlib.contextmanager
def sqlite_store(name: str) -> Iterator[tuple[Path, SqliteStore]]:
    """A SQLite store ``<name>.sqlite3`` in a temporary directory (a bench's database, which it
    fills in process and a server then serves): its path and the store, closed and removed
    after."""
    from web.storage.sqlite import SqliteStore  # (the other benches need no store)

    with tempfile.TemporaryDirectory() as tmp:
        database = Path(tmp) / f"{name}.sqlite3"
        store = SqliteStore(str(database))
        try:
            yield database, store
        finally:
            store.close()


def parser(doc: str | None) -> argparse.ArgumentParser:
    """An argument parser with the options every bench takes (``--rounds``, ``--quick``,
    ``--json``); its description is the first line of ``doc``."""
    ap = argparse.ArgumentParser(description=(doc or "").strip().split("\n")[0])
    ap.add_argument("--rounds", type=int, default=None, help=f"rounds (default {MIN_ROUNDS})")
    ap.add_argument("--quick", action="store_true", help="a tiny run: checks the bench works")
    ap.add_argument("--json", type=Path, default=None, help="write the figures to this file")
    return ap


def parse_options(
    doc: str | None, options: dict[str, tuple[Any, str | None]], quick: dict[str, Any]
) -> argparse.Namespace:
    """``parse`` of ``parser(doc)`` with a bench's own options: ``--<name>`` (``_`` written
    ``-``) for each of ``options``, its default (whose type is the option's; ``False``: a flag)
    and its help; in a quick run the values of ``quick`` replace theirs."""
    ap = parser(doc)
    for name, (default, help_) in options.items():
        flag = "--" + name.replace("_", "-")
        if default is False:
            ap.add_argument(flag, action="store_true", help=help_)
        else:
            ap.add_argument(flag, type=type(default), default=default, help=help_)
    args = parse(ap)
    if args.quick:
        for name, value in quick.items():
            setattr(args, name, value)
    return args


def engine_parser(doc: str | None, seats: int) -> argparse.ArgumentParser:
    """``parser`` with an engine bench's options: ``--seats`` (default ``seats``) and
    ``--seconds``, the CPU seconds per figure and round (``cpu_seconds``)."""
    ap = parser(doc)
    ap.add_argument("--seats", type=int, default=seats)
    ap.add_argument("--seconds", type=float, default=0.5, help="CPU seconds per figure and round")
    return ap


def games_parser(doc: str | None, games: int, rows: Iterable[str]) -> argparse.ArgumentParser:
    """``parser`` with the options of a bench that plays whole games in worker processes:
    ``--games`` per row (default ``games``), ``--jobs`` (processes), ``--only`` (rows of
    ``rows``, repeated) and ``--merge`` (write the rows run into ``bench/results.json``). Parse
    it with ``parse_games``."""
    ap = parser(doc)
    ap.add_argument("--games", type=int, default=games, help="games per row")
    ap.add_argument("--jobs", type=int, default=min(2, os.cpu_count() or 1))
    ap.add_argument("--only", choices=sorted(rows), action="append")
    ap.add_argument("--merge", action="store_true", help="write these rows into bench/results.json")
    return ap


def parse_games(ap: argparse.ArgumentParser) -> argparse.Namespace:
    """``parse`` for a ``games_parser``: a quick run plays one game per row and round."""
    args = parse(ap)
    if args.quick:
        args.games = args.rounds
    return args


def games_rounds(
    a: argparse.Namespace,
    names: Sequence[str],
    play: Callable[[Any], Any],
    work: Callable[[str, list[int]], Any],
) -> Iterator[tuple[str, list[Any], int]]:
    """The loop of a bench that plays whole games (``games_parser``'s ``a``): ``a.games`` games
    of each row of ``names``, in ``a.rounds`` interleaved rounds (game ``g`` in round ``g %
    rounds``, whatever ``--jobs``), each round's games of a row dealt out to ``a.jobs`` worker
    processes (``chunks``), each calling ``play(work(name, its numbers))``. Yields each row's
    round: the row's name, its workers' results and its games; prints each round's end."""
    start = time.perf_counter()
    with ProcessPoolExecutor(max_workers=a.jobs) as pool:
        for r in range(a.rounds):
            for name in names:
                numbers = list(range(a.games))[r :: a.rounds]
                parts = list(pool.map(play, [work(name, c) for c in chunks(numbers, a.jobs)]))
                yield name, parts, len(numbers)
            print(f"round {r + 1} of {a.rounds}: {time.perf_counter() - start:.0f} s", flush=True)


def chunks(numbers: list[int], jobs: int) -> list[list[int]]:
    """``numbers`` dealt out to at most ``jobs`` workers (none empty)."""
    return [numbers[i::jobs] for i in range(jobs) if numbers[i::jobs]]


def cpu_seconds(args: argparse.Namespace) -> float:
    """An engine bench's CPU seconds per figure and round: ``--seconds``, or in a quick run
    ``QUICK_SECONDS``."""
    return QUICK_SECONDS if args.quick else float(args.seconds)


def parse(ap: argparse.ArgumentParser) -> argparse.Namespace:
    """Parse the command line; ``rounds`` is filled in (at least ``MIN_ROUNDS`` unless quick)."""
    args = ap.parse_args()
    if args.rounds is None:
        args.rounds = QUICK_ROUNDS if args.quick else MIN_ROUNDS
    if args.rounds < (1 if args.quick else MIN_ROUNDS):
        ap.error(f"--rounds must be at least {MIN_ROUNDS} (or use --quick)")
    return args


def report(bench: str, figures: list[Figure], args: argparse.Namespace, **facts: Any) -> None:
    """Print ``figures`` (median, range, target) and write them to ``args.json`` if given."""
    print(f"{bench}: medians of {args.rounds} interleaved rounds [range]")
    for fig in figures:
        print(row(fig))
    if args.json is not None:
        data = {
            "bench": bench,
            "rounds": args.rounds,
            "quick": args.quick,
            "load_average": list(os.getloadavg()),
            "facts": facts,
            "figures": [f.as_json() for f in figures],
        }
        args.json.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n")
