"""Game sessions: the engines (``games.base``) driven over a ``GameStore``, for any game kind.

This is where the API's rules live, kept out of the Flask views: creating a game, seat tokens,
applying an action under the version check, the table's bots, building a seat's response from
that seat's view only, records and their import, and long-polling for new events.

States are never stored, only cached (``web.service.states``: per process, within a memory
budget, rebuilt from the newest snapshot and the log's tail). A write is optimistic: under the
game's lock in this process, the state is brought to the stored version, the action is applied
to it, and only then does the store's write transaction open, check that the version is still
the one the state was built on, and append. When the version moved meanwhile (another process
wrote), the human's action is stale (409) and a deadline is settled again from the new version;
a state changed in place is dropped and rebuilt.

Bots never think in a player's request: a write that leaves a bot to act marks the game
(``bot_due``), and a table runner (``web.service.table``: a thread in the process that runs
it, under gunicorn its own process) takes the game for a lease, thinks, and appends the bots'
moves by the same optimistic write (``play_bots``): any number of runners on any number of
servers may try, one succeeds per version, and a runner that dies thinking loses nothing (its
lease runs out and another takes the game). The player's POST answers once their own move is
stored; the bots' moves follow as events. Only the quickest bots are the exception
(``web.service.moves.quick_table``: a table whose bots all choose from their legal actions
alone, the ``easy`` level): their replies are appended in the player's own write, and the POST
answers with them (``quick_bots``; a reply that fails leaves the player's move to be written
alone, and the runner meets the failure: logged and marked).

Limits (README, "Storage"): a game's log holds at most ``MAX_LOG_ENTRIES`` entries (then 409
``log_full``); ``events`` pages by ``EVENTS_PAGE`` entries (``web.service.following``). Waiting (a
long-poll, a stream) has no cap of its own: a waiting client sleeps on the process's watcher
(``web.storage.watch``) and costs a subscription, not a query.
"""

from __future__ import annotations

import logging
import secrets
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from errors import DatabaseUnavailable, IllegalAction, ProjectError, StaleVersion
from games.base import SYSTEM, GameKind, get_kind
from games.thinking import DEFAULT as FULL_THINKING
from games.thinking import Thinking
from games.turns import BACK, END_LOG_FULL
from web.accounts.results import record_end
from web.service import seats as seats_
from web.service import table_settings
from web.service.banks import seat_banks
from web.service.bell import Bell
from web.service.cursors import check_within
from web.service.deadlines import Clock, clocks_after, late_seat
from web.service.following import public_entry
from web.service.imports import ends_full, replay_record
from web.service.moves import (
    QUICK_BUDGET_S,
    BotFailed,
    apply_move,
    bot_moves,
    bot_to_act,
    clocks_now,
    quick_table,
    table_rng,
)
from web.service.states import SNAPSHOT_EVERY, STATE_CACHE_BYTES, Entry, StateCache
from web.service.table import (
    LEASE_S,
    TICK_S,
    TableRunner,
    behind,
    owed,
    play_bots,
    play_due_bots,
    stop_clocks,
)
from web.storage import (
    OVER,
    RUNNING,
    ActionRecord,
    GameRecord,
    GameStore,
    VersionMoved,
    write_deadline,
)

log = logging.getLogger(__name__)

#: A game's log holds at most this many entries (the longest games measured, Tobago with four
#: random bots, end within ~2,000); an append past it is refused with 409 ``log_full``.
MAX_LOG_ENTRIES = 10_000
#: A write whose version moved under it is recomputed this often (settling) before giving up.
WRITE_RETRIES = 5
#: The most entries one settling writes, one at a time: every seat whose turn clock ran out
#: (they may run out together), and the next phase's timer if that one has passed too.
SETTLE_WRITES = 24


class _QuickBotsFailed(Exception):
    """A quick bot's reply failed in a player's write (the state is dropped; the move is
    written alone, and the runner meets the failure)."""


