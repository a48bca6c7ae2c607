"""The web layer: blueprints for pages and the JSON API, error handling, storage.

Each feature is a blueprint in its own module. ``register_web`` wires into the app the shared
ones from the explicit list ``BLUEPRINTS`` (a renamed or broken module is an import error, never
silently missing routes), then every game's own, named by its descriptor
(``web.game_site.GameSite.blueprints``, found for every registered kind); last, the lean path
(``web.lean``) goes in front of Flask for the routes registered on it, and in front of all the
per-client limits (``web.client_limits``: behind trusted proxies, the forwarded address).
"""

from __future__ import annotations

from flask import Flask

from web import (
    accounts_api,
    accounts_pages,
    chat_api,
    client_limits,
    docs,
    errors,
    game_pages,
    games_api,
    i18n,
    lobby_api,
    pages,
    review_api,
    review_pages,
    rules_pages,
    security,
    turn_mail,
)
from web.apidoc import install_converters
from web.game_site import sites
from web.lean import install as install_lean

#: The shared blueprint modules of the service, in registration order (each exposes ``bp``).
BLUEPRINTS = (
    pages,
    games_api,
    docs,
    i18n,
    rules_pages,
    review_api,
    review_pages,
    game_pages,
    accounts_api,
    accounts_pages,
    turn_mail,
    chat_api,
    lobby_api,
)


def register_web(app: Flask) -> None:
    errors.register(app)
    security.register(app)
    install_converters(app)
    game_pages.install_converters(app)
    for module in BLUEPRINTS:
        app.register_blueprint(module.bp)
    for site in sites():
        for blueprint in site.blueprints:
            app.register_blueprint(blueprint)
    install_lean(app)
    client_limits.install(app)
