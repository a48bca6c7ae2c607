"""Where game sessions live: a small storage interface, its records, and opening a store.

The service keeps, per game, its kind, options, seed (and whether its creator chose it), seats
(with the hashes of their tokens and invitations), whether it is in the public lists, a version
number and an append-only action log. The log is the truth: a state is rebuilt by replaying it
(``games.base.replay``); anything else (the in-process state cache in ``web.service.states``,
the snapshots) is a cache. ``GameStore`` is the interface; both stores write it once in SQL
(``web.storage.sql.SqlStore``) over a thin layer per database: one SQLite file
(``web.storage.sqlite.SqliteStore``) or a PostgreSQL server (``web.storage.postgres.PostgresStore``:
``transaction`` takes the game's row with ``SELECT ... FOR UPDATE``); see the README's deployment
section. The service that drives the engines over a store is ``web.service``.

``open_store(database)`` opens the store a ``DATABASE`` setting names; the app opens its one
store when it starts (``web.games_api.init_sessions``, under its ``GameSessions``).
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
import time
from abc import ABC, abstractmethod
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import orjson

from errors import InvalidInput
from web.storage.watch import Watcher

if TYPE_CHECKING:
    from web.storage.accounts import AccountTransaction
    from web.storage.chat import ChatLine

HUMAN = "human"
BOT = "bot"
#: ``GameStore.wait``'s ``bot_seen`` when the bots' mark is not followed (no mark's value).
BOT_UNWATCHED = "unwatched"
RUNNING = "running"
OVER = "over"


def new_token() -> str:
    """An unguessable seat token: 32 random bytes (256 bits), URL-safe text."""
    return secrets.token_urlsafe(32)


def hash_token(token: str) -> str:
    """What is stored instead of the token: its SHA-256, hex."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def token_matches(token: str, stored_hash: str | None) -> bool:
    """Constant-time comparison of a presented token with a stored hash."""
    if stored_hash is None:
        return False
    return hmac.compare_digest(hash_token(token), stored_hash)


def turn_deadlines_from_json(data: dict[str, Any]) -> dict[int, float]:
    """A game's stored turn deadlines (JSON: seat numbers as text) by seat."""
    return {int(seat): float(t) for seat, t in data.items()}


@dataclass
class Seat:
    """One seat of a game. A human seat without a token hash is free (open to claim). A free seat
    is ``listed`` (anyone may find it under ``GET /api/games?open=true`` and take it) or an
    invitation (the default: a friend's seat is nobody else's business): only its share link,
    which holds the invitation's secret, can claim it; the secret is stored as ``invite_hash``
    (SHA-256, like a token)."""

    index: int
    type: str
    name: str | None = None
    level: str | None = None
    token_hash: str | None = None
    listed: bool = False
    invite_hash: str | None = None
    #: The account holding the seat (``web.accounts``), if a signed-in player took it: the
    #: seat's ``name`` is then the account's name.
    account: str | None = None
    #: The account that held the seat was deleted: nobody holds it any more, and it reads
    #: "deleted player".
    deleted: bool = False

    @property
    def free(self) -> bool:
        return self.type == HUMAN and self.token_hash is None and not self.deleted

    @property
    def free_listed(self) -> bool:
        """Free, and shown to anyone looking for a game to join."""
        return self.free and self.listed

    def public(self) -> dict[str, Any]:
        """What anyone may know about the seat (never the token hash)."""
        return {
            "index": self.index,
            "type": self.type,
            "name": self.name,
            "level": self.level,
            "open": self.free,
            "listed": self.free_listed,
            "player": self.name if self.account is not None else None,
            "deleted": self.deleted,
        }

    def to_json(self) -> dict[str, Any]:
        out = {
            "index": self.index,
            "type": self.type,
            "name": self.name,
            "level": self.level,
            "token_hash": self.token_hash,
            "listed": self.listed,
            "invite_hash": self.invite_hash,
        }
        if self.account is not None or self.deleted:  # seats of guests stay as they were
            out.update(account=self.account, deleted=self.deleted)
        return out

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Seat:
        return cls(
            data["index"],
            data["type"],
            data.get("name"),
            data.get("level"),
            data.get("token_hash"),
            # seats stored before link-only seats existed were all listed
            data.get("listed", True),
            data.get("invite_hash"),
            data.get("account"),
            bool(data.get("deleted", False)),
        )


