"""The island as an SVG picture, built with ElementTree (the shape of python-chess's ``chess.svg``).

``render_svg`` is one function with keyword-only options; the helpers below each draw one layer.
Terrains differ in colour *and* in lightness and texture (SVG patterns: tree dots, grass tufts,
sand stipple, water ripples, river waves, mountain chevrons), so they stay apart for colour-blind
players and in greyscale. Every hex polygon carries ``data-q``/``data-r`` and the classes
``hex terrain-<name>`` so a browser UI can style it and make it clickable; landmarks, statue
arrows, amulets and ATVs sit in their own groups above the hexes.
"""

from __future__ import annotations

import math
import re
import xml.etree.ElementTree as ET
from collections.abc import Iterable, Mapping, Sequence

from errors import InvalidInput
from hexmap.hexes import DIRECTION_NAMES, DIRECTIONS, Hex, corners, neighbours, to_pixel
from hexmap.island import Island

#: Base colour, texture colour and a one-letter key per terrain (lightness differs per terrain).
TERRAIN_STYLE: dict[str, tuple[str, str]] = {
    "jungle": ("#1f6f3a", "#0d3d1d"),
    "grassland": ("#b5d86a", "#5d7f1f"),
    "beach": ("#f5e3a1", "#a8883a"),
    "river": ("#2f6db5", "#d8ecff"),
    "lake": ("#7fb8e6", "#1d4f80"),
    "mountain": ("#8a7a6a", "#3b2f25"),
}
SEA_COLOUR = "#dcecf5"
#: Default CSS for the classes callers use; ``highlights`` classes fall back to ``.highlight``.
STYLE = """
.hex { stroke: #4b5a63; stroke-width: 0.6; }
.coast { fill: none; stroke: #26323a; stroke-width: 2.2; stroke-linecap: round; }
.coord { font: 8px sans-serif; fill: #fff; stroke: #000; stroke-width: 2px; paint-order: stroke; text-anchor: middle; pointer-events: none; }
.highlight { fill: #ffd400; fill-opacity: 0.35; stroke: #c01010; stroke-width: 2.5; }
.landmark { pointer-events: none; }
.landmark .backdrop { fill: #fff; fill-opacity: 0.75; stroke: #000; stroke-width: 0.6; }
.facing { stroke: #000; stroke-width: 2; fill: none; }
.amulet { fill: #f0a000; stroke: #5a3a00; stroke-width: 1.2; }
.atv { stroke: #000; stroke-width: 1; }
"""
_CSS_CLASS = re.compile(r"^[A-Za-z_][A-Za-z0-9_-]{0,63}$")
_COLOUR = re.compile(r"^(#[0-9A-Fa-f]{3}|#[0-9A-Fa-f]{6}|[a-z]{3,20})$")


