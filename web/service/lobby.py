"""The lobby: open tables by game kind, "Play now", and the tables that fill with bots or expire.

**Open tables** are the running public games with a listed free seat (``web.storage.lobby``:
each keyed ``<kind>/<seats>/<time control>``), the longest waiting first. A table's host sets
(``web.service.table_settings``, with the new game): whether it is rated (a casual table never is), and
whether, after a wait, bots of a level take the seats still free. A table nobody fills expires:
after ``LOBBY_WAIT_S`` (``TURN_BASED_WAIT_S`` for a game of a turn a day or more), a table with
a listed seat still free ends by the table's ``END_EXPIRED`` entry (``games.turns``): scored as
it stands, neither rated nor counted in anyone's results.

**Play now** (``quick_play``: a game kind, a range of seat counts, a time control) takes the
first listed free seat of the longest waiting open table that fits (not one the player's
account sits at already), or opens a table of the fewest seats asked for, the player in seat 0
and the others listed, for the next player to find. Two players who ask at the same moment
meet: each opens a table, then looks again for an older table that fits; the one who finds the
other's takes a seat there and closes their own (it ends as expired, before any move of theirs),
so both sit at the older table. "Older" is the order the store wrote the tables in
(``LobbySql.lobby_created``), so of two tables each player sees the one stored first. Claims are the seats' own transactions (``web.service.seats``):
one seat, one claim, whatever the race.

The table runner (``web.service.table``) calls ``tidy`` every ``TIDY_S`` seconds (one of its
chores, ``web.games_api.init_sessions``): it fills the
tables whose bots are due and ends the ones whose time is up.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from errors import IllegalAction, InvalidInput, ProjectError
from games.base import SYSTEM, GameKind, get_kind
from games.turns import END_EXPIRED, time_control
from web.service.moves import apply_move
from web.storage import BOT, ActionRecord, GameRecord, Seat
from web.storage.lobby import LobbySql, lobby_key

if TYPE_CHECKING:
    from web.service.seats import Holder
    from web.service.sessions import GameSessions

log = logging.getLogger(__name__)

#: How often the table runner fills and ends due tables (seconds).
TIDY_S = 1.0
#: Tables tried per seat count when looking for one to join.
LOOK_AT = 5


def _store(sessions: GameSessions) -> LobbySql:
    store = sessions.store
    assert isinstance(store, LobbySql)
    return store


def waiting(game: GameRecord) -> list[int]:
    """An open table's listed free seats."""
    return [s.index for s in game.seats if s.free_listed]


@dataclass(frozen=True)
class Seated:
    """Where "Play now" sat a player: the game, the seat, its token (given once), and
    whether the player joined a waiting table (else they opened this one)."""

    game: GameRecord
    seat: int
    token: str
    joined: bool


def quick_play(
    sessions: GameSessions,
    kind_name: str,
    seats: tuple[int, int],
    options: dict[str, Any],
    name: str | None,
    holder: Holder | None,
    avoid: frozenset[str] = frozenset(),
) -> Seated:
    """A seat at an open table of ``kind_name`` with ``seats[0]``-``seats[1]`` seats and the
    time control of ``options``: the longest waiting one that fits, or a new one (module doc).
    ``avoid``: games not to join (a guest's own tables: a browser knows them, the server does
    not)."""
    kind = get_kind(kind_name)
    low, high = seats
    for n in (low, high):
        kind.check_seats(n)
    if low > high:
        raise InvalidInput(
            f"the fewest seats ({low}) is more than the most ({high})",
            "seats",
            reason="seats_range",
            params={"min": low, "max": high},
        )
    rules = kind.resolve_options(options, low)
    clock = time_control(rules)
    keys = [f"{kind.name}/{n}/{clock}" for n in range(low, high + 1)]
    found = _join(sessions, keys, name, holder, avoid)
    if found is not None:
        return found
    specs: list[dict[str, Any]] = [{"type": "human", "name": name}]
    specs += [{"type": "human", "open": True, "listed": True} for _ in range(low - 1)]
    game, tokens, _, _ = sessions.create(kind.name, specs, options, None, holder)
    older = _join(sessions, keys[:1], name, holder, avoid, before=game)
    if older is not None:  # someone opened one a moment before: both sit there
        close(sessions, game)
        return older
    return Seated(game, 0, tokens[0], False)


def _join(
    sessions: GameSessions,
    keys: list[str],
    name: str | None,
    holder: Holder | None,
    avoid: frozenset[str],
    before: GameRecord | None = None,
) -> Seated | None:
    """A seat at the longest waiting table of one of ``keys`` (opened before ``before``, if
    given, and not ``before`` itself; none of ``avoid``), or ``None``."""
    tables = [g for key in keys for g in _store(sessions).tables_keyed(key, LOOK_AT)]
    tables.sort(key=lambda g: (g.created, g.id))
    for table in tables:
        if table.id in avoid:
            continue
        # (opened before ``before`` by time, then id: two tables opened at the same instant
        # agree on which is older, so their players meet at one instead of crossing)
        if before is not None and (table.created, table.id) >= (before.created, before.id):
            continue
        if holder is not None and table.seat_of_account(holder.id) is not None:
            continue
        for seat in waiting(table):
            try:
                game, token = sessions.claim(table.id, seat, name, None, holder)
            except IllegalAction:  # taken meanwhile, or the game ended: the next one
                continue
            return Seated(game, seat, token, True)
    return None


def close(sessions: GameSessions, game: GameRecord) -> GameRecord:
    """End an open table by the table's ``END_EXPIRED`` entry (it left the lobby unfilled)."""

    def plan(current: GameRecord, state: Any, kind: GameKind) -> list[ActionRecord]:
        if lobby_key(current) is None:
            return []  # filled or ended meanwhile
        version = current.version + 1
        events = apply_move(kind, state, SYSTEM, dict(END_EXPIRED))
        return [ActionRecord(version, SYSTEM, dict(END_EXPIRED), events, sessions.clock())]

    return sessions._write(game, plan)[0]


def fill(sessions: GameSessions, game_id: str) -> None:
    """Bots of the table's ``fill_level`` take its listed free seats; their moves are due."""
    now = sessions.clock()
    with sessions.store.transaction(game_id) as tx:
        game = tx.game
        level = game.fill_level
        if lobby_key(game) is None or level is None or game.fill_at is None:
            return
        seats = [
            Seat(s.index, BOT, f"{level} bot", level) if s.free_listed else s for s in game.seats
        ]
        tx.set_seats(seats)
        if any(s.type == BOT and s.index in game.to_act for s in seats):
            tx.set_bot(now, False)  # a new bot is to act: the runner plays it
    sessions._bots_due(game)


def tidy(sessions: GameSessions) -> int:
    """Fill the open tables whose bots are due and end the ones whose time is up (the table
    runner's chore, every ``TIDY_S``); the tables changed."""
    now = sessions.clock()
    n = 0
    for game_id in _store(sessions).lobby_due(now):
        try:
            game = sessions.store.get(game_id)
            if game.fill_at is not None and game.fill_at <= now:
                fill(sessions, game_id)
            elif game.lobby_until is not None and game.lobby_until <= now:
                close(sessions, game)
            n += 1
        except ProjectError as e:  # a table stored under earlier rules, a lost database
            log.warning("could not tidy the table %s: %s", game_id, e)
    return n
