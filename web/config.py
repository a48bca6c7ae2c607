"""Every setting of the service, declared once, and the one function that builds them.

A setting (``Setting``) has a name (its key in ``app.config``), the environment variable that
sets it, a parser (a variable's or the instance file's text → the value; ``ValueError`` when it
is none), a default, one line of what it does and the module that reads it. ``build`` (called by
``create_app``) layers the values the way Flask's tutorial app (flaskr) does, each layer over the
one before:

1. the defaults declared here;
2. the instance file, ``instance/config.toml`` (no file, no layer): ``NAME = value`` with the
   settings' own names, e.g. ``STATE_CACHE_BYTES = "64MB"`` or ``[BOT_ROLLOUTS]`` then ``<kind> = 40``;
3. the environment's variables (a blank one counts as unset);
4. ``create_app(config)``'s mapping, taken as given: any key, any value (tests' overrides win).

A value its parser refuses, or a key the instance file does not know, stops the start with a
``ConfigError`` naming the variable or the file's key, never a traceback from deep inside.

Scope: an ``APP`` setting is in ``app.config``, where its readers take it (``create_app``, the
services it builds, their arguments). A ``PROCESS`` setting is read by a server's processes with
no app at hand (gunicorn's own settings, the table process's watch, module constants): from the
environment only (``from_environment``), never from the instance file. A setting whose value is
``None`` (not given, no default) is left out of ``app.config``: its readers ``.get`` it.

``make settings`` prints the README's table of settings (``settings_table``); a test keeps the
README's copy equal to it.
"""

from __future__ import annotations

import os
import time
import tomllib
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from games.base import BUILTIN_GAMES
from web.service.sessions import MAX_LOG_ENTRIES
from web.service.states import STATE_CACHE_BYTES, parse_budget
from web.service.table import LEASE_S, TICK_S
from web.storage.sqlite import LOCK_WAIT_S

#: An ``APP`` setting lives in ``app.config``; a ``PROCESS`` one only in the environment.
APP = "app"
PROCESS = "process"
#: The instance folder of ``app.py``'s app (Flask's ``instance_path`` for it), for tools that
#: have no app (``web.accounts.rerate``).
INSTANCE_PATH = Path(__file__).resolve().parents[1] / "instance"
#: The instance file, in the instance folder.
INSTANCE_FILE = "config.toml"


class ConfigError(ValueError):
    """A setting's value that cannot be taken: its message names the variable or the key."""


@dataclass(frozen=True)
class InInstance:
    """A default that is a file in the app's instance folder."""

    file: str


# --- parsers: a variable's text → the value, ValueError when it is none ------------------------


def text(raw: str) -> str:
    """Any text but a blank one, trimmed."""
    if not raw.strip():
        raise ValueError("a value is expected, got a blank")
    return raw.strip()


def flag(raw: str) -> bool:
    """On or off: ``1``/``true``/``yes``/``on`` or ``0``/``false``/``no``/``off``."""
    word = raw.strip().lower()
    if word in ("1", "true", "yes", "on"):
        return True
    if word in ("0", "false", "no", "off"):
        return False
    raise ValueError(f"1 or 0 (on or off) is expected, got {raw!r}")


def seconds(raw: str) -> float:
    """A positive number of seconds."""
    try:
        value = float(raw)
    except ValueError:
        raise ValueError(f"a number of seconds is expected, got {raw!r}") from None
    if not value > 0 or value == float("inf"):
        raise ValueError(f"a positive number of seconds is expected, got {raw!r}")
    return value


def count(raw: str) -> int:
    """A whole number, 0 or more."""
    if not raw.strip().isdigit():
        raise ValueError(f"a whole number (0 or more) is expected, got {raw!r}")
    return int(raw)


def positive(raw: str) -> int:
    """A whole number, 1 or more."""
    if not raw.strip().isdigit() or int(raw) < 1:
        raise ValueError(f"a positive whole number is expected, got {raw!r}")
    return int(raw)


