"""Dragon's Gold scoring: both tables of ``../shared/rules/dragons_gold.md`` with every tie rule.

Basic: gold 3, silver 1, red 1, black 7; for each gem colour (yellow, blue, green, purple, white)
the player(s) with the most score the majority (15 with 3 players, 12 with 4-5, 10 with 6), every
tied player in full.

Advanced: gold 3, silver 1, red 1, black 19, but the black diamond's owner scores nothing for the
five gem colours (no sets, no majorities); every full set of the five colours 5; majorities 12 /
10 / 8; two tied players get half each; three or more tied get nothing.

Decisions (the rules file's): a player with none of a colour never "has the most" of it (nobody
holding a colour: nobody scores it). The diamond owner's gems still count when the others'
majorities are decided (they are owned, only not scored): a diamond owner with the most yellow
keeps everyone else from the yellow majority while scoring nothing for it.
"""

from __future__ import annotations

from games.dragons_gold.data import GEMS, SCORING


def majority_points(seats: int, advanced: bool) -> int:
    table = SCORING["advanced" if advanced else "basic"]["majority"]
    return int(table[str(seats)])


def breakdown(hoards: list[dict[str, int]], advanced: bool) -> list[dict]:
    """Per seat: ``{"tokens": {colour: points}, "sets", "majorities": {gem: points}, "total"}``.

    ``tokens`` holds the points of gold, silver, red and black; ``sets`` the advanced set points
    (0 in the basic game); ``majorities`` a gem colour's points for that seat (only colours it
    scores). Halves appear only in the advanced table (a two-way tie of 12, 10 or 8 points)."""
    seats = len(hoards)
    table = SCORING["advanced" if advanced else "basic"]
    points: dict[str, int] = table["points"]
    bonus = majority_points(seats, advanced)
    out: list[dict] = []
    for hoard in hoards:
        flat = {c: float(hoard[c] * p) for c, p in points.items()}
        out.append({"tokens": flat, "sets": 0.0, "majorities": {}, "total": 0.0})
    diamond = [advanced and h["black"] > 0 for h in hoards]
    if advanced:
        for s, hoard in enumerate(hoards):
            if not diamond[s]:
                out[s]["sets"] = float(min(hoard[g] for g in GEMS) * table["set"])
    for gem in GEMS:
        most = max(h[gem] for h in hoards)
        if most == 0:
            continue  # nobody has it: nobody "has the most"
        leaders = [s for s, h in enumerate(hoards) if h[gem] == most]
        if not advanced or len(leaders) == 1:
            share = float(bonus)
        elif len(leaders) == 2:
            share = bonus / 2
        else:
            continue  # three or more tied: nobody scores it
        for s in leaders:
            if not diamond[s]:
                out[s]["majorities"][gem] = share
    for row in out:
        row["total"] = sum(row["tokens"].values()) + row["sets"] + sum(row["majorities"].values())
    return out


def scores(hoards: list[dict[str, int]], advanced: bool) -> list[float]:
    return [row["total"] for row in breakdown(hoards, advanced)]
