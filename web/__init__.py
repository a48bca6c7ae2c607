"""The web layer: blueprints for pages and the JSON API, error handling, storage.

Each feature is a blueprint in its own module; ``register_web`` wires them into the app.
"""

from __future__ import annotations

from flask import Flask


def register_web(app: Flask) -> None:
    from web import errors, pages

    errors.register(app)
    app.register_blueprint(pages.bp)
    for module in _optional_blueprints():
        app.register_blueprint(module.bp)


def _optional_blueprints() -> list:
    """API blueprints, in a fixed order. Each module exposes ``bp``."""
    import importlib

    out = []
    for name in (
        "web.islands_api",
        "web.solver_api",
        "web.games_api",
        "web.puzzles_api",
        "web.docs",
        "web.i18n",
        "web.tobago_pages",
        "web.dao_pages",
    ):
        try:
            out.append(importlib.import_module(name))
        except ModuleNotFoundError as e:
            if e.name != name:
                raise
    return out
