"""The rules pages: ``/rules`` (every game with rules, in the order of ``web.game_site.sites``) and
``/rules/<kind>`` (``web/rules/<lang>/<kind>.md`` rendered, English when the language has no
translation yet, with a link to play where the game has a new-game page). Which games have
rules, their names and their new-game pages come from their descriptors (``web.game_site``).
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from flask import Blueprint, abort, render_template
from markdown_it import MarkdownIt

from web.game_site import site_or_404, sites
from web.i18n import current_lang

bp = Blueprint("rules_pages", __name__)
RULES_DIR = Path(__file__).with_name("rules")


@cache
def _markdown() -> MarkdownIt:
    return MarkdownIt("commonmark", {"html": False, "typographer": False}).enable("table")


@cache
def rules_html(game: str, lang: str) -> str:
    """The rules of ``game`` as HTML (Markdown rendered once per language; raw HTML refused)."""
    path = RULES_DIR / lang / f"{game}.md"
    if not path.exists():
        path = RULES_DIR / "en" / f"{game}.md"
    return _markdown().render(path.read_text("utf-8"))


@bp.get("/rules")
def rules_index() -> str:
    return render_template("rules_index.html", games=[s for s in sites() if s.rules])


@bp.get("/rules/<game>")
def rules_page(game: str) -> str:
    site = site_or_404(game)
    if not site.rules:
        abort(404)
    lang = current_lang()
    return render_template(
        "rules.html",
        site=site,
        body=rules_html(game, lang),
        translated=(RULES_DIR / lang / f"{game}.md").exists(),
        play_url=site.play,
    )
