"""The store's side of "your turn" e-mails: an account's address, whether it wants them, and
which turns were mailed (``web.accounts.mail`` sends them).

Columns of ``accounts``: ``email`` (``NULL``: none given), ``mail_off`` (turned off, by the
account page or the unsubscribe link) and ``mail_token`` (the unsubscribe link's secret: it can
only turn the e-mails off, so it is kept as it is, to be put in every e-mail). Table
``turn_mails``: one row per (game, seat, turn), the turn known by when it began, written before
the e-mail is sent, so a turn is mailed at most once, whichever table process gets there first.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from web.storage.dialect import Dialect, StoreLayer


def mail_tables(real: str, boolean: str, false: str) -> tuple[str, ...]:
    """The statements adding the e-mails' columns and table (a new database runs them after
    creating the accounts' tables; an older one as its migration)."""
    return (
        "ALTER TABLE accounts ADD COLUMN email TEXT",
        f"ALTER TABLE accounts ADD COLUMN mail_off {boolean} NOT NULL DEFAULT {false}",
        "ALTER TABLE accounts ADD COLUMN mail_token TEXT",
        f"""CREATE TABLE turn_mails (
            game    TEXT NOT NULL REFERENCES games (id),
            seat    INTEGER NOT NULL,
            turn    {real} NOT NULL,
            sent    {real} NOT NULL,
            PRIMARY KEY (game, seat, turn)
        )""",
        "CREATE INDEX accounts_mail ON accounts (mail_token)",
    )


@dataclass(frozen=True)
class Waiting:
    """A turn-based game's seat whose account wants e-mails and may be owed one: the game,
    the seat, its kind, its turn deadlines and options, and the account's address, name and
    unsubscribe secret."""

    game: str
    seat: int
    kind: str
    to_act: list[int]
    turn_deadlines: dict[int, float]
    options: dict[str, Any]
    email: str
    name: str
    token: str


class MailStatements:
    """The e-mails' statements in one database's words."""

    def __init__(self, sql: Dialect) -> None:
        say = sql.say
        self.set_email = say(
            "UPDATE accounts SET email = ?, mail_off = ?, mail_token = ? WHERE id = ?"
        )
        self.email = say("SELECT email, mail_off FROM accounts WHERE id = ?")
        self.stop = say(
            "UPDATE accounts SET mail_off = ? WHERE mail_token = ? AND email IS NOT NULL"
            " RETURNING id"
        )
        self.waiting = say(
            "SELECT p.game, p.seat, g.kind, g.to_act, g.turn_deadlines, g.options, a.email,"
            " a.name, a.mail_token FROM players p JOIN accounts a ON a.id = p.account"
            " JOIN games g ON g.id = p.game WHERE p.ended IS NULL AND a.email IS NOT NULL"
            " AND NOT a.mail_off AND g.status = 'running' AND g.turn_deadlines IS NOT NULL"
            " LIMIT ?"
        )
        self.mailed = say(
            "INSERT INTO turn_mails (game, seat, turn, sent) VALUES (?, ?, ?, ?)"
            " ON CONFLICT (game, seat, turn) DO NOTHING RETURNING game"
        )
        self.unmailed = say("DELETE FROM turn_mails WHERE game = ? AND seat = ? AND turn = ?")


class MailSql(StoreLayer):
    """The e-mails' storage over a ``SqlStore``'s layer (mixed into ``SqlStore``)."""

    if TYPE_CHECKING:

        @property
        def mail_sql(self) -> MailStatements: ...

    def set_email(self, account_id: str, email: str | None, token: str) -> None:
        """The account's address (``None``: none) and a new unsubscribe secret; e-mails on."""
        with self._writing() as conn:
            conn.execute(self.mail_sql.set_email, (email, False, token, account_id))

    def email_of(self, account_id: str) -> tuple[str | None, bool]:
        """The account's address and whether its e-mails are turned off."""
        row = self._one(self.mail_sql.email, (account_id,))
        return (None, False) if row is None else (row["email"], bool(row["mail_off"]))

    def stop_mail(self, token: str) -> bool:
        """Turn off the e-mails of the account whose unsubscribe secret is ``token``; whether
        there is one."""
        with self._writing() as conn:
            return conn.execute(self.mail_sql.stop, (True, token)).fetchone() is not None

    def waiting(self, limit: int) -> list[Waiting]:
        """The seats that may be owed a turn e-mail (``Waiting``; the caller decides)."""
        out = []
        for r in self._all(self.mail_sql.waiting, (limit,)):
            turns = self._decode(r["turn_deadlines"]) or {}
            out.append(
                Waiting(
                    r["game"],
                    r["seat"],
                    r["kind"],
                    list(self._decode(r["to_act"]) or []) if r["to_act"] is not None else [],
                    {int(s): float(t) for s, t in turns.items()},
                    dict(self._decode(r["options"])),
                    r["email"],
                    r["name"],
                    r["mail_token"],
                )
            )
        return out

    def claim_mail(self, game: str, seat: int, turn: float, now: float) -> bool:
        """Mark the turn as mailed; ``False`` when it was already (by this or another process)."""
        with self._writing() as conn:
            row = conn.execute(self.mail_sql.mailed, (game, seat, turn, now)).fetchone()
        return row is not None

    def unclaim_mail(self, game: str, seat: int, turn: float) -> None:
        """Forget a turn's mark (its e-mail could not be sent: a later tick tries again)."""
        with self._writing() as conn:
            conn.execute(self.mail_sql.unmailed, (game, seat, turn))
