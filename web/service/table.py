"""The table: what moves a game when no player does. Deadlines that pass (the timer's action as
a system entry) and bots (their moves, thought off every request path), played by a runner.

**Bots are due, like deadlines.** Every write that leaves a bot seat among those to act stores
``bot_due`` (the time it became due) with the game, so any process's runner finds it
(``GameStore.bots_due``). ``play_bots`` takes the game for a lease (``bot_due`` moves to the
lease's end, in a short write transaction that checks the version), thinks, and appends the
bots' moves by the sessions' optimistic write, whose transaction checks the version again:
runners on every worker and every server may race for a move, exactly one appends it, and a
runner that dies while thinking loses nothing: its lease runs out and another takes the game
and, the bots being seeded from the game's seed and the move's version, plays the same move.
One write holds the moves of up to ``BATCH_S`` seconds of thinking (at least one move), so a
table of fast bots is not one transaction a move, and a slow bot's move appears as soon as it
is made. A bot with nothing to say (a timed phase it waits out) clears the mark; the next write
sets it again. A bot that fails (``web.service.moves.BotFailed``, or a refusal such as a full
log) is logged with its traceback and marked on the game (``bot_failed``: the page says so);
its game waits, and is tried again after ``RETRY_S`` (a fixed bot, after a deploy, plays on).
A game stored under earlier rules (``rules_changed``, ``web.service.replay``) is no bot's
failure: the sessions drop its bot mark and deadline, and no runner tries it again.
Tests run the bots explicitly (``play_due_bots``), and there a failing bot raises: a test
failure, not a log line.

**Where the runner runs.** ``TableRunner`` is a thread (a *thinker*) that settles due
deadlines and plays due bots (``BOTS_PER_TICK_S`` of them a look, then the deadlines again: the
clocks that ran out meanwhile are not kept waiting behind a long queue of bots), and runs the
sessions' chores (``GameSessions.chores``), each every so many seconds. It looks every ``tick``
seconds, and at once when woken: by its own process's write that left a bot due (``nudge``),
or by any process of its server through the server's bell (``web.service.bell``: one ring wakes
one idle thinker, so an HTTP worker's write never waits for a tick).
Under gunicorn the thinkers run in processes of their own, never in the gevent HTTP workers
(a bot's Python would hold up their event loop): ``web.table_app.TableApp``, gunicorn's dirty
workers, as many as the machine has cores by default (``gunicorn.conf.py``); a server may run
thinkers alone (``python -m web.thinkers``: more machines for the bots of one PostgreSQL).
Elsewhere (``python app.py``, the browser tests' threaded server) it runs in the app's process;
under ``TESTING`` it is off and tests call ``play_due_bots``.

**Many thinkers, one queue.** Every thinker reads the due bots oldest first
(``GameStore.bots_due``) and takes each game by its lease before thinking: a game one thinker
took is no longer due for the others, which go on to the next, so several thinkers never all
think about the same oldest game, and no table starves (a game's wait only grows until it is the
oldest). A thinker that played a table's bots plays its next due bot at once (up to
``REPLY_WRITES`` writes): a player's reply is every bot's move after theirs, and so waits in
the queue once, not once a bot. **Graceful under load, looking ahead:** a decision is granted
``effort_for(...)`` of a strong bot's budget (``games.thinking.Thinking.effort``) from the queue
it leaves behind: the thinker taking a bot knows how many others are due (``bots_due``, counted
afresh before each game: ``ahead``), how many thinkers share them (``TableRunner.thinkers``: the
server's table processes) and how long a full-effort reply of that kind's bots takes (``Pace``:
moving averages of the bot writes this runner timed and of the writes a reply took); it grants
the effort with which this reply and its share of the queue fit in ``REPLY_BUDGET_S``, 1 when
nothing else is due, never below ``MIN_EFFORT``: the budget shrinks as the queue builds, before
the bots wait, and grows back as it clears. A bot that waited longer than ``SHRINK_AFTER_S``
anyway (a queue this count missed: another server's) is granted at most ``SHRINK_AFTER_S /
waited``. The budgets at full effort are the app's (``BOT_ROLLOUTS``,
``GameSessions.thinking``). Each write's waited time, effort, moves and thinking CPU are
appended, one JSON line, to the sessions' ``decisions_log`` when it is set (the app's
``DECISIONS_LOG``; the bench reads it: ``bench/bot_tables_bench.py``). A runner takes a game
for the sessions' ``lease_s`` (``BOT_LEASE_S``).

**The runner proves its progress.** Its loop beats (``TableRunner.beat``, monotonic seconds)
at every tick and after every game it settled or played and every chore, and tells ``on_beat``
of it at most every ``BEAT_S``: the table's process (``table_app.py``) makes that gunicorn's
heartbeat, so a process whose runner hangs (a bot in an endless loop, a store call that never
returns) is replaced even though its other threads are alive.

**A table that is behind.** ``owed(game)`` is when the table must act next by itself (the
deadline, or the due bot's move: a lease's end while a runner thinks), ``behind(game, now)``
how late it is once that is more than ``BEHIND_S`` ago: a game page says so.
"""

