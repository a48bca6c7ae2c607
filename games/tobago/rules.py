"""Tobago's constants and rule options, loaded once from ``data/tobago.json``.

The numbers of the game (treasure values, hand sizes, amulets, compass markers) are data; the
rule options are ``OptionSpec`` values the registry shows and ``GameKind.resolve_options`` checks.
"""

from __future__ import annotations

import json
from pathlib import Path

import hexmap.drive
from games.base import OptionSpec

_DATA = json.loads((Path(__file__).with_name("data") / "tobago.json").read_text("utf-8"))

#: The four treasure maps, in column order.
COLOURS: tuple[str, ...] = tuple(_DATA["colours"])
MAP_INDEX: dict[str, int] = {c: i for i, c in enumerate(COLOURS)}
#: The players' colours (compass markers and ATVs), by seat.
SEAT_COLOURS: tuple[str, ...] = tuple(_DATA["seat_colours"])
#: The 39 gold cards' values, in a fixed order (card id = index); curses follow them.
GOLD_VALUES: tuple[int, ...] = tuple(
    int(v)
    for v, n in sorted(_DATA["treasure_values"].items(), key=lambda kv: int(kv[0]))
    for _ in range(n)
)
CURSES: int = _DATA["curses"]
#: The value standing for a curse card (a curse is worth nothing).
CURSE = 0
#: Treasure card id → value (0 for the curses, which come last).
TREASURE_VALUES: tuple[int, ...] = GOLD_VALUES + (CURSE,) * CURSES
TREASURE_CARDS = len(TREASURE_VALUES)
#: The top cards of the treasure deck that never hold a curse.
CURSE_FREE_TOP: int = _DATA["curse_free_top"]
HAND_SIZE: dict[int, int] = {int(k): v for k, v in _DATA["hand_size"].items()}
AMULETS: int = _DATA["amulets"]
COMPASS_MARKERS: int = _DATA["compass_markers"]
#: Movement points of one drive action (rules §5; ``hexmap/data/drive.json``, where the drive
#: costs are defined).
DRIVE_POINTS: int = hexmap.drive.DRIVE_POINTS

#: ``landmarks_seed`` value meaning "draw the landmarks from the game's seed".
LANDMARKS_FROM_GAME_SEED = -1

#: Island names: ``classic-1`` … ``classic-6`` or ``generated-<seed>`` (up to 19 digits below 9e18).
ISLAND_PATTERN = r"classic-[1-6]|generated-(?:[0-9]{1,18}|[0-8][0-9]{18})"

OPTIONS: tuple[OptionSpec, ...] = (
    OptionSpec("island", "classic-1", pattern=ISLAND_PATTERN),
    OptionSpec("landmarks_seed", LANDMARKS_FROM_GAME_SEED, bounds=(-1, 2**63 - 1)),
    OptionSpec("near_includes_target", False),
    OptionSpec("treasure_on_landmarks", True),
    OptionSpec("extra_marker", True),
)