def render_svg(
    island: Island,
    *,
    size: float = 24.0,
    show_coords: bool = False,
    highlights: Mapping[str, Iterable[tuple[int, int]]] | None = None,
    statue_facings: Mapping[tuple[int, int], int] | None = None,
    amulets: Iterable[tuple[int, int]] = (),
    atvs: Sequence[tuple[tuple[int, int], str]] = (),
    title: str | None = None,
    margin: float | None = None,
    textures: str = "pattern",
    space_titles: Mapping[Hex, str] | None = None,
) -> str:
    """The island as an SVG document (a string).

    - ``size``: hex radius in pixels (centre to corner).
    - ``show_coords``: write ``q,r`` in every hex.
    - ``highlights``: CSS class → spaces; each space gets an overlay polygon with classes
      ``highlight <class>`` (style them with CSS; ``.highlight`` has a default).
    - ``statue_facings``: statue space → facing, overriding the island's (statues turn in play).
    - Every element drawn for a space (hex, highlight, amulet, ATV, landmark) carries
      ``data-q``/``data-r``; landmarks and coordinates let clicks through to the hex below.
    - ``amulets``: spaces holding an amulet. ``atvs``: ``(space, colour)`` per ATV.
    - ``title``: accessible title (default: the island's name).
    - ``textures``: ``"pattern"`` fills each hex with its terrain's texture pattern (screens);
      ``"marks"`` fills it with the flat base colour and draws the texture's marks once at its
      centre, which prints to a small vector PDF (Chromium expands pattern fills into megabytes).
    - ``space_titles``: each space's ``<title>``, its landmark's too (its name for players,
      ``solver.places``); default ``terrain (q, r)`` and ``kind (q, r)``.
    """
    if textures not in ("pattern", "marks"):
        raise InvalidInput(f"textures must be 'pattern' or 'marks', got {textures!r}", "textures")
    if isinstance(size, bool) or not isinstance(size, int | float) or not size > 0:
        raise InvalidInput(f"size must be a positive number, got {size!r}", "size")
    facings = dict(statue_facings or {})
    statues = {lm.space for lm in island.landmarks_of("statue")}
    for space in facings:
        if space not in statues:
            raise InvalidInput(f"{space!r} holds no statue", "statue_facings")
    pad = size * 1.2 if margin is None else margin
    origin, width, height = _frame(island, size, pad)
    svg = ET.Element(
        "svg",
        {
            "xmlns": "http://www.w3.org/2000/svg",
            "version": "1.1",
            "class": "tobago-island",
            "viewBox": f"0 0 {_n(width)} {_n(height)}",
            "width": _n(width),
            "height": _n(height),
        },
    )
    ET.SubElement(svg, "title").text = title or island.name or "Tobago island"
    ET.SubElement(svg, "style").text = STYLE
    _defs(svg, size, marks=textures == "marks")
    ET.SubElement(
        svg,
        "rect",
        {
            "class": "sea",
            "x": "0",
            "y": "0",
            "width": _n(width),
            "height": _n(height),
            "fill": SEA_COLOUR,
        },
    )
    _hexes(svg, island, size, origin, textures == "marks", space_titles)
    _coast(svg, island, size, origin)
    if highlights:
        _highlights(svg, island, highlights, size, origin)
    _landmarks(svg, island, size, origin, facings, space_titles)
    if amulets:
        _amulets(svg, island, amulets, size, origin)
    if atvs:
        _atvs(svg, island, atvs, size, origin)
    if show_coords:
        _coords(svg, island, size, origin)
    return ET.tostring(svg, encoding="unicode")


# --- helpers ---------------------------------------------------------------------------------


def _n(x: float) -> str:
    """A compact number for attributes."""
    return f"{x:.2f}".rstrip("0").rstrip(".") or "0"


def _use(
    parent: ET.Element, href: str, cx: float, cy: float, side: float, extra: dict | None = None
) -> None:
    """A ``<use>`` of ``href`` drawn as a ``side`` square centred on ``(cx, cy)``."""
    attrs = {
        "href": href,
        "x": _n(cx - side / 2),
        "y": _n(cy - side / 2),
        "width": _n(side),
        "height": _n(side),
    }
    ET.SubElement(parent, "use", attrs | (extra or {}))


def _points(pts: Iterable[tuple[float, float]]) -> str:
    return " ".join(f"{_n(x)},{_n(y)}" for x, y in pts)


def _frame(island: Island, size: float, pad: float) -> tuple[tuple[float, float], float, float]:
    """Origin shift and picture size so that every hex fits with ``pad`` around."""
    xs, ys = [], []
    for h in island.index:
        x, y = to_pixel(h, size)
        xs.append(x)
        ys.append(y)
    half_w = size * math.sqrt(3) / 2
    min_x, max_x = min(xs) - half_w - pad, max(xs) + half_w + pad
    min_y, max_y = min(ys) - size - pad, max(ys) + size + pad
    return (-min_x, -min_y), max_x - min_x, max_y - min_y


def _space(island: Island, h: tuple[int, int], field: str) -> Hex:
    try:
        q, r = h
    except (TypeError, ValueError):
        raise InvalidInput("must be a pair (q, r)", field) from None
    if (
        isinstance(q, bool)
        or isinstance(r, bool)
        or not isinstance(q, int)
        or not isinstance(r, int)
    ):
        raise InvalidInput("must be a pair of integers (q, r)", field)
    if (q, r) not in island.terrain:
        raise InvalidInput(f"({q}, {r}) is not an island space", field)
    return Hex(q, r)