from __future__ import annotations

import json
import logging
import os
import select
import threading
import time
import weakref
from collections.abc import Callable
from typing import Any, Protocol

from errors import DatabaseUnavailable, IllegalAction, ProjectError
from games.base import GameKind
from games.thinking import Thinking
from web.service.bell import Bell, listen_postgres
from web.service.moves import BotFailed, bot_moves
from web.storage import RUNNING, ActionRecord, GameRecord, GameStore, VersionMoved, is_postgres

log = logging.getLogger(__name__)

#: How often a runner looks for due deadlines and bots (seconds).
TICK_S = 0.05
#: How long a runner holds a game it thinks about by default; then any runner may take it again
#: (seconds, longer than a bot's longest thought; the app's ``BOT_LEASE_S``: ``lease_s``).
LEASE_S = 10.0
#: Thinking time written in one append (at least one move is).
BATCH_S = 0.05
#: A failed bot is tried again after this long (seconds on the service's clock).
RETRY_S = 300.0
#: A runner's tick plays bots for at most this long (seconds; at least one game's), then looks
#: at the deadlines again: many due bots never hold up a clock that runs out meanwhile.
BOTS_PER_TICK_S = 0.5
#: How long a runner on PostgreSQL waits, starting, for its listener to listen (seconds).
LISTEN_WAIT_S = 2.0
#: The runner tells its beat (``TableRunner.on_beat``) at most this often (seconds).
BEAT_S = 1.0
#: A table later than this (seconds on the service's clock) is behind: a page says so.
BEHIND_S = 5.0
#: A bot due for longer than this when a thinker takes it is granted less than its full budget
#: (seconds; ``effort_for``: the backstop when the count of due bots missed a queue).
SHRINK_AFTER_S = 0.3
#: The least share of its budget a strong decision is granted, however long the queue.
MIN_EFFORT = 0.05
#: A thinker taking a table's bots grants the effort with which their reply and its share of
#: the due tables behind it fit in this many seconds (``effort_for``; a reply of two strong
#: bots: about 0.5 s a decision).
REPLY_BUDGET_S = 1.0
#: A thinker that played a table's bots plays its next due bot at once, for at most this many
#: writes (a round of a four-seat table): a player's reply is every bot's move after theirs,
#: which then waits in the queue once, not once a bot; a table of bots alone plays on in turn.
REPLY_WRITES = 4
#: How much one timed decision moves the learnt seconds of a full-effort decision (``Pace``).
PACE_WEIGHT = 0.2
#: Decisions granted less than this effort do not teach ``Pace``: their fixed costs (loading,
#: saving) would pass for thinking, scaled up by 1 / effort.
PACE_MIN_EFFORT = 0.25


