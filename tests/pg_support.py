"""A throw-away PostgreSQL server for tests and benchmarks: Debian's ``postgresql`` binaries, a
cluster in a temporary directory, on a free loopback port, stopped and removed at the end.

PostgreSQL refuses to run as root, so under root ``initdb`` and ``pg_ctl`` run as the
``postgres`` user (``runuser -u postgres --``) in a directory that user owns; as any other user
they run as that user. The cluster trusts local connections (it listens on 127.0.0.1 only and
lives as long as the test run) and runs with ``fsync=off``: it is thrown away, nothing needs to
survive a power cut. ``make test`` installs the package when it is missing.

``PostgresCluster().start()`` then ``new_database()`` gives a ``postgresql://`` URL of an empty
database (one per test keeps tests apart); ``pause()`` and ``resume()`` stop and start the
server again (an outage); ``stop()`` ends the server and removes its files.
"""

from __future__ import annotations

import contextlib
import glob
import itertools
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

from tests.servers import free_port

PG_USER = "postgres"


def postgres_bindir() -> Path:
    """The newest ``/usr/lib/postgresql/<version>/bin`` with ``initdb`` (RuntimeError if none)."""
    found = sorted(
        glob.glob("/usr/lib/postgresql/*/bin/initdb"),
        key=lambda p: (
            int(Path(p).parent.parent.name) if Path(p).parent.parent.name.isdigit() else 0
        ),
    )
    if not found:
        raise RuntimeError(
            "PostgreSQL is not installed: `make test` installs it "
            "(apt-get install -y postgresql), or install it by hand"
        )
    return Path(found[-1]).parent


class PostgresCluster:
    """One PostgreSQL server in a temporary directory (see the module doc)."""

    def __init__(self) -> None:
        self.bindir = postgres_bindir()
        self.root = Path(tempfile.mkdtemp(prefix="tobago-pg-"))
        self.data = self.root / "data"
        self.port = 0
        self._names = itertools.count(1)
        self._as_root = os.geteuid() == 0

    def _run(self, *cmd: str) -> subprocess.CompletedProcess:
        args = [str(self.bindir / cmd[0]), *cmd[1:]]
        if self._as_root:
            args = ["runuser", "-u", PG_USER, "--", *args]
        return subprocess.run(args, check=True, capture_output=True, text=True, timeout=120)

    @property
    def url(self) -> str:
        """The server's maintenance database (``postgres``)."""
        return f"postgresql://{PG_USER}@127.0.0.1:{self.port}/postgres"

    def start(self) -> PostgresCluster:
        if self._as_root:
            shutil.chown(self.root, PG_USER, PG_USER)
        self._run(
            "initdb", "-D", str(self.data), "-U", PG_USER, "-A", "trust", "--no-sync", "-E", "UTF8"
        )
        self.port = free_port()
        self.resume()
        return self

    def resume(self) -> None:
        """Start the server (again, after ``pause``: same port, same databases)."""
        options = (
            f"-p {self.port} -c listen_addresses=127.0.0.1 -k {self.root}"
            " -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
            " -c max_connections=300"
        )
        self._run(
            "pg_ctl",
            "-D",
            str(self.data),
            "-l",
            str(self.root / "server.log"),
            "-o",
            options,
            "-w",
            "-t",
            "60",
            "start",
        )

    def pause(self) -> None:
        """Stop the server, keeping its files (an outage; ``resume`` ends it): every client's
        connection is cut at once, and new ones are refused meanwhile."""
        self._run("pg_ctl", "-D", str(self.data), "-m", "fast", "-w", "stop")

    def new_database(self) -> str:
        """A URL of a new, empty database on this server."""
        import psycopg

        name = f"test_{os.getpid()}_{next(self._names)}"
        with psycopg.connect(self.url, autocommit=True) as conn:
            conn.execute(f"CREATE DATABASE {name}")
        return f"postgresql://{PG_USER}@127.0.0.1:{self.port}/{name}"

    def log_tail(self, chars: int = 2000) -> str:
        try:
            return (self.root / "server.log").read_text(errors="replace")[-chars:]
        except OSError:
            return ""

    def stop(self) -> None:
        if self.port and self.data.exists():
            with contextlib.suppress(subprocess.CalledProcessError):  # not running: no stop
                self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")
        shutil.rmtree(self.root, ignore_errors=True)

    def __enter__(self) -> PostgresCluster:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
