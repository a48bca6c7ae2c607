"""The project-wide error hierarchy.

It lives in the bottom layer so that every layer (hexmap, solver, games, web) can raise it.
Every error is a ``ValueError`` carrying a machine-readable ``code``, a human ``message`` and the
``field`` path of the input at fault (for example ``maps[0].clues[2]``), so the web layer can turn
it into ``{"error": {"code", "message", "field"}}`` without knowing where it came from.
"""

from __future__ import annotations


class ProjectError(ValueError):
    """Base class: something the caller asked for cannot be done."""

    code = "invalid"
    status = 400

    def __init__(self, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.field = field

    def with_prefix(self, prefix: str) -> ProjectError:
        """Return the same error with ``prefix`` put in front of its field path."""
        if not prefix:
            return self
        if self.field is None:
            field = prefix
        elif self.field.startswith("["):
            field = prefix + self.field
        else:
            field = f"{prefix}.{self.field}"
        err = type(self)(self.message, field)
        return err

    def to_json(self) -> dict:
        return {"code": self.code, "message": self.message, "field": self.field}


class InvalidInput(ProjectError):
    """Malformed input: wrong type, unknown name, out of range, unparsable text."""

    code = "invalid"
    status = 400


class NotFound(ProjectError):
    """A named thing (island, game, puzzle) does not exist."""

    code = "not_found"
    status = 404


class IllegalAction(ProjectError):
    """Well-formed, but not allowed in this position (wrong turn, illegal clue, too few points)."""

    code = "illegal"
    status = 409
