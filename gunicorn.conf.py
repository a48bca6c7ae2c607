"""gunicorn settings shared by ``make run`` and the tests' servers (``tests/servers.py``).

The worker is gunicorn's gevent worker (``web.gevent_worker``: with a cap on each client's
connections, ``web.client_limits``): every connection is a greenlet on one event loop per
worker process, so an open game page (a Server-Sent Events stream or a long-poll), a slow upload
or an idle keep-alive connection costs a socket and a little memory, never a thread. The limits
on slow and idle clients are gunicorn's and gevent's own:

- ``keepalive`` = ``TOBAGO_IDLE_TIMEOUT_S`` (10 s): the gevent worker reads each request's
  headers under a gevent ``Timeout`` of this length, counted from the connection's start or its
  last answer: a silent connection, or headers trickled byte by byte, are closed after it.
- ``pre_request`` sets the connection's socket timeout to ``TOBAGO_REQUEST_TIMEOUT_S`` (30 s):
  a body read that waits longer is answered 408 (``web.jsonbody``), and an answer the client
  stops reading is abandoned after it.
- ``worker_connections`` = ``TOBAGO_CONNECTIONS`` (10,000): connections one worker serves at once;
  beyond it new ones wait in the listen backlog. Memory is the real limit (README, "Running it").
  One client address holds at most a quarter of them (``TOBAGO_CLIENT_CONNECTIONS``, 2,500) and
  an eighth as open streams (``TOBAGO_CLIENT_STREAMS``, 1,250), per worker: beyond, 429
  (``web.client_limits``), and the rest of every worker stays free for the other clients.
- ``reuse_port``: each worker listens on its own socket (``SO_REUSEPORT``), so the kernel
  spreads new connections over the workers; on one shared socket the worker that wakes first
  takes nearly all of them (measured: 200 of 200 streams on one of two workers).

The table (deadlines that pass, bots' moves, the review's analyses) runs in processes of its
own, never on an HTTP worker's event loop: gunicorn's dirty workers (``dirty_apps``,
``table_app.py``), the server's thinkers, ``TOBAGO_TABLE_PROCESSES`` of them (default: as many
as the machine has cores, ``os.cpu_count()``; 0: the HTTP workers run it themselves, holding up
their loop while a bot thinks). They share the due bots by the games' leases, and a write that
leaves a bot due, in any process of the server, wakes one idle thinker at once through the
server's bell (``web.service.bell``), made here before any process is forked. A table process
whose runner makes no progress for ``TOBAGO_TABLE_STALL_S`` (30 s) is killed and replaced
(``table_app.py``).

Starting the server raises the soft limit of open files (``RLIMIT_NOFILE``) to the hard limit
where that is allowed: each connection is a file descriptor. The server's name (``proc_name``)
is taken from its bind address, so that two servers on one machine never take each other's
table process for an orphan of a crashed run (gunicorn's pid file for it is named after it).
``WORKERS`` and the bind address come from the command line (``make run``). The settings are
read through ``web.config.from_environment`` (README, "Settings": a bad value stops the start
naming its variable); importing it here loads nothing the master would not load anyway (the
worker class, ``web.gevent_worker``, imports the ``web`` package). The environment is written
here only to hand things to the server's processes: ``TOBAGO_TABLE_RUNNER`` off for the HTTP
workers' apps when table processes run the table, and ``TOBAGO_APP``, the app's factory.
"""

from __future__ import annotations

import os
import resource
from typing import TYPE_CHECKING

from web.config import from_environment

if TYPE_CHECKING:
    from gunicorn.arbiter import Arbiter
    from gunicorn.http.message import Request
    from gunicorn.workers.base import Worker

worker_class = "web.gevent_worker.ClientLimitedWorker"
worker_connections: int = from_environment("CONNECTIONS")
reuse_port = True
keepalive: int = from_environment("IDLE_TIMEOUT_S")
REQUEST_TIMEOUT_S: float = from_environment("REQUEST_TIMEOUT_S")

