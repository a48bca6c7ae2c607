"""The API description holds over real HTTP: ``schemathesis run --checks all`` against gunicorn
as ``make run`` starts it, with the repository's ``schemathesis.toml``, passes.

Every phase runs (examples, coverage, fuzzing, stateful, which follows the description's links
from a new game to its routes), time-boxed by ``--max-time`` so the suite stays short; every
operation selected must be tested, every phase must pass, and the run must reach ``MIN_CASES``
generated cases (how many more fit in the time is the machine's: 3,445 with a second suite
beside it, 9,365 beside one other job). gunicorn's access log counts the requests the server
answered and how many were 5xx (none may be). The one setting added for this run: the
long-poll's ``wait`` is fixed at 0.1 s (a generated 25 s wait would hold the single client for
25 s; waiting is tested in ``tests/test_games_api.py``). The figures are printed (``-s``).
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.servers import ROOT, Gunicorn

pytestmark = pytest.mark.slow  # schemathesis against gunicorn: 150 s

SCHEMATHESIS = Path(sys.executable).with_name("schemathesis")
MAX_TIME_S = 150
MIN_CASES = 2000
QUICK_POLLS = """
[[operations]]
include-path = "/api/games/{game_id}/events"
parameters = { wait = 0.1 }
"""


def test_schemathesis_checks_all_pass_over_http(tmp_path):
    config = tmp_path / "schemathesis.toml"
    config.write_text((ROOT / "schemathesis.toml").read_text() + QUICK_POLLS)
    access = tmp_path / "access.log"
    server = Gunicorn(
        tmp_path / "games.sqlite3",
        log=tmp_path / "gunicorn.log",
        args=["--access-logfile", str(access), "--access-logformat", "%(s)s"],
    )
    with server:
        run = subprocess.run(
            [
                str(SCHEMATHESIS),
                "--config-file",
                str(config),
                "run",
                f"{server.url}/openapi.json",
                "--checks",
                "all",
                "--max-time",
                str(MAX_TIME_S),
                "--workers",
                "1",
                "--no-color",
            ],
            cwd=tmp_path,
            capture_output=True,
            text=True,
            timeout=MAX_TIME_S + 240,
        )
    out = run.stdout + run.stderr
    found = re.search(r"(\d+) generated", out)
    cases = int(found.group(1)) if found else 0
    statuses = access.read_text().split()
    errors = sum(s.startswith("5") for s in statuses)
    print(f"\nschemathesis --checks all: {cases} cases, {len(statuses)} requests, {errors} 5xx")
    assert run.returncode == 0, out[-6000:]
    assert errors == 0
    assert cases >= MIN_CASES, out[-2000:]
    selected = re.search(r"Selected:\s+(\d+)/\d+", out)
    tested = re.search(r"Tested:\s+(\d+)", out)
    assert selected and tested and tested.group(1) == selected.group(1), out[-2000:]
    for phase in ("Examples", "Coverage", "Fuzzing", "Stateful"):
        assert f"✅ {phase}" in out, out[-2000:]
