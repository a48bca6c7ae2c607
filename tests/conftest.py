"""Shared fixtures: the app with a temporary SQLite file and a fake clock, and its test client.

The app's clock (``CLOCK``) is a ``FakeClock`` that stands still until a test moves it
(``clock.advance(seconds)``), so answers that carry ``now`` compare equal and deadlines pass
exactly when a test says so.
"""

from __future__ import annotations

import pytest

from app import create_app


class FakeClock:
    """A clock for tests: ``clock()`` gives seconds; it moves only by ``advance``."""

    def __init__(self, start: float = 1_800_000_000.0) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def app(tmp_path, clock):
    return create_app({"TESTING": True, "DATABASE": str(tmp_path / "test.sqlite3"), "CLOCK": clock})


@pytest.fixture
def client(app):
    return app.test_client()