def _defs(svg: ET.Element, size: float, marks: bool = False) -> None:
    """Terrain patterns (or, with ``marks``, one symbol of texture marks per terrain), the arrow
    head and the landmark symbols."""
    defs = ET.SubElement(svg, "defs")
    s = max(6.0, size / 3)  # pattern tile size
    for terrain, (base, ink) in TERRAIN_STYLE.items():
        if marks:
            sym = ET.SubElement(
                defs, "symbol", {"id": f"marks-{terrain}", "viewBox": f"0 0 {_n(s)} {_n(s)}"}
            )
            for tag, attrs in _texture(terrain, s, ink):
                ET.SubElement(sym, tag, attrs)
            continue
        pat = ET.SubElement(
            defs,
            "pattern",
            {
                "id": f"terrain-{terrain}",
                "patternUnits": "userSpaceOnUse",
                "width": _n(s),
                "height": _n(s),
            },
        )
        ET.SubElement(pat, "rect", {"width": _n(s), "height": _n(s), "fill": base})
        for tag, attrs in _texture(terrain, s, ink):
            ET.SubElement(pat, tag, attrs)
    marker = ET.SubElement(
        defs,
        "marker",
        {
            "id": "arrow-head",
            "viewBox": "0 0 10 10",
            "refX": "7",
            "refY": "5",
            "markerWidth": "5",
            "markerHeight": "5",
            "orient": "auto",
        },
    )
    ET.SubElement(marker, "path", {"d": "M0,0 L10,5 L0,10 z", "fill": "#000"})
    for kind, shapes in _SYMBOLS.items():
        sym = ET.SubElement(defs, "symbol", {"id": f"landmark-{kind}", "viewBox": "-10 -10 20 20"})
        for tag, attrs in shapes:
            ET.SubElement(sym, tag, attrs)


def _texture(terrain: str, s: float, ink: str) -> list[tuple[str, dict[str, str]]]:
    """The marks drawn over a terrain's base colour in one pattern tile of side ``s``."""
    h = s / 2
    line = {"stroke": ink, "stroke-width": _n(s / 12), "fill": "none"}
    if terrain == "jungle":  # tree crowns
        return [
            ("circle", {"cx": _n(h / 2), "cy": _n(h / 2), "r": _n(s / 7), "fill": ink}),
            ("circle", {"cx": _n(h * 1.5), "cy": _n(h * 1.5), "r": _n(s / 7), "fill": ink}),
        ]
    if terrain == "grassland":  # tufts
        return [
            (
                "path",
                {
                    "d": f"M{_n(h * 0.6)},{_n(h)} l{_n(s / 10)},{_n(-s / 5)} l{_n(s / 10)},{_n(s / 5)}",
                    **line,
                },
            )
        ]
    if terrain == "beach":  # sand stipple
        r = _n(s / 16)
        return [
            ("circle", {"cx": _n(s * 0.25), "cy": _n(s * 0.3), "r": r, "fill": ink}),
            ("circle", {"cx": _n(s * 0.75), "cy": _n(s * 0.8), "r": r, "fill": ink}),
        ]
    if terrain == "river":  # waves
        return [
            ("path", {"d": f"M0,{_n(h)} q{_n(s / 4)},{_n(-s / 4)} {_n(h)},0 t{_n(h)},0", **line})
        ]
    if terrain == "lake":  # ripples
        return [("path", {"d": f"M{_n(s * 0.2)},{_n(h)} h{_n(s * 0.6)}", **line})]
    if terrain == "mountain":  # chevrons
        return [
            (
                "path",
                {
                    "d": f"M{_n(s * 0.15)},{_n(s * 0.75)} L{_n(h)},{_n(s * 0.25)} L{_n(s * 0.85)},{_n(s * 0.75)}",
                    **line,
                },
            )
        ]
    return []


#: Landmark symbols in a 20×20 box centred on 0,0: distinct outlines, not only colours.
_SYMBOLS: dict[str, list[tuple[str, dict[str, str]]]] = {
    "palm": [
        ("path", {"d": "M0,9 Q1,2 0,-3", "stroke": "#5a3a1a", "stroke-width": "2", "fill": "none"}),
        (
            "path",
            {
                "d": "M0,-3 Q-6,-7 -9,-2 M0,-3 Q6,-7 9,-2 M0,-3 Q-3,-9 -6,-9 M0,-3 Q3,-9 6,-9",
                "stroke": "#0b5d1e",
                "stroke-width": "2.2",
                "fill": "none",
            },
        ),
    ],
    "hut": [
        (
            "path",
            {"d": "M-8,1 L0,-8 L8,1 Z", "fill": "#c0392b", "stroke": "#000", "stroke-width": "1"},
        ),
        (
            "rect",
            {
                "x": "-6",
                "y": "1",
                "width": "12",
                "height": "8",
                "fill": "#f4d3a0",
                "stroke": "#000",
                "stroke-width": "1",
            },
        ),
        ("rect", {"x": "-1.5", "y": "4", "width": "3", "height": "5", "fill": "#000"}),
    ],
    "statue": [
        (
            "path",
            {
                "d": "M-5,9 L-5,-3 Q-5,-9 0,-9 Q5,-9 5,-3 L5,9 Z",
                "fill": "#9e9e9e",
                "stroke": "#000",
                "stroke-width": "1.2",
            },
        ),
        ("rect", {"x": "-3", "y": "-4", "width": "2", "height": "2", "fill": "#000"}),
        ("rect", {"x": "1", "y": "-4", "width": "2", "height": "2", "fill": "#000"}),
        ("path", {"d": "M-2,3 H2", "stroke": "#000", "stroke-width": "1.2"}),
    ],
}


