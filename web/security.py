"""Security headers on every answer: pages, API answers, pictures, static files and errors.

- ``Content-Security-Policy``: everything comes from this origin, and no inline script at all
  (pages load their modules from ``/static``; ``<script type="application/json">`` data blocks
  are not scripts). Inline styles are refused too, except the two stylesheets the project
  writes inline on purpose, allowed by their SHA-256: the style block of every island picture
  (``hexmap.svg.STYLE``, so an SVG keeps its look inline in a page and opened alone) and the
  printable puzzle sheet's stylesheet (``static/puzzles/sheet.css``, inlined so the sheet is
  one self-contained file). Framed only by this site's own pages (the puzzle sheet page shows
  the printable sheet in a frame), no plugins, no ``<base>``, forms post here only.
- ``X-Content-Type-Options: nosniff``: a JSON or SVG answer is never run as something else.
- ``Referrer-Policy: no-referrer``: a page's address (a game's, a join link's) never leaves in
  a ``Referer`` header, whatever a page links to.
- ``X-Frame-Options: SAMEORIGIN``: the same as ``frame-ancestors 'self'`` for older browsers.
"""

from __future__ import annotations

import base64
import hashlib
from functools import cache

from flask import Flask, Response

from hexmap.svg import STYLE
from solver.puzzles.sheet import SHEET_CSS


def style_hash(text: str) -> str:
    """The CSP source allowing an inline ``<style>`` whose text is ``text``."""
    digest = hashlib.sha256(text.encode("utf-8")).digest()
    return f"'sha256-{base64.b64encode(digest).decode('ascii')}'"


def content_security_policy() -> str:
    """The policy of every answer (the allowed inline stylesheets hashed as they are now)."""
    styles = " ".join(style_hash(t) for t in (STYLE, SHEET_CSS.read_text(encoding="utf-8")))
    return "; ".join(
        [
            "default-src 'self'",
            "script-src 'self'",
            f"style-src 'self' {styles}",
            "img-src 'self'",
            "font-src 'self'",
            "connect-src 'self'",
            "object-src 'none'",
            "base-uri 'none'",
            "form-action 'self'",
            "frame-ancestors 'self'",
        ]
    )


@cache
def security_headers() -> tuple[tuple[str, str], ...]:
    """The headers every answer carries (``web.lean`` adds them to the answers it writes)."""
    return (
        ("Content-Security-Policy", content_security_policy()),
        ("X-Content-Type-Options", "nosniff"),
        ("Referrer-Policy", "no-referrer"),
        ("X-Frame-Options", "SAMEORIGIN"),
    )


def register(app: Flask) -> None:
    """Add the headers to every answer of ``app``."""
    headers = security_headers()

    @app.after_request
    def _secure(resp: Response) -> Response:
        for name, value in headers:
            resp.headers.setdefault(name, value)
        return resp
