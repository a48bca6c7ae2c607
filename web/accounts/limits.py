"""Limits on asking too often: failed sign-ins per name and per client address, new accounts
per client address (OWASP's Authentication Cheat Sheet: throttle password guessing, whatever
name it aims at).

Attempts are rows of the store (``web.storage.accounts``: ``attempts``), so every worker and
every server counts the same ones. A limit allows ``count`` attempts in any ``window_s``
seconds: the next one is refused with 429 ``TooManyRequests`` and ``Retry-After`` (when the
oldest counted attempt leaves the window) before any password is checked, so a refused guess
costs no hash. A successful sign-in clears the failures counted against its name (not those of
its address).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from errors import TooManyRequests
from web.storage.accounts import AccountsSql


@dataclass(frozen=True)
class Limit:
    """``count`` attempts in any ``window_s`` seconds, counted under keys ``<name>:<what>``;
    ``reason`` is the refusal's."""

    name: str
    count: int
    window_s: float
    reason: str

    def key(self, what: str) -> str:
        return f"{self.name}:{what}"

    def check(self, store: AccountsSql, what: str, now: float) -> None:
        """Refuse (429) when ``what`` has used up its attempts."""
        n, first = store.attempts(self.key(what), now - self.window_s)
        if n >= self.count and first is not None:
            wait = max(1.0, first + self.window_s - now)
            refused = TooManyRequests(
                f"too many attempts: try again in {wait:.0f} s", wait, reason=self.reason
            )
            refused.params["count"] = math.ceil(wait / 60)  # minutes, as pages say it
            raise refused

    def count_one(self, store: AccountsSql, what: str, now: float) -> None:
        store.add_attempt(self.key(what), now, now - self.window_s)

    def clear(self, store: AccountsSql, what: str) -> None:
        store.clear_attempts(self.key(what))


#: Failed sign-ins per account name (by its key) and per client address.
SIGN_IN_NAME = Limit("fail-name", 10, 15 * 60, reason="too_many_sign_ins")
SIGN_IN_ADDRESS = Limit("fail-addr", 10, 15 * 60, reason="too_many_sign_ins")
#: New accounts per client address (a school's pupils share one: room for a class).
SIGN_UPS = Limit("sign-up", 50, 60 * 60, reason="too_many_sign_ups")