def _hexes(
    svg: ET.Element,
    island: Island,
    size: float,
    origin: tuple[float, float],
    marks: bool = False,
    titles: Mapping[Hex, str] | None = None,
) -> None:
    group = ET.SubElement(svg, "g", {"class": "hexes"})
    for h in island.index:
        terrain = island.terrain[h]
        fill = TERRAIN_STYLE[terrain][0] if marks else f"url(#terrain-{terrain})"
        poly = ET.SubElement(
            group,
            "polygon",
            {
                "class": f"hex terrain-{terrain}",
                "data-q": str(h.q),
                "data-r": str(h.r),
                "data-terrain": terrain,
                "points": _points(corners(h, size, origin)),
                "fill": fill,
            },
        )
        ET.SubElement(poly, "title").text = (
            titles[h] if titles is not None else f"{terrain} ({h.q}, {h.r})"
        )
        if marks:  # the texture once, a tile's worth at the centre (drawn with the hexes)
            x, y = to_pixel(h, size, origin)
            side = size * 0.9
            _use(group, f"#marks-{terrain}", x, y, side, {"class": "marks"})


#: Corner indices (into ``corners``) of the edge shared with the neighbour in direction ``d``.
_EDGE_CORNERS = {0: (5, 0), 1: (4, 5), 2: (3, 4), 3: (2, 3), 4: (1, 2), 5: (0, 1)}


def _coast(svg: ET.Element, island: Island, size: float, origin: tuple[float, float]) -> None:
    """A thick line along every edge between an island space and the sea."""
    parts = []
    for h in sorted(island.coast):
        cs = corners(h, size, origin)
        for d, n in enumerate(neighbours(h)):
            if n not in island.terrain:
                a, b = _EDGE_CORNERS[d]
                parts.append(f"M{_n(cs[a][0])},{_n(cs[a][1])} L{_n(cs[b][0])},{_n(cs[b][1])}")
    ET.SubElement(svg, "path", {"class": "coast", "d": " ".join(parts)})


def _highlights(
    svg: ET.Element,
    island: Island,
    highlights: Mapping[str, Iterable[tuple[int, int]]],
    size: float,
    origin: tuple[float, float],
) -> None:
    group = ET.SubElement(svg, "g", {"class": "highlights"})
    for cls in sorted(highlights):
        if not isinstance(cls, str) or not _CSS_CLASS.match(cls):
            raise InvalidInput(f"{cls!r} is not a CSS class name", "highlights")
        for i, h in enumerate(highlights[cls]):
            h = _space(island, h, f"highlights.{cls}[{i}]")
            ET.SubElement(
                group,
                "polygon",
                {
                    "class": f"highlight {cls}",
                    "data-q": str(h.q),
                    "data-r": str(h.r),
                    "points": _points(_shrunk(h, size, origin)),
                },
            )


def _shrunk(h: Hex, size: float, origin: tuple[float, float]) -> list[tuple[float, float]]:
    """The hex's corners pulled towards its centre, so neighbouring overlays stay apart."""
    cx, cy = to_pixel(h, size, origin)
    return [(cx + (x - cx) * 0.86, cy + (y - cy) * 0.86) for x, y in corners(h, size, origin)]