def effort_for(
    ahead: int = 0, thinkers: int = 1, full_s: float | None = None, waited: float = 0.0
) -> float:
    """The share of a strong bot's budget granted to a decision (module doc), from numbers
    alone (no clock): ``ahead`` tables have bots due besides this one, shared by ``thinkers``;
    a full-effort reply of a table of this kind (its bots' decisions after a player's move)
    takes ``full_s`` seconds (learnt, ``Pace.reply_s``; ``None``: not yet). **Ahead:** the
    effort ``e`` with which this reply and its share of the queue, ``(1 + ahead / thinkers) ×
    e × full_s``, fit in ``REPLY_BUDGET_S``; 1 when nothing else is due. **Back (the backstop):** a bot that already waited ``waited`` seconds, more than
    ``SHRINK_AFTER_S``, gets at most ``SHRINK_AFTER_S / waited`` (a queue the count missed:
    another server's, a stale count). Never below ``MIN_EFFORT``."""
    share = 1.0 if waited <= SHRINK_AFTER_S else SHRINK_AFTER_S / waited
    if ahead > 0 and full_s is not None and full_s > 0:
        queue = 1.0 + ahead / max(1, thinkers)
        share = min(share, REPLY_BUDGET_S / (queue * full_s))
    return max(MIN_EFFORT, min(1.0, share))


class Pace:
    """What this runner learnt of its decisions, per game kind, as moving averages (weight
    ``PACE_WEIGHT``): the seconds of one full-effort decision, from the bot writes it timed (a
    write's seconds over its moves, over the effort granted: an anytime search thinks about in
    proportion to its effort), and the writes of a reply (a table's bots played one after the
    other, ``REPLY_WRITES``): ``reply_s``, a full-effort reply's seconds, is what a due table
    costs the queue. One runner's thread uses it."""

    def __init__(self) -> None:
        self._full_s: dict[str, float] = {}
        self._writes: dict[str, float] = {}
        self._reply: tuple[str, int] | None = None  # the reply being played: kind, writes

    def full_s(self, kind: str) -> float | None:
        """The learnt seconds of a full-effort decision of ``kind`` (``None``: none timed)."""
        return self._full_s.get(kind)

    def reply_s(self, kind: str) -> float | None:
        """The learnt seconds of a full-effort reply of ``kind``'s bots (``None``: none)."""
        full = self._full_s.get(kind)
        return None if full is None else full * self._writes.get(kind, 1.0)

    def timed(self, kind: str, seconds: float, moves: int, effort: float) -> None:
        """A bot write of ``kind``: ``moves`` decisions at ``effort`` took ``seconds``."""
        if self._reply is not None:
            self._reply = (kind, self._reply[1] + 1)
        if moves <= 0 or effort < PACE_MIN_EFFORT or seconds < 0:
            return
        _learn(self._full_s, kind, seconds / moves / effort)

    def reply_begins(self) -> None:
        """The writes ``timed`` from now on are one reply (a table's bots, one after another)."""
        self._reply = ("", 0)

    def reply_ends(self) -> None:
        """The reply is played: learn its writes (a reply of none is not one)."""
        if self._reply is not None and self._reply[1] > 0:
            _learn(self._writes, *self._reply)
        self._reply = None


def _learn(averages: dict[str, float], kind: str, sample: float) -> None:
    """Move ``averages[kind]`` a ``PACE_WEIGHT`` step towards ``sample`` (the first: it)."""
    before = averages.get(kind)
    averages[kind] = sample if before is None else before + PACE_WEIGHT * (sample - before)


class GameSessions(Protocol):
    """What the table needs of the game sessions (``web.service.sessions.GameSessions``, which
    imports this module: named here, not imported, so the two are no import circle)."""

    store: GameStore
    clock: Callable[[], float]
    max_log: int
    strict_bots: bool
    thinking: Thinking
    lease_s: float
    decisions_log: str | None
    chores: list[tuple[float, Callable[[], object]]]

    def settle(self, game: GameRecord) -> GameRecord: ...

    def settle_due(self) -> int: ...

    def _check_room(self, version: int) -> None: ...

    def _write(
        self, game: GameRecord, plan: Callable[[GameRecord, Any, GameKind], list[ActionRecord]]
    ) -> tuple[GameRecord, Any]: ...