def new_game_id() -> str:
    """A short random id (72 bits): unguessable enough that ids need not be secret."""
    return secrets.token_urlsafe(9)


class GameSessions:
    """Every operation of the game API, over one store; one instance per process."""

    def __init__(
        self,
        store: GameStore,
        cache_bytes: int = STATE_CACHE_BYTES,
        clock: Clock = time.time,
        snapshot_every: int = SNAPSHOT_EVERY,
        max_log: int = MAX_LOG_ENTRIES,
        strict_bots: bool = False,
        quick_bots: bool = True,
    ) -> None:
        self.store = store
        self.states = StateCache(store, cache_bytes, snapshot_every)
        #: The one clock deadlines are judged by (seconds; injectable for tests).
        self.clock = clock
        self.max_log = max_log
        #: A failing bot in ``play_due_bots`` raises (tests) instead of being logged and marked.
        self.strict_bots = strict_bots
        #: Quick bots reply in the player's write (module doc; off: every bot in the runner).
        self.quick_bots = quick_bots
        self.runner: TableRunner | None = None
        #: The server's bell (``web.service.bell``): a write that leaves a bot due rings it, and
        #: one idle thinker of any process of the server wakes; ``None``: this process alone.
        self.bell: Bell | None = None
        #: The strong bots' budgets at full effort (``BOT_ROLLOUTS``); the table scales them.
        self.thinking: Thinking = FULL_THINKING
        #: How long the runner holds a game while its bot thinks (``BOT_LEASE_S``, seconds).
        self.lease_s = LEASE_S
        #: A file the runner appends a JSON line to per bot write (``DECISIONS_LOG``), or none.
        self.decisions_log: str | None = None
        #: What the table runner does besides deadlines and bots, each every so many seconds
        #: (``web.service.table``): e.g. the turn e-mails (``web.accounts.mail``).
        self.chores: list[tuple[float, Callable[[], object]]] = []

    def start_runner(self, tick: float = TICK_S, thinkers: int | None = None) -> None:
        """Run the table in this process (``web.service.table``): every ``tick`` seconds a
        background thread settles due deadlines and plays due bots (once), one of ``thinkers``
        that share them (default: alone)."""
        if self.runner is None:
            self.runner = TableRunner(self, tick, self.bell, thinkers).start()

    def stop_runner(self) -> None:
        if self.runner is not None:
            self.runner.stop()
            self.runner = None

    # --- states ----------------------------------------------------------------------------

    def _entry(self, game_id: str) -> Entry:
        return self.states.entry(game_id)

    def _bring_up(self, entry: Entry, game: GameRecord) -> Any:
        """The state at ``game.version`` (``StateCache.bring_up``). A game stored under earlier
        rules (409 ``rules_changed``, ``web.service.replay``) keeps no clock: its deadline and
        bot mark are dropped, so no runner tries it again at every tick."""
        try:
            return self.states.bring_up(entry, game)
        except IllegalAction as e:
            if e.reason == "rules_changed":
                stop_clocks(self, game)
            raise

    @contextmanager
    def reading(self, game_id: str) -> Iterator[tuple[GameRecord, Any]]:
        """The game's row and its state at that version, locked in this process for the block
        (build the response inside; do not mutate). 404 for an unknown id. A deadline that has
        passed is settled first."""
        game = self.settle(self.store.get(game_id))
        entry = self._entry(game_id)
        waited = not entry.lock.acquire(blocking=False)
        if waited:  # a write of this process (a bot's thinking, say) held the game meanwhile
            entry.lock.acquire()
        try:
            if waited or entry.version > game.version:  # the row may be older: read it again
                game = self.store.get(game_id)
            yield game, self._bring_up(entry, game)
        finally:
            entry.lock.release()

    def current(self, game_id: str) -> tuple[GameRecord, Any]:
        """Row and state for tools and tests (shared state: read it, do not mutate it)."""
        with self.reading(game_id) as (game, state):
            return game, state

    def state_of(self, game: GameRecord) -> Any:
        """The state at ``game.version`` (shared: read it, do not mutate it)."""
        entry = self._entry(game.id)
        with entry.lock:
            return self._bring_up(entry, game)

    def _remember(self, game: GameRecord, state: Any) -> None:
        entry = self._entry(game.id)
        with entry.lock:
            if entry.version <= game.version:
                entry.state, entry.version = state, game.version

    def forget(self, game_id: str | None = None) -> None:
        """Drop cached states (all of them without an id): the next read rebuilds them."""
        self.states.forget(game_id)

    # --- reading ----------------------------------------------------------------------------

    def snapshot(self, game: GameRecord, seat: int | None, state: Any) -> dict:
        """The response for one seat (or a spectator): built only from that seat's view."""
        kind = get_kind(game.kind)
        over = kind.is_over(state)
        now = self.clock()
        return {
            "id": game.id,
            "game": game.kind,
            "version": game.version,
            "seat": seat,
            "to_act": [] if over else list(kind.to_act(state)),
            "deadline": None if over else game.deadline,
            "turn_deadlines": [game.turn_deadlines.get(s.index) for s in game.seats],
            "banks": seat_banks(game, now),
            "absent": [] if over else kind.absent(state),
            "now": now,
            "table_due": owed(game),
            "behind": behind(game, now),
            "seed_chosen": game.seed_chosen,
            "over": over,
            "bot": None if over else game.bot,
            "view": kind.view(state, seat),
            "legal_actions": [] if seat is None or over else kind.legal_actions(state, seat),
            "scores": kind.scores(state) if over else None,
            "winners": kind.winners(state) if over else [],
            "seats": game.public_seats(),
        }

    def summary(self, game: GameRecord) -> dict:
        return {
            "id": game.id,
            "game": game.kind,
            "version": game.version,
            "over": game.over,
            "origin": game.origin,
            "seed_chosen": game.seed_chosen,
            "seats": game.public_seats(),
            # seats anyone may take: a link-only seat is reached by its share link, not listed
            "free_seats": [i for i in game.free_seats if game.seats[i].listed],
            "created": game.created,
        }

    def record(self, game: GameRecord) -> dict:
        """The full record of a finished game (409 while it runs: actions may hold secrets)."""
        if not game.over:
            raise IllegalAction(
                "the record is available once the game is over", "id", reason="record_not_over"
            )
        return {
            "game": game.kind,
            "options": game.options,
            "seed": game.seed,
            "seats": [
                {"index": s.index, "type": s.type, "name": s.name, "level": s.level}
                for s in game.seats
            ],
            "actions": [{"seat": a.seat, "action": a.action} for a in self.store.actions(game.id)],
        }

    @staticmethod
    def check_after(game: GameRecord, after: int) -> GameRecord:
        """``game``, when ``after`` is at most its version (409 ``after_past_version`` beyond:
        a conflict with the game's state, not a malformed request)."""
        message = f"after={after} is past the current version {game.version}"
        check_within(after, game.version, message, "after_past_version", "version")
        return game

    # --- writing ----------------------------------------------------------------------------

    def create(
        self,
        game_name: str,
        seats: list[dict],
        options: dict | None,
        seed: int | None,
        holder: seats_.Holder | None = None,
        table: table_settings.TableSettings = table_settings.OPEN_TABLE,
    ) -> tuple[GameRecord, dict[int, str], dict[int, str], Any]:
        """A new game (a bot that acts first is due at once: the table runner plays it).
        Returns it, the tokens, the invitations' secrets (``web.service.seats``) and the
        state. A seed the creator gives is said to every seat (``seed_chosen``); a signed-in
        creator (``holder``) holds their seat by account; ``table``: the host's settings of
        the table (rated, bots to fill it: ``web.service.lobby``)."""
        kind = get_kind(game_name)
        kind.check_seats(len(seats))
        resolved = kind.resolve_options(options, len(seats))
        seat_rows, tokens, invites = seats_.new_seats(kind, seats, holder)
        chosen = seed is not None
        if seed is None:
            seed = secrets.randbelow(2**63)
        game = GameRecord(new_game_id(), kind.name, resolved, seed, seat_rows)
        game.seed_chosen, game.public = chosen, seats_.is_public(seat_rows)
        state = self._new_state(kind, game)
        now = self.clock()
        table_settings.set_up(game, kind, table, now)
        game.status = OVER if kind.is_over(state) else RUNNING
        game.deadline, game.turn_deadlines, game.banks = clocks_after(
            kind, state, 0, game, [], now, lambda v: now
        )
        game.bot_due = now if bot_to_act(kind, state, game) else None
        game.to_act = kind.to_act(state)
        self.store.create(game, [])
        self._remember(game, state)
        self._bots_due(game)
        return game, tokens, invites, state

    @staticmethod
    def _new_state(kind: GameKind, game: GameRecord) -> Any:
        return kind.new_state(game.seed, len(game.seats), game.options)

    def act(
        self,
        game_id: str,
        seat: int,
        version: int,
        action: dict,
        game: GameRecord | None = None,
    ) -> dict:
        """Apply ``seat``'s action at ``version`` and store it; returns ``seat``'s response
        (quick bots' replies with it, module doc; other bots answer later, as events: ``bot``
        says one is thinking) with the entries it appended (``appended``, as ``events`` gives
        them: a page animates them without asking). ``game``: the row, when the caller has
        just read it. A deadline that has passed is settled first (so an action chosen before
        the timeout is stale); a ``back`` (``games.turns``) chooses nothing in the position, so
        it is taken at whatever version the game has reached."""
        game = self.settle(game if game is not None else self.store.get(game_id))
        quick = self.quick_bots and quick_table(get_kind(game.kind), game)
        appended: list[ActionRecord] = []  # the write's entries (its end of a full log too)

        def play(current: GameRecord, state: Any, kind: GameKind) -> list[ActionRecord]:
            nonlocal appended
            if version != current.version and action.get("type") != BACK:
                raise StaleVersion(version, current.version)
            out = appended = [
                self._applied(kind, state, current.version + 1, seat, action, limits=True)
            ]
            if quick and out[-1].version < self.max_log:
                try:
                    out += bot_moves(
                        kind,
                        current,
                        state,
                        out[-1].version,
                        self.clock,
                        self._check_room,
                        QUICK_BUDGET_S,
                    )
                except (BotFailed, ProjectError) as e:  # the state may have changed: dropped
                    raise _QuickBotsFailed from e
            return out

        def answer(current: GameRecord, state: Any) -> dict:
            return self.snapshot(current, seat, state)

        try:
            try:
                game, response = self._write(game, play, answer)
            except _QuickBotsFailed as failed:
                cause = failed.__cause__
                log.warning("a quick bot of %s failed (%r): the runner tries it", game_id, cause)
                quick = False
                game, response = self._write(game, play, answer)
        except VersionMoved as moved:  # another process wrote first: this version is spent
            raise StaleVersion(version, moved.current) from None
        return {**response, "appended": [public_entry(a) for a in appended]}

    def _due(self, game: GameRecord) -> bool:
        """Whether the table must act: a deadline passed, or a log full from before the table
        ended full games."""
        if game.over:
            return False
        if game.version >= self.max_log:
            return True
        return game.deadline is not None and self.clock() >= game.deadline

    def settle(self, game: GameRecord) -> GameRecord:
        """``game`` with its passed deadlines settled: the table's action
        (``GameKind.timeout_action``: a phase's timeout, or a late seat's move by the gentlest
        bot, seeded like the bots' moves) applied as its log entry, again while a deadline has
        passed (several seats' clocks run out together); a full log ended; the row unchanged
        when nothing is due."""

        def play(current: GameRecord, state: Any, kind: GameKind) -> list[ActionRecord]:
            version = current.version + 1
            if current.version >= self.max_log:  # filled before full logs ended games
                return [self._end_of_log(kind, state, version)]
            if not self._due(current) or kind.timer(state) is None:
                return []  # another request or process settled it meanwhile
            late = late_seat(kind, state, current)  # the clock that ran out first
            action = kind.timeout_action(state, table_rng(current.seed, version), late)
            return [self._applied(kind, state, version, SYSTEM, action)]

        lost = 0
        for _ in range(SETTLE_WRITES):  # clocks that ran out together are settled together
            if not self._due(game) or lost >= WRITE_RETRIES:
                return game
            try:
                after = self._write(game, play)[0]
            except VersionMoved:
                lost += 1
                game = self.store.get(game.id)  # someone wrote meanwhile: look again
                continue
            if after.version == game.version:  # nothing was due any more: settled meanwhile
                return after
            game = after
        return game

    def settle_due(self) -> int:
        """Settle every game whose deadline has passed (the table runner's tick)."""
        n = 0
        for game_id in self.store.due(self.clock()):
            try:
                before = self.store.get(game_id)
                if self.settle(before).version != before.version:
                    n += 1
            except ProjectError as e:  # e.g. a full log: logged, not fatal
                log.warning("could not settle the deadline of %s: %s", game_id, e)
        return n

    def _applied(
        self,
        kind: GameKind,
        state: Any,
        version: int,
        seat: int | None,
        action: dict,
        limits: bool = False,
    ) -> ActionRecord:
        """``action`` applied to ``state`` as log entry ``version`` (refused past the cap;
        ``limits``: a player's, checked against its phase's limits)."""
        self._check_room(version)
        events = apply_move(kind, state, seat, action, limits)
        return ActionRecord(version, seat, action, events, self.clock(), clocks_now(kind, state))

    def _end_of_log(self, kind: GameKind, state: Any, version: int) -> ActionRecord:
        """The table's end of a game whose log is full (``games.turns.END_LOG_FULL``): the one
        entry past the cap, always written."""
        events = apply_move(kind, state, SYSTEM, dict(END_LOG_FULL))
        return ActionRecord(version, SYSTEM, dict(END_LOG_FULL), events, self.clock())

    def _write(
        self,
        game: GameRecord,
        plan: Callable[[GameRecord, Any, GameKind], list[ActionRecord]],
        answer: Callable[[GameRecord, Any], Any] | None = None,
    ) -> tuple[GameRecord, Any]:
        """One optimistic write (module doc): ``plan(game, state, kind)`` applies the actions to
        the state at ``game.version`` and returns their log entries (none: nothing to do);
        they are appended with the status, the deadline and whether a bot is due, in one
        transaction that checks the version did not move (else ``VersionMoved``). The cached state
        is changed in place under the game's lock and dropped if anything fails after it may
        have changed: after the plan applied its moves (a lost race, a database fault), or when
        the plan failed otherwise than by a refusal (a ``ProjectError`` leaves the state as it
        was; anything else is a bug). The log stays the truth.

        Returns the game's row and ``answer(game, state)``, built under the lock (without
        ``answer``: the state itself, which the caller must not read for a response: once the
        lock is released, the table's next write carries the shared state on in place, so a
        response built from it could say a later version's facts under this one's number)."""
        entry = self._entry(game.id)
        respond = answer or (lambda g, st: st)
        with self._writing(entry):
            if entry.version > game.version:  # this process wrote meanwhile: start from there
                game = self.store.get(game.id)
            kind = get_kind(game.kind)
            state = self._bring_up(entry, game)
            before = game.version
            entries: list[ActionRecord] = []
            try:
                if kind.is_over(state):
                    raise IllegalAction("the game is over", "action", reason="game_over")
                entries = plan(game, state, kind)
                if not entries:
                    return game, respond(game, state)
                last = entries[-1].version
                if last >= self.max_log and not kind.is_over(state):  # the log is full: the end
                    entries.append(self._end_of_log(kind, state, last + 1))
                deadline, turns, banks = clocks_after(
                    kind,
                    state,
                    before,
                    game,
                    entries,
                    self.clock(),
                    lambda v: self._entry_time(game, v),
                )
                bot_due = self.clock() if bot_to_act(kind, state, game) else None
                with self.store.transaction(game.id) as tx:
                    if tx.game.version != before:
                        raise VersionMoved(tx.game.version)
                    status = OVER if kind.is_over(state) else RUNNING
                    tx.append(entries, status, deadline, bot_due, turns, kind.to_act(state), banks)
                    if status == OVER:  # the results and ratings of its players
                        final = entries[-1]
                        end = final.action.get("end") if final.seat is None else None
                        record_end(tx, kind, state, self.clock(), end)
                    game = tx.game
            except BaseException as e:
                refused = isinstance(e, ProjectError)
                if entries or not refused:  # the state may have changed: the log decides
                    entry.clear()
                raise
            entry.version = game.version
            self.states.saved(game, before, state)
            answered = respond(game, state)
        self._bots_due(game)
        return game, answered

    @contextmanager
    def _writing(self, entry: Entry) -> Iterator[None]:
        """The game's lock in this process, for a write: taken within the store's write wait
        (``write_deadline``, which the store's own waits then share), else the write is refused
        (503): writes queued on one game are answered as promptly as the first of them."""
        wait_s = self.store.write_wait_s
        if wait_s is None:
            with entry.lock:
                yield
            return
        with write_deadline(wait_s) as deadline:
            if not entry.lock.acquire(timeout=max(0.0, deadline - time.monotonic())):
                raise DatabaseUnavailable(f"the game's writes waited {wait_s:g} s for the database")
            try:
                yield
            finally:
                entry.lock.release()

    def _bots_due(self, game: GameRecord) -> None:
        """Tell a thinker at once that ``game`` has a bot due (it would find it at its next
        tick anyway): this process's runner, and one idle thinker of the server by its bell."""
        if game.bot_due is None:
            return
        if self.runner is not None:
            self.runner.nudge()
        if self.bell is not None:
            self.bell.ring()

    def _check_room(self, version: int) -> None:
        """Refuse log entry ``version`` past the cap (409 ``log_full``)."""
        if version > self.max_log:
            raise IllegalAction(
                f"this game's log is full ({self.max_log} entries): it cannot go on",
                "action",
                reason="log_full",
                params={"limit": self.max_log},
            )

    def _entry_time(self, game: GameRecord, version: int) -> float:
        """The time of log entry ``version`` (0: the game's creation)."""
        if version == 0:
            return game.created
        found = self.store.actions(game.id, after=version - 1, upto=version)
        return found[0].time if found else self.clock()

    # --- the table's bots (web.service.table) -------------------------------------------------

    def play_bots(self, game_id: str, lease_s: float | None = LEASE_S) -> int:
        """Let the game's bots move if one is due (``web.service.table.play_bots``)."""
        return play_bots(self, game_id, lease_s)

    def play_due_bots(self, game_id: str | None = None) -> int:
        """Play every due bot move now, until none is due (``web.service.table``): the
        explicit, deterministic runner of tests. Returns the entries appended."""
        return play_due_bots(self, game_id)

    def claim(
        self,
        game_id: str,
        index: int,
        name: str | None,
        invite: str | None = None,
        holder: seats_.Holder | None = None,
    ) -> tuple[GameRecord, str]:
        """Give a free human seat's token, once; an invitation needs its secret; a signed-in
        player (``holder``) holds it by account too (``web.service.seats``)."""
        return seats_.claim(self.store, game_id, index, name, invite, holder)

    def import_record(self, record: dict) -> tuple[GameRecord, Any]:
        """Replay a finished game's record into a new finished game (for review;
        ``web.service.imports`` judges the record)."""
        self._check_room(len(record["actions"]) - ends_full(record["actions"]))
        game, state, entries = replay_record(record, new_game_id(), self.clock)
        self.store.create(game, entries)
        self.states.saved(game, 0, state)
        self._remember(game, state)
        return game, state
