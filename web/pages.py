"""HTML pages: the home page and what links from it, and the site's menu on every page.

The games on the home page and in the menu (``templates/base.html``) are the listed games'
descriptors (``web.game_site.listed_sites``), the built-in games first, each with its own links.
"""

from __future__ import annotations

from flask import Blueprint, Response, render_template, send_from_directory

from web.game_site import listed_sites

bp = Blueprint("pages", __name__)


@bp.app_context_processor
def _games() -> dict:
    """``game_sites`` for every template: the games of the menu, the home and error pages."""
    return {"game_sites": listed_sites()}


@bp.get("/")
def home() -> str:
    return render_template("home.html")


@bp.get("/favicon.ico")
def favicon() -> Response:
    """Browsers ask for /favicon.ico whatever the page links: the site's icon as an .ico."""
    return send_from_directory(
        bp.root_path + "/../static/common", "favicon.ico", mimetype="image/vnd.microsoft.icon"
    )


@bp.get("/healthz")
def healthz() -> dict[str, bool]:
    return {"ok": True}