def owed(game: GameRecord) -> float | None:
    """When the table must act next in ``game`` by itself (the service's clock): its deadline,
    or its due bot's move (while a runner thinks, its lease's end); ``None``: nothing to do, or
    only a failed bot's retry (the page says the bot failed)."""
    if game.over:
        return None
    times = [game.deadline] if game.deadline is not None else []
    if game.bot_due is not None and not game.bot_failed:
        times.append(game.bot_due)
    return min(times, default=None)


def behind(game: GameRecord, now: float) -> float | None:
    """How many seconds the table is late in ``game`` at ``now``, once that is more than
    ``BEHIND_S`` (a hung or dead runner: the next one takes over); else ``None``."""
    due = owed(game)
    if due is None or now - due <= BEHIND_S:
        return None
    return round(now - due, 1)


def play_bots(
    sessions: GameSessions,
    game_id: str,
    lease_s: float | None = LEASE_S,
    strict: bool = False,
    ahead: int = 0,
    thinkers: int = 1,
    pace: Pace | None = None,
) -> int:
    """Let the game's bots move if one is due (module doc): take it for ``lease_s`` seconds
    (``None``: no lease, for tests), think at ``effort_for`` the ``ahead`` other due bots that
    ``thinkers`` share and ``pace``'s learnt seconds, append (and teach ``pace`` the write's
    time). A failing bot is logged and marked (``strict``: raised). Returns the entries
    appended."""
    game = sessions.store.get(game_id)
    if game.version >= sessions.max_log:  # a log filled before full logs ended games: end it
        game = sessions.settle(game)
    if game.over or game.bot_due is None or game.bot_due > sessions.clock():
        return 0
    waited = max(0.0, sessions.clock() - game.bot_due)
    if lease_s is not None and not _take(sessions, game, lease_s):
        return 0
    # (the tests' explicit runner, without leases, thinks in full: the same moves every run)
    full_s = pace.reply_s(game.kind) if pace is not None else None
    effort = effort_for(ahead, thinkers, full_s, waited) if lease_s is not None else 1.0
    thinking = sessions.thinking.at(effort)
    cpu, started = time.thread_time(), time.perf_counter()  # measures, not the service's clock

    def play(current: GameRecord, state: Any, kind: GameKind) -> list[ActionRecord]:
        room = sessions._check_room
        return bot_moves(
            kind, current, state, current.version, sessions.clock, room, BATCH_S, thinking
        )

    after = _attempt(sessions, game, play, strict)
    if after is None:
        return 0
    moves = after.version - game.version
    if not moves:  # no bot wanted to act (a timed phase waits)
        _set_bot(sessions, game, None, failed=False)
        return 0
    if pace is not None:
        pace.timed(game.kind, time.perf_counter() - started, moves, effort)
    if sessions.decisions_log is not None:
        used = time.thread_time() - cpu
        _record(sessions.decisions_log, game, sessions.clock(), moves, waited, thinking, used)
    return moves


def _attempt(
    sessions: GameSessions,
    game: GameRecord,
    play: Callable[[GameRecord, Any, GameKind], list[ActionRecord]],
    strict: bool,
) -> GameRecord | None:
    """The bots' write of ``game`` by ``play``; ``None`` when it did not happen: another
    process wrote first, the game is stored under earlier rules, or the bot failed (logged and
    marked, or raised when ``strict``). A store that cannot write raises."""
    try:
        return sessions._write(game, play)[0]
    except VersionMoved:  # someone else wrote first: the next look decides again
        return None
    except DatabaseUnavailable:  # the store cannot write now: no fault of the bot's
        raise
    except (BotFailed, ProjectError) as e:
        if isinstance(e, IllegalAction) and e.reason == "rules_changed":
            return None  # stored under earlier rules: it no longer plays, and keeps no bot due
        if strict:
            raise
        log.error("the bots of %s failed; tried again in %g s", game.id, RETRY_S, exc_info=e)
        _set_bot(sessions, game, sessions.clock() + RETRY_S, failed=True)
        return None


