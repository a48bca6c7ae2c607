"""A printable class sheet: N puzzles, then the answer key on its own page (standalone HTML).

The same HTML is served by ``/puzzles/sheet?print=1`` and written by
``python -m solver puzzles --count 20 --difficulty hard --out sheet.html``. It is one
self-contained file: the stylesheet (``static/puzzles/sheet.css``) is inlined and every island is
an inline SVG (``hexmap.svg.render_svg``), so it prints the same from a browser or a saved file.
Rendered with Jinja2 directly (no Flask) from ``templates/puzzles/sheet.html``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache
from pathlib import Path

from jinja2 import Environment, FileSystemLoader, select_autoescape
from markupsafe import Markup

from errors import InvalidInput
from hexmap.hexes import Hex
from hexmap.island import Island, Landmark
from hexmap.svg import render_svg
from hexmap.terrain import TERRAINS
from i18n import catalogue, translate
from solver.places import place_names
from solver.puzzles.codes import puzzle_code, puzzle_for_seed
from solver.puzzles.generate import Puzzle, check_difficulty
from solver.puzzles.text import check_lang, clue_text

MAX_SHEET = 40
ROOT = Path(__file__).resolve().parents[2]
TEMPLATES = ROOT / "templates"
SHEET_CSS = ROOT / "static" / "puzzles" / "sheet.css"
#: Hex radius of the islands on the sheet and in the answer key, in CSS pixels.
SHEET_HEX = 13.0
KEY_HEX = 7.0


@cache
def _env() -> Environment:
    return Environment(
        loader=FileSystemLoader(str(TEMPLATES)),
        autoescape=select_autoescape(["html"]),
        trim_blocks=True,
        lstrip_blocks=True,
    )


def sheet_puzzles(
    count: int,
    difficulty: str,
    seed: int = 1,
    minimal: bool = False,
    progress: Callable[[int, int], None] | None = None,
    limit: int = MAX_SHEET,
) -> list[Puzzle]:
    """Puzzles ``seed, seed + 1, …`` at ``difficulty`` (each on its own generated island);
    ``progress(done, count)`` is called after each one (the command line's bar); at most
    ``limit`` (a sheet's size; the command line's list of codes may ask for more)."""
    check_difficulty(difficulty)
    if not 1 <= count <= limit:
        raise InvalidInput(f"count must be 1-{limit}, got {count}", "count")
    out = []
    for i in range(count):
        out.append(puzzle_for_seed(seed + i, difficulty, minimal))
        if progress is not None:
            progress(i + 1, count)
    return out


def _chip(label: str, terrain: str, landmark: str | None = None) -> Markup:
    """One hex of ``terrain`` (with ``landmark``), its hover name ``label``."""
    lms = [Landmark(landmark, Hex(0, 0), 0 if landmark == "statue" else None)] if landmark else []
    island = Island({(0, 0): terrain}, lms, name=landmark or terrain)
    svg = render_svg(island, size=11, margin=3, textures="marks", space_titles={Hex(0, 0): label})
    return Markup(svg)


#: The sheet's own strings (``puzzle.sheet.*`` in the catalogues), as the template names them.
SHEET_STRINGS = ("title", "subtitle", "name", "date", "puzzle", "key", "key_line", "code", "legend")


def sheet_strings(lang: str) -> dict[str, str]:
    """The sheet's strings in ``lang``, unformatted (the template fills ``puzzle``)."""
    cat = catalogue(lang)
    return {k: cat[f"puzzle.sheet.{k}"] for k in SHEET_STRINGS}


def legend(lang: str) -> list[tuple[Markup, str]]:
    """Small pictures of each terrain and landmark with their names."""
    out = []
    for terr in TERRAINS:
        label = translate(lang, f"terrain.{terr}")
        out.append((_chip(label, terr), label))
    for k in ("palm", "hut", "statue"):
        label = translate(lang, f"puzzle.landmark.{k}")
        out.append((_chip(label, "grassland", k), label))
    return out


def render_sheet(puzzles: Sequence[Puzzle], lang: str = "en", difficulty: str | None = None) -> str:
    """The standalone sheet HTML for ``puzzles``, strings in ``lang``."""
    check_lang(lang)
    s = sheet_strings(lang)
    items = []
    for n, p in enumerate(puzzles, 1):
        names = place_names(p.island, lang)
        items.append(
            {
                "n": n,
                "code": puzzle_code(p),
                "svg": Markup(
                    render_svg(
                        p.island,
                        size=SHEET_HEX,
                        title=s["puzzle"].format(n=n),
                        textures="marks",
                        space_titles=names,
                    )
                ),
                "clues": [clue_text(p, i, lang) for i in range(len(p.clues))],
                "key_svg": Markup(
                    render_svg(
                        p.island,
                        size=KEY_HEX,
                        highlights={"answer": [p.answer]},
                        margin=2,
                        textures="marks",
                        space_titles=names,
                    )
                ),
                "key": s["key_line"].format(n=n, place=names[p.answer]),
            }
        )
    level = difficulty or (puzzles[0].difficulty if puzzles else "medium")
    return (
        _env()
        .get_template("puzzles/sheet.html")
        .render(
            lang=lang,
            s=s,
            subtitle=s["subtitle"].format(
                count=len(items), difficulty=translate(lang, f"puzzle.sheet.difficulty.{level}")
            ),
            items=items,
            legend=legend(lang),
            css=Markup(SHEET_CSS.read_text(encoding="utf-8")),
        )
    )
