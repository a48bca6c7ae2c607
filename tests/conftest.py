"""Shared fixtures: the app with a temporary SQLite file and a fake clock, and its test client;
the databases of the store suite.

The app's clock (``CLOCK``) is a ``FakeClock`` that stands still until a test moves it
(``clock.advance(seconds)``), so answers that carry ``now`` compare equal and deadlines pass
exactly when a test says so.

``database`` is a ``DATABASE`` setting, once a new SQLite file and once a new database on a real
PostgreSQL server (``pg_cluster``: one throw-away cluster for the whole run, started on first
use, see ``tests/pg_support.py``); a test that takes it runs against both stores.
``open_store_`` opens stores on it (one per simulated process) and closes them afterwards;
``database_app`` is the app on it.
The browser tests' ``browser`` and ``live_server`` (``tests/browser_support.py``) are here for
every test module, so a browser test imports only the helpers it calls.

**The fast loop.** ``pytest -m "not slow"`` leaves out every test marked ``slow``: the ones marked
by hand (many-game simulations, gunicorn started inside a test, schemathesis), and, marked here
at collection, every browser test, every test on the real PostgreSQL server and every test that
takes a module's ``server`` fixture (by convention a real gunicorn on loopback). ``make test``
runs them all.

**A failing test against a real server shows the server's log**: the tail of each ``Gunicorn``
fixture's log and of ``tmp_path/gunicorn.log`` (``tests.servers.gunicorn_in``) is added to its
report, so a 500 in CI comes with its traceback.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Iterator
from pathlib import Path

import pytest
from flask import Flask

import games.base
from app import create_app
from tests.browser_support import browser, live_server  # noqa: F401 (fixtures: every module's)
from tests.pg_support import PostgresCluster
from tests.servers import Gunicorn
from tests.testgame import NAME, BlindAuction
from web.storage import GameStore, open_store


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Browser tests, tests on the PostgreSQL server and tests against a module's gunicorn
    (``server``) are slow (``-m "not slow"`` skips them): each drives Chromium, a throw-away
    cluster or real servers."""
    for item in items:
        params = getattr(item, "callspec", None)
        fixtures = getattr(item, "fixturenames", ())
        on_postgres = params is not None and params.params.get("database") == "postgres"
        real_parts = on_postgres or "pg_cluster" in fixtures or "server" in fixtures
        if item.get_closest_marker("browser") or real_parts:
            item.add_marker(pytest.mark.slow)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo) -> Generator:
    """A failed test's report gains the tail of each real server's log (module doc)."""
    outcome = yield
    report = outcome.get_result()
    if not report.failed:
        return
    funcargs = getattr(item, "funcargs", {})
    logs = {srv.log for srv in funcargs.values() if isinstance(srv, Gunicorn)}
    tmp = funcargs.get("tmp_path")
    if isinstance(tmp, Path):
        logs.add(tmp / "gunicorn.log")
    for log in sorted(logs):
        try:
            tail = log.read_text(errors="replace")[-4000:]
        except OSError:  # removed with its server, or never written
            continue
        report.sections.append((f"gunicorn log {log.name} (tail)", tail))


class FakeClock:
    """A clock for tests: ``clock()`` gives seconds; it moves only by ``advance``."""

    def __init__(self, start: float = 1_800_000_000.0) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@pytest.fixture
def blind_auction(monkeypatch):
    """The test game Blind Auction (``tests.testgame``) registered beside the built-in kinds for
    one test (a file asks for it with ``pytestmark = pytest.mark.usefixtures("blind_auction")``)."""
    games.base.kinds()  # the built-in games first
    monkeypatch.setitem(games.base._REGISTRY, NAME, BlindAuction())


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def app(tmp_path, clock):
    return create_app({"TESTING": True, "DATABASE": str(tmp_path / "test.sqlite3"), "CLOCK": clock})


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture(scope="session")
def pg_cluster() -> Iterator[PostgresCluster]:
    cluster = PostgresCluster().start()
    try:
        yield cluster
    finally:
        cluster.stop()


@pytest.fixture(params=["sqlite", "postgres"])
def database(request, tmp_path) -> str:
    """A new, empty database of each store: a SQLite file path or a ``postgresql://`` URL."""
    if request.param == "sqlite":
        return str(tmp_path / "games.sqlite3")
    return request.getfixturevalue("pg_cluster").new_database()


@pytest.fixture
def database_app(database, clock) -> Iterator[Flask]:
    """The app on ``database`` (so on each store) with the fake clock; its store closed after.
    A module whose tests run on both stores makes it its ``app``."""
    made = create_app({"TESTING": True, "DATABASE": database, "CLOCK": clock})
    yield made
    made.extensions["game_sessions"].store.close()


@pytest.fixture
def open_store_(database) -> Iterator[Callable[[], GameStore]]:
    """Opens a store on ``database`` per call (as separate processes would); all closed after."""
    opened: list[GameStore] = []

    def opener() -> GameStore:
        store = open_store(database)
        opened.append(store)
        return store

    yield opener
    for store in opened:
        store.close()