def port(raw: str) -> int:
    """A TCP port, 1 to 65535."""
    value = positive(raw)
    if value > 65535:
        raise ValueError(f"a port (1 to 65535) is expected, got {raw!r}")
    return value


def size(raw: str) -> int:
    """A size in bytes, or with KB, MB or GB (``web.service.states.parse_budget``)."""
    return parse_budget(raw)


def url(raw: str) -> str:
    """An ``http://`` or ``https://`` address, without its trailing ``/``."""
    value = text(raw).rstrip("/")
    if not value.startswith(("http://", "https://")):
        raise ValueError(f"an http:// or https:// address is expected, got {raw!r}")
    return value


def in_code(raw: str) -> Any:
    """A value only code can give (a function): never from text."""
    raise ValueError("it is given only in code: create_app({...})")


# --- the declarations ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Setting:
    """One setting (module doc). ``env`` is its variable, or for a setting that is a mapping, each
    key's variable (``BOT_ROLLOUTS``: a game kind → its variable), or ``None`` (no variable);
    ``shown`` is the default as the README shows it, when the value itself does not read well."""

    name: str
    env: str | Mapping[str, str] | None
    parse: Callable[[str], Any]
    default: Any
    doc: str
    reader: str
    scope: str = APP
    shown: str | None = None

    def variables(self) -> tuple[str, ...]:
        """The environment variables that set it."""
        if self.env is None:
            return ()
        return (self.env,) if isinstance(self.env, str) else tuple(self.env.values())


#: The strong bots' variables, by game kind (their default budgets are each game's own):
#: ``<KIND>_STRONG_ROLLOUTS`` for every built-in game, e.g. ``DAO_STRONG_ROLLOUTS``.
ROLLOUT_VARIABLES = {
    kind: f"{kind.upper()}_STRONG_ROLLOUTS"
    for kind in (module.rpartition(".")[2] for module in BUILTIN_GAMES)
}

