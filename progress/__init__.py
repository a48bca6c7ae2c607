"""The command lines' progress bar: tqdm on standard error, only where a person watches.

``bar(total, what)`` returns a callback ``step(done, total)`` for long runs (``python -m
games.simulate … --games 5000``, ``python -m solver puzzles --count 500``). The bar is drawn by
tqdm (pinned in requirements.txt) on ``stream`` (standard error) only when that stream is a
terminal and the run has lasted more than ``DELAY`` seconds (tqdm's ``delay``: a quick run shows
nothing), and never with ``quiet`` (``--quiet``). Standard output keeps only the results, so
pipes and files get clean text.
"""

from __future__ import annotations

import sys
from typing import Any, Protocol, TextIO

#: Seconds a run lasts before its bar appears.
DELAY = 1.0


class Step(Protocol):
    """What ``bar`` returns: ``step(done, total)`` after each item, ``step.close()`` at the end."""

    def __call__(self, done: int, total: int) -> None: ...

    def close(self) -> None: ...


def bar(total: int, what: str, quiet: bool = False, stream: TextIO | None = None) -> Step:
    """A bar of ``total`` ``what`` ("games", "puzzles"); a no-op when it is off."""
    stream = sys.stderr if stream is None else stream
    isatty = getattr(stream, "isatty", None)
    if quiet or not (callable(isatty) and isatty()):
        return _Off()
    from tqdm import tqdm

    return _On(tqdm(total=total, unit=f" {what}", file=stream, delay=DELAY, dynamic_ncols=True))


class _Off:
    def __call__(self, done: int, total: int) -> None:
        pass

    def close(self) -> None:
        pass


class _On:
    def __init__(self, meter: Any) -> None:
        self.meter = meter

    def __call__(self, done: int, total: int) -> None:
        self.meter.update(done - self.meter.n)
        if done >= total:
            self.close()

    def close(self) -> None:
        self.meter.close()
