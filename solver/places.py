"""A space of the island named as a player finds it on the map, in English and Chinese.

Players never see coordinates: no map shows them. So every page text that names a space (a
puzzle's explanation and answer, the printable answer key, the game's helper) names it by what
a player sees around it:

- its **terrain** ("the jungle space");
- **where** it lies: the compass direction from the island's centre as the map is drawn (north
  up; the centre is the mean of the spaces' centres; a space closer to it than a quarter of the
  island's reach is "in the middle");
- its **region**: "the largest jungle" (the clue cards' own words) or the size of its patch
  ("a jungle patch of 3 spaces", "a lone jungle space");
- the **nearest landmark** by hex distance ("next to a hut", "2 spaces from a statue", "with a
  palm on it"; ties: the first landmark of the island's list).

A name need not be unique (two neighbouring spaces may share one), so a page that shows such a
text beside a map also marks the named space on the map. The words are in
``i18n/<lang>/solver.json`` (keys ``place.*``); terrain and landmark names are the clue cards'.
The JSON APIs keep coordinates as data fields for developers; only text for players uses this.
"""

from __future__ import annotations

import math

from hexmap.hexes import Hex, distance, to_pixel
from hexmap.island import Island, Landmark
from i18n import translate
from solver.clues import check_lang

#: The eight compass points, counter-clockwise from east (the sectors of 45° around each).
COMPASS = ("e", "ne", "n", "nw", "w", "sw", "s", "se")
#: Spaces nearer the centre than this share of the farthest space's distance are "in the middle".
MIDDLE_SHARE = 0.25

__all__ = [
    "COMPASS",
    "compass",
    "nearest_landmark",
    "place_name",
    "place_names",
    "place_short",
]


def _centre(island: Island) -> tuple[float, float, float]:
    """The island's centre on the drawn map (x right, y down) and its reach (farthest space)."""
    pts = [to_pixel(h, 1.0) for h in island.index]
    cx = sum(x for x, _ in pts) / len(pts)
    cy = sum(y for _, y in pts) / len(pts)
    reach = max(math.hypot(x - cx, y - cy) for x, y in pts)
    return cx, cy, reach


def compass(island: Island, space: tuple[int, int], centre: tuple | None = None) -> str:
    """``"middle"`` or one of ``COMPASS``: where ``space`` lies from the island's centre, as the
    map is drawn (north is up)."""
    cx, cy, reach = centre or _centre(island)
    x, y = to_pixel(Hex(*space), 1.0)
    dx, dy = x - cx, cy - y  # screen y grows downwards; north is up
    if math.hypot(dx, dy) < MIDDLE_SHARE * reach:
        return "middle"
    sector = round(math.degrees(math.atan2(dy, dx)) / 45.0) % 8
    return COMPASS[sector]


def nearest_landmark(island: Island, space: tuple[int, int]) -> tuple[Landmark, int] | None:
    """The landmark nearest ``space`` by hex distance and that distance (None: no landmark)."""
    best: tuple[Landmark, int] | None = None
    for lm in island.landmarks:
        d = distance(lm.space, space)
        if best is None or d < best[1]:
            best = (lm, d)
    return best


def _region(island: Island, h: Hex, lang: str, terrain: str) -> str:
    region = island.region_of(h)
    if island.largest.get(island.terrain[h]) == region:
        return translate(lang, "place.region_largest", terrain=terrain)
    if len(region) == 1:
        return translate(lang, "place.region_lone", terrain=terrain)
    return translate(lang, "place.region_n", terrain=terrain, count=len(region))


def _landmark(island: Island, h: Hex, lang: str) -> str:
    near = nearest_landmark(island, h)
    if near is None:
        return ""
    lm, d = near
    kind = translate(lang, f"clue.target.{lm.kind}")
    if d == 0:
        return translate(lang, "place.lm_on", kind=kind)
    if d == 1:
        return translate(lang, "place.lm_next", kind=kind)
    return translate(lang, "place.lm_near", kind=kind, count=d)


def place_name(
    island: Island, space: tuple[int, int], lang: str = "en", centre: tuple | None = None
) -> str:
    """The space as a player finds it: terrain, where, region, nearest landmark (module doc).

    ``InvalidInput`` for an unknown ``lang``; ``KeyError`` for a space off the island (callers
    name only island spaces)."""
    lang = check_lang(lang)
    h = Hex(*space)
    terrain = translate(lang, f"terrain.{island.terrain[h]}")
    return translate(
        lang,
        "place.name",
        terrain=terrain,
        where=translate(lang, f"place.dir.{compass(island, h, centre)}"),
        region=_region(island, h, lang, terrain),
        landmark=_landmark(island, h, lang),
    )


def place_short(
    island: Island, space: tuple[int, int], lang: str = "en", centre: tuple | None = None
) -> str:
    """The short name (terrain, where, nearest landmark; no region) for running text such as
    the game's log, where a move names two spaces in one line."""
    lang = check_lang(lang)
    h = Hex(*space)
    return translate(
        lang,
        "place.short",
        terrain=translate(lang, f"terrain.{island.terrain[h]}"),
        where=translate(lang, f"place.dir.{compass(island, h, centre)}"),
        landmark=_landmark(island, h, lang),
    )


def place_names(island: Island, lang: str = "en", short: bool = False) -> dict[Hex, str]:
    """``place_name`` (or ``place_short``) of every island space (the centre computed once)."""
    centre = _centre(island)
    name = place_short if short else place_name
    return {h: name(island, h, lang, centre) for h in island.index}
