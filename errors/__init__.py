"""The project's domain errors: one small hierarchy every layer may import (no HTTP here).

Every error is a ``ValueError`` with

- ``code``: the category, stable and machine-readable (``invalid``, ``not_found``, ``illegal``,
  ``unauthorized``, ``forbidden``, ``stale_version``, ``too_large``, ``timeout``,
  ``busy``, ``unavailable``, ``rate_limited``);
- ``reason``: the precise, stable cause within its category (``removes_no_candidate``,
  ``not_your_turn``...; the category itself when nothing more precise is known), which pages look
  up in their message catalogue (``error.<reason>``) to word the error in the reader's language;
- ``params``: the JSON values the sentence names (a card, a map, a count), for that wording;
- ``message``: the same sentence in English, for API clients and logs;
- ``field``: the path of the input at fault, for example ``maps[0].clues[2]``.

The web layer (``web/errors.py``) alone maps categories to HTTP status codes.
"""

from __future__ import annotations

from typing import Any


class ProjectError(ValueError):
    """Base class: something the caller asked for cannot be done."""

    code = "invalid"

    def __init__(
        self,
        message: str,
        field: str | None = None,
        *,
        reason: str | None = None,
        params: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.field = field
        self.reason = reason or self.code
        self.params: dict[str, Any] = dict(params or {})

    def with_prefix(self, prefix: str) -> ProjectError:
        """The same error with ``prefix`` put in front of its field path."""
        if not prefix:
            return self
        if self.field is None:
            field = prefix
        elif self.field.startswith("["):
            field = prefix + self.field
        else:
            field = f"{prefix}.{self.field}"
        err = ProjectError.__new__(type(self))
        ProjectError.__init__(err, self.message, field, reason=self.reason, params=self.params)
        err.__dict__.update({k: v for k, v in self.__dict__.items() if k not in err.__dict__})
        return err

    def to_json(self) -> dict[str, Any]:
        """``{"code", "reason", "message", "field", "params"}``: the API's error object."""
        return {
            "code": self.code,
            "reason": self.reason,
            "message": self.message,
            "field": self.field,
            "params": self.params,
        }


class InvalidInput(ProjectError):
    """Malformed input: wrong type, unknown name, out of range, unparsable text."""

    code = "invalid"


class NotFound(ProjectError):
    """A named thing (island, game, puzzle, seat) does not exist."""

    code = "not_found"


class IllegalAction(ProjectError):
    """Well-formed, but not allowed in this position (wrong turn, illegal clue, too few points)."""

    code = "illegal"


class Unauthorized(ProjectError):
    """No usable credential (seat token) where one is required."""

    code = "unauthorized"


class Forbidden(ProjectError):
    """A credential that does not give access to this thing (a token of no seat of the game)."""

    code = "forbidden"


class StaleVersion(IllegalAction):
    """The client acted on an old version of a game; ``current`` is the version now."""

    code = "stale_version"

    def __init__(self, given: int, current: int) -> None:
        super().__init__(
            f"version {given} is stale: the game is at version {current}; reload and retry",
            "version",
            params={"given": given, "current": current},
        )
        self.current = current


class TooLarge(InvalidInput):
    """Input over a stated size limit (a body, a log, a list)."""

    code = "too_large"


class RequestTimeout(ProjectError):
    """The request stopped arriving (a body that stalled past the server's read timeout)."""

    code = "timeout"


class Busy(ProjectError):
    """The service cannot take this request now (a limit on waiting clients); retry later."""

    code = "busy"

    def __init__(
        self,
        message: str,
        retry_after_s: float,
        field: str | None = None,
        *,
        reason: str | None = None,
    ) -> None:
        super().__init__(message, field, reason=reason, params={"retry_after": retry_after_s})
        self.retry_after_s = retry_after_s


class DatabaseUnavailable(Busy):
    """The game database cannot be reached now (lost, restarting, or locked past its timeout):
    a request that needs it is refused at once with a time to retry, never left hanging."""

    code = "unavailable"

    def __init__(
        self, message: str, retry_after_s: float = 1.0, *, reason: str = "database_unavailable"
    ) -> None:
        super().__init__(message, retry_after_s, reason=reason)


class StorageFull(DatabaseUnavailable):
    """The game database cannot grow (its disk is full, or it reached the size it may take): a
    write is refused whole, nothing of it kept; reads go on. Freeing room lets writes go on."""

    def __init__(self, message: str, retry_after_s: float = 30.0) -> None:
        super().__init__(message, retry_after_s, reason="storage_full")


class StorageReadOnly(DatabaseUnavailable):
    """The game database is read-only (a read-only volume or file, or the setting that opens it
    so): reads are served, every write is refused."""

    def __init__(self, message: str, retry_after_s: float = 60.0) -> None:
        super().__init__(message, retry_after_s, reason="storage_read_only")


class TooManyRequests(Busy):
    """This client or name asked too often (a limit on failed sign-ins, on new accounts): it may
    ask again after ``retry_after_s`` seconds (429 with ``Retry-After``)."""

    code = "rate_limited"
