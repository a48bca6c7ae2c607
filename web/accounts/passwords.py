"""Passwords: argon2id hashes (argon2-cffi), computed off the event loop.

The parameters are OWASP's first recommended set for argon2id (Password Storage Cheat Sheet):
19 MiB of memory, 2 passes, 1 lane; a hash costs about 25 ms of one core. The hash is a PHC
string (``$argon2id$v=19$m=19456,t=2,p=1$...``) that records them, so a stored hash stays
checkable when they are raised, and a sign-in re-hashes it (``needs_rehash``).

A hash is worked out in a thread of gevent's pool of real threads when the process runs under
gevent (gunicorn's worker; argon2's C code releases the GIL), so a sign-in never holds up the
other connections of its worker; elsewhere it runs in the caller's thread.

Passwords: 8-256 characters, any characters (OWASP: no composition rules; a long passphrase is
welcome), never the account's own name. A password is never logged, stored or returned: only
its hash is kept. ``check`` on an unknown account checks against ``DUMMY`` so that an unknown
name costs the same time as a wrong password.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError

from errors import InvalidInput

T = TypeVar("T")

MIN_PASSWORD = 8
MAX_PASSWORD = 256
HASHER = PasswordHasher(time_cost=2, memory_cost=19456, parallelism=1)


def _off_loop(work: Callable[[], T]) -> T:
    """``work()`` in gevent's thread pool under gevent (module doc), else here."""
    try:
        from gevent import monkey
    except ImportError:  # pragma: no cover - gevent is a dependency
        return work()
    if not monkey.is_module_patched("threading"):
        return work()
    import gevent

    return gevent.get_hub().threadpool.apply(work)


def check_new(password: str, name: str, field: str = "password") -> None:
    """Refuse a password that is too short or too long, or the account's own name."""
    if not MIN_PASSWORD <= len(password) <= MAX_PASSWORD:
        raise InvalidInput(
            f"a password has {MIN_PASSWORD}-{MAX_PASSWORD} characters",
            field,
            reason="password_length",
            params={"min": MIN_PASSWORD, "max": MAX_PASSWORD},
        )
    if password.casefold() == name.casefold():
        raise InvalidInput(
            "a password may not be the account's name", field, reason="password_is_name"
        )


def hash_password(password: str) -> str:
    """The argon2id hash to store for ``password``."""
    return _off_loop(lambda: HASHER.hash(password))


#: A hash of no one's password: an unknown name is checked against it (same cost).
DUMMY = HASHER.hash("no account has this password: it only costs the same time")


def matches(stored_hash: str | None, password: str) -> bool:
    """Whether ``password`` is the one ``stored_hash`` was made from (constant time, in the
    library); ``None`` (no such account) checks against ``DUMMY`` and is ``False``."""

    def verify() -> bool:
        try:
            return HASHER.verify(stored_hash or DUMMY, password) and stored_hash is not None
        except (VerifyMismatchError, VerificationError, InvalidHashError):
            return False

    return _off_loop(verify)


def needs_rehash(stored_hash: str) -> bool:
    """Whether a hash was made with other parameters than today's (re-hash at sign-in)."""
    return HASHER.check_needs_rehash(stored_hash)
