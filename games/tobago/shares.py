"""What a compass marker on a column is expected to bring: ``SHARE_GOLD`` by the map's
candidate count, measured by ``python -m games.tobago.analysis_calibrate`` and stored in
``data/analysis.json`` (its ``about`` says how). The review's expected-gold chart
(``games.tobago.analysis``) and the strong bot's evaluation (``games.tobago.search``) read it.
"""

from __future__ import annotations

import json
from pathlib import Path

_DATA = json.loads((Path(__file__).with_name("data") / "analysis.json").read_text("utf-8"))
#: Expected gold of one share (a compass marker on a map's column), by the map's candidate count:
#: ``(most candidates, gold)`` rows, the first row whose bound the count does not exceed.
SHARE_GOLD: tuple[tuple[int, float], ...] = tuple(
    (int(row["up_to"]), float(row["gold"])) for row in _DATA["share_gold"]
)


def share_gold(count: int) -> float:
    """The expected gold of one share on a map with ``count`` candidates."""
    for bound, gold in SHARE_GOLD:
        if count <= bound:
            return gold
    return SHARE_GOLD[-1][1]
