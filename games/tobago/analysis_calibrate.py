"""How much gold one share brings, by the map's candidate count: the table behind the review's
expected-gold chart (``games.tobago.shares.SHARE_GOLD``, stored in ``data/analysis.json``).

    python -m games.tobago.analysis_calibrate --games 300 --seed 1 [--write]

Bots play whole games (``strategic`` at every seat, 2-4 seats in turn). At every step, every
compass marker on a column that is not being shared is a *share* held at that map's candidate
count. When that map's treasure is next shared, each seat's gold accepted there is divided over
the shares it had on the column at the raise; every share seen before that raise is credited
that much. A share whose map is not raised again before the end brings nothing (nor does one
on a cursed sharing, beyond what was accepted before the curse). The mean per count bucket,
weighted by steps (the chart is drawn per step), is the table; ``--write`` stores it.

A study tool, not the engine: it reads the whole state, which is fine for measuring.
"""

from __future__ import annotations

import argparse
import json
import random
from pathlib import Path
from typing import Any

from games.base import get_kind, play_bots
from games.review import GameLog

#: Upper bounds of the candidate-count buckets of the table.
BUCKETS = (1, 2, 4, 8, 16, 32, 64, 10_000)
DATA = Path(__file__).with_name("data") / "analysis.json"


def bucket(count: int) -> int:
    return next(b for b in BUCKETS if count <= b)


def measure(games: int, seed: int) -> dict[int, tuple[float, int]]:
    """``{bucket: (mean gold per share, shares seen)}`` over ``games`` bot games."""
    kind = get_kind("tobago")
    rng = random.Random(seed)
    gold: dict[int, float] = dict.fromkeys(BUCKETS, 0.0)
    seen: dict[int, int] = dict.fromkeys(BUCKETS, 0)
    for g in range(games):
        seats = 2 + g % 3
        game_seed = rng.randrange(2**31)
        state = kind.new_state(game_seed, seats, {})
        entries: list[tuple[int | None, dict]] = []

        def record(s: int | None, a: dict, _e: list, out: list = entries) -> None:
            out.append((s, a))

        play_bots(kind, state, ["strategic"] * seats, random.Random(game_seed), on_action=record)
        _credit(GameLog.of("tobago", game_seed, seats, {}, entries), gold, seen)
    return {b: (gold[b] / seen[b] if seen[b] else 0.0, seen[b]) for b in BUCKETS}


def _record_shares(
    state: Any, sharing: int | None, pending: dict[int, list[tuple[int, int, int]]]
) -> None:
    """Each seat's markers on each map not being shared now, by the map's candidate bucket:
    ``pending[map]`` gains ``(bucket, seat, markers)``."""
    for mi, m in enumerate(state.maps):
        if mi == sharing:
            continue
        counts = [0] * state.seats
        for e in m.clues:
            counts[e.seat] += e.markers
        b = bucket(m.candidates.bit_count())
        for s, n in enumerate(counts):
            if n:
                pending.setdefault(mi, []).append((b, s, n))


def _credit(log: GameLog, gold: dict[int, float], seen: dict[int, int]) -> None:
    """One replay: shares recorded per step, credited at their map's next sharing."""
    kind = get_kind(log.kind)
    seats = log.seats
    state = kind.new_state(log.seed, seats, log.options)
    colour_index = {m.colour: i for i, m in enumerate(state.maps)}
    pending: dict[int, list[tuple[int, int, int]]] = {}
    accepted = [0.0] * seats
    at_raise = [0] * seats
    sharing: int | None = None
    for seat, action in log.actions:
        _record_shares(state, sharing, pending)
        for e in kind.apply(state, seat, action):
            if e["type"] == "raised":
                sharing = colour_index[e["map"]]
                at_raise = [0] * seats
                for owner in state.maps[sharing].markers_bottom_up():
                    at_raise[owner] += 1
                accepted = [0.0] * seats
            elif e["type"] == "card_accepted" and isinstance(e["value"], int):
                accepted[e["seat"]] += e["value"]
            elif e["type"] == "sharing_ended" and sharing is not None:
                per_share = [
                    accepted[s] / at_raise[s] if at_raise[s] else 0.0 for s in range(seats)
                ]
                for b, s, n in pending.pop(sharing, []):
                    gold[b] += n * per_share[s]
                    seen[b] += n
                sharing = None
    for records in pending.values():  # never raised again: nothing
        for b, _s, n in records:
            seen[b] += n


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--games", type=int, default=300)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--write", action="store_true", help=f"store the table in {DATA.name}")
    args = p.parse_args(argv)
    table = measure(args.games, args.seed)
    for b, (mean, n) in table.items():
        print(f"count <= {b:>5}: {mean:5.2f} gold per share  ({n} shares seen)")
    if args.write:
        data = json.loads(DATA.read_text("utf-8"))
        data["share_gold"] = [
            {"up_to": b, "gold": round(mean, 2)} for b, (mean, _) in table.items()
        ]
        data["measured"] = {"games": args.games, "seed": args.seed, "bots": "strategic"}
        DATA.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", "utf-8")


if __name__ == "__main__":
    main()
