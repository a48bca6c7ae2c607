"""Your turn by e-mail: an account that gave an address gets one e-mail when it has been its
turn in a turn-based game (option ``turn_seconds``) for ``after_s`` seconds, one per game per
turn, with a link to the game and one to turn the e-mails off that needs no sign-in.

Sent by the table's process (``web.service.table``'s chores, every ``TICK_S``) through the SMTP
server the app's settings name (``SMTP_HOST``, ``SMTP_PORT``, ``MAIL_FROM``; no host: no e-mail
is ever sent), with ``TURN_MAIL_AFTER_S`` and ``BASE_URL`` (where the links lead) besides: each
declared, with its variable and default, in ``web.config``. A seat's turn began at its turn
deadline less ``turn_seconds`` (``games.turns``: its clock starts when its turn does); a turn's
mail is marked in the store before it is sent (``turn_mails``), so two table processes never
send it twice, and unmarked again when the SMTP server refuses it, so a later look tries again.
The e-mail is in English and Traditional Chinese (an account has no language of its own).
"""

from __future__ import annotations

import logging
import re
import smtplib
from collections.abc import Mapping
from dataclasses import dataclass
from email.message import EmailMessage
from email.policy import SMTP
from typing import Any

from errors import InvalidInput
from i18n import translate
from web.config import BY_NAME
from web.storage.mail import MailSql, Waiting

log = logging.getLogger(__name__)

#: How often the table's process looks for turns to mail (seconds).
TICK_S = 10.0
#: The most seats looked at in one look.
LOOK_AT = 5000
#: An address as this site takes it: something@somewhere.tld, no spaces, at most 254 characters.
ADDRESS = re.compile(r"[^@\s]{1,64}@[^@\s]+\.[^@\s.]+")
MAX_ADDRESS = 254
#: Headers kept on one line up to SMTP's limit (998): a long link folded into encoded words is
#: no link to a mail client.
UNFOLDED = SMTP.clone(max_line_length=998)


def checked_address(raw: str | None) -> str | None:
    """An e-mail address as given (trimmed), ``None`` for none, or 400 ``bad_email``."""
    if raw is None or not raw.strip():
        return None
    address = raw.strip()
    if len(address) > MAX_ADDRESS or ADDRESS.fullmatch(address) is None:
        raise InvalidInput("this does not look like an e-mail address", "email", reason="bad_email")
    return address


@dataclass(frozen=True)
class MailSettings:
    """Where and when turn e-mails go (module doc); ``host`` ``None``: none is sent."""

    host: str | None
    port: int
    sender: str
    after_s: float
    base_url: str

    @classmethod
    def of(cls, config: Mapping[str, Any]) -> MailSettings:
        """The settings of an app's ``config`` (``web.config.build``'s); a key it lacks takes
        its declared default."""

        def setting(name: str) -> Any:
            return config.get(name, BY_NAME[name].default)

        return cls(
            setting("SMTP_HOST") or None,
            int(setting("SMTP_PORT")),
            str(setting("MAIL_FROM")),
            float(setting("TURN_MAIL_AFTER_S")),
            str(setting("BASE_URL")).rstrip("/"),
        )


def turn_began(w: Waiting) -> float | None:
    """When the seat's turn began, if it is its turn in a turn-based game."""
    limit = w.options.get("turn_seconds")
    deadline = w.turn_deadlines.get(w.seat)
    if limit is None or deadline is None or w.seat not in w.to_act:
        return None
    return deadline - float(limit)


def message(w: Waiting, settings: MailSettings) -> EmailMessage:
    """The e-mail of ``w``'s turn."""
    game_url = f"{settings.base_url}/{w.kind}/games/{w.game}"
    stop_url = f"{settings.base_url}/mail/stop?t={w.token}"
    title = {lang: translate(lang, f"games.{w.kind}.title") for lang in ("en", "zh")}
    msg = EmailMessage(policy=UNFOLDED)
    msg["Subject"] = f"{translate('en', 'mail.subject', game=title['en'])} / " + translate(
        "zh", "mail.subject", game=title["zh"]
    )
    msg["From"] = settings.sender
    msg["To"] = w.email
    msg["List-Unsubscribe"] = f"<{stop_url}>"
    msg.set_content(
        "\n\n".join(
            translate(lang, "mail.body", name=w.name, game=title[lang], url=game_url, stop=stop_url)
            for lang in ("en", "zh")
        )
        + "\n"
    )
    return msg


def send_due(store: MailSql, settings: MailSettings, now: float) -> int:
    """Send every turn e-mail owed at ``now`` (module doc); the e-mails sent."""
    if settings.host is None:
        return 0
    sent = 0
    for w in store.waiting(LOOK_AT):
        began = turn_began(w)
        if began is None or now - began < settings.after_s:
            continue
        if not store.claim_mail(w.game, w.seat, began, now):
            continue  # mailed already
        try:
            with smtplib.SMTP(settings.host, settings.port, timeout=10) as smtp:
                smtp.send_message(message(w, settings))
        except (OSError, smtplib.SMTPException) as e:
            log.warning("could not send the turn e-mail of %s seat %s: %r", w.game, w.seat, e)
            store.unclaim_mail(w.game, w.seat, began)
            continue
        sent += 1
    return sent