@dataclass
class GameRecord:
    """A game's row: everything but the action log."""

    id: str
    kind: str
    options: dict[str, Any]
    seed: int
    seats: list[Seat]
    version: int = 0
    status: str = RUNNING
    origin: str = "play"
    #: The creator gave the seed: they know the deal (every seat is told so).
    seed_chosen: bool = False
    #: Shown in the public lists (``GET /api/games``): false for a game whose free seats were
    #: all invitations (reached by their share links only).
    public: bool = True
    created: float = 0.0
    updated: float = 0.0
    #: When the table acts next, in seconds on the service's clock: the running timed phase's
    #: end, or the first turn clock's (``None``: no clock runs). Set with every append;
    #: ``GameSessions.settle`` acts on it.
    deadline: float | None = None
    #: Seat → when its turn clock runs out (option ``turn_seconds``), for each seat whose turn
    #: clock runs. Set with every append.
    turn_deadlines: dict[int, float] = field(default_factory=dict)
    #: From when (service clock) a table runner may take the game to let its bots move
    #: (``None``: no bot is to act). Set with every append; a runner that takes the game
    #: pushes it to the end of its lease (``web.service.table``).
    bot_due: float | None = None
    #: The last bot move tried failed (logged); a runner tries again at ``bot_due``.
    bot_failed: bool = False
    #: The seats to act as of the last append (none once over): "my games" say whose turn it
    #: is without building a state.
    to_act: list[int] = field(default_factory=list)
    #: The seats' time banks (option ``time_bank_s``), the service's fold over the log's times
    #: as of the last append (``web.service.banks.Banks`` as JSON; ``None``: no bank).
    banks: dict[str, Any] | None = None
    #: The lines of its table chat so far (``web.storage.chat``; never in the action log).
    chat: int = 0
    #: The host's choice: the game counts for the ratings when it qualifies
    #: (``web.accounts.ratings``); a casual table never does.
    rated: bool = True
    #: An open table's settings in the lobby (``web.storage.lobby``, ``web.service.lobby``):
    #: when it expires while a listed seat is still free (``None``: never), and when its free
    #: seats become bots of ``fill_level`` (``None``: they wait for players).
    lobby_until: float | None = None
    fill_at: float | None = None
    fill_level: str | None = None

    @property
    def bot(self) -> str | None:
        """What the page shows of the table's bots: ``thinking``, ``failed`` or ``None``."""
        if self.over:
            return None
        if self.bot_failed:
            return "failed"
        return "thinking" if self.bot_due is not None else None

    @property
    def over(self) -> bool:
        return self.status == OVER

    def seat_of_account(self, account: str) -> int | None:
        """The seat ``account`` holds in this game (an account holds at most one)."""
        return next((s.index for s in self.seats if s.account == account), None)

    @property
    def free_seats(self) -> list[int]:
        """Human seats nobody holds, while the game runs (a finished game has none)."""
        return [] if self.over else [s.index for s in self.seats if s.free]

    def public_seats(self) -> list[dict[str, Any]]:
        """The seats as anyone may see them (``open`` only while the game runs)."""
        return [
            {
                **s.public(),
                "open": s.free and not self.over,
                "listed": s.free_listed and not self.over,
            }
            for s in self.seats
        ]


@dataclass
class ActionRecord:
    """One entry of the action log: version ``n`` is the ``n``-th action of the game; seat
    ``None`` is the table's own action (a timed phase's timeout)."""

    version: int
    seat: int | None
    action: dict[str, Any]
    events: list[dict[str, Any]] = field(default_factory=list)
    time: float = 0.0
    #: The turn clocks that ran after this entry (seat → the entry after which each started),
    #: as the service applied it, in a game with time banks (their fold needs them:
    #: ``web.service.banks``); not stored (a replay gives them again).
    clocks: dict[int, int] | None = field(default=None, compare=False, repr=False)


