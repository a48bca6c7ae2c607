"""A new game's table settings: what its host chooses besides the game's rules (rated or not,
bots to fill the free seats after a while) and when an open table leaves the lobby. The
sessions set a table up when they create a game; the lobby (``web.service.lobby``) fills and
ends the tables later. Kept apart from the lobby so the sessions need not import it (the lobby
uses the sessions).
"""

from __future__ import annotations

from dataclasses import dataclass

from errors import InvalidInput
from games.base import GameKind
from web.storage import GameRecord
from web.storage.lobby import lobby_key

#: How long an open table waits in the lobby for its free seats (seconds)...
LOBBY_WAIT_S = 3600.0
#: ... and a game of a turn a day or more (``turn_seconds``), whose players come by daily.
TURN_BASED_WAIT_S = 7 * 86_400.0


@dataclass(frozen=True)
class TableSettings:
    """What a table's host chooses besides the game's rules: ``rated`` (counts for the
    ratings when the game qualifies), and ``fill_after_s`` seconds after it opens, bots of
    ``fill_level`` take the seats still free (``None``: they wait for players)."""

    rated: bool = True
    fill_after_s: float | None = None
    fill_level: str | None = None


#: The settings of a table whose host chose nothing: rated, its free seats wait for players.
OPEN_TABLE = TableSettings()


def set_up(game: GameRecord, kind: GameKind, table: TableSettings, now: float) -> None:
    """A new game's table settings: rated or not and, for an open table (one with a listed
    free seat), when it expires and when bots fill it (a bot level the game has, else 400)."""
    game.rated = table.rated
    level = table.fill_level or next(iter(kind.levels), None)
    asked = table.fill_level is not None or table.fill_after_s is not None
    if asked and level not in kind.bots:  # refused on any table, open or not
        raise InvalidInput(
            f"{kind.name} has no bot level {level!r}",
            "fill_level",
            reason="unknown_level",
            params={"level": level},
        )
    if lobby_key(game) is None:
        return
    turn = game.options.get("turn_seconds")
    wait = TURN_BASED_WAIT_S if turn is not None and turn >= 86_400 else LOBBY_WAIT_S
    game.lobby_until = now + wait
    if table.fill_after_s is not None:
        game.fill_at, game.fill_level = now + table.fill_after_s, level
