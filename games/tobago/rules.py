"""Tobago's constants and rule options, loaded once from ``data/tobago.json``.

The numbers of the game (treasure values, hand sizes, amulets, compass markers) are data; the
rule options are ``OptionSpec`` values the registry shows and ``GameKind.resolve_options`` checks.
"""

from __future__ import annotations

import json
from pathlib import Path

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
DRIVE_POINTS: int = _DATA["drive_points"]
#: Physical candidate markers per colour: a map shows them (and an amulet may remove one) only
#: when fewer than this many candidates remain (rules §3, §5).
PHYSICAL_MARKERS: int = _DATA["physical_candidate_markers"]

#: ``landmarks_seed`` value meaning "draw the landmarks from the game's seed".
LANDMARKS_FROM_GAME_SEED = -1

OPTIONS: tuple[OptionSpec, ...] = (
    OptionSpec(
        "island",
        "classic-1",
        "The island: classic-1 … classic-6 (3 pieces in one of 6 arrangements) or "
        "generated-<seed> (a fresh island from the generator)",
        "島嶼：classic-1 … classic-6（三塊版圖的六種組合）或 generated-<種子>（隨機生成的島）",
    ),
    OptionSpec(
        "landmarks_seed",
        LANDMARKS_FROM_GAME_SEED,
        "Seed of the landmark placement; -1 draws it from the game's seed",
        "標誌物擺放的種子；-1 表示由遊戲種子決定",
    ),
    OptionSpec(
        "near_includes_target",
        False,
        "'Within d of X' also holds on the spaces of X itself",
        "「距離 X d 格以內」也包括 X 本身所在的格子",
    ),
    OptionSpec(
        "treasure_on_landmarks",
        True,
        "A treasure may lie on a landmark's space",
        "寶藏可以位於標誌物所在的格子",
    ),
    OptionSpec(
        "extra_marker",
        True,
        "After playing clues, put one more compass marker on a clue card carrying exactly one "
        "of yours",
        "追加線索後，在一張只有一個自己羅盤標記的線索牌上再放一個標記",
    ),
)
