"""Game sessions: the engines (``games.base``) driven over a ``GameStore``, for any game kind.

This is where the API's rules live, kept out of the Flask views: creating a game, seat tokens,
applying an action under the version check, letting bots move, building a seat's response from
that seat's view only, records and their import, and long-polling for new events.

States are never stored: a state is rebuilt from ``(kind, seed, seats, options)`` and the action
log. An in-process LRU keeps the newest state of recently used games (keyed by game id, tagged
with its version); a game whose log grew in another process is brought up to date by applying
only the missing actions. A per-game lock (in this process) guards each cached state: a reader
holds it while it builds its response, a writer while it applies actions in place and commits;
when anything fails after the state changed, the entry is dropped and rebuilt from the log.
Across processes the database's write lock and version check keep the log consistent.
"""

from __future__ import annotations

import logging
import random
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from errors import (
    Forbidden,
    IllegalAction,
    InvalidInput,
    NotFound,
    ProjectError,
    StaleVersion,
    Unauthorized,
)
from games.base import GameKind, get_kind, next_bot_action
from web.storage import (
    BOT,
    HUMAN,
    OVER,
    RUNNING,
    ActionRecord,
    GameRecord,
    GameStore,
    Seat,
    hash_token,
    new_token,
    token_matches,
)
from web.storage.deadlines import Clock, DeadlineTimer, deadline_of

log = logging.getLogger(__name__)

#: Bots may make at most this many moves in one request (a bot-only game plays to the end).
MAX_BOT_ACTIONS = 20_000
#: Long-polls wait at most this long, reading the version this often.
MAX_WAIT_S = 25.0
POLL_INTERVAL_S = 0.2
#: Sanity cap on tokens presented (ours are 43 characters).
MAX_TOKEN_LEN = 256


class _EngineCrash(InvalidInput):
    """An engine failed on odd input with a Python error instead of refusing it (a 400)."""


@dataclass
class _Entry:
    """One cached game: its state at ``version`` (-1: nothing cached), guarded by ``lock``."""

    lock: threading.Lock
    version: int = -1
    state: Any = None

    def clear(self) -> None:
        self.state, self.version = None, -1


def new_game_id() -> str:
    """A short random id (72 bits): unguessable enough that ids need not be secret."""
    return secrets.token_urlsafe(9)


