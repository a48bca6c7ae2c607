"""Make ``stored_before_issue_22.json``: games as the service stored them before issue 22's rules.

Run it in a checkout of ``main`` before issue 22 (commit c41a35d), from that checkout's root::

    git worktree add --detach /tmp/before-22 c41a35d
    cd /tmp/before-22 && PYTHONPATH=. <this worktree>/.venv/bin/python \\
        <this worktree>/tests/data/make_stored_before_issue_22.py <this worktree>/tests/data/

That code's ``GameSessions`` plays each game on a SQLite file (its seats human, their moves
chosen by that code's bots, a bot seat played by its table; deadlines passed on an injected
clock), and the rows its store wrote (``games``, ``actions``, ``snapshots``) are dumped as they
are, with each human seat's token. ``tests/test_stored_before_rule_changes.py`` writes them into
a real SQLite file for today's service.
"""

from __future__ import annotations

import json
import random
import sqlite3
import sys
import tempfile
from pathlib import Path
from typing import Any

from games.base import get_kind, next_bot_action
from web.service.sessions import GameSessions
from web.storage import open_store

ABOUT = (
    "Games stored by the service of main at c41a35d, before issue 22 changed the rules of Isla"
    " Dorada, Dragon's Gold and Tobago: the rows of its SQLite store as written, and each human"
    " seat's token (made by tests/data/make_stored_before_issue_22.py)."
)

clock = [1_767_225_600.0]  # 2026-01-01, moved on by each move and past each deadline
path = Path(tempfile.mkdtemp()) / "before.sqlite3"
sessions = GameSessions(open_store(str(path)), clock=lambda: clock[0])


def play(name: str, seed: int, options: dict | None, levels: list[str], stop, force=None):
    """A game whose seats play as ``levels`` (``bot:<level>``: a bot seat) until ``stop(row,
    state, kind)``; ``force(row, state, kind)`` may choose a move first. Its id and tokens."""
    kind = get_kind(name)
    specs = [
        {"type": "bot", "level": lv[4:]} if lv.startswith("bot:") else {"type": "human"}
        for lv in levels
    ]
    game, tokens, _ = sessions.create(name, specs, options, seed)
    humans: list[str | None] = [None if lv.startswith("bot:") else lv for lv in levels]
    rng = random.Random(seed)
    while True:
        row, state = sessions.current(game.id)
        if kind.is_over(state) or stop(row, state, kind):
            return game.id, tokens
        if row.bot_due is not None:
            sessions.play_due_bots(game.id)
            continue
        found = force(row, state, kind) if force else None
        found = found or next_bot_action(kind, state, humans, lambda: rng)
        if found is None:  # a timed phase waits: its deadline passes
            clock[0] = row.deadline + 1
            sessions.settle(row)
            continue
        seat, action = found
        sessions.act(game.id, seat, row.version, action, row)
        clock[0] += 3


opened: list[int] = []


def leader_passes(row, state, kind):
    """The leader passes at the first opening (the old rules let it)."""
    if kind.view(state, None)["phase"] == "bid" and not opened:
        seat = kind.to_act(state)[0]
        if {"type": "pass"} in kind.legal_actions(state, seat):
            opened.append(row.version + 1)
            return seat, {"type": "pass"}
    return None


DIVISION = {"negotiation": "division", "market_seconds": 60}
made: dict[str, tuple[str, dict[int, str]]] = {
    # the leader's opening pass, and two moves after it
    "isla_leader_pass": play(
        "isla_dorada",
        31,
        None,
        ["planner"] * 3,
        lambda r, s, k: bool(opened) and r.version >= opened[0] + 2,
        leader_passes,
    ),
    # bids that name their cards, past the snapshot at 50, a bot seat due
    "isla_bids_with_cards": play(
        "isla_dorada",
        5,
        None,
        ["planner", "random", "planner", "bot:planner"],
        lambda r, s, k: r.version >= 60 and r.bot_due is not None,
    ),
    # stopped as the market opened after the 7th dragon (its deadline stored)
    "dg_old_market": play(
        "dragons_gold",
        7,
        DIVISION,
        ["greedy"] * 3,
        lambda r, s, k: k.view(s, None)["phase"] == "market",
    ),
    "dg_finished": play("dragons_gold", 8, DIVISION, ["greedy"] * 3, lambda r, s, k: False),
    # before its market: no rule that changed has come into play
    "dg_before_market": play(
        "dragons_gold", 9, DIVISION, ["greedy"] * 3, lambda r, s, k: r.version >= 14
    ),
    # random bots: two whole rounds without progress come early (today's stalled end)
    "tobago_finished": play("tobago", 13, None, ["random"] * 2, lambda r, s, k: False),
    "dao_finished": play("dao", 14, None, ["random"] * 2, lambda r, s, k: False),
}

db = sqlite3.connect(path)
db.row_factory = sqlite3.Row
out: dict[str, Any] = {}
for key, (game_id, tokens) in made.items():

    def rows(sql: str, game_id: str = game_id) -> list[dict]:
        return [dict(r) for r in db.execute(sql, (game_id,))]

    out[key] = {
        "tokens": {str(seat): token for seat, token in tokens.items()},
        "games": rows("SELECT * FROM games WHERE id = ?"),
        "actions": rows("SELECT * FROM actions WHERE game = ? ORDER BY version"),
        "snapshots": rows("SELECT * FROM snapshots WHERE game = ?"),
    }
    if key == "isla_leader_pass":
        out[key]["departs"] = opened[0]
lines = [f"{json.dumps(k)}: {json.dumps(v, separators=(',', ':'))}" for k, v in out.items()]
text = "{" + json.dumps("_about") + ": " + json.dumps(ABOUT) + ",\n" + ",\n".join(lines) + "}\n"
(Path(sys.argv[1]) / "stored_before_issue_22.json").write_text(text, "utf-8")
