"""What the SQL stores share below the statements: a driver's ``Cursor`` and ``Connection`` (as
the shared code uses them) and ``Dialect``, a database's way of writing a statement (its
parameter mark).

Its own module so that the statement groups (``web.storage.accounts``, ``chat``, ``lobby``,
``mail``) and ``web.storage.sql``, which gathers them into ``Statements``, all build on it and
none imports ``sql`` back.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, Protocol


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