SETTINGS: tuple[Setting, ...] = (
    # the store and the games
    Setting("DATABASE", "TOBAGO_DATABASE", text, InInstance("tobago.sqlite3"),
            "the game database: a SQLite file, or a `postgresql://` URL (several app servers)",
            "web/games_api.py", shown="`instance/tobago.sqlite3`"),
    Setting("STATE_CACHE_BYTES", "TOBAGO_STATE_CACHE", size, STATE_CACHE_BYTES,
            "memory for the live game states kept per process (bytes, or KB/MB/GB)",
            "web/service/states.py", shown="32MB"),
    Setting("SQLITE_LOCK_WAIT_S", "TOBAGO_SQLITE_LOCK_WAIT_S", seconds, None,
            "how long a SQLite write waits for the database's locks before a 503",
            "web/storage/sqlite.py", shown=f"{LOCK_WAIT_S:g} s (the store's `LOCK_WAIT_S`)"),
    Setting("SQLITE_MAX_BYTES", "TOBAGO_SQLITE_MAX_SIZE", size, None,
            "the size the SQLite file may grow to; past it writes are refused 503 `storage_full`",
            "web/storage/sqlite.py", shown="none"),
    Setting("DATABASE_READ_ONLY", "TOBAGO_DATABASE_READ_ONLY", flag, False,
            "serve the SQLite database without writing to it",
            "web/storage/sqlite.py"),
    Setting("MAX_LOG_ENTRIES", None, positive, MAX_LOG_ENTRIES,
            "the longest log of a game: the table ends a game whose log is full",
            "web/service/sessions.py"),
    # the table: deadlines and bots
    Setting("TABLE_RUNNER", "TOBAGO_TABLE_RUNNER", flag, None,
            "run the table (due deadlines and bots) in this process; gunicorn's HTTP workers "
            "leave it to the table processes", "web/games_api.py", shown="on (off under TESTING)"),
    Setting("TABLE_TICK_S", None, seconds, TICK_S,
            "how often the table's runner looks for due deadlines and bots",
            "web/service/table.py"),
    Setting("QUICK_BOTS", None, flag, True,
            "a table of bots that choose at once answers their moves in the player's write",
            "web/service/moves.py"),
    Setting("BOT_ROLLOUTS", ROLLOUT_VARIABLES, positive, {},
            "the strong bots' rollouts per decision, by game kind (a kind not named keeps its "
            "game's default)", "each game's strong bot",
            shown="each game's own"),
    Setting("CLOCK", None, in_code, time.time,
            "the clock deadlines are judged by (a function giving seconds)",
            "web/service/sessions.py", shown="`time.time`"),
    Setting("BOT_LEASE_S", "TOBAGO_BOT_LEASE_S", seconds, LEASE_S,
            "how long a runner holds a game while its bot thinks",
            "web/service/table.py"),
    Setting("DECISIONS_LOG", "TOBAGO_DECISIONS_LOG", text, None,
            "a file each thinker appends a JSON line to per bot write (wait, effort, CPU)",
            "web/service/table.py", shown="none"),
    Setting("REVIEW_BACKGROUND", None, flag, True,
            "compute finished games' analyses in the background", "web/review.py"),
    # Flask's own
    Setting("TESTING", None, flag, False,
            "Flask's: a failing bot raises, and the table runner is off unless asked for",
            "web/games_api.py"),
    Setting("MAX_CONTENT_LENGTH", None, positive, 1024 * 1024,
            "Flask's: the largest request body, in bytes (413 beyond)", "web/jsonbody.py",
            shown="1 MiB"),
    Setting("JSON_SORT_KEYS", None, flag, False,
            "JSON answers' keys sorted (off: in the order they were built)", "app.py"),
    # clients
    Setting("TRUSTED_PROXIES", "TOBAGO_TRUSTED_PROXIES", count, 0,
            "reverse proxies in front: a client's address is `X-Forwarded-For`'s from them",
            "web/client_limits.py"),
    Setting("CLIENT_STREAMS", "TOBAGO_CLIENT_STREAMS", positive, None,
            "open event streams per client and worker (429 beyond)", "web/client_limits.py",
            shown="half of CLIENT_CONNECTIONS"),
    # turn e-mails
    Setting("SMTP_HOST", "TOBAGO_SMTP_HOST", text, None,
            "the SMTP server of turn e-mails (none: no e-mail is sent)", "web/accounts/mail.py",
            shown="none"),
    Setting("SMTP_PORT", "TOBAGO_SMTP_PORT", port, 25,
            "the SMTP server's port", "web/accounts/mail.py"),
    Setting("MAIL_FROM", "TOBAGO_MAIL_FROM", text, "tobago-study@localhost",
            "the sender of turn e-mails", "web/accounts/mail.py"),
    Setting("TURN_MAIL_AFTER_S", "TOBAGO_TURN_MAIL_AFTER_S", seconds, 3600.0,
            "a seat whose turn lasted this long gets its e-mail", "web/accounts/mail.py"),
    Setting("BASE_URL", "TOBAGO_BASE_URL", url, "http://127.0.0.1:5000",
            "where the e-mails' links lead", "web/accounts/mail.py"),
    # the server's processes (environment only)
    Setting("CONNECTIONS", "TOBAGO_CONNECTIONS", positive, 10_000,
            "connections one gunicorn worker serves at once (`worker_connections`)",
            "gunicorn.conf.py, web/client_limits.py", PROCESS),
    Setting("CLIENT_CONNECTIONS", "TOBAGO_CLIENT_CONNECTIONS", positive, None,
            "open connections per client and worker (429 beyond)",
            "web/gevent_worker.py, web/client_limits.py", PROCESS,
            shown="a quarter of CONNECTIONS"),
    Setting("IDLE_TIMEOUT_S", "TOBAGO_IDLE_TIMEOUT_S", positive, 10,
            "seconds after which an idle connection, or one trickling its headers, is closed",
            "gunicorn.conf.py", PROCESS),
    Setting("REQUEST_TIMEOUT_S", "TOBAGO_REQUEST_TIMEOUT_S", seconds, 30.0,
            "a request body or answer stalled this long is given up (408)",
            "gunicorn.conf.py", PROCESS),
    Setting("HEARTBEAT_S", "TOBAGO_HEARTBEAT_S", seconds, 15.0,
            "an event stream's heartbeat: a gone client or deleted game is noticed within it",
            "web/streams.py", PROCESS),
    Setting("TABLE_PROCESSES", "TOBAGO_TABLE_PROCESSES", count, os.cpu_count() or 1,
            "table processes (thinkers) per server (0: the HTTP workers run the table)",
            "gunicorn.conf.py, web/games_api.py", PROCESS, shown="the machine's cores"),
    Setting("TABLE_STALL_S", "TOBAGO_TABLE_STALL_S", seconds, 30.0,
            "a table process whose runner makes no progress this long is replaced",
            "table_app.py, web/thinkers.py", PROCESS),
    Setting("PORT", "PORT", port, 5000,
            "the port of `python app.py`'s development server (`make run` takes `PORT=`)",
            "app.py", PROCESS),
)  # fmt: skip

