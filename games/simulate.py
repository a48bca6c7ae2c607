"""Bot-versus-bot simulation for any registered game, through the generic engine interface only.

    python -m games.simulate KIND --games 5000 --seats 4 --bots LEVEL,random,random,random --seed 1

(each game's line-ups and figures are in its section of the README).

Each game gets its own seed (drawn from ``--seed``) and bots act through ``GameKind.bot_action``,
so they see only their seat's view. By default the bot line-up rotates one seat per game so that
every bot entry sits in every seat equally often (the first seat's advantage cancels out);
``--no-rotate`` keeps entry ``i`` in seat ``i``.

Reported per bot entry (``ev#0``, ``random#1``...) and per bot level:

- ``win share``: a win shared by ``k`` seats counts ``1/k`` (the shares of a game add up to 1), so
  equal bots score ``1/seats`` each; ``wins incl. ties``: any shared win counts as a whole win.
- mean score, mean actions per game and per entry, win share by seat position, and the averages
  of whatever ``GameKind.statistics(state)`` returns (numbers per game, per-seat lists per entry).
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from collections import defaultdict
from collections.abc import Callable
from typing import Any, TextIO

import progress
from errors import ProjectError
from games.base import GameKind, get_kind, kinds, play_bots
from games.search import thinking_from_environ
from games.thinking import DEFAULT as DEFAULT_THINKING
from games.thinking import Thinking


def _flatten(stats: dict, prefix: str = "") -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in stats.items():
        name = f"{prefix}{key}"
        if isinstance(value, dict):
            out.update(_flatten(value, name + "."))
        else:
            out[name] = value
    return out


def _number(value: Any) -> float | None:
    if isinstance(value, bool):
        return float(value)
    if isinstance(value, int | float) and math.isfinite(value):
        return float(value)
    return None


class _Tally:
    """What the games of a simulation add up to, per bot entry (one per seat), per seat
    position and per game."""

    def __init__(self, seats: int) -> None:
        self.seats = seats
        self.share = [0.0] * seats
        self.wins_any = [0] * seats
        self.score_sum = [0.0] * seats
        self.score_sq = [0.0] * seats
        self.actions_by_entry = [0] * seats
        self.seat_share = [0.0] * seats
        self.actions_total = 0
        self.game_stats: dict[str, float] = defaultdict(float)
        self.entry_stats: dict[str, list[float]] = defaultdict(lambda: [0.0] * seats)

    def add_game(
        self, kind: GameKind, state: Any, entry_of_seat: list[int], seat_actions: list[int]
    ) -> None:
        """A finished game: entry ``entry_of_seat[s]`` sat in seat ``s`` and acted
        ``seat_actions[s]`` times."""
        scores = kind.scores(state)
        if scores is None:
            raise RuntimeError(f"{kind.name}: play_bots returned before the game was over")
        winners = kind.winners(state)
        for s in range(self.seats):
            j = entry_of_seat[s]
            self.score_sum[j] += scores[s]
            self.score_sq[j] += scores[s] ** 2
            self.actions_by_entry[j] += seat_actions[s]
            if s in winners:
                self.share[j] += 1 / len(winners)
                self.wins_any[j] += 1
                self.seat_share[s] += 1 / len(winners)
        self._add_statistics(kind.statistics(state), entry_of_seat)

    def _add_statistics(self, stats: dict, entry_of_seat: list[int]) -> None:
        """The game's own figures: a per-seat list goes to the entries, a number to the game."""
        for key, value in _flatten(stats).items():
            if isinstance(value, list | tuple) and len(value) == self.seats:
                for s, v in enumerate(value):
                    number = _number(v)
                    if number is not None:
                        self.entry_stats[key][entry_of_seat[s]] += number
            else:
                number = _number(value)
                if number is not None:
                    self.game_stats[key] += number

    def entries(self, bots: list[str], games: int) -> list[dict[str, Any]]:
        """Each bot entry's figures, averaged over ``games``."""
        out: list[dict[str, Any]] = []
        for j, level in enumerate(bots):
            mean = self.score_sum[j] / games
            var = max(self.score_sq[j] / games - mean**2, 0.0)
            p = self.share[j] / games
            out.append(
                {
                    "entry": f"{level}#{j}",
                    "bot": level,
                    "win_share": p,
                    "win_share_ci95": 1.96 * math.sqrt(p * (1 - p) / games),
                    "wins_incl_ties": self.wins_any[j] / games,
                    "mean_score": mean,
                    "score_sd": math.sqrt(var),
                    "mean_actions": self.actions_by_entry[j] / games,
                    "statistics": {k: v[j] / games for k, v in sorted(self.entry_stats.items())},
                }
            )
        return out


