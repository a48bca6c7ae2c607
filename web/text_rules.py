"""Whether text is fit to show as a name or a chat line: one rule for every name (seats, accounts,
token labels) and every chat line (issue 44, item 7).

Two texts that look alike must be alike, so a name or a line may hold no character a reader
cannot see or that changes how the text around it shows. Refused, by Unicode category
(``unicodedata``: Python's Unicode database):

- control (``Cc``: NUL, BEL, DEL, CR, LF, tab, NEL ...), format (``Cf``: the soft hyphen, the
  zero-width characters, the bidirectional controls, the tag characters, U+FFF9-U+FFFB ...),
  surrogate (``Cs``), private use (``Co``) and unassigned (``Cn``) code points;
- separators other than the ordinary space U+0020: the line and paragraph separators U+2028 and
  U+2029 (``Zl``, ``Zp``) and every other space (``Zs``: no-break, ideographic, ogham ...);
- the letters and marks that show as nothing (``BLANK_LETTERS``: the Hangul fillers, the
  braille blank, the Khmer inherent vowels, the combining grapheme joiner, the Mongolian
  variation selectors).

A chat line is one line of plain text, as it was before this rule: no line break either (they
are controls). ``unfit_character`` finds the first refused character; the API description's
patterns (``name_pattern``, ``line_pattern``) say the same rule as a regular expression's class
of the fit characters, so a text its description allows is a text the server takes.
"""

from __future__ import annotations

import re
import unicodedata
from functools import cache

#: Letters and marks that show as nothing (a name of them alone would look empty).
BLANK_LETTERS = frozenset(
    {
        0x034F,  # combining grapheme joiner
        0x115F,  # Hangul choseong filler
        0x1160,  # Hangul jungseong filler
        0x17B4,  # Khmer vowel inherent aq
        0x17B5,  # Khmer vowel inherent aa
        0x180B,  # Mongolian free variation selector one
        0x180C,  # ... two
        0x180D,  # ... three
        0x180F,  # ... four
        0x2800,  # braille pattern blank
        0x3164,  # Hangul filler
        0xFFA0,  # halfwidth Hangul filler
    }
)

#: What each refused category is called in a refusal's message (and its ``params.class``).
CLASSES = {
    "Cc": "control",
    "Cf": "format",
    "Cs": "surrogate",
    "Co": "private use",
    "Cn": "unassigned",
    "Zl": "line separator",
    "Zp": "paragraph separator",
    "Zs": "space other than U+0020",
}


def character_class(ch: str) -> str | None:
    """Why ``ch`` is unfit to show (``CLASSES``' words, or ``"blank letter"``); ``None``: fit."""
    if ch == " ":
        return None
    if ord(ch) in BLANK_LETTERS:
        return "blank letter"
    return CLASSES.get(unicodedata.category(ch))


def unfit_character(text: str) -> str | None:
    """The first character of ``text`` unfit to show in a name or a line, or ``None``."""
    if text.isascii():  # the common case: only the controls can be unfit
        found = _ASCII_UNFIT.search(text)
        return None if found is None else found.group()
    return next((ch for ch in text if character_class(ch) is not None), None)


def code_point(ch: str) -> str:
    """``"U+00AD"``: how a refusal names a character."""
    return f"U+{ord(ch):04X}"


def _escape(c: int) -> str:
    return f"\\u{c:04x}" if c < 0x10000 else f"\\U{c:08x}"


def _class(ranges: list[tuple[int, int]]) -> str:
    """``ranges`` of code points as the inside of a regular expression's class."""
    return "".join(_escape(a) if a == b else f"{_escape(a)}-{_escape(b)}" for a, b in ranges)


@cache
def _fit_ranges() -> tuple[tuple[int, int], ...]:
    """The characters fit to show, as ranges of code points (about 700). The patterns list
    these rather than the refused ones: a class of the fit characters is the smaller set
    (generators of examples, schemathesis', expand a class into its characters)."""
    ranges: list[tuple[int, int]] = []
    categories = map(unicodedata.category, map(chr, range(0x110000)))
    for c, category in enumerate(categories):
        if (category in CLASSES and c != 0x20) or c in BLANK_LETTERS:
            continue
        if ranges and ranges[-1][1] == c - 1:
            ranges[-1] = (ranges[-1][0], c)
        else:
            ranges.append((c, c))
    return tuple(ranges)


_ASCII_UNFIT = re.compile("[\\x00-\\x1f\\x7f]")


@cache
def name_pattern() -> str:
    """A name as the API describes it (a JSON Schema pattern): fit characters only. Built when
    first asked (the description is built once a process; this takes a fraction of a second)."""
    return f"^[{_class(list(_fit_ranges()))}]*$"


@cache
def line_pattern() -> str:
    """A chat line as the API describes it: fit characters only, one at least not the space
    (a line is kept without the spaces around it)."""
    fit = _class(list(_fit_ranges()))
    space = _fit_ranges().index((0x20, 0x7E))  # the space opens the printable ASCII range
    visible = list(_fit_ranges())
    visible[space] = (0x21, 0x7E)
    return f"^[{fit}]*[{_class(visible)}][{fit}]*$"
