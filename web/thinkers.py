"""A server of thinkers alone: ``python -m web.thinkers`` (``make thinkers``) runs table
processes without HTTP, to add a machine's cores to the bots (and the deadlines) of games that
another server serves on the same PostgreSQL (README, "Several app servers").

It forks ``--processes`` thinkers (default: as many as the machine has cores), each building the
app (``TOBAGO_APP``, default ``app:create_app()``, on ``TOBAGO_DATABASE``) with its table runner
on (``web.service.table``): they share the due bots with every other server's thinkers by the
games' leases, exactly as a gunicorn server's table processes do, and the bell made here before
the fork (``web.service.bell``) wakes one of them at once when one of their own writes leaves a
bot due. The other servers' writes reach them at their next look (every ``TABLE_TICK_S``: 50 ms).

A thinker whose runner makes no progress for ``TOBAGO_TABLE_STALL_S`` seconds (30; a bot's
endless loop, a store call that never returns) leaves, and one that ends for any reason is
started again; SIGTERM or SIGINT ends them all.
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
import threading
import time
from typing import Any

from web.config import from_environment

#: A thinker whose runner made no progress for this long leaves, and is replaced (seconds;
#: ``TOBAGO_TABLE_STALL_S``).
STALL_S: float = from_environment("TABLE_STALL_S")
#: How often a thinker looks at its runner's beat, and the parent at its thinkers (seconds).
WATCH_S = 1.0


def think() -> None:
    """One thinker (in a forked child): the app with its table runner, until a signal ends
    it or its runner stalls."""
    from gunicorn import util

    os.environ["TOBAGO_TABLE_RUNNER"] = "1"
    app: Any = util.import_app(os.environ.get("TOBAGO_APP", "app:create_app()"))
    runner = app.extensions["game_sessions"].runner
    ended = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: ended.set())
    signal.signal(signal.SIGINT, lambda *_: ended.set())
    while not ended.wait(WATCH_S):
        if runner is not None and time.monotonic() - runner.beat > STALL_S:
            print(f"THINKER STALLED (pid:{os.getpid()}): leaving", file=sys.stderr, flush=True)
            os._exit(3)
    app.extensions["game_sessions"].stop_runner()


def _start() -> int:
    pid = os.fork()
    if pid == 0:
        code = 0
        try:
            think()
        except BaseException:  # noqa: BLE001 - the child's last word, then it leaves
            import traceback

            traceback.print_exc()
            code = 1
        os._exit(code)
    return pid


def main(argv: list[str] | None = None) -> None:
    """Fork the thinkers and keep them running (module doc)."""
    ask = argparse.ArgumentParser(prog="python -m web.thinkers", description=__doc__)
    ask.add_argument(
        "--processes", type=int, default=os.cpu_count() or 1, help="thinkers (default: cores)"
    )
    args = ask.parse_args(argv)
    from web.service.bell import made_for_children

    bell = made_for_children()  # referenced until the end: every thinker shares it
    # (each thinker grants efforts for its share of the queue: web.games_api.init_sessions)
    os.environ["TOBAGO_TABLE_PROCESSES"] = str(max(1, args.processes))
    children = {_start() for _ in range(max(1, args.processes))}
    ending = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: ending.set())
    signal.signal(signal.SIGINT, lambda *_: ending.set())
    print(f"thinkers: {len(children)} processes {sorted(children)}", flush=True)
    while not ending.wait(WATCH_S):
        for pid in list(children):
            done, _ = os.waitpid(pid, os.WNOHANG)
            if done:
                children.discard(pid)
                children.add(_start())
    for pid in children:
        os.kill(pid, signal.SIGTERM)
    for pid in children:
        os.waitpid(pid, 0)
    bell.close()


if __name__ == "__main__":
    main()
