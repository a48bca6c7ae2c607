"""HTML pages: the home page and what links from it."""

from __future__ import annotations

from flask import Blueprint, render_template, send_from_directory

bp = Blueprint("pages", __name__)


@bp.get("/")
def home():
    return render_template("home.html")


@bp.get("/favicon.ico")
def favicon():
    """Browsers ask for /favicon.ico whatever the page links: the site's icon as an .ico."""
    return send_from_directory(
        bp.root_path + "/../static/common", "favicon.ico", mimetype="image/vnd.microsoft.icon"
    )


@bp.get("/healthz")
def healthz():
    return {"ok": True}
