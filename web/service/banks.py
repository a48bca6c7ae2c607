"""Time banks: how much time each seat has left in a real-time game (option ``time_bank_s``,
with ``increment_s``), from the log's times. Engines never know it (``games.turns``): it is the
service's data, stored with the game in each append (the ``banks`` column) and given in the
snapshot, and it is one pure fold over the log, so it is reckoned again from the record alone.

**The fold.** Its state (``Banks``) holds, per seat, the bank as of the last start of its clock
(``left``) and, for each clock that runs, when it started (``start``, on the service's clock).
A new game gives every seat the whole bank, and the clocks of the seats to act start at its
creation (``opening``). Each log entry then (``step``: its version, its time, the seat it moved
for, the clocks running after it, seat → the entry after which each started):

- every clock that ran before it and stops or starts again at it (its seat acted, is no longer
  to act, or the game entered a phase) is charged the time it ran: ``left - (time - start)``,
  never below 0;
- the seat the entry moved for gets ``increment_s`` more: after its own move, the bank less the
  time used plus the increment; after the table played for it (its time ran out), 0 plus the
  increment;
- the clocks that start at it start at its time; the others go on.

A ``{"type": "back"}`` is no move (no increment; the seat's clock, if it runs, starts again,
charged what it used). Charging every clock that stops, not only the mover's, keeps a seat from
saving time when another's move ends its turn (a simultaneous round closed by the last bid).

A seat's clock then runs out at ``start + left`` (an absent seat's at ``start``: its clock is
0 s): ``web.service.deadlines`` makes the deadlines of that; the service folds the entries of
each append onto the stored banks (``fold``: each entry carries the clocks that ran after it,
``ActionRecord.clocks``), and the same ``fold`` reckons a whole log from ``opening`` (a replay:
the tests hold the stored banks to it).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from games.turns import BACK, TURN_TIMEOUT
from web.storage import ActionRecord, GameRecord


@dataclass(frozen=True)
class Banks:
    """Each seat's bank as of its clock's last start (``left``, seconds), for the clocks that
    run when each started (``start``), and when the game's clocks first started (``opened``:
    its creation; the log's entries have their times, entry 0 has none), all on the service's
    clock."""

    left: dict[int, float]
    start: dict[int, float] = field(default_factory=dict)
    opened: float = 0.0

    def to_json(self) -> dict[str, Any]:
        """As stored (the ``banks`` column): JSON with the seats as strings."""
        return {
            "left": {str(s): t for s, t in sorted(self.left.items())},
            "start": {str(s): t for s, t in sorted(self.start.items())},
            "opened": self.opened,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Banks:
        return cls(
            {int(s): float(t) for s, t in data["left"].items()},
            {int(s): float(t) for s, t in data["start"].items()},
            float(data.get("opened", 0.0)),
        )

    def now(self, seat: int, now: float) -> float:
        """``seat``'s bank at ``now``: less what its running clock has used so far."""
        left = self.left.get(seat, 0.0)
        began = self.start.get(seat)
        return left if began is None else max(0.0, left - (now - began))


def opening(seats: int, bank: float, clocks: dict[int, int], created: float) -> Banks:
    """A new game's banks: every seat's whole ``bank``; the clocks that run (``clocks``, the
    state's ``turn_clocks``) start at its creation."""
    return Banks({s: float(bank) for s in range(seats)}, {s: created for s in clocks}, created)


def mover(seat: int | None, action: dict[str, Any]) -> tuple[int | None, bool]:
    """The seat a log entry moved for, and whether the table moved for it (its time ran out):
    ``(None, False)`` for the table's other entries and a seat's ``back``."""
    if seat is None:
        late = action.get("seat") if action.get("type") == TURN_TIMEOUT else None
        return (late, True) if isinstance(late, int) else (None, False)
    return (None, False) if action.get("type") == BACK else (seat, False)


def step(
    banks: Banks,
    increment: float,
    version: int,
    time: float,
    moved: tuple[int | None, bool],
    clocks: dict[int, int],
) -> Banks:
    """The banks after log entry ``version`` at ``time`` that moved for ``moved`` (``mover``),
    after which ``clocks`` run (seat → the entry after which each started; module doc)."""
    seat, by_table = moved
    left = dict(banks.left)
    start: dict[int, float] = {}
    for s, began in banks.start.items():
        since = clocks.get(s)
        if since is not None and since < version:  # runs on
            start[s] = began
            continue
        left[s] = max(0.0, left.get(s, 0.0) - (time - began))
        if s == seat:
            left[s] = (0.0 if by_table else left[s]) + increment
    for s in clocks:
        if s not in start:  # started at this entry (or, without a record of it, now)
            start[s] = time
    return Banks(left, start, banks.opened)


def fold(
    banks: Banks, increment: float, entries: Iterable[tuple[ActionRecord, dict[int, int]]]
) -> Banks:
    """``banks`` after log ``entries``, each with the clocks that ran after it: the service's
    append (from the stored banks; ``ActionRecord.clocks``, kept as it applied them) and a
    replay's whole log (from ``opening``; ``GameKind.turn_clocks`` after each) alike."""
    for e, clocks in entries:
        banks = step(banks, increment, e.version, e.time, mover(e.seat, e.action), clocks)
    return banks


def seat_banks(game: GameRecord, now: float) -> list[float | None]:
    """Each seat's bank at ``now`` (a running clock's less what it has used), for the snapshot;
    ``None`` for every seat of a game without banks."""
    if game.banks is None:
        return [None] * len(game.seats)
    banks = Banks.from_json(game.banks)
    return [banks.now(s.index, now) for s in game.seats]
