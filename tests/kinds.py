"""The game kinds the tests run over, read from the engines' registry, never listed by hand.

A test about "every game" takes ``BUILTIN`` (the kinds the modules of
``games.base.BUILTIN_GAMES`` register, in that order), so a game added to that list is tested
with no test edited. A test that needs something per kind (a seat count, a budget, expected
words) keeps its table but passes it through ``covering``, which fails at collection when a
registered game has no entry: a new game makes such a test fail, never pass without it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TypeVar

from games.base import BUILTIN_GAMES, GameKind, kinds

T = TypeVar("T")


def _package(kind: GameKind) -> str | None:
    """The module of ``BUILTIN_GAMES`` the kind's class lives under (``None``: not built in)."""
    module = type(kind).__module__
    return next((p for p in BUILTIN_GAMES if module == p or module.startswith(p + ".")), None)


def builtin() -> tuple[str, ...]:
    """The built-in kinds' names, in the order of ``BUILTIN_GAMES``."""
    order = {package: i for i, package in enumerate(BUILTIN_GAMES)}
    found = [(order[p], name) for name, kind in kinds().items() if (p := _package(kind)) in order]
    return tuple(name for _, name in sorted(found))


#: Every built-in kind (the registry's).
BUILTIN: tuple[str, ...] = builtin()


def covering(table: Mapping[str, T], *others: str) -> Mapping[str, T]:
    """``table`` (an entry per kind), checked to name every built-in kind (and ``others``) and
    nothing else; a kind without its entry raises, so the test module fails to load."""
    wanted = {*BUILTIN, *others}
    if set(table) != wanted:
        raise AssertionError(
            f"an entry per kind: missing {sorted(wanted - set(table))}, "
            f"unknown {sorted(set(table) - wanted)}"
        )
    return table