@dataclass
class AnalysisRecord:
    """A finished game's stored analysis (``web.review``): its state and, once done, the result.

    ``version`` is the analysis code's version (``games.analysis.ANALYSIS_VERSION``) it was
    made with; ``status`` is ``running`` (``done`` of ``total`` actions replayed so far, as of
    ``updated`` on the service's clock), ``done`` (``result`` holds it) or ``failed``
    (``error`` says why)."""

    game: str
    version: int
    status: str
    done: int = 0
    total: int = 0
    result: dict[str, Any] | None = None
    error: str | None = None
    updated: float = 0.0


@dataclass
class Snapshot:
    """A game's state at ``version`` as its engine's ``state_to_json`` wrote it (a cache)."""

    version: int
    state: dict[str, Any]


def storable_json(value: Any, field_path: str) -> str:
    """``value`` as compact JSON text for a store, refused (``check_storable``) when a store
    could not keep it exactly. JSON writes U+0000 only as the escape checked for here, so the
    value itself is walked only when its text has one. Written by orjson (a move writes its
    action and events: a few µs each by the standard library's encoder), which falls back to
    the standard library for what it does not take (an integer beyond 64 bits)."""
    try:
        text = orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()
    except TypeError:
        text = json.dumps(value, separators=(",", ":"), ensure_ascii=False)
    if "\\u0000" in text:
        check_storable(value, field_path)
    return text


def check_storable(value: Any, field_path: str) -> None:
    """Refuse a JSON value that a store cannot keep exactly: a string with U+0000 (PostgreSQL's
    JSONB has no NUL character). Both stores check it, so both refuse the same input."""
    stack = [value]
    while stack:
        v = stack.pop()
        if isinstance(v, str):
            if "\x00" in v:
                raise InvalidInput(
                    "text may not contain the NUL character (U+0000)",
                    field_path,
                    reason="nul_character",
                )
        elif isinstance(v, dict):
            stack.extend(v.keys())
            stack.extend(v.values())
        elif isinstance(v, list | tuple):
            stack.extend(v)


#: When the write being made in this context (a thread, a greenlet) is to be answered by
#: (monotonic seconds), set by ``write_deadline``.
_WRITE_DEADLINE: ContextVar[float | None] = ContextVar("write_deadline", default=None)


@contextmanager
def write_deadline(wait_s: float) -> Iterator[float]:
    """Everything a write waits for in the block (the game's lock in this process, the store's
    locks) ends by ``wait_s`` from now, or by the deadline an enclosing block set; yields the
    deadline (monotonic seconds). A write queued behind others is refused as promptly as the
    first of them (503), never after the sum of their waits."""
    found = _WRITE_DEADLINE.get()
    if found is not None:
        yield found
        return
    deadline = time.monotonic() + wait_s
    token = _WRITE_DEADLINE.set(deadline)
    try:
        yield deadline
    finally:
        _WRITE_DEADLINE.reset(token)


class VersionMoved(Exception):
    """The stored version moved between reading a game's state and its write transaction (an
    optimistic write lost the race: the caller decides what that means)."""

    def __init__(self, current: int) -> None:
        super().__init__(current)
        self.current = current


@dataclass(frozen=True)
class Progress:
    """What an append sets beside the actions: the status, the deadline, when a bot is due, the
    turn deadlines, the seats to act and the time banks. ``Transaction.append`` makes it, once
    for every store, so that a finished game keeps no deadline, no bot due, no turn deadline
    and no seat to act; a store writes what it is given."""

    status: str
    deadline: float | None
    bot_due: float | None
    turn_deadlines: dict[int, float]
    to_act: list[int]
    banks: dict[str, Any] | None


