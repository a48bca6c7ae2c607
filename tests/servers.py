"""Starting the service on loopback for tests and benchmarks: one place, so every caller starts
it the same way (and a fix reaches all of them).

- ``Gunicorn(database, app=...)``: the production server (gunicorn with ``gunicorn.conf.py``:
  gunicorn's gevent worker, as ``make run``) as a child process on
  a free ``127.0.0.1`` port and its own SQLite file; ``start()`` returns once ``/healthz``
  (or another ``ready`` path) answers, ``stop()`` ends it (SIGTERM, then kill). It can be started again on the same
  database (a restart), and used as a context manager.
- ``serve_in_thread(app)``: a Flask app under werkzeug in a daemon thread (threaded, so a
  long-poll does not block other requests), for browser tests; yields the base URL.
- ``free_port()``: a free loopback port.
- ``worker_pids(master)``: a server's HTTP worker processes, read from ``/proc`` (benchmarks
  and the ``kill -9`` test); ``table_pids(master)``: its table processes (gunicorn's dirty
  workers, ``table_app.py``), which play the bots and settle deadlines;
  ``server_cpu_seconds(master)``: the CPU time of every process of the server (master, HTTP
  workers, the table's arbiter and processes): what a request costs wherever its work runs (a
  move's bot reply is computed by the table); ``workers_cpu_seconds(master)``: the HTTP
  workers' alone (what the table's own work is told apart from).

Benchmark scripts import it after putting the project root on ``sys.path``
(``from tests.servers import Gunicorn``).
"""

from __future__ import annotations

import http.client
import os
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any

import requests

ROOT = Path(__file__).resolve().parent.parent
GUNICORN = Path(sys.executable).with_name("gunicorn")
#: The settings ``make run`` uses (the worker class and its limits).
CONFIG = ROOT / "gunicorn.conf.py"
#: The service as ``make run`` serves it.
APP = "app:create_app()"
#: The service plus the test game Blind Auction (``tests/testgame.py``).
APP_WITH_TESTGAME = "tests.testgame:create_app_with_testgame()"


def _children(master: int) -> Iterator[tuple[int, list[str]]]:
    """``(pid, /proc/<pid>/stat fields after the command name)`` of each child of ``master``."""
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:  # the process ended meanwhile
            continue
        if int(fields[1]) == master:  # the parent's pid
            yield int(stat.parent.name), fields


def _http_workers(master: int) -> Iterator[tuple[int, list[str]]]:
    """The master's children but the table's arbiter (gunicorn's dirty arbiter, the one child
    with children of its own: its table processes)."""
    for pid, fields in _children(master):
        if next(_children(pid), None) is None:
            yield pid, fields


def worker_pids(master: int) -> list[int]:
    """The gunicorn HTTP workers of the server whose master is ``master``."""
    return [pid for pid, _ in _http_workers(master)]


def table_pids(master: int) -> list[int]:
    """The server's table processes (``table_app.py``: gunicorn's dirty workers)."""
    return [pid for child, _ in _children(master) for pid, _ in _children(child)]


def _cpu_seconds(fields: list[str]) -> float:
    """User + system CPU seconds of one process from its ``/proc/<pid>/stat`` fields."""
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def pids_cpu_seconds(pids: list[int]) -> float:
    """User + system CPU seconds used so far by the processes ``pids`` (each still running)."""
    return sum(
        _cpu_seconds(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split())
        for pid in pids
    )


def server_cpu_seconds(master: int) -> float:
    """User + system CPU seconds used so far by every process of the server: the master and
    all its descendants (a process that ended meanwhile no longer counts)."""
    try:
        own = _cpu_seconds(Path(f"/proc/{master}/stat").read_text().rsplit(")", 1)[1].split())
    except OSError:
        own = 0.0
    return own + _descendants_cpu_seconds(master)


def workers_cpu_seconds(master: int) -> float:
    """User + system CPU seconds used so far by the server's HTTP workers alone."""
    return sum(_cpu_seconds(f) for _, f in _http_workers(master))