BY_NAME: dict[str, Setting] = {s.name: s for s in SETTINGS}
#: ``TOBAGO_*`` variables that are no settings: how ``gunicorn.conf.py`` hands the server's app
#: factory and its bell (``web.service.bell``) to its table processes (``table_app.py``) and the
#: test suite's own hooks.
NOT_SETTINGS = ("TOBAGO_APP", "TOBAGO_TEST_", "TOBAGO_THINKERS_BELL")


# --- building -----------------------------------------------------------------------------------


def _parsed(setting: Setting, raw: str, where: str) -> Any:
    """``raw`` through ``setting``'s parser, or a ``ConfigError`` naming ``where``."""
    try:
        return setting.parse(raw)
    except ValueError as e:
        raise ConfigError(f"{where}: {e}") from None


def _env_value(setting: Setting, environ: Mapping[str, str]) -> Any:
    """What the environment sets ``setting`` to (a mapping setting: the keys whose variables are
    set), or ``None`` when it sets nothing."""
    if isinstance(setting.env, str):
        raw = environ.get(setting.env, "")
        return _parsed(setting, raw, setting.env) if raw.strip() else None
    if setting.env is None:
        return None
    found = {
        key: _parsed(setting, environ[var], var)
        for key, var in setting.env.items()
        if environ.get(var, "").strip()
    }
    return found or None


def _file_text(raw: Any, where: str) -> str:
    """A scalar of the instance file as the text a variable would give: a TOML boolean as
    ``1``/``0``, a number as written."""
    if isinstance(raw, bool):
        return "1" if raw else "0"
    if not isinstance(raw, str | int | float):
        raise ConfigError(f"{where}: a text, number or boolean is expected")
    return str(raw)


def _file_value(setting: Setting, raw: Any, where: str) -> Any:
    """A value of the instance file through ``setting``'s parser; a mapping setting's table
    key by key."""
    if not isinstance(setting.env, Mapping):
        return _parsed(setting, _file_text(raw, where), where)
    if not isinstance(raw, dict):
        raise ConfigError(f"{where}: a table of {', '.join(setting.env)} is expected")
    unknown = sorted(set(raw) - set(setting.env))
    if unknown:
        raise ConfigError(f"{where}: unknown key {unknown[0]!r}")
    return {
        k: _parsed(setting, _file_text(v, f"{where}.{k}"), f"{where}.{k}") for k, v in raw.items()
    }


def instance_values(path: Path) -> dict[str, Any]:
    """The settings the instance file at ``path`` gives (none when there is no file)."""
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as e:
        raise ConfigError(f"{path}: not a TOML file: {e}") from None
    found = {}
    for key, value in raw.items():
        setting = BY_NAME.get(key)
        if setting is None:
            raise ConfigError(f"{path}: {key} is no setting (README, 'Settings')")
        if setting.scope == PROCESS:
            raise ConfigError(f"{path}: {key} is read before any app: set {setting.env} instead")
        found[key] = _file_value(setting, value, f"{path}: {key}")
    return found