class Transaction(ABC):
    """A game locked for writing; see ``GameStore.transaction`` (both stores':
    ``web.storage.sql.SqlTransaction``)."""

    game: GameRecord

    def append(
        self,
        actions: list[ActionRecord],
        status: str,
        deadline: float | None,
        bot_due: float | None = None,
        turn_deadlines: dict[int, float] | None = None,
        to_act: list[int] | None = None,
        banks: dict[str, Any] | None = None,
    ) -> None:
        """Add actions ``game.version + 1, + 2, ...``, set the status, the deadline, the turn
        deadlines, when a bot is due, the seats to act and the time banks (kept once the game
        is over); bumps the version and wakes the game's followers. An unknown status is a
        ``ValueError`` (a bug, not an input)."""
        if status not in (RUNNING, OVER):
            raise ValueError(f"bad status {status!r}")
        over = status == OVER  # no clock runs and no bot is due in a finished game
        progress = Progress(
            status,
            None if over else deadline,
            None if over else bot_due,
            {} if over or turn_deadlines is None else dict(turn_deadlines),
            [] if over or to_act is None else list(to_act),
            banks,
        )
        self._append(actions, progress)

    @abstractmethod
    def _append(self, actions: list[ActionRecord], progress: Progress) -> None:
        """``append``'s write: ``actions`` (which must continue the log at ``game.version``)
        and ``progress`` (already what a finished game keeps), in the store and in ``game``."""

    @abstractmethod
    def set_bot(self, bot_due: float | None, failed: bool) -> None:
        """Set when a bot is due and the failure mark without appending (a runner's lease, a
        bot with nothing to say, a failed bot); the game's followers are woken when what the
        page shows (``GameRecord.bot``) changes."""

    @abstractmethod
    def set_seats(self, seats: list[Seat]) -> None:
        """Replace the seats (claiming a free seat stores its token hash; the rows of the seats
        accounts hold follow them, ``web.storage.accounts``)."""

    @abstractmethod
    def accounts(self) -> AccountTransaction:
        """The account writes of this transaction (a game's end: results and ratings)."""

    @abstractmethod
    def last_chat(self, seat: int) -> ChatLine | None:
        """The last chat line ``seat`` wrote in the game (its rate allowance)."""

    @abstractmethod
    def add_chat(self, line: ChatLine) -> None:
        """Add chat line ``line.n`` (``game.chat + 1``) and count it; wakes the game's
        followers (no version: the log did not move)."""


