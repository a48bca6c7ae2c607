"""The Flask service: pages to play and study, the JSON API, game sessions in SQLite.

``create_app(test_config=None)`` is the application factory (Flask's tutorial shape); running this
file starts a development server, while ``make run`` serves it with gunicorn. The web layer only
converts between HTTP and domain objects: rules live in ``hexmap/``, ``solver/`` and ``games/``.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from flask import Flask

from web import register_web
from web.accounts_api import init_accounts
from web.config import ConfigError, build, from_environment
from web.games_api import init_sessions
from web.json_provider import OrjsonProvider


def create_app(test_config: Mapping[str, Any] | None = None) -> Flask:
    """Build the app. Its configuration is ``web.config.build``'s: every setting's default, then
    the instance file (``instance/config.toml``), then the environment (``TOBAGO_*``), then
    ``test_config`` (any key, as given: tests' overrides win). Every setting, its variable and
    its default are declared once in ``web/config.py`` (the README's "Settings" lists them); a
    bad value stops the start with a ``web.config.ConfigError`` naming it."""
    app = Flask(__name__, instance_relative_config=True)
    app.config.from_mapping(build(app.instance_path, test_config))
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
    try:
        dev_app, dev_port = create_app(), from_environment("PORT")
    except ConfigError as e:
        raise SystemExit(f"configuration: {e}") from None
    dev_app.run(host="127.0.0.1", port=dev_port)