def _landmarks(
    svg: ET.Element,
    island: Island,
    size: float,
    origin: tuple[float, float],
    facings: Mapping[tuple[int, int], int],
    titles: Mapping[Hex, str] | None = None,
) -> None:
    group = ET.SubElement(svg, "g", {"class": "landmarks"})
    icon = size * 1.1
    for lm in island.landmarks:
        cx, cy = to_pixel(lm.space, size, origin)
        g = ET.SubElement(
            group,
            "g",
            {"class": f"landmark {lm.kind}", "data-q": str(lm.space.q), "data-r": str(lm.space.r)},
        )
        ET.SubElement(
            g, "circle", {"class": "backdrop", "cx": _n(cx), "cy": _n(cy), "r": _n(icon * 0.48)}
        )
        facing = lm.facing
        if lm.kind == "statue":
            facing = facings.get(lm.space, facing)
            if facing is not None:
                facing = _facing(facing, lm.space)
                g.set("data-facing", str(facing))
                dx, dy = _unit(facing)
                x0, y0 = cx + dx * size * 0.35, cy + dy * size * 0.35
                x1, y1 = cx + dx * size * 0.95, cy + dy * size * 0.95
                ET.SubElement(
                    g,
                    "line",
                    {
                        "class": "facing",
                        "x1": _n(x0),
                        "y1": _n(y0),
                        "x2": _n(x1),
                        "y2": _n(y1),
                        "marker-end": "url(#arrow-head)",
                    },
                )
        label = lm.kind if facing is None else f"{lm.kind} facing {DIRECTION_NAMES[facing]}"
        ET.SubElement(g, "title").text = (
            titles[lm.space] if titles is not None else f"{label} ({lm.space.q}, {lm.space.r})"
        )
        _use(g, f"#landmark-{lm.kind}", cx, cy, icon)


def _facing(value: object, space: Hex) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 5:
        raise InvalidInput(
            f"facing must be 0-5, got {value!r}", f"statue_facings.({space.q}, {space.r})"
        )
    return value


def _unit(d: int) -> tuple[float, float]:
    """The screen direction of hex direction ``d`` as a unit vector."""
    x, y = to_pixel(DIRECTIONS[d], 1.0)
    length = math.hypot(x, y)
    return x / length, y / length


def _amulets(
    svg: ET.Element,
    island: Island,
    amulets: Iterable[tuple[int, int]],
    size: float,
    origin: tuple[float, float],
) -> None:
    group = ET.SubElement(svg, "g", {"class": "amulets"})
    r = size * 0.22
    for i, h in enumerate(amulets):
        h = _space(island, h, f"amulets[{i}]")
        cx, cy = to_pixel(h, size, origin)
        cx += size * 0.45
        cy -= size * 0.4
        ET.SubElement(
            group,
            "polygon",
            {
                "class": "amulet",
                "data-q": str(h.q),
                "data-r": str(h.r),
                "points": _points([(cx, cy - r), (cx + r, cy), (cx, cy + r), (cx - r, cy)]),
            },
        )


def _atvs(
    svg: ET.Element,
    island: Island,
    atvs: Sequence[tuple[tuple[int, int], str]],
    size: float,
    origin: tuple[float, float],
) -> None:
    group = ET.SubElement(svg, "g", {"class": "atvs"})
    per_space: dict[Hex, int] = {}
    w, h_ = size * 0.42, size * 0.26
    for i, item in enumerate(atvs):
        try:
            space, colour = item
        except (TypeError, ValueError):
            raise InvalidInput("must be a pair (space, colour)", f"atvs[{i}]") from None
        h = _space(island, space, f"atvs[{i}].space")
        if not isinstance(colour, str) or not _COLOUR.match(colour):
            raise InvalidInput(f"{colour!r} is not a colour", f"atvs[{i}].colour")
        slot = per_space.get(h, 0)
        per_space[h] = slot + 1
        cx, cy = to_pixel(h, size, origin)
        x = cx - size * 0.55 + (slot % 2) * w * 1.1
        y = cy + size * 0.2 + (slot // 2) * h_ * 1.1
        ET.SubElement(
            group,
            "rect",
            {
                "class": f"atv atv-{colour.lstrip('#')}",
                "data-q": str(h.q),
                "data-r": str(h.r),
                "x": _n(x),
                "y": _n(y),
                "width": _n(w),
                "height": _n(h_),
                "rx": _n(h_ / 3),
                "fill": colour,
            },
        )


def _coords(svg: ET.Element, island: Island, size: float, origin: tuple[float, float]) -> None:
    group = ET.SubElement(svg, "g", {"class": "coords"})
    for h in island.index:
        cx, cy = to_pixel(h, size, origin)
        text = ET.SubElement(
            group, "text", {"class": "coord", "x": _n(cx), "y": _n(cy + size * 0.75)}
        )
        text.text = f"{h.q},{h.r}"
