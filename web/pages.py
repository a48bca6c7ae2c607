"""HTML pages: the home page and what links from it, and the site's menu on every page.

The games on the home page and in the menu (``templates/base.html``) are the listed games'
descriptors (``web.game_site.listed_sites``), the built-in games first, each with its own links.
"""

from __future__ import annotations

from functools import cache, partial
from typing import Any

from flask import (
    Blueprint,
    Response,
    current_app,
    render_template,
    request,
    send_from_directory,
    url_for,
)
from markupsafe import Markup

from games.base import kinds
from i18n import translate
from web.game_site import listed_sites
from web.i18n import current_lang

bp = Blueprint("pages", __name__)


@cache
def _static_url(root: str, filename: str) -> str:
    return url_for("static", filename=filename)


def static_url(filename: str) -> str:
    """``url_for("static", filename=...)`` for templates, worked out once per file (and script
    root): the frame of every page names its stylesheet and scripts with it, and a ``url_for``
    costs several µs a call."""
    return _static_url(request.script_root, filename)


@cache
def _menu(lang: str, games: tuple[str, ...]) -> Markup:
    template = current_app.jinja_env.get_template("site_menu.html")
    return Markup(template.render(game_sites=listed_sites(), tr=partial(translate, lang)))


def site_menu() -> Markup:
    """The menu's links (``templates/site_menu.html``) in the request's language, rendered once
    per language and set of registered games: every page shows them."""
    return _menu(current_lang(), tuple(kinds()))


@bp.app_context_processor
def _games() -> dict:
    """``game_sites`` for every template: the games of the menu, the home and error pages;
    ``static_url`` and ``site_menu``."""
    return {"game_sites": listed_sites(), "static_url": static_url, "site_menu": site_menu}


@bp.get("/")
def home() -> str:
    return render_template("home.html")


@bp.get("/favicon.ico")
def favicon() -> Response:
    """Browsers ask for /favicon.ico whatever the page links: the site's icon as an .ico."""
    return send_from_directory(
        bp.root_path + "/../static/common", "favicon.ico", mimetype="image/vnd.microsoft.icon"
    )


#: ``/healthz``'s ``Retry-After`` while the store refuses writes (seconds).
HEALTH_RETRY_S = 30


@bp.get("/healthz")
def healthz() -> Any:
    """``{"ok": true}`` (200) while this process's store takes writes; 503 with
    ``{"ok": false, "writes": false, "reason": ...}`` and ``Retry-After`` while it refuses them
    (``storage_full``: a write lately refused for want of room; ``storage_read_only``): reads
    are still served, but a monitor should call someone. Asks the database nothing
    (``GameStore.write_refusal``)."""
    found = current_app.extensions.get("game_sessions")
    reason = None if found is None else found.store.write_refusal()
    if reason is None:
        return {"ok": True}
    body = {"ok": False, "writes": False, "reason": reason}
    return body, 503, {"Retry-After": str(HEALTH_RETRY_S)}
