"""What a coordinate looks like in text: ``(-2, -1)``, ``(3,-2)``, ``（3, -2）``. Text meant for
players names spaces by ``solver.places`` and never matches this."""

from __future__ import annotations

import re

COORDS = re.compile(r"[(（]\s*-?\d+\s*,\s*-?\d+\s*[)）]")
