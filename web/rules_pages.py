"""The rules pages: ``/rules`` (every game with rules, in the order of ``web.game_site.sites``) and
``/rules/<kind>`` (``web/rules/<lang>/<kind>.md`` rendered, English when the language has no
translation yet, with a link to play where the game has a new-game page). Which games have
rules, their names and their new-game pages come from their descriptors (``web.game_site``).

The pages are written for players at a table (what you try to do, a turn in steps, scoring
with a worked example, the host's options as "Table rules"); their pictures of cards, tokens
and terrains are drawn from the games' own data by ``web.rules_pictures`` and painted by the
game's own stylesheet, ``static/rules.css`` (their layout) and ``/rules/pictures.css`` (the
colours the game scripts would set inline).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import cache
from pathlib import Path

from flask import Blueprint, Response, abort, render_template
from markdown_it import MarkdownIt
from markdown_it.renderer import RendererProtocol
from markdown_it.token import Token
from markdown_it.utils import EnvType, OptionsDict

from web.game_site import site_or_404, sites
from web.i18n import current_lang
from web.rules_pictures import fill

bp = Blueprint("rules_pages", __name__)
RULES_DIR = Path(__file__).with_name("rules")


#: Characters written without spaces between them: CJK ideographs, kana, full-width punctuation.
_CJK = re.compile(r"[\u3000-\u303f\u3040-\u30ff\u3400-\u9fff\uff00-\uffef]")


def _softbreak(
    renderer: RendererProtocol,
    tokens: Sequence[Token],
    idx: int,
    options: OptionsDict,
    env: EnvType,
) -> str:
    """A line break inside a paragraph: none between two Chinese characters (a browser would
    show it as a space in the middle of a sentence), a plain one elsewhere (a space beside a
    number or a Latin word, as Chinese text sets them)."""
    before = next((t.content for t in reversed(tokens[:idx]) if t.content), "")
    after = next((t.content for t in tokens[idx + 1 :] if t.content), "")
    if before and after and _CJK.match(before[-1]) and _CJK.match(after[0]):
        return ""
    return "\n"


@cache
def _markdown() -> MarkdownIt:
    md = MarkdownIt("commonmark", {"html": False, "typographer": False}).enable("table")
    md.add_render_rule("softbreak", _softbreak)
    return md


@cache
def rules_html(game: str, lang: str) -> str:
    """The rules of ``game`` as HTML (Markdown rendered once per language; raw HTML refused; the
    pictures asked for drawn in the page's language)."""
    path = RULES_DIR / lang / f"{game}.md"
    if not path.exists():
        path = RULES_DIR / "en" / f"{game}.md"
    html = _markdown().render(path.read_text("utf-8"))
    return fill(html, lang, site_or_404(game).rules_pictures)


@cache
def _pictures_css() -> str:
    return "".join(site.rules_css() for site in sites() if site.rules_css)


@bp.get("/rules/pictures.css")
def rules_pictures_css() -> Response:
    """The colours the rules pages' pictures wear, from the games' data (their descriptors'
    ``rules_css``: what their scripts would set inline)."""
    return Response(_pictures_css(), mimetype="text/css")


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