def _descendants_cpu_seconds(parent: int) -> float:
    return sum(_cpu_seconds(f) + _descendants_cpu_seconds(pid) for pid, f in _children(parent))


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on (just now)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def answers(port: int, path: str = "/healthz", timeout: float = 2.0) -> bool:
    """Whether ``GET path`` on 127.0.0.1:``port`` answers 200."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        conn.request("GET", path)
        return conn.getresponse().status == 200
    except OSError:
        return False
    finally:
        conn.close()


class Gunicorn:
    """A gunicorn process serving ``app`` on ``database`` (see the module doc).

    Its output (warnings and errors) goes to ``log`` (a temporary file if none is given) and is
    quoted when the server does not come up. ``url``, ``port`` and ``pid`` (the master process;
    the workers are its children) are set by ``start()``.
    """

    def __init__(
        self,
        database: str | Path,
        app: str = APP,
        workers: int = 2,
        threads: int = 8,
        log: str | Path | None = None,
        start_timeout: float = 30.0,
        env: dict[str, str] | None = None,
        config: str | Path = CONFIG,
        args: list[str] | None = None,
        ready: str = "/healthz",
    ) -> None:
        self.database = str(database)
        self.app = app
        self.workers = workers
        self.threads = threads
        self._own_log = log is None  # a temporary file, removed by stop()
        self.log = (
            Path(log) if log else Path(tempfile.mkstemp(prefix="gunicorn-", suffix=".log")[1])
        )
        self.start_timeout = start_timeout
        #: Extra environment for the server (e.g. ``TOBAGO_REQUEST_TIMEOUT_S``).
        self.env = dict(env or {})
        #: The gunicorn settings file (benchmarks compare another worker class through it).
        self.config = str(config)
        #: More gunicorn options (e.g. ``["--access-logfile", path]``).
        self.args = list(args or [])
        #: The path whose 200 says the server is up (``/healthz`` answers 503 while the store
        #: refuses writes: a server on a read-only database is up without it).
        self.ready = ready
        self.proc: subprocess.Popen | None = None
        self.port = 0
        self.url = ""

    @property
    def has_table(self) -> bool:
        """Whether the server runs table processes (``gunicorn.conf.py``'s dirty workers)."""
        return self.config == str(CONFIG) and self.env.get("TOBAGO_TABLE_PROCESSES") != "0"

    @property
    def pid(self) -> int:
        assert self.proc is not None, "not started"
        return self.proc.pid

    def log_tail(self, chars: int = 2000) -> str:
        try:
            return self.log.read_text(errors="replace")[-chars:]
        except OSError:
            return ""

    def start(self) -> Gunicorn:
        """Start on a free port and wait until ``ready`` answers (RuntimeError if not)."""
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        env = {
            **os.environ,
            "TOBAGO_DATABASE": self.database,
            "PYTHONPATH": str(ROOT),
            **self.env,
        }
        cmd = [
            str(GUNICORN),
            "--config",
            self.config,
            "--bind",
            f"127.0.0.1:{self.port}",
            "--workers",
            str(self.workers),
            "--threads",
            str(self.threads),
            "--graceful-timeout",
            "5",
            "--log-level",
            "warning",
            *self.args,
            self.app,
        ]
        with open(self.log, "ab") as out:
            # its own process group: ``stop`` ends every process of the server with it
            self.proc = subprocess.Popen(
                cmd, cwd=ROOT, env=env, stdout=out, stderr=out, start_new_session=True
            )
        deadline = time.monotonic() + self.start_timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                tail = self.log_tail()
                self.stop()
                raise RuntimeError(f"gunicorn exited: {tail}")
            if answers(self.port, self.ready) and (not self.has_table or table_pids(self.pid)):
                return self  # up, with its table process when it has one
            time.sleep(0.1)
        tail = self.log_tail()
        self.stop()
        raise RuntimeError(f"gunicorn did not answer within {self.start_timeout:g} s: {tail}")

    def stop(self, timeout: float = 15.0) -> None:
        """SIGTERM and wait (long-polls end within the 5 s grace); kill if it lingers. Then
        every process left in the server's group is killed: a worker or table process whose
        master was killed would otherwise outlive the test."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        if self.proc is not None:
            with suppress(ProcessLookupError, PermissionError):
                os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc = None
        if self._own_log:
            self.log.unlink(missing_ok=True)

    def __enter__(self) -> Gunicorn:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


def gunicorn_in(tmp: Path, app: str = APP, **settings: Any) -> Gunicorn:
    """A server on ``tmp/games.sqlite3`` that logs to ``tmp/gunicorn.log`` (``settings``: the
    other ``Gunicorn`` arguments), started and stopped by ``with``."""
    return Gunicorn(tmp / "games.sqlite3", app, log=tmp / "gunicorn.log", **settings)


@contextmanager
def serve_in_thread(app) -> Iterator[str]:
    """``app`` on 127.0.0.1 (a free port) under werkzeug in a daemon thread; yields its URL."""
    from werkzeug.serving import make_server

    srv = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=srv.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{srv.server_port}"
    finally:
        srv.shutdown()
        thread.join(5)


def auction_with_bot(url: str, level: str, seed: int) -> dict:
    """A Blind Auction of three rounds made on the server at ``url`` (the test game, registered
    by its app): a human seat, then a bot of ``level``; the created game's answer."""
    seats = [{"type": "human"}, {"type": "bot", "level": level}]
    body = {"game": "blind_auction", "seats": seats, "seed": seed, "options": {"rounds": 3}}
    made = requests.post(url + "/api/games", json=body, timeout=10)
    assert made.status_code == 201, made.text
    return made.json()
