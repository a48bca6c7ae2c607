"""The one configuration (``web/config.py``): every setting declared once, built in layers
(default < instance file < environment < ``create_app``'s mapping), a bad value refused at the
start by name, every variable the code uses declared, and the README's table of them current."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from app import create_app
from web import config
from web.accounts import rerate
from web.accounts.mail import MailSettings
from web.config import (
    APP,
    BY_NAME,
    INSTANCE_FILE,
    NOT_SETTINGS,
    PROCESS,
    SETTINGS,
    ConfigError,
    build,
    from_environment,
    settings_table,
)

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
BEGIN = "<!-- settings: written by `make settings` from web/config.py -->\n"
END = "<!-- end of the settings -->"


def instance(tmp_path: Path, text: str) -> Path:
    """An instance folder whose ``config.toml`` is ``text``."""
    (tmp_path / INSTANCE_FILE).write_text(text, encoding="utf-8")
    return tmp_path


# --- layers --------------------------------------------------------------------------------------


def test_each_layer_wins_over_the_one_before(tmp_path):
    folder = instance(
        tmp_path, 'STATE_CACHE_BYTES = "2MB"\nSMTP_PORT = 2525\nMAX_LOG_ENTRIES = 7\n'
    )
    env = {"TOBAGO_SMTP_PORT": "587", "TOBAGO_BASE_URL": "https://env.example/"}
    found = build(folder, {"BASE_URL": "https://mapping.example"}, env)
    assert found["MAIL_FROM"] == "tobago-study@localhost"  # the default
    assert found["STATE_CACHE_BYTES"] == 2 * 1024 * 1024  # the file over the default
    assert found["MAX_LOG_ENTRIES"] == 7  # the file sets settings that have no variable too
    assert found["SMTP_PORT"] == 587  # the environment over the file
    assert found["BASE_URL"] == "https://mapping.example"  # the mapping over the environment
    assert build(folder, None, env)["BASE_URL"] == "https://env.example"  # parsed: no last /


def test_without_a_file_or_variables_every_app_setting_is_its_default(tmp_path):
    found = build(tmp_path, None, {})
    assert found["DATABASE"] == str(tmp_path / "tobago.sqlite3")
    for s in SETTINGS:
        if s.scope == PROCESS:
            assert s.name not in found
        elif s.default is None and s.name != "TABLE_RUNNER":
            assert s.name not in found  # readers .get what has no value
        elif s.name not in ("DATABASE", "TABLE_RUNNER"):
            assert found[s.name] == s.default, s.name


def test_create_app_takes_the_environment_and_its_mapping_over_it(tmp_path, monkeypatch):
    monkeypatch.setenv("TOBAGO_STATE_CACHE", "3MB")
    monkeypatch.setenv("TOBAGO_TURN_MAIL_AFTER_S", "60")
    monkeypatch.setenv("TOBAGO_DATABASE", str(tmp_path / "env.sqlite3"))
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "given.sqlite3")})
    assert app.config["STATE_CACHE_BYTES"] == 3 * 1024 * 1024
    assert app.config["DATABASE"] == str(tmp_path / "given.sqlite3")
    assert app.extensions["mail_settings"].after_s == 60.0
    assert app.config["TABLE_RUNNER"] is False  # off under TESTING unless asked for


def test_the_mapping_is_taken_as_given_even_keys_nobody_declared(tmp_path):
    clock = lambda: 12.0  # noqa: E731
    app = create_app(
        {
            "TESTING": True,
            "DATABASE": str(tmp_path / "g.sqlite3"),
            "CLOCK": clock,
            "DEADLINE_TIMER": False,
            "TABLE_RUNNER": True,
        }
    )
    try:
        assert app.config["CLOCK"] is clock and app.config["DEADLINE_TIMER"] is False
        assert app.config["TABLE_RUNNER"] is True
    finally:
        app.extensions["game_sessions"].stop_runner()


@pytest.mark.parametrize(
    ("env", "overrides", "runner"),
    [
        ({}, {}, True),
        ({}, {"TESTING": True}, False),
        ({"TOBAGO_TABLE_RUNNER": "0"}, {}, False),
        ({"TOBAGO_TABLE_RUNNER": "0"}, {"TABLE_RUNNER": True}, True),
        ({"TOBAGO_TABLE_RUNNER": "1"}, {}, True),
    ],
)
def test_the_table_runs_here_unless_testing_or_told_not_to(tmp_path, env, overrides, runner):
    assert build(tmp_path, overrides, env)["TABLE_RUNNER"] is runner


def test_the_bots_rollouts_merge_by_kind_over_the_layers(tmp_path):
    folder = instance(tmp_path, "[BOT_ROLLOUTS]\ndao = 40\ntobago = 9\n")
    env = {"TOBAGO_STRONG_ROLLOUTS": "3", "ISLA_DORADA_STRONG_ROLLOUTS": "5"}
    assert build(folder, None, env)["BOT_ROLLOUTS"] == {"dao": 40, "tobago": 3, "isla_dorada": 5}
    assert build(tmp_path / "none", None, {})["BOT_ROLLOUTS"] == {}
    given = build(folder, {"BOT_ROLLOUTS": {"dao": 1}}, env)["BOT_ROLLOUTS"]
    assert given == {"dao": 1}  # the mapping is taken whole


def test_the_bots_rollouts_name_the_built_in_games():
    from games.base import BUILTIN_GAMES, kinds

    packages = tuple(m + "." for m in BUILTIN_GAMES)
    built_in = {name for name, k in kinds().items() if type(k).__module__.startswith(packages)}
    assert set(config.ROLLOUT_VARIABLES) == built_in


def test_a_blank_variable_counts_as_unset(tmp_path):
    found = build(tmp_path, None, {"TOBAGO_SMTP_HOST": "", "TOBAGO_SQLITE_MAX_SIZE": "  "})
    assert "SMTP_HOST" not in found and "SQLITE_MAX_BYTES" not in found


# --- refusals ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("variable", "value"),
    [
        ("TOBAGO_STATE_CACHE", "lots"),
        ("TOBAGO_SQLITE_LOCK_WAIT_S", "-1"),
        ("TOBAGO_SQLITE_MAX_SIZE", "20 parsecs"),
        ("TOBAGO_DATABASE_READ_ONLY", "maybe"),
        ("TOBAGO_TABLE_RUNNER", "2"),
        ("TOBAGO_SMTP_PORT", "70000"),
        ("TOBAGO_BASE_URL", "play.example.org"),
        ("TOBAGO_TRUSTED_PROXIES", "one"),
        ("DAO_STRONG_ROLLOUTS", "0"),
    ],
)
def test_a_bad_variable_is_refused_by_its_name(tmp_path, variable, value):
    with pytest.raises(ConfigError, match=f"^{variable}: ") as err:
        build(tmp_path, None, {variable: value})
    assert repr(value) in str(err.value)  # what was wrong, beside where


def test_create_app_refuses_a_bad_variable_before_it_opens_anything(tmp_path, monkeypatch):
    monkeypatch.setenv("TOBAGO_STATE_CACHE", "lots")
    with pytest.raises(ConfigError, match="TOBAGO_STATE_CACHE: a size in bytes"):
        create_app({"TESTING": True, "DATABASE": str(tmp_path / "never.sqlite3")})
    assert not (tmp_path / "never.sqlite3").exists()


@pytest.mark.parametrize(
    ("text", "named"),
    [
        ('STATE_CACHE_BYTES = "lots"', "STATE_CACHE_BYTES: a size"),
        ("SMTP_PORT = 1.5", "SMTP_PORT: a positive whole number"),
        ("STATE_CACHE = 5", "STATE_CACHE is no setting"),
        ("HEARTBEAT_S = 5", "HEARTBEAT_S is read before any app: set TOBAGO_HEARTBEAT_S"),
        ("CLOCK = 5", "CLOCK: it is given only in code"),
        ("[BOT_ROLLOUTS]\nchess = 3", "BOT_ROLLOUTS: unknown key 'chess'"),
        ("[BOT_ROLLOUTS]\ndao = 0", "BOT_ROLLOUTS.dao: a positive whole number"),
        ("BOT_ROLLOUTS = 3", "BOT_ROLLOUTS: a table of"),
        ("SMTP_HOST = [1]", "SMTP_HOST: a text, number or boolean"),
        ("SMTP_HOST = ", "not a TOML file"),
    ],
)
def test_a_bad_instance_file_is_refused_by_its_key(tmp_path, text, named):
    folder = instance(tmp_path, text + "\n")
    with pytest.raises(ConfigError, match=re.escape(named)) as err:
        build(folder, None, {})
    assert str(folder / INSTANCE_FILE) in str(err.value)


def test_the_instance_file_takes_toml_booleans_and_numbers(tmp_path):
    folder = instance(tmp_path, "DATABASE_READ_ONLY = true\nTURN_MAIL_AFTER_S = 90\n")
    found = build(folder, None, {})
    assert found["DATABASE_READ_ONLY"] is True and found["TURN_MAIL_AFTER_S"] == 90.0


def test_the_development_server_stops_on_a_bad_setting_with_one_line(tmp_path):
    env = {
        "PATH": "/usr/bin:/bin",
        "TOBAGO_DATABASE": str(tmp_path / "d.sqlite3"),
        "TOBAGO_SMTP_PORT": "smtp",
    }
    proc = subprocess.run(
        [sys.executable, "app.py"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )
    assert proc.returncode == 1
    assert proc.stderr.strip().splitlines() == [
        "configuration: TOBAGO_SMTP_PORT: a positive whole number is expected, got 'smtp'"
    ]


# --- readers -------------------------------------------------------------------------------------


def test_process_settings_come_from_the_environment_else_their_default():
    assert from_environment("HEARTBEAT_S", {}) == 15.0
    assert from_environment("HEARTBEAT_S", {"TOBAGO_HEARTBEAT_S": "2.5"}) == 2.5
    assert from_environment("TABLE_PROCESSES", {"TOBAGO_TABLE_PROCESSES": "0"}) == 0
    with pytest.raises(ConfigError, match="^TOBAGO_TABLE_STALL_S: "):
        from_environment("TABLE_STALL_S", {"TOBAGO_TABLE_STALL_S": "soon"})


def test_mail_settings_are_the_apps_not_the_environments(monkeypatch):
    monkeypatch.setenv("TOBAGO_SMTP_HOST", "mail.example")
    found = MailSettings.of({})
    assert found == MailSettings(
        None, 25, "tobago-study@localhost", 3600.0, "http://127.0.0.1:5000"
    )
    assert MailSettings.of(build(Path("/nonexistent"))).host == "mail.example"


def test_the_ratings_command_rebuilds_the_services_database(tmp_path, monkeypatch):
    assert config.database({}) == str(config.INSTANCE_PATH / "tobago.sqlite3")
    db = tmp_path / "rated.sqlite3"
    create_app({"TESTING": True, "DATABASE": str(db)}).extensions["game_sessions"].store.close()
    monkeypatch.setenv("TOBAGO_DATABASE", str(db))
    assert config.database() == str(db)
    assert rerate.main([]) == 0


def test_only_the_configuration_reads_the_client_and_heartbeat_variables():
    """The stream heartbeat and the per-client caps are read through ``web.config`` alone."""
    for path in ("web/streams.py", "web/client_limits.py", "web/gevent_worker.py"):
        code = (ROOT / path).read_text()
        assert "os.environ" not in code and "getenv" not in code, path


def test_the_heartbeat_and_client_caps_follow_the_environment(monkeypatch):
    from web import client_limits

    monkeypatch.setenv("TOBAGO_CLIENT_CONNECTIONS", "12")
    assert client_limits.client_connections(10_000) == 12
    assert client_limits.client_streams({}) == 6  # half the client's connections
    assert client_limits.client_streams({"CLIENT_STREAMS": 3}) == 3
    monkeypatch.delenv("TOBAGO_CLIENT_CONNECTIONS")
    monkeypatch.setenv("TOBAGO_CONNECTIONS", "40")
    assert (client_limits.client_connections(40), client_limits.client_streams({})) == (10, 5)
    monkeypatch.setenv("TOBAGO_CLIENT_CONNECTIONS", "many")
    with pytest.raises(ConfigError, match="TOBAGO_CLIENT_CONNECTIONS"):
        client_limits.client_connections(40)
    script = "import web.streams; print(web.streams.HEARTBEAT_S)"
    env = {"PATH": "/usr/bin:/bin", "TOBAGO_HEARTBEAT_S": "2.5"}
    run = [sys.executable, "-c", script]
    proc = subprocess.run(run, cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert proc.stdout.split() == ["2.5"], proc.stderr


def test_the_table_takes_its_lease_and_decisions_log_from_the_apps_config(tmp_path, monkeypatch):
    monkeypatch.setenv("TOBAGO_BOT_LEASE_S", "2.5")
    log = str(tmp_path / "decisions.jsonl")
    app = create_app(
        {"TESTING": True, "DATABASE": str(tmp_path / "l.sqlite3"), "DECISIONS_LOG": log}
    )
    sessions = app.extensions["game_sessions"]
    assert (sessions.lease_s, sessions.decisions_log) == (2.5, log)
    sessions.store.close()
    default = build(tmp_path, None, {})
    assert default["BOT_LEASE_S"] == 10.0 and "DECISIONS_LOG" not in default


def test_the_server_processes_read_their_settings_through_the_config():
    """gunicorn's settings and the table processes' watch: ``from_environment`` on a fresh
    interpreter, so a variable set is taken and a bad one stops the start by its name."""
    script = (
        "import runpy, table_app, web.thinkers\n"
        "g = runpy.run_path('gunicorn.conf.py')\n"
        "print(g['worker_connections'], g['keepalive'], g['REQUEST_TIMEOUT_S'],"
        " g['dirty_workers'], table_app.STALL_S, web.thinkers.STALL_S)\n"
    )
    env = {
        "PATH": "/usr/bin:/bin",
        "TOBAGO_CONNECTIONS": "40",
        "TOBAGO_IDLE_TIMEOUT_S": "4",
        "TOBAGO_REQUEST_TIMEOUT_S": "7.5",
        "TOBAGO_TABLE_PROCESSES": "0",
        "TOBAGO_TABLE_STALL_S": "3",
    }
    run = [sys.executable, "-c", script]
    proc = subprocess.run(run, cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert proc.stdout.split() == ["40", "4", "7.5", "0", "3.0", "3.0"], proc.stderr
    env["TOBAGO_IDLE_TIMEOUT_S"] = "soon"
    proc = subprocess.run(run, cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert proc.returncode != 0 and "TOBAGO_IDLE_TIMEOUT_S: a positive whole number" in proc.stderr


# --- completeness --------------------------------------------------------------------------------

#: A variable's name where the code quotes it: in a string, a docstring's ``...`` or a comment's
#: `...` (an identifier, a name unquoted in code, is no variable).
QUOTED = re.compile(r"(?<=[\"'`])((?:TOBAGO|DAO|ISLA|DRAGONS_GOLD)_[A-Z0-9_]*[A-Z0-9])(?=[\"'`=])")


def code_files() -> list[Path]:
    skip = {".venv", ".git", "test-output", "instance", "node_modules"}
    found = [p for p in ROOT.rglob("*.py") if not skip & set(p.relative_to(ROOT).parts)]
    return found + [ROOT / "Makefile", ROOT / "pyproject.toml"]


def test_every_variable_the_code_names_is_declared():
    declared = {v for s in SETTINGS for v in s.variables()}
    named: dict[str, str] = {}
    for path in code_files():
        for m in QUOTED.finditer(path.read_text(encoding="utf-8")):
            named.setdefault(m.group(1), str(path.relative_to(ROOT)))
    assert "TOBAGO_STATE_CACHE" in named and "DAO_STRONG_ROLLOUTS" in named  # the scan scans
    missing = {
        name: where
        for name, where in named.items()
        if name not in declared and not name.startswith(NOT_SETTINGS)
    }
    assert missing == {}


def test_each_setting_is_declared_once_with_a_doc_and_a_scope():
    assert len(BY_NAME) == len(SETTINGS)
    variables = [v for s in SETTINGS for v in s.variables()]
    assert len(variables) == len(set(variables))
    for s in SETTINGS:
        assert s.doc and s.reader and s.scope in (APP, PROCESS), s.name
        assert s.scope == APP or s.env is not None, s.name  # a process reads a variable


def test_make_settings_prints_the_table(capsys):
    config.print_table()
    assert capsys.readouterr().out == settings_table()


def test_the_readme_lists_every_setting_as_declared():
    readme = README.read_text(encoding="utf-8")
    assert readme.count(BEGIN) == 1 and readme.count(END) == 1
    assert BEGIN + settings_table() + END in readme, "run `make settings` into the README"
    rows = settings_table().splitlines()[2:]
    assert len(rows) == len(SETTINGS)
    for s, row in zip(SETTINGS, rows, strict=True):
        assert s.doc in row and all(f"`{v}`" in row for v in s.variables()), s.name


#: Modules that still read the environment themselves, each for a reason that is no setting:
#: ``web.config`` (the one place that reads settings), hand-offs between a server's processes
#: and the test suite's hooks. ``web/streams.py`` and ``web/client_limits.py`` are the last
#: readers of ``PROCESS`` settings, to take them through ``from_environment``.
READS_THE_ENVIRONMENT = {
    "web/config.py",
    "web/review.py",  # gunicorn's dirty socket: whether this process has table processes
    "web/service/bell.py",  # the server's bell's descriptors, handed to its processes
    "gunicorn.conf.py",  # hands the app's factory and TABLE_RUNNER off to the processes it forks
    "table_app.py",  # takes the app's factory from gunicorn.conf.py, turns its table runner on
    "web/thinkers.py",  # as table_app.py, for thinkers without HTTP
    "tests/testgame.py",
    "tests/servers.py",
    "tests/test_generator.py",
    "tests/test_thinkers.py",  # the environment of the thinkers it starts
    "tests/counting_app.py",  # a test hook (TOBAGO_TEST_SEEN): where a test server writes
    "bench/bot_tables_bench.py",  # the environment of the thinkers it starts
    "games/native.py",  # the environment of the mypyc build it starts (MYPYPATH added)
    # to convert (their declarations are here already)
    "web/streams.py",
    "web/client_limits.py",
}


def test_no_other_module_reads_the_environment():
    readers = {
        str(p.relative_to(ROOT))
        for p in code_files()
        if p.suffix == ".py" and re.search(r"os\.environ|os\.getenv", p.read_text("utf-8"))
    }
    assert readers - {"tests/test_config.py"} <= READS_THE_ENVIRONMENT