class GameSessions:
    """Every operation of the game API, over one store; one instance per process."""

    def __init__(self, store: GameStore, cache_size: int = 512, clock: Clock = time.time) -> None:
        self.store = store
        self.cache_size = cache_size
        #: The one clock deadlines are judged by (seconds; injectable for tests).
        self.clock = clock
        self._cache: OrderedDict[str, _Entry] = OrderedDict()
        self._lock = threading.Lock()
        self._timer: DeadlineTimer | None = None

    def start_timer(self, tick: float = 0.25) -> None:
        """Settle due deadlines every ``tick`` seconds in a background thread (once)."""
        if self._timer is None:
            self._timer = DeadlineTimer(self, tick).start()

    def stop_timer(self) -> None:
        if self._timer is not None:
            self._timer.stop()
            self._timer = None

    # --- states ----------------------------------------------------------------------------

    def _entry(self, game_id: str) -> _Entry:
        """The cache entry of a game (created empty), marked as most recently used."""
        with self._lock:
            entry = self._cache.get(game_id)
            if entry is None:
                entry = self._cache[game_id] = _Entry(threading.Lock())
            self._cache.move_to_end(game_id)
            while len(self._cache) > self.cache_size:
                self._cache.popitem(last=False)  # a holder of its lock finishes on its own copy
            return entry

    def _bring_up(self, entry: _Entry, game: GameRecord) -> Any:
        """With ``entry.lock`` held: the entry's state brought to ``game.version`` in place,
        replaying the log from the start when there is nothing usable cached."""
        kind = get_kind(game.kind)
        if entry.state is None or entry.version > game.version:
            entry.clear()
            entry.state = kind.new_state(game.seed, len(game.seats), game.options)
            entry.version = 0
        if entry.version < game.version:
            try:
                for a in self.store.actions(game.id, after=entry.version, upto=game.version):
                    kind.apply(entry.state, a.seat, a.action)
                    entry.version = a.version
            except BaseException:
                entry.clear()
                raise
        return entry.state

    @contextmanager
    def reading(self, game_id: str) -> Iterator[tuple[GameRecord, Any]]:
        """The game's row and its state at that version, locked in this process for the block
        (build the response inside; do not mutate). 404 for an unknown id. A deadline that has
        passed is settled first."""
        game = self.settle(self.store.get(game_id))
        entry = self._entry(game_id)
        with entry.lock:
            if entry.version > game.version:  # a write landed meanwhile: serve the newer one
                game = self.store.get(game_id)
            yield game, self._bring_up(entry, game)

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
        """Drop cached states (all of them without an id): the next read replays the log."""
        with self._lock:
            if game_id is None:
                self._cache.clear()
            else:
                self._cache.pop(game_id, None)

    # --- seats and tokens -------------------------------------------------------------------

    @staticmethod
    def bearer_token(authorization: str | None) -> str | None:
        """The token of an ``Authorization: Bearer <token>`` header (``None`` without a header)."""
        if authorization is None:
            return None
        scheme, _, token = authorization.strip().partition(" ")
        token = token.strip()
        if scheme.lower() != "bearer" or not token:
            raise Unauthorized(
                "use the header 'Authorization: Bearer <seat token>'",
                "Authorization",
                reason="bad_authorization",
            )
        if len(token) > MAX_TOKEN_LEN:
            raise Forbidden(
                "this token is not a seat of this game", "Authorization", reason="not_a_seat_token"
            )
        return token

    @staticmethod
    def seat_of(game: GameRecord, token: str | None, required: bool) -> int | None:
        """The seat whose token this is; ``None`` for no token (401 when ``required``)."""
        if token is None:
            if required:
                raise Unauthorized(
                    "this needs a seat token: 'Authorization: Bearer <seat token>'",
                    "Authorization",
                    reason="seat_token_needed",
                )
            return None
        found = None
        for seat in game.seats:  # compare with every seat: no early exit to time
            if token_matches(token, seat.token_hash):
                found = seat.index
        if found is None:
            raise Forbidden(
                "this token is not a seat of this game", "Authorization", reason="not_a_seat_token"
            )
        return found

    # --- reading ----------------------------------------------------------------------------

    def snapshot(self, game: GameRecord, seat: int | None, state: Any) -> dict:
        """The response for one seat (or a spectator): built only from that seat's view."""
        kind = get_kind(game.kind)
        over = kind.is_over(state)
        return {
            "id": game.id,
            "game": game.kind,
            "version": game.version,
            "seat": seat,
            "to_act": [] if over else list(kind.to_act(state)),
            "deadline": None if over else game.deadline,
            "now": self.clock(),
            "over": over,
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

    def events(self, game_id: str, after: int, wait: float) -> dict:
        """Public events after version ``after``; waits up to ``wait`` seconds for one.

        Polls the database (not an in-process signal) so a move made through another gunicorn
        worker is seen too; a deadline that passes while waiting is settled (its timeout is an
        event like any other). Only the engine's public events and the acting seat (``None``
        for the table) are returned, never the actions themselves (a secret simultaneous choice
        stays secret).
        """
        wait = min(max(wait, 0.0), MAX_WAIT_S)
        until = time.monotonic() + wait
        game = self.settle(self.store.get(game_id))
        version = game.version
        while True:
            if after > version:  # a conflict with the game's state, not a malformed request
                raise IllegalAction(
                    f"after={after} is past the current version {version}",
                    "after",
                    reason="after_past_version",
                    params={"after": after, "version": version},
                )
            left = until - time.monotonic()
            if version > after or left <= 0:
                break
            time.sleep(min(POLL_INTERVAL_S, left))
            version = self.store.version(game_id)
            if version == game.version and self._due(game):
                game = self.settle(game)
                version = game.version
        game = self.store.get(game_id)
        entries = self.store.actions(game_id, after=after, upto=game.version)
        return {
            "id": game.id,
            "version": game.version,
            "over": game.over,
            "deadline": game.deadline,
            "now": self.clock(),
            "events": [
                {"version": a.version, "seat": a.seat, "events": a.events, "time": a.time}
                for a in entries
            ],
        }

    # --- writing ----------------------------------------------------------------------------

    def create(
        self, game_name: str, seats: list[dict], options: dict | None, seed: int | None
    ) -> tuple[GameRecord, dict[int, str], Any]:
        """A new game; bots that must act first do so. Returns it, the tokens and the state."""
        kind = get_kind(game_name)
        kind.check_seats(len(seats))
        resolved = kind.resolve_options(options, len(seats))
        seat_rows, tokens = self._new_seats(kind, seats)
        if seed is None:
            seed = secrets.randbelow(2**63)
        game = GameRecord(new_game_id(), kind.name, resolved, seed, seat_rows)
        state = self._new_state(kind, game)
        now = self.clock()
        log_entries = self._run_bots(kind, game, state, 0)
        game.status = OVER if kind.is_over(state) else RUNNING
        times = {0: now, **{e.version: e.time for e in log_entries}}
        game.deadline = deadline_of(kind.timer(state), 0, None, times, lambda v: now)
        self.store.create(game, log_entries)
        self._remember(game, state)
        return game, tokens, state

    @staticmethod
    def _new_state(kind: GameKind, game: GameRecord) -> Any:
        try:
            return kind.new_state(game.seed, len(game.seats), game.options)
        except ProjectError:
            raise
        except (KeyError, TypeError, ValueError, IndexError) as e:  # an engine refusing options
            raise InvalidInput(
                f"cannot start {kind.name} with these settings: {e}", "options"
            ) from e

    @staticmethod
    def _new_seats(kind: GameKind, seats: list[dict]) -> tuple[list[Seat], dict[int, str]]:
        rows: list[Seat] = []
        tokens: dict[int, str] = {}
        for i, spec in enumerate(seats):
            if spec["type"] == BOT:
                if spec.get("open"):
                    raise InvalidInput("only human seats can be open", f"seats[{i}].open")
                level = spec.get("level") or (next(iter(kind.bots)) if kind.bots else None)
                if level not in kind.bots:
                    known = ", ".join(kind.bots) or "none"
                    raise InvalidInput(
                        f"unknown bot level {level!r} for {kind.name} (known: {known})",
                        f"seats[{i}].level",
                    )
                rows.append(Seat(i, BOT, spec.get("name") or f"{level} bot", level))
            else:
                if spec.get("level") is not None:
                    raise InvalidInput("only bot seats have a level", f"seats[{i}].level")
                if spec.get("listed") and not spec.get("open"):
                    raise InvalidInput(
                        "only open seats can be listed",
                        f"seats[{i}].listed",
                        reason="listed_not_open",
                    )
                seat = Seat(i, HUMAN, spec.get("name"), listed=bool(spec.get("listed")))
                if not spec.get("open"):
                    token = new_token()
                    tokens[i] = token
                    seat.token_hash = hash_token(token)
                rows.append(seat)
        return rows, tokens

    def act(self, game_id: str, seat: int, version: int, action: dict) -> dict:
        """Apply ``seat``'s action at ``version``, then let bots move, in one transaction;
        returns ``seat``'s response. A deadline that has passed is settled first (so an action
        chosen before the timeout is stale)."""
        self.settle(self.store.get(game_id))

        def check(game: GameRecord) -> list[tuple[int | None, dict]]:
            if version != game.version:
                raise StaleVersion(version, game.version)
            return [(seat, action)]

        game, state = self._write(game_id, check)
        return self.snapshot(game, seat, state)

    def _due(self, game: GameRecord) -> bool:
        return game.deadline is not None and not game.over and self.clock() >= game.deadline

    def settle(self, game: GameRecord) -> GameRecord:
        """``game`` with its passed deadline settled: the timer's action applied as the table's
        log entry (then bots move); the row unchanged when nothing is due."""
        if not self._due(game):
            return game

        def check(current: GameRecord) -> list[tuple[int | None, dict]]:
            if not self._due(current):
                return []  # another request or process settled it meanwhile
            timer = get_kind(current.kind).timer(self._bring_up(entry, current))
            return [] if timer is None else [(None, timer.action)]

        entry = self._entry(game.id)
        settled, _ = self._write(game.id, check)
        return settled

    def settle_due(self) -> int:
        """Settle every game whose deadline has passed (the deadline timer's tick)."""
        n = 0
        for game_id in self.store.due(self.clock()):
            try:
                before = self.store.get(game_id)
                if self.settle(before).version != before.version:
                    n += 1
            except ProjectError as e:  # e.g. a bot that cannot finish: logged, not fatal
                log.warning("could not settle the deadline of %s: %s", game_id, e)
        return n

    def _write(
        self, game_id: str, first: Callable[[GameRecord], list[tuple[int | None, dict]]]
    ) -> tuple[GameRecord, Any]:
        """One write transaction: ``first(game)`` (run on the locked row) names the actions to
        apply (none: nothing to do), then bots move; the log, status and deadline are stored
        together. The cached state is changed in place under the game's lock and dropped if
        anything fails after it changed (the log stays the truth)."""
        entry = self._entry(game_id)
        with entry.lock:
            changed = False
            try:
                with self.store.transaction(game_id) as tx:
                    game = tx.game
                    kind = get_kind(game.kind)
                    todo = first(game)
                    state = self._bring_up(entry, game)
                    if not todo:
                        return game, state
                    if kind.is_over(state):
                        raise IllegalAction("the game is over", "action", reason="game_over")
                    before, old_deadline = game.version, game.deadline
                    entries: list[ActionRecord] = []
                    for seat, action in todo:
                        try:
                            events = self._apply(kind, state, seat, action)
                        except _EngineCrash:
                            changed = True  # the engine may have stopped half-way
                            raise
                        changed = True  # a refusal (ProjectError) left the state as it was
                        version = before + len(entries) + 1
                        entries.append(ActionRecord(version, seat, action, events, self.clock()))
                    entries += self._run_bots(kind, game, state, before + len(entries))
                    deadline = deadline_of(
                        kind.timer(state),
                        before,
                        old_deadline,
                        {e.version: e.time for e in entries},
                        lambda v: self._entry_time(game, v),
                    )
                    tx.append(entries, OVER if kind.is_over(state) else RUNNING, deadline)
            except BaseException:
                if changed:
                    entry.clear()
                raise
            entry.version = game.version
            return game, state

    def _entry_time(self, game: GameRecord, version: int) -> float:
        """The time of log entry ``version`` (0: the game's creation)."""
        if version == 0:
            return game.created
        found = self.store.actions(game.id, after=version - 1, upto=version)
        return found[0].time if found else self.clock()

    @staticmethod
    def _apply(kind: GameKind, state: Any, seat: int | None, action: dict) -> list[dict]:
        """The engine's ``apply`` with its reason kept; an engine crash on odd input is a 400."""
        try:
            events = kind.apply(state, seat, action)
        except ProjectError as e:
            if e.field is None:
                e.field = "action"
            raise
        except (KeyError, TypeError, ValueError, IndexError, AttributeError) as e:
            log.warning("%s.apply crashed on %r: %r", kind.name, action, e)
            raise _EngineCrash(f"malformed action for {kind.name}: {e!r}", "action") from e
        return list(events or [])

    def _run_bots(
        self, kind: GameKind, game: GameRecord, state: Any, version: int
    ) -> list[ActionRecord]:
        """Bots act (one log entry each) until none wants to: a human must act, a timed phase
        waits for its clock, or the game ends. Each move's generator is seeded from the game's
        seed and the move's version, so bots are deterministic from the log."""
        out: list[ActionRecord] = []
        levels = [s.level if s.type == BOT else None for s in game.seats]
        while not kind.is_over(state):
            if len(out) >= MAX_BOT_ACTIONS:
                raise IllegalAction(
                    f"bots did not finish within {MAX_BOT_ACTIONS} moves",
                    "seats",
                    reason="bots_did_not_finish",
                    params={"count": MAX_BOT_ACTIONS},
                )
            rng = random.Random(f"{game.seed}/{version + 1}")

            def rng_for(r: random.Random = rng) -> random.Random:
                return r

            try:
                found = next_bot_action(kind, state, levels, rng_for)
            except Exception as e:  # a bot bug must not stall the game: any legal move
                log.error("%s bot failed: %r", kind.name, e)
                seat = next(s for s in kind.to_act(state) if levels[s] is not None)
                found = (seat, rng.choice(kind.legal_actions(state, seat)))
            if found is None:
                break
            seat, action = found
            version += 1
            try:
                events = self._apply(kind, state, seat, action)
            except _EngineCrash as e:  # the state may be half-changed: give up (rolled back)
                raise IllegalAction(
                    f"{kind.name} failed on the {levels[seat]} bot's move for seat {seat}: "
                    f"{e.message}",
                    "seats",
                ) from e
            except ProjectError as e:  # refused, state unchanged: fall back to a legal move
                log.error("%s bot chose an illegal action %r: %s", kind.name, action, e)
                action = rng.choice(kind.legal_actions(state, seat))
                events = self._apply(kind, state, seat, action)
            out.append(ActionRecord(version, seat, action, events, self.clock()))
        return out

    def claim(self, game_id: str, index: int, name: str | None) -> tuple[GameRecord, str]:
        """Give a free human seat's token, once."""
        with self.store.transaction(game_id) as tx:
            game = tx.game
            if not 0 <= index < len(game.seats):
                raise NotFound(
                    f"this game has seats 0-{len(game.seats) - 1}, not {index}",
                    "index",
                    reason="no_such_seat",
                    params={"count": len(game.seats), "seat": index},
                )
            seat = game.seats[index]
            if game.over:
                raise IllegalAction("the game is over", "index", reason="game_over")
            if seat.type != HUMAN:
                raise IllegalAction(
                    f"seat {index} is a bot", "index", reason="seat_is_bot", params={"seat": index}
                )
            if not seat.free:
                raise IllegalAction(
                    f"seat {index} has been claimed already",
                    "index",
                    reason="seat_taken",
                    params={"seat": index},
                )
            token = new_token()
            seat.token_hash = hash_token(token)
            if name:
                seat.name = name
            tx.set_seats(game.seats)
        return game, token

    def import_record(self, record: dict) -> tuple[GameRecord, Any]:
        """Replay a finished game's record into a new finished game (for review)."""
        kind = get_kind(record["game"])
        seats = record["seats"]
        kind.check_seats(len(seats))
        for i, s in enumerate(seats):
            if s.get("index") not in (None, i):  # the index is optional: its place says it
                raise InvalidInput(f"seat {i} has index {s['index']}", f"seats[{i}].index")
        options = kind.resolve_options(record.get("options"), len(seats))
        rows = [Seat(i, s["type"], s.get("name"), s.get("level")) for i, s in enumerate(seats)]
        game = GameRecord(new_game_id(), kind.name, options, record["seed"], rows, origin="import")
        state = self._new_state(kind, game)
        entries = []
        for i, a in enumerate(record["actions"]):
            if kind.is_over(state):
                raise InvalidInput(f"the game is over before action {i}", f"actions[{i}]")
            if a["seat"] is not None and not 0 <= a["seat"] < len(seats):
                raise InvalidInput(f"no seat {a['seat']}", f"actions[{i}].seat")
            try:
                events = self._apply(kind, state, a["seat"], a["action"])
            except ProjectError as e:
                raise InvalidInput(
                    f"action {i} is refused: {e.message}", f"actions[{i}].action"
                ) from e
            entries.append(ActionRecord(i + 1, a["seat"], a["action"], events, self.clock()))
        if not kind.is_over(state):
            raise InvalidInput("the record does not finish the game", "actions")
        game.status = OVER
        self.store.create(game, entries)
        self._remember(game, state)
        return game, state
