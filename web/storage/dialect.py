"""What the SQL stores share below the statements: a driver's ``Cursor`` and ``Connection`` (as
the shared code uses them) and ``Dialect``, a database's way of writing a statement (its
parameter mark), and ``StoreLayer``, what the statement groups' store mixins use of the store
they are mixed into.

Its own module so that the statement groups (``web.storage.accounts``, ``chat``, ``lobby``,
``mail``) and ``web.storage.sql``, which gathers them into ``Statements``, all build on it and
none imports ``sql`` back.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from web.storage import GameRecord


class Cursor(Protocol):
    """What the shared store uses of a driver's cursor (``sqlite3``'s, psycopg's)."""

    def fetchone(self) -> Any: ...

    def fetchall(self) -> list[Any]: ...

    def executemany(self, query: str, _rows: Iterable[Sequence[Any]], /) -> Any: ...

    def close(self) -> None: ...


class Connection(Protocol):
    """What the shared store uses of a driver's connection."""

    def execute(self, query: str, params: Sequence[Any] = ..., /) -> Cursor: ...

    def cursor(self) -> Cursor: ...


class Dialect:
    """Statements written with ``?`` for a parameter, put in one database's words: its
    parameter mark ``param`` (``?`` for SQLite, ``%s`` for psycopg)."""

    def __init__(self, param: str) -> None:
        self.param = param

    def say(self, statement: str) -> str:
        return statement.replace("?", self.param)

    def insert(self, table: str, columns: Iterable[str]) -> str:
        """``INSERT INTO table (columns) VALUES (one parameter a column)``."""
        names = list(columns)
        marks = ", ".join([self.param] * len(names))
        return f"INSERT INTO {table} ({', '.join(names)}) VALUES ({marks})"


class StoreLayer:
    """What the store mixins (``AccountsSql``, ``LobbySql``, ``MailSql``) use of the
    ``web.storage.sql.SqlStore`` they are mixed into, declared once for the type checker
    (``SqlStore`` and its database's layer give each)."""

    if TYPE_CHECKING:

        def _reading(self) -> AbstractContextManager[Connection]: ...

        def _writing(self) -> AbstractContextManager[Connection]: ...

        def _one(self, sql: str, args: Sequence[Any] = ()) -> Any: ...

        def _all(self, sql: str, args: Sequence[Any] = ()) -> list[Any]: ...

        def _decode(self, value: Any) -> Any: ...

        def game_from_row(self, row: Mapping[str, Any]) -> GameRecord: ...
