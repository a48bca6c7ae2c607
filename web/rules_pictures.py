"""The small pictures of the rules pages, drawn from each game's own data.

A rules page (``web/rules/<lang>/<kind>.md``) asks for a picture by name, ``[[name]]`` or
``[[name: arguments]]``: in a paragraph of its own it replaces that paragraph (a list of cards
is no paragraph), within a sentence it stays there (the tokens of an example). ``fill`` draws
each with the game's own drawing functions, named by its descriptor (``GameSite.rules_pictures``
in ``web/<kind>_pages.py``): they build the picture from the engine's tables with the class names
the game's scripts give their cards and chips, so the game's stylesheet paints them as on the game
page and nothing is copied by hand that could drift from the game. The colours those scripts set
inline are the descriptors' ``rules_css``, served as ``/rules/pictures.css`` (the pages' security
policy allows no inline style attribute). This module holds only what every game's pictures
share: the list they stand in, a caption, the arguments of an example.

An unknown picture name or a bad argument is a bug in a rules page, and raises.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping

from markupsafe import Markup

#: A picture asked for: ``[[name]]`` / ``[[name: args]]``.
_NAMED = r"\[\[([a-z-]+)(?::\s*([a-z0-9 -]*))?\]\]"
_BLOCK = re.compile(f"<p>{_NAMED}</p>")
_INLINE = re.compile(_NAMED)

#: A game's pictures: name → drawing ``(lang, args) -> HTML``.
Pictures = Mapping[str, Callable[[str, str], Markup]]


def picture_list(cls: str, label: str, entries: Iterable[Markup]) -> Markup:
    """Pictures side by side: a list named ``label`` (its items the pictures and their
    captions), laid out by ``static/rules.css`` and the game's classes ``cls``."""
    body = Markup("").join(Markup("<li>{}</li>").format(e) for e in entries)
    return Markup('<ul class="rules-pics {}" aria-label="{}">{}</ul>').format(cls, label, body)


def captioned(picture: Markup, caption: str) -> Markup:
    """A picture with a short line under it (how many there are, its name)."""
    return Markup('{}<span class="rules-pic-caption">{}</span>').format(picture, caption)


def counted(args: str) -> list[tuple[str, int]]:
    """An example's ``name-number`` words (``fire-4 water-2``, ``gold-2``) as pairs."""
    out = []
    for word in args.split():
        name, _, number = word.rpartition("-")
        if not name or not number.isdigit():
            raise ValueError(f"not a name-number word: {word!r}")
        out.append((name, int(number)))
    return out


def fill(html: str, lang: str, pictures: Pictures) -> str:
    """``html`` with every picture asked for drawn in ``lang`` by ``pictures``."""

    def draw(match: re.Match[str]) -> str:
        return str(pictures[match.group(1)](lang, match.group(2) or ""))

    return _INLINE.sub(draw, _BLOCK.sub(draw, html))