class GameStore(ABC):
    """The storage interface the game service needs; one instance per process."""

    @abstractmethod
    def create(self, game: GameRecord, actions: list[ActionRecord]) -> None:
        """Insert a new game with its first actions (an import's whole log), its deadline and
        ``bot_due``, atomically."""

    @abstractmethod
    def get(self, game_id: str) -> GameRecord:
        """The game's row; ``NotFound`` when there is no such game."""

    @abstractmethod
    def version(self, game_id: str) -> int:
        """The game's current version, cheaply (long-polling reads it often)."""

    @abstractmethod
    def actions(
        self, game_id: str, after: int = 0, upto: int | None = None, events: bool = True
    ) -> list[ActionRecord]:
        """Log entries with ``after < version <= upto``, in order; ``events=False`` leaves each
        entry's events empty (a replay needs only seats and actions: nothing to decode)."""

    @abstractmethod
    def watcher(self) -> Watcher:
        """This process's watcher of the store (``web.storage.watch``): one per store."""

    def wait(
        self,
        game_id: str,
        after: int,
        timeout: float,
        chat_after: int | None = None,
        bot_seen: str | None = BOT_UNWATCHED,
    ) -> int:
        """Block until the game's version is above ``after`` (with ``chat_after``: or its chat
        has a line past that one; with ``bot_seen``: or what the page shows of its bots,
        ``GameRecord.bot``, is no longer that) or ``timeout`` seconds have passed; returns the
        version seen last (``NotFound`` for no such game). Sleeps on the process's watcher: no
        query of its own while it waits (a bot's mark wakes it like an append: ``set_bot``)."""
        until = time.monotonic() + timeout

        def news() -> tuple[int, bool]:
            if chat_after is None and bot_seen == BOT_UNWATCHED:
                return self.version(game_id), False
            game = self.get(game_id)
            talk = chat_after is not None and game.chat > chat_after
            return game.version, talk or (bot_seen != BOT_UNWATCHED and game.bot != bot_seen)

        with self.watcher().subscribe(game_id) as sub:
            version, other = news()  # after subscribing: no change can slip by
            while version <= after and not other:
                left = until - time.monotonic()
                if left <= 0:
                    break
                sub.wait(left)
                if sub.news(version):
                    version, other = news()
        return version

    @abstractmethod
    def chat(self, game_id: str, after: int = 0, limit: int = 500) -> list[ChatLine]:
        """The game's chat lines after line ``after``, at most ``limit``, in order."""

    @abstractmethod
    def snapshot(self, game_id: str) -> Snapshot | None:
        """The newest state snapshot stored for the game, if any."""

    @abstractmethod
    def save_snapshot(self, game_id: str, version: int, state: dict[str, Any]) -> None:
        """Keep ``state`` as the game's snapshot at ``version`` unless a newer one is stored.
        Outside any transaction: a snapshot is a cache, written after the log it summarises."""

    @abstractmethod
    def list_games(self, open_only: bool, limit: int) -> list[GameRecord]:
        """Public games (``GameRecord.public``), newest first; ``open_only``: running games with
        a listed free human seat."""

    @abstractmethod
    def due(self, now: float, limit: int = 100) -> list[str]:
        """Running games whose deadline is at or before ``now`` (for the table runner)."""

    @abstractmethod
    def bots_due(self, now: float, limit: int = 100) -> list[str]:
        """Running games whose ``bot_due`` is at or before ``now``, longest due first."""

    @abstractmethod
    def transaction(self, game_id: str) -> AbstractContextManager[Transaction]:
        """Lock one game for writing (others wait); leaving the block commits, an error rolls
        back so that a refused request changes nothing."""

    @abstractmethod
    def game_ids(self) -> Iterator[str]:
        """Every game id (for tools and the restart test)."""

    @abstractmethod
    def analysis(self, game_id: str) -> AnalysisRecord | None:
        """The stored analysis of a game (``None``: none yet)."""

    @abstractmethod
    def save_analysis(self, record: AnalysisRecord) -> None:
        """Store (insert or replace) a game's analysis record."""

    @property
    @abstractmethod
    def schema_version(self) -> int:
        """The schema version the database records (set up or migrated on opening)."""

    #: How long a write may wait for the database's locks before it is refused (503), from
    #: when it asked (``write_deadline``); ``None``: the store bounds its waits itself.
    write_wait_s: float | None = None

    def write_refusal(self) -> str | None:
        """Why this process's writes are refused now, as ``/healthz`` tells it
        (``storage_full``, ``storage_read_only``), or ``None``: known without asking the
        database (``web.storage.sqlite_faults.WriteHealth``)."""
        return None

    def close(self) -> None:  # noqa: B027 - optional hook, nothing to release by default
        """Release the connections this store holds (the calling thread's, or its pool)."""


def is_postgres(database: str) -> bool:
    """Whether a ``DATABASE`` setting names a PostgreSQL server (a ``postgresql://`` URL)."""
    return database.startswith(("postgres://", "postgresql://"))


def open_store(
    database: str,
    lock_wait_s: float | None = None,
    max_bytes: int | None = None,
    read_only: bool = False,
) -> GameStore:
    """The store for a ``DATABASE`` setting: a ``postgresql://`` URL opens ``PostgresStore``
    (psycopg is imported only then), anything else is a SQLite file path, opened with the
    SQLite store's settings (``SqliteStore``: how long a write waits for the locks, the size
    the file may grow to, whether it is served read-only)."""
    if is_postgres(database):
        from web.storage.postgres import PostgresStore

        return PostgresStore(database)
    from web.storage.sqlite import SqliteStore

    return SqliteStore(database, lock_wait_s, max_bytes, read_only)
