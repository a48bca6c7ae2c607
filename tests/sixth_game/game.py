"""Nim registered for a test, as the built-in games are for the whole service: the engine in
the registry (``games.base``), its descriptor where the site finds descriptors
(``web.game_site``), its words folder in the catalogues (``i18n.add_folder``). All of it undone
when the test ends; no shared file names Nim (``tests/sixth_game/test_sixth_game.py`` checks).

A test asks for the fixture ``nim_game`` (before ``app``, so the service it builds registers
Nim's blueprint): ``pytestmark = pytest.mark.usefixtures("nim_game")``.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

import games.base
import i18n
from tests.sixth_game.engine import NAME, Nim
from web import game_site

WORDS = Path(__file__).resolve().parent / "i18n"


@contextmanager
def registered() -> Iterator[Nim]:
    """Nim in the registry, its descriptor and its words, for the ``with`` block."""
    from tests.sixth_game.site import SITE

    games.base.kinds()  # the built-in games first
    kind = Nim()
    with pytest.MonkeyPatch.context() as mp:
        mp.setitem(games.base._REGISTRY, NAME, kind)
        mp.setitem(game_site._SITES, NAME, SITE)
        i18n.add_folder(WORDS)
        try:
            yield kind
        finally:
            i18n.remove_folder(WORDS)


@pytest.fixture
def nim_game() -> Iterator[Nim]:
    with registered() as kind:
        yield kind