def _record(
    path: str,
    game: GameRecord,
    at: float,
    moves: int,
    waited: float,
    thinking: Thinking,
    cpu: float,
) -> None:
    """One line of the decisions log at ``path`` (module doc): a short append, whole lines from
    every process (``O_APPEND``)."""
    line = {
        "at": round(at, 3),
        "game": game.id,
        "kind": game.kind,
        "moves": moves,
        "waited": round(waited, 4),
        "effort": round(thinking.effort, 4),
        "cpu": round(cpu, 5),
        "pid": os.getpid(),
    }
    try:
        with open(path, "a", encoding="utf-8") as out:
            out.write(json.dumps(line) + "\n")
    except OSError as e:  # a full or gone disk never stops the bots
        log.warning("the decisions log cannot be written: %s", e)


def _take(sessions: GameSessions, game: GameRecord, lease_s: float) -> bool:
    """Take ``game``, still at its version and its bot still due, for a lease."""
    with sessions.store.transaction(game.id) as tx:
        now = sessions.clock()
        due = tx.game.bot_due
        if tx.game.version != game.version or due is None or due > now:
            return False
        tx.set_bot(now + lease_s, tx.game.bot_failed)
    return True


def _set_bot(sessions: GameSessions, game: GameRecord, bot_due: float | None, failed: bool) -> None:
    """Set the bot mark, if the game is still at ``game.version``."""
    with sessions.store.transaction(game.id) as tx:
        if tx.game.version == game.version:
            tx.set_bot(bot_due, failed)


def stop_clocks(sessions: GameSessions, game: GameRecord) -> None:
    """No deadline and no bot due for ``game``, still running at its version (one stored under
    earlier rules, which never moves again): an append of nothing with neither, its log
    untouched, so no runner comes back to it."""
    if game.over or (game.deadline is None and game.bot_due is None):
        return
    with sessions.store.transaction(game.id) as tx:
        if tx.game.version == game.version:
            tx.append([], RUNNING, None, None)


def play_due_bots(sessions: GameSessions, game_id: str | None = None) -> int:
    """Every due bot move now, without leases, until no bot is due (in ``game_id``, or in
    every game); a failing bot raises when ``sessions.strict_bots`` (tests). Returns the
    entries appended."""
    n = 0
    strict = sessions.strict_bots
    while True:
        due = [game_id] if game_id is not None else sessions.store.bots_due(sessions.clock())
        played = sum(play_bots(sessions, g, lease_s=None, strict=strict) for g in due)
        n += played
        if not played:
            return n