def _default(setting: Setting, instance_path: Path) -> Any:
    if isinstance(setting.default, InInstance):
        return str(instance_path / setting.default.file)
    if isinstance(setting.default, dict):
        return dict(setting.default)
    return setting.default


def _layer(values: dict[str, Any], layer: Mapping[str, Any]) -> None:
    """Lay ``layer`` over ``values``: a mapping setting's keys merge, anything else replaces."""
    for key, value in layer.items():
        setting = BY_NAME.get(key)
        mapping = setting is not None and isinstance(setting.env, Mapping)
        if mapping and isinstance(value, Mapping) and isinstance(values.get(key), Mapping):
            values[key] = {**values[key], **value}
        else:
            values[key] = value


def build(
    instance_path: str | Path,
    overrides: Mapping[str, Any] | None = None,
    environ: Mapping[str, str] | None = None,
) -> dict[str, Any]:
    """The app's configuration (module doc): the ``APP`` settings' defaults, the instance file
    in ``instance_path``, the environment (``os.environ`` by default), then ``overrides`` (as
    given, whole). ``TABLE_RUNNER`` not set: on, unless ``TESTING``. ``ConfigError`` for a bad
    value."""
    folder = Path(instance_path)
    env = os.environ if environ is None else environ
    app_settings = [s for s in SETTINGS if s.scope == APP]
    values = {s.name: _default(s, folder) for s in app_settings}
    _layer(values, instance_values(folder / INSTANCE_FILE))
    from_env = {s.name: _env_value(s, env) for s in app_settings}
    _layer(values, {k: v for k, v in from_env.items() if v is not None})
    values.update(overrides or {})
    if values.get("TABLE_RUNNER") is None:
        values["TABLE_RUNNER"] = not values.get("TESTING", False)
    return {k: v for k, v in values.items() if v is not None}


def from_environment(name: str, environ: Mapping[str, str] | None = None) -> Any:
    """The setting ``name`` as the environment gives it, else its default: for code that reads a
    setting with no app at hand (``PROCESS`` settings). ``ConfigError`` for a bad value."""
    setting = BY_NAME[name]
    found = _env_value(setting, os.environ if environ is None else environ)
    return _default(setting, INSTANCE_PATH) if found is None else found


def database(environ: Mapping[str, str] | None = None) -> str:
    """The ``DATABASE`` of ``app.py``'s app without building one (its default, the instance
    file, the environment): for the command-line tools."""
    found: str = build(INSTANCE_PATH, environ=environ)["DATABASE"]
    return found


# --- the README's table -------------------------------------------------------------------------


def _shown_default(setting: Setting) -> str:
    value = setting.default
    if setting.shown is not None:
        return setting.shown
    if isinstance(value, bool):
        return "on" if value else "off"
    if setting.parse is seconds:
        return f"{value:g} s"
    if isinstance(value, int):
        return f"{value:,}" if value >= 10_000 else str(value)
    return f"`{value}`"


def _row(setting: Setting) -> str:
    name = f"`{setting.name}`" if setting.scope == APP else "(environment only)"
    env = ", ".join(f"`{v}`" for v in setting.variables()) or "—"
    readers = ", ".join(f"`{r.strip()}`" for r in setting.reader.split(","))
    return f"| {env} | {name} | {_shown_default(setting)} | {setting.doc} | {readers} |"


def settings_table(settings: Iterable[Setting] = SETTINGS) -> str:
    """The README's table of every setting, one row each (Markdown)."""
    head = [
        "| environment | `app.config` / instance file | default | what it does | read by |",
        "|---|---|---|---|---|",
    ]
    return "\n".join(head + [_row(s) for s in settings]) + "\n"


def print_table() -> None:
    """Print the README's table of settings (``make settings``)."""
    print(settings_table(), end="")
