"""The web layer: blueprints for pages and the JSON API, error handling, storage.

Each feature is a blueprint in its own module; ``register_web`` wires them into the app from an
explicit list, so a renamed or broken module is an import error, never silently missing routes.
"""

from __future__ import annotations

from flask import Flask

from web import (
    dao_pages,
    docs,
    dragons_gold_pages,
    errors,
    games_api,
    i18n,
    isla_dorada_pages,
    islands_api,
    pages,
    puzzles_api,
    review_api,
    review_pages,
    security,
    solver_api,
    tobago_pages,
)
from web.apidoc import install_converters

#: Every blueprint module of the service, in registration order (each exposes ``bp``).
BLUEPRINTS = (
    pages,
    islands_api,
    solver_api,
    games_api,
    puzzles_api,
    docs,
    i18n,
    tobago_pages,
    dao_pages,
    isla_dorada_pages,
    dragons_gold_pages,
    review_api,
    review_pages,
)


def register_web(app: Flask) -> None:
    errors.register(app)
    security.register(app)
    install_converters(app)
    for module in BLUEPRINTS:
        app.register_blueprint(module.bp)