def _line_up(kind: GameKind, games: int, seats: int, bots: list[str]) -> list[str]:
    """One bot level per seat (a single level fills every seat); bad arguments refused."""
    kind.check_seats(seats)
    if len(bots) == 1:
        bots = bots * seats
    if len(bots) != seats:
        raise ValueError(f"{len(bots)} bots for {seats} seats")
    unknown = [b for b in bots if b not in kind.bots]
    if unknown:
        raise ValueError(
            f"unknown bot {unknown[0]!r} for {kind.name} (known: {', '.join(sorted(kind.bots))})"
        )
    if games < 1:
        raise ValueError("games must be at least 1")
    return bots


def simulate(
    kind: GameKind,
    games: int,
    seats: int,
    bots: list[str],
    seed: int = 1,
    options: dict | None = None,
    rotate: bool = True,
    progress: Callable[[int, int], None] | None = None,
    thinking: Thinking = DEFAULT_THINKING,
) -> dict:
    """Play ``games`` games of ``kind`` between ``bots`` (one level per seat) and summarize them;
    the bots that search spend ``thinking`` (``games.thinking``)."""
    bots = _line_up(kind, games, seats, bots)
    kind.resolve_options(options, seats)  # refuse bad options before playing

    master = random.Random(seed)
    tally = _Tally(seats)
    start = time.perf_counter()

    for g in range(games):
        shift = g % seats if rotate else 0
        # Entry j sits in seat (j + shift) % seats.
        entry_of_seat = [(s - shift) % seats for s in range(seats)]
        levels = [bots[entry_of_seat[s]] for s in range(seats)]
        state = kind.new_state(master.randrange(2**31), seats, options)
        rng = random.Random(master.randrange(2**63))
        per_seat_actions = [0] * seats

        def count(
            seat: int | None, action: Any, events: Any, tally: list[int] = per_seat_actions
        ) -> None:
            if seat is not None:  # the table's timeouts count for the game, not for a seat
                tally[seat] += 1

        tally.actions_total += play_bots(
            kind, state, levels, rng, on_action=count, thinking=thinking
        )
        tally.add_game(kind, state, entry_of_seat, per_seat_actions)
        if progress is not None:
            progress(g + 1, games)

    elapsed = time.perf_counter() - start
    entries = tally.entries(bots, games)
    by_bot: dict[str, dict] = {}
    for level in dict.fromkeys(bots):
        mine = [e for e in entries if e["bot"] == level]
        by_bot[level] = {
            "entries": len(mine),
            "win_share_per_entry": sum(e["win_share"] for e in mine) / len(mine),
            "mean_score": sum(e["mean_score"] for e in mine) / len(mine),
        }
    return {
        "game": kind.name,
        "games": games,
        "seats": seats,
        "bots": list(bots),
        "seed": seed,
        "options": kind.resolve_options(options, seats),
        "rotate": rotate,
        "fair_share": 1 / seats,
        "entries": entries,
        "by_bot": by_bot,
        "win_share_by_seat": [v / games for v in tally.seat_share],
        "mean_actions": tally.actions_total / games,
        "statistics": {k: v / games for k, v in sorted(tally.game_stats.items())},
        "seconds": elapsed,
        "games_per_second": games / elapsed if elapsed else float("inf"),
    }


