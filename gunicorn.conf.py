"""gunicorn settings shared by ``make run`` and the tests' servers (``tests/servers.py``).

The worker is gunicorn's gevent worker: every connection is a greenlet on one event loop per
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

Starting the server raises the soft limit of open files (``RLIMIT_NOFILE``) to the hard limit
where that is allowed: each connection is a file descriptor. ``WORKERS`` and the bind address
come from the command line (``make run``).
"""

import os
import resource

worker_class = "gevent"
worker_connections = int(os.environ.get("TOBAGO_CONNECTIONS", 10_000))
keepalive = int(os.environ.get("TOBAGO_IDLE_TIMEOUT_S", 10))
REQUEST_TIMEOUT_S = float(os.environ.get("TOBAGO_REQUEST_TIMEOUT_S", 30.0))


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


def on_starting(server):  # noqa: ANN001, ANN201 - gunicorn's hook signature
    """In the master, before any worker: more open files (inherited by the workers)."""
    raise_open_files_limit()


def pre_request(worker, req):  # noqa: ANN001, ANN201 - gunicorn's hook signature
    """Before the app reads a request: its socket's reads and writes time out after
    ``REQUEST_TIMEOUT_S`` (the gevent worker leaves the socket blocking, without one)."""
    sock = getattr(req.unreader, "sock", None)
    if sock is not None:
        sock.settimeout(REQUEST_TIMEOUT_S)


def post_worker_init(worker):  # noqa: ANN001, ANN201 - gunicorn's hook signature
    """Once a worker has loaded the app: everything built so far (modules, the games' tables,
    the catalogues) moves out of the garbage collector's sight (``gc.freeze``), so a full
    collection walks only what requests create. Those collections were the slowest answers a
    warm server gave (``bench/review_bench.py``, ``bench/tobago_bench.py``)."""
    import gc

    gc.collect()
    gc.freeze()