class TableRunner:
    """A daemon thread (a thinker) that settles due deadlines and plays due bots every ``tick``
    seconds, or at once after ``nudge`` or a ring of the server's ``bell`` (module doc). It
    holds the sessions weakly and ends with them, or on ``stop``. ``beat``: when its loop last
    made progress (``time.monotonic``); ``on_beat``: told of it at most every ``BEAT_S``."""

    def __init__(
        self,
        sessions: GameSessions,
        tick: float = TICK_S,
        bell: Bell | None = None,
        thinkers: int | None = None,
    ) -> None:
        self._sessions = weakref.ref(sessions)
        self.tick = tick
        #: The thinkers that share the due bots (the server's table processes, when they share
        #: its bell: ``web.games_api.init_sessions``); this one alone unless given.
        self.thinkers = thinkers if thinkers is not None else 1
        #: The seconds of a full-effort decision, learnt from this runner's bot writes.
        self.pace = Pace()
        self.beat = time.monotonic()
        self.on_beat: Callable[[float], object] | None = None
        self._told = float("-inf")
        self._stop = threading.Event()
        self._bell = bell
        self._own = Bell.new()  # this process's nudges, and stop
        self._again = False  # a look ended with bots still due: look again at once
        self._thread = threading.Thread(target=self._run, name="table-runner", daemon=True)

    def start(self) -> TableRunner:
        """Start the thread; on PostgreSQL, first listen to every server's writes
        (``web.service.bell.listen_postgres``: a thinker takes another server's due bots at
        once), waiting up to ``LISTEN_WAIT_S`` for it."""
        sessions = self._sessions()
        url = getattr(sessions.store, "url", None) if sessions is not None else None
        if isinstance(url, str) and is_postgres(url):
            listen_postgres(url, self.nudge, self._stop).wait(LISTEN_WAIT_S)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        self._own.ring()

    def nudge(self) -> None:
        """Look now: a bot is due (this process just wrote the game)."""
        self._own.ring()

    def _beat(self) -> None:
        """The loop made progress: ``beat`` now, and ``on_beat`` told if ``BEAT_S`` passed."""
        self.beat = now = time.monotonic()
        if self.on_beat is not None and now - self._told >= BEAT_S:
            self._told = now
            self.on_beat(now)

    def _wait(self, timeout: float) -> None:
        """Sleep until a nudge, one ring of the server's bell taken by this thinker (another
        idle thinker may take it first: then sleep on), or ``timeout`` seconds."""
        if self._again:
            self._again = False
            return
        poller = select.poll()
        poller.register(self._own.fileno(), select.POLLIN)
        if self._bell is not None:
            poller.register(self._bell.fileno(), select.POLLIN)
        until = time.monotonic() + timeout
        while (left := until - time.monotonic()) > 0:
            ready = {fd for fd, _ in poller.poll(left * 1000)}
            if self._own.fileno() in ready:
                self._own.take(every=True)
                return
            if self._bell is not None and self._bell.fileno() in ready and self._bell.take():
                return

    def _run(self) -> None:
        last: dict[int, float] = {}  # chore → when it last ran (monotonic)
        try:
            first = True  # the first look is at once: bots due before this runner started
            while not self._stop.is_set():
                self._beat()
                if not first:
                    self._wait(self.tick)
                first = False
                sessions = self._sessions()
                if sessions is None or self._stop.is_set():
                    return
                try:
                    self._tick(sessions, last)
                except DatabaseUnavailable as e:  # locked, full or read-only: one line, try again
                    log.warning("the table runner waits for the store: %s", e)
                except Exception:  # a database fault, or a bug: logged; the next tick tries again
                    log.exception("the table runner's tick failed")
                del sessions
        finally:
            self._own.close()

    def _play_due(self, sessions: GameSessions) -> bool:
        """Play due bots, the oldest first, each table's bots one after the other (up to
        ``REPLY_WRITES`` writes), for ``BOTS_PER_TICK_S``; whether time ran out first. The due
        bots are counted afresh before every game (the queue's length: ``effort_for``'s
        ``ahead``); a game is taken once a look (one that could not be played, e.g. taken by
        another thinker meanwhile, is not tried again at once)."""
        started = time.monotonic()
        tried: set[str] = set()
        while time.monotonic() - started < BOTS_PER_TICK_S:
            due = [g for g in sessions.store.bots_due(sessions.clock()) if g not in tried]
            if not due:
                return False
            tried.add(due[0])
            ahead = len(due) - 1  # due and not taken, besides this one
            self.pace.reply_begins()
            for _ in range(REPLY_WRITES):  # the table's next bot at once: one reply, one wait
                moved = play_bots(
                    sessions, due[0], sessions.lease_s, False, ahead, self.thinkers, self.pace
                )
                self._beat()
                if not moved:
                    break
            self.pace.reply_ends()
        return True

    def _tick(self, sessions: GameSessions, last: dict[int, float]) -> None:
        """One look: due deadlines, due bots oldest first (for ``BOTS_PER_TICK_S``: the next
        look, at once, goes on with them after the deadlines), the chores that are due; a beat
        after each."""
        sessions.settle_due()
        self._beat()
        self._again = self._play_due(sessions)
        for i, (every, chore) in enumerate(sessions.chores):
            if time.monotonic() - last.get(i, -every) >= every:
                last[i] = time.monotonic()
                chore()
                self._beat()
