"""Seeds: the one shape every seeded thing in the project accepts.

A seed is a non-negative ``int`` below ``2**63`` (so it fits a signed 64-bit column and a JSON
number without loss). ``bool`` is refused even though it is an ``int`` in Python, and so are
floats and strings: a seed names an island or a placement exactly, and ``True`` or ``"7"`` would
silently name something else.
"""

from __future__ import annotations

from typing import Any

from errors import InvalidInput

#: Seeds are below this bound.
SEED_LIMIT = 2**63


def check_seed(value: Any, field: str = "seed") -> int:
    """``value`` if it is a valid seed, else ``InvalidInput`` naming ``field``."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidInput(f"a seed must be an integer, got {type(value).__name__}", field)
    if not 0 <= value < SEED_LIMIT:
        raise InvalidInput(f"a seed must be between 0 and 2**63 - 1, got {value}", field)
    return value


def parse_seed(text: str, field: str = "seed") -> int:
    """A seed written in decimal (URL paths and query strings), checked like ``check_seed``."""
    text = text.strip()
    if not text.isascii() or not text.isdigit():
        raise InvalidInput(f"a seed must be a non-negative decimal integer, got {text!r}", field)
    if len(text) > 19:
        raise InvalidInput("a seed must be between 0 and 2**63 - 1", field)
    return check_seed(int(text), field)
