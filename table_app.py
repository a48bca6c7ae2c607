"""The table's process under gunicorn (the entry point ``gunicorn.conf.py`` names, beside
``app.py``): a gunicorn "dirty" worker (a process pool gunicorn starts,
watches and restarts beside the HTTP workers, for work that would block them) that runs the
table runner (``web.service.table``) and the review's analyses, so that no bot or analysis ever
runs Python on an HTTP worker's event loop.

``gunicorn.conf.py`` names it (``dirty_apps``) with ``dirty_workers`` processes per server
(``TOBAGO_TABLE_PROCESSES``, default: the machine's cores). Each builds the app the server serves (the factory
gunicorn was given, ``TOBAGO_APP``: ``gunicorn.conf.py`` passes it on) with ``TABLE_RUNNER``
on, so its runner thread settles due deadlines and plays due bots of every game in the database: several
such processes, on one server or many, share the work through the games' leases, and the
server's bell wakes one of them as soon as any process writes a due bot (``web.service.bell``). A runner that
dies (``kill -9``) loses nothing: gunicorn starts another, and its lease lets any runner take
its game over. The HTTP workers send it analyses (``analyse``) through gunicorn's dirty client
(``web.review``); it computes them in its own threads and stores their progress as it goes.

**A hung runner is replaced.** Gunicorn's dirty worker proves it is alive by its heartbeat file
(``worker.tmp``: its modification time, on the monotonic clock), which the worker's main loop
touches every ``dirty_timeout / 2`` and before each request, whatever its other threads do; and
the dirty arbiter kills a worker only after ``dirty_timeout`` (600 s: the limit of one
analysis) without one. So a runner thread stuck in a bot's endless loop or in a store call that
never returns, in a process that still heartbeats, would stall every bot and clock of the
server. Here the heartbeat is the runner's: ``runner_heartbeat`` (gunicorn's
``dirty_worker_init`` hook) makes every touch of the file write the time of the runner's last
beat (``TableRunner.beat``: its loop's own progress, ``web.service.table``), and the runner
touches it as it goes; ``watch_stalls`` (the ``dirty_post_fork`` hook, in the dirty arbiter)
kills (SIGKILL) a table process whose file is older than ``STALL_S`` (``TOBAGO_TABLE_STALL_S``,
30 s), which covers a process stopped altogether (SIGSTOP) too. Gunicorn starts another, and
the games' leases let its runner (or another server's) take the games over.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import threading
import time
from typing import Any

from gunicorn import util
from gunicorn.dirty import DirtyApp

from web.config import from_environment

#: A table process whose runner made no progress for this long is killed and replaced
#: (seconds; ``TOBAGO_TABLE_STALL_S``, read in the dirty arbiter, where no app exists).
STALL_S: float = from_environment("TABLE_STALL_S")
#: How often the dirty arbiter looks at its table processes' heartbeats (seconds).
WATCH_S = 1.0


class TableApp(DirtyApp):
    """The app of the table's process (module doc)."""

    def init(self) -> None:
        """In the dirty worker, after gunicorn's fork: the server's app, with the table's
        runner (this process runs the table: ``TOBAGO_TABLE_RUNNER``)."""
        os.environ["TOBAGO_TABLE_RUNNER"] = "1"
        self.app: Any = util.import_app(os.environ.get("TOBAGO_APP", "app:create_app()"))

    def analyse(self, game_id: str) -> bool:
        """Compute and store a finished game's analysis (``web.review.Reviews.run``)."""
        from web.review import init_reviews  # (not in the arbiter, which imports this module)

        with self.app.app_context():
            found = self.app.extensions.get("reviews")
            if found is None:
                found = init_reviews(self.app, self.app.extensions["game_sessions"])
            found.run(game_id)
        return True

    def close(self) -> None:
        self.app.extensions["game_sessions"].stop_runner()


def runner_heartbeat(worker: Any) -> None:
    """In a dirty worker whose apps are loaded (gunicorn's ``dirty_worker_init``): its
    heartbeat file says when the table runner last made progress, not when the process last
    ran (module doc). A worker without a runner (its app's ``TABLE_RUNNER`` off) touches it
    every second from a thread of its own: alive while the process runs."""
    runner = None
    for app in worker.apps.values():
        if isinstance(app, TableApp):
            runner = app.app.extensions["game_sessions"].runner
    fd = worker.tmp.fileno()
    if runner is None:
        threading.Thread(target=_beat_alone, args=(fd,), name="heartbeat", daemon=True).start()
        return

    def notify(beat: float | None = None) -> None:
        """Gunicorn's touch of the heartbeat file (its loop's, each request's), and the
        runner's: the time of the runner's last beat."""
        when = runner.beat if beat is None else beat
        with contextlib.suppress(OSError):  # the file is closed: the process is leaving
            os.utime(fd, (when, when))

    worker.notify = notify
    runner.on_beat = notify
    notify()


def _beat_alone(fd: int) -> None:
    while True:
        now = time.monotonic()
        try:
            os.utime(fd, (now, now))
        except OSError:  # the file is closed: the process is leaving
            return
        time.sleep(WATCH_S)


def watch_stalls(arbiter: Any) -> None:
    """In the dirty arbiter, after it forked a table process (gunicorn's ``dirty_post_fork``,
    run on the arbiter's event loop): start, once, the look at its processes' heartbeats every
    ``WATCH_S`` that kills a process whose runner stalled (module doc)."""
    if getattr(arbiter, "tobago_stall_watch", None) is None:
        arbiter.tobago_stall_watch = asyncio.get_running_loop().create_task(_watch(arbiter))


async def _watch(arbiter: Any) -> None:
    killed: set[int] = set()
    while arbiter.alive:
        await asyncio.sleep(WATCH_S)
        for pid, worker in list(arbiter.workers.items()):
            try:
                stalled = time.monotonic() - worker.tmp.last_update()
            except (OSError, ValueError):  # it ended meanwhile
                continue
            # (before a runner's first beat the file's time is a wall-clock time: far ahead)
            if stalled <= STALL_S or pid in killed:
                continue
            killed.add(pid)
            arbiter.log.critical(
                "TABLE RUNNER STALLED (pid:%s): no progress for %.0f s; killed", pid, stalled
            )
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        killed &= set(arbiter.workers)
