"""The Flask service: pages to play and study, the JSON API, game sessions in SQLite.

``create_app(test_config=None)`` is the application factory (Flask's tutorial shape); running this
file starts a development server, while ``make run`` serves it with gunicorn. The web layer only
converts between HTTP and domain objects: rules live in ``hexmap/``, ``solver/`` and ``games/``.
"""

from __future__ import annotations

import os
import time
from typing import Any

from flask import Flask

from games.search import rollouts_from_environ
from web import register_web
from web.accounts_api import init_accounts
from web.games_api import init_sessions
from web.json_provider import OrjsonProvider
from web.service.sessions import MAX_LOG_ENTRIES
from web.service.states import STATE_CACHE_BYTES, parse_budget
from web.service.table import TICK_S


def create_app(test_config: dict[str, Any] | None = None) -> Flask:
    """Build the app. ``test_config`` overrides settings: ``DATABASE`` (a SQLite file path or a
    ``postgresql://`` URL; environment ``TOBAGO_DATABASE``), ``STATE_CACHE_BYTES`` (the memory
    budget of the live states kept per process; ``TOBAGO_STATE_CACHE``, e.g. ``32MB``),
    ``CLOCK`` (a zero-argument callable giving seconds, by which deadlines are judged; default
    ``time.time``), ``TABLE_RUNNER`` (run the table in this process: a thread that settles due
    deadlines and plays due bots every ``TABLE_TICK_S`` seconds, ``web.service.table``; default
    on, but off under ``TESTING`` unless asked for, and off where ``TOBAGO_TABLE_RUNNER`` is
    ``0``: gunicorn's HTTP workers, whose runner is a process of its own), ``MAX_LOG_ENTRIES``
    (the longest log of a game: the table ends a game whose log is full; default 10,000).
    A SQLite database's own: ``SQLITE_LOCK_WAIT_S`` (how long a write waits for the database's
    locks before a 503; ``TOBAGO_SQLITE_LOCK_WAIT_S``; default
    ``web.storage.sqlite.LOCK_WAIT_S``, 5 s), ``SQLITE_MAX_BYTES`` (the
    size the file may grow to, past which writes are refused 503 ``storage_full``;
    ``TOBAGO_SQLITE_MAX_SIZE``, e.g. ``20GB``; default none) and ``DATABASE_READ_ONLY`` (serve
    it without writing; ``TOBAGO_DATABASE_READ_ONLY=1``; a file that cannot be written is
    served so anyway). ``BOT_ROLLOUTS``: each game kind's strong bot's full budget of rollouts a
    decision (kind name → count; ``games.search.VARIABLES``: ``TOBAGO_STRONG_ROLLOUTS``,
    ``DAO_STRONG_ROLLOUTS``, ``ISLA_STRONG_ROLLOUTS``, ``DRAGONS_GOLD_STRONG_ROLLOUTS``; a kind
    not named keeps its default), handed to the bots as ``Thinking(rollouts=...)``."""
    app = Flask(__name__, instance_relative_config=True)
    app.config.from_mapping(
        DATABASE=os.environ.get(
            "TOBAGO_DATABASE", os.path.join(app.instance_path, "tobago.sqlite3")
        ),
        MAX_CONTENT_LENGTH=1024 * 1024,
        JSON_SORT_KEYS=False,
        CLOCK=time.time,
        TABLE_TICK_S=TICK_S,
        MAX_LOG_ENTRIES=MAX_LOG_ENTRIES,
        STATE_CACHE_BYTES=parse_budget(
            os.environ.get("TOBAGO_STATE_CACHE", str(STATE_CACHE_BYTES))
        ),
        SQLITE_LOCK_WAIT_S=(
            float(os.environ["TOBAGO_SQLITE_LOCK_WAIT_S"])
            if os.environ.get("TOBAGO_SQLITE_LOCK_WAIT_S")
            else None
        ),
        SQLITE_MAX_BYTES=(
            parse_budget(os.environ["TOBAGO_SQLITE_MAX_SIZE"])
            if os.environ.get("TOBAGO_SQLITE_MAX_SIZE")
            else None
        ),
        DATABASE_READ_ONLY=os.environ.get("TOBAGO_DATABASE_READ_ONLY", "0") == "1",
        BOT_ROLLOUTS=rollouts_from_environ(),
    )
    if test_config is not None:
        app.config.from_mapping(test_config)
    runner_here = os.environ.get("TOBAGO_TABLE_RUNNER", "1") != "0"
    app.config.setdefault("TABLE_RUNNER", runner_here and not app.config.get("TESTING", False))
    os.makedirs(app.instance_path, exist_ok=True)
    # Answers are written by orjson (web/json_provider.py). Flask 3 reads the provider's
    # attribute, not the old setting: unsorted keys cost less to write and keep each object in
    # the order it was built.
    app.json = OrjsonProvider(app)
    app.json.sort_keys = app.config["JSON_SORT_KEYS"]
    register_web(app)
    init_sessions(app)
    init_accounts(app)
    return app


if __name__ == "__main__":
    create_app().run(host="127.0.0.1", port=int(os.environ.get("PORT", "5000")))