dirty_workers: int = from_environment("TABLE_PROCESSES")
dirty_apps = ["table_app:TableApp"] if dirty_workers > 0 else []
#: Seconds one analysis may take in a table process (and gunicorn's own limit on its heartbeat);
#: a table process whose runner stalls is replaced far sooner (``TOBAGO_TABLE_STALL_S``, 30 s:
#: the two hooks below, ``table_app.py``).
dirty_timeout = 600
if dirty_workers > 0:
    os.environ["TOBAGO_TABLE_RUNNER"] = "0"  # the HTTP workers leave the table to it


def dirty_worker_init(worker: object) -> None:
    """In a table process, its apps loaded: its heartbeat is its runner's progress."""
    from table_app import runner_heartbeat

    runner_heartbeat(worker)


def dirty_post_fork(arbiter: object, _worker: object) -> None:
    """In the dirty arbiter, after it started a table process: it watches for stalled runners."""
    from table_app import watch_stalls

    watch_stalls(arbiter)


def raise_open_files_limit() -> int:
    """Raise the soft ``RLIMIT_NOFILE`` to the hard limit (where allowed); the soft limit now."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or soft < hard:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
        except (ValueError, OSError):  # not allowed here: the soft limit stands
            return soft
        return hard
    return soft


#: The master's bell (kept referenced: its sockets must stay open while the server runs).
BELLS: list[object] = []


def on_starting(server: Arbiter) -> None:
    """In the master, before any worker: more open files (inherited by the workers), the
    server's name from its bind address (module doc), and the app's factory for the table's
    process (``TOBAGO_APP``, read by ``table_app.py``: the same app as the HTTP workers');
    with table processes, the server's bell (``web.service.bell``), which every process forked
    after it inherits."""
    raise_open_files_limit()
    if dirty_workers > 0:
        from web.service.bell import made_for_children

        BELLS.append(made_for_children())
    server.proc_name = "tobago-" + "-".join(server.cfg.bind).replace("/", "_")
    os.environ["TOBAGO_APP"] = server.app.app_uri


def pre_request(_worker: Worker, req: Request) -> None:
    """Before the app reads a request: its socket's reads and writes time out after
    ``REQUEST_TIMEOUT_S`` (the gevent worker leaves the socket blocking, without one)."""
    sock = getattr(req.unreader, "sock", None)
    if sock is not None:
        sock.settimeout(REQUEST_TIMEOUT_S)


def worker_exit(_server: Arbiter, _worker: Worker) -> None:
    """In a gevent worker that is leaving (gunicorn calls this while its ``SystemExit`` is on
    the way): leave now, with that exit code, without the interpreter's teardown. Under
    gevent's monkey patching that teardown runs logging's weak-reference callbacks after
    gevent's thread module is gone, and each worker's exit printed two tracebacks ("Exception
    ignored in _removeHandlerRef"); nothing is left to do by then (answers are sent, SQLite's
    commits are durable, the OS closes the sockets), and the master needs only the code."""
    import logging
    import sys

    if "gevent.monkey" not in sys.modules:
        return
    error = sys.exc_info()[1]
    code = error.code if isinstance(error, SystemExit) else 1
    logging.shutdown()
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(0 if code is None else code if isinstance(code, int) else 1)


#: Allocations between two collections of the youngest generation (Python's default: 700).
#: A worker that holds thousands of open streams (each a generator, a subscription, a greenlet
#: and its request's objects) while lines and moves flow met a collection every few
#: milliseconds; whatever was in flight then was promoted, died old, and every few seconds a
#: full collection walked all the streams: 60-150 ms with 2,500 streams, the slowest answers
#: of ``bench/chat_bench.py``. At 20,000 the in-flight objects are promoted thirty times less
#: often and no full collection came in its rounds.
GC_YOUNG = 20_000


def post_worker_init(_worker: Worker) -> None:
    """Once a worker has loaded the app: everything built so far (modules, the games' tables,
    the catalogues) moves out of the garbage collector's sight (``gc.freeze``), so a full
    collection walks only what requests create. Those collections were the slowest answers a
    warm server gave (``bench/review_bench.py``, ``bench/tobago_bench.py``). The youngest
    generation is collected after ``GC_YOUNG`` allocations, not 700."""
    import gc

    gc.collect()
    gc.freeze()
    gc.set_threshold(GC_YOUNG, *gc.get_threshold()[1:])