def format_report(result: dict) -> str:
    """The human-readable summary printed by the command line."""
    lines = [
        f"{result['game']}: {result['games']} games, {result['seats']} seats, seed {result['seed']}, "
        f"bots {','.join(result['bots'])}, seats {'rotated' if result['rotate'] else 'fixed'}",
        f"options: {json.dumps(result['options'], ensure_ascii=False)}",
        f"win share: a win shared by k seats counts 1/k (equal bots: {result['fair_share']:.3f} each); "
        "'incl. ties' counts shared wins whole",
        "",
        f"{'entry':<14}{'win share':>16}{'incl. ties':>12}{'mean score':>12}{'sd':>8}{'actions':>9}",
    ]
    for e in result["entries"]:
        lines.append(
            f"{e['entry']:<14}{e['win_share']:>9.3f} ±{e['win_share_ci95']:.3f}{e['wins_incl_ties']:>12.3f}"
            f"{e['mean_score']:>12.2f}{e['score_sd']:>8.2f}{e['mean_actions']:>9.1f}"
        )
    if len(result["by_bot"]) < len(result["entries"]):
        lines.append("")
        for level, b in result["by_bot"].items():
            lines.append(
                f"{level:<14} per entry: win share {b['win_share_per_entry']:.3f}, "
                f"mean score {b['mean_score']:.2f} ({b['entries']} entries)"
            )
    lines.append("")
    lines.append(
        "win share by seat: "
        + ", ".join(f"{s}: {v:.3f}" for s, v in enumerate(result["win_share_by_seat"]))
    )
    lines.append(f"mean actions per game: {result['mean_actions']:.1f}")
    if result["statistics"]:
        lines.append(
            "per game: " + ", ".join(f"{k} {v:.3g}" for k, v in result["statistics"].items())
        )
    per_entry = sorted({k for e in result["entries"] for k in e["statistics"]})
    for key in per_entry:
        lines.append(
            f"{key} per game: "
            + ", ".join(f"{e['entry']} {e['statistics'][key]:.3g}" for e in result["entries"])
        )
    lines.append(f"{result['seconds']:.1f} s, {result['games_per_second']:,.0f} games/s")
    return "\n".join(lines)


def _option(text: str) -> tuple[str, Any]:
    if "=" not in text:
        raise argparse.ArgumentTypeError(f"expected key=value, got {text!r}")
    key, raw = text.split("=", 1)
    try:
        value = json.loads(raw)
    except json.JSONDecodeError:
        value = raw
    return key, value


def main(
    argv: list[str] | None = None, out: TextIO | None = None, err: TextIO | None = None
) -> int:
    """The command line; returns the exit status (2 for bad arguments)."""
    out = sys.stdout if out is None else out
    err = sys.stderr if err is None else err
    parser = argparse.ArgumentParser(
        prog="python -m games.simulate", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("game", help=f"a registered game kind: {', '.join(kinds())}")
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument(
        "--seats", type=int, default=None, help="default: the number of --bots, else the minimum"
    )
    parser.add_argument(
        "--bots", default="random", help="comma-separated bot levels, one per seat (or one for all)"
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--option", type=_option, action="append", default=[], metavar="KEY=VALUE")
    parser.add_argument("--no-rotate", action="store_true", help="keep bot i in seat i")
    parser.add_argument("--json", action="store_true", help="print the summary as JSON")
    parser.add_argument(
        "--quiet",
        action="store_true",
        help="no progress bar (it shows on a terminal's stderr when a run takes over a second)",
    )
    args = parser.parse_args(argv)
    step = progress.bar(args.games, "games", quiet=args.quiet, stream=err)
    try:
        kind = get_kind(args.game)
        bots = [b.strip() for b in args.bots.split(",") if b.strip()]
        seats = args.seats or (len(bots) if len(bots) > 1 else kind.type.min_seats)
        result = simulate(
            kind,
            args.games,
            seats,
            bots,
            seed=args.seed,
            options=dict(args.option),
            rotate=not args.no_rotate,
            thinking=thinking_from_environ(),  # the *_STRONG_ROLLOUTS variables, read here
            progress=step,
        )
    except (ProjectError, ValueError) as e:
        step.close()
        field = getattr(e, "field", None)
        err.write(f"error: {e}" + (f" ({field})" if field else "") + "\n")
        return 2
    step.close()
    out.write(
        (json.dumps(result, indent=2, ensure_ascii=False) if args.json else format_report(result))
        + "\n"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
