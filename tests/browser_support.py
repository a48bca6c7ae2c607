"""Shared pieces for browser tests (Playwright for Python + Debian's Chromium).

Its fixtures, ``browser`` and ``live_server``, reach every test module through
``tests/conftest.py``; a test module imports the helpers it calls::

    from tests.browser_support import OUT, new_page

- ``live_server`` (module scope): the app on ``http://127.0.0.1:<port>`` with a temporary SQLite
  file, served by werkzeug in a thread (``tests.servers.serve_in_thread``), its table runner on
  (bots move and deadlines pass as on a real server). ``served(folder, runner, clock)`` is the
  same as a context manager for a module's own server (without a runner, on a fake clock).
- ``browser`` (module scope): Chromium from ``/usr/bin/chromium`` with the project's flags; the
  module is skipped when Chromium or Playwright is missing.
- ``new_page(browser, **context_options)``: a page in a fresh context (its own cookies and
  localStorage) whose JavaScript errors, and anything the Content-Security-Policy refused, are
  collected in ``page.js_errors``.
- ``create_by_form(page, seed, seats)``: fill a new-game page's form (seat types and levels,
  the seed) and create the game.
- ``created_bodies(page)``: the bodies of the page's ``POST /api/games`` requests, as sent.
- ``close_clean(*pages)``: each page's JavaScript ran without an error; its context closed.
- ``join_by_link(browser, link, name)``: a friend's browser claims the seat of a share link on
  the join page (``templates/join.html``, the same for every game); returns its page.
- ``OUT``: ``test-output/`` (git-ignored) for screenshots, created on import.
- ``api(server, method, path, body)``, ``open_as(page, server, kind, game, seat)``: set a game up
  through the API and open its page as a seat (its token in localStorage, replays instant).
- ``axe_violations(page)``: run the vendored axe-core on the page; the list of violations.
- ``sign_up(server, name, password)``: an account made through the API (its session cookie and
  CSRF token, a ``SignedIn``); ``as_account(server, who, method, path, body)`` calls the API as
  it (cookie and ``X-CSRF-Token``); ``signed_in_page(browser, server, who)`` a fresh context
  with its session cookie (a browser signed in without the sign-in page);
  ``play_out(server, game_id, players)`` plays a game to its end through the API, each seat as
  its account; ``player_with_games(server, name)``: an account with a DAO game in play (its
  turn) and a finished one (rated, against the quick bot).
- ``raw_keys(page)``: catalogue keys the page shows as words (a message it asked for and the
  catalogues lack, e.g. a key made from a level's name).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from app import create_app
from i18n import catalogue
from tests.servers import serve_in_thread

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]
OUT = Path(__file__).resolve().parents[1] / "test-output"
OUT.mkdir(exist_ok=True)
#: A phone's viewport: every page is also looked at (and screenshot) this narrow.
PHONE = {"width": 390, "height": 844}


def shots_dir(name: str) -> Path:
    """``test-output/<name>/``, made if missing: where one browser test module's screenshots
    land (git-ignored)."""
    shots = OUT / name
    shots.mkdir(parents=True, exist_ok=True)
    return shots


@contextmanager
def served(
    folder: Path, runner: bool = True, clock: Callable[[], float] | None = None
) -> Iterator[tuple[str, Flask]]:
    """The app on 127.0.0.1 (a free port) with a new SQLite file in ``folder``: ``(url, app)``.
    ``runner``: its table runner on (bots move and deadlines pass as on a real server; stopped
    afterwards), else the test runs the table; ``clock``: the app's clock (a test's
    ``FakeClock``)."""
    config: dict[str, Any] = {
        "TESTING": True,
        "DATABASE": str(folder / "games.sqlite3"),
        "TABLE_RUNNER": runner,
    }
    if clock is not None:
        config["CLOCK"] = clock
    app = create_app(config)
    try:
        with serve_in_thread(app) as url:
            yield url, app
    finally:
        if runner:
            app.extensions["game_sessions"].stop_runner()


@pytest.fixture(scope="module")
def live_server(tmp_path_factory):
    """The app on 127.0.0.1 (a free port) with a temporary database; yields its base URL."""
    with served(tmp_path_factory.mktemp("browser-db")) as (url, _):
        yield url


@pytest.fixture(scope="module")
def browser():
    """A headless Chromium for the module (skips the module if none is installed)."""
    sync_api = pytest.importorskip("playwright.sync_api")
    if not Path(CHROMIUM).exists():
        pytest.skip(f"no Chromium at {CHROMIUM}")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()


def new_page(browser, **context_options):
    """A page in a fresh browser context; ``page.js_errors`` lists uncaught script errors."""
    options = {"viewport": {"width": 1280, "height": 900}, **context_options}
    ctx = browser.new_context(**options)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on(  # a script, style or fetch the policy refused (web/security.py)
        "console",
        lambda m: errors.append(m.text) if "Content Security Policy" in m.text else None,
    )
    page.js_errors = errors  # type: ignore[attr-defined]
    return page


def created_bodies(page) -> list[dict]:
    """The bodies of the page's POST /api/games requests, as they are sent (the list fills as
    the page sends them)."""
    bodies: list[dict] = []
    page.on(
        "request",
        lambda r: (
            bodies.append(json.loads(r.post_data))
            if r.method == "POST" and r.url.endswith("/api/games")
            else None
        ),
    )
    return bodies


def seat_types(page, types: Sequence[str], names: Sequence[str] = ()) -> None:
    """On a game's new-game page: each seat's type from seat 0 on (``"me"``, ``"friend"``,
    ``"anyone"``, ``"bot"``, ``"none"``) and the first seats' names."""
    for i, kind in enumerate(types):
        page.select_option(f"#seat-{i}-type", kind)
    for i, name in enumerate(names):
        page.fill(f"#seat-{i}-name", name)


def create_by_form(page, seed: int, seats: Sequence[tuple[str, str | None]] = ()) -> None:
    """On a game's new-game page: set each seat's type and bot level (``(type, level or
    None)`` from seat 0 on; the others as the form has them), the seed under "advanced", then
    create the game."""
    seat_types(page, [kind for kind, _ in seats])
    for i, (_, level) in enumerate(seats):
        if level:
            page.select_option(f"#seat-{i}-level", level)
    page.click("details.advanced summary")
    page.fill("#game-seed", str(seed))
    page.dispatch_event("#game-seed", "change")  # as typing it does: a preview follows it
    page.click("#create-game")


def close_clean(*pages) -> None:
    """Each page ran without a JavaScript error (nor anything the policy refused); its context
    is closed."""
    for page in pages:
        assert not page.js_errors, page.js_errors
        page.context.close()


def join_by_link(browser, link: str, name: str):
    """A fresh browser context opens the share ``link``, types ``name`` and takes the seat, as a
    friend would; returns its page (on its way to the game page, which the caller waits for)."""
    from playwright.sync_api import expect

    page = new_page(browser)
    page.goto(link)
    expect(page.locator("#join-form")).to_be_visible()
    page.fill("#join-name", name)
    page.click("#join-claim")
    return page


def api(server: str, method: str, path: str, body: dict | None = None, token: str = "") -> dict:
    """A JSON call to the live server (for setting a game up without clicking through forms),
    as a seat when ``token`` is given."""
    import json
    import urllib.request

    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    req = urllib.request.Request(
        server + path,
        method=method,
        data=None if body is None else json.dumps(body).encode(),
        headers=headers,
    )
    with urllib.request.urlopen(req, timeout=60) as resp:
        return json.loads(resp.read())


def say(server: str, game: dict, seat: int, text: str) -> dict:
    """A line of the table chat from ``seat`` of ``game`` (as created: its seats' tokens)."""
    token = game["seats"][seat]["token"]
    return api(server, "POST", f"/api/games/{game['id']}/chat", {"text": text}, token)


def play_by_tokens(server: str, game: dict) -> None:
    """Every seat of ``game`` (as created: its seats' tokens) takes its first legal action
    until the game is over."""
    gid = game["id"]
    while not (snap := api(server, "GET", f"/api/games/{gid}"))["over"]:
        token = game["seats"][snap["to_act"][0]]["token"]
        me = api(server, "GET", f"/api/games/{gid}", token=token)
        body = {"version": me["version"], "action": me["legal_actions"][0]}
        api(server, "POST", f"/api/games/{gid}/actions", body, token)


def open_as(page, server: str, kind: str, game: dict, seat: int | None, query: str = ""):
    """Open ``game`` (a ``POST /api/games`` answer) on its page as ``seat`` (None: a watcher):
    the seat's token goes into localStorage as the new-game page would put it."""
    import json

    page.goto(f"{server}/healthz")
    tokens = {} if seat is None else {str(seat): game["seats"][seat]["token"]}
    page.evaluate(
        "([k, v]) => { localStorage.setItem(k, v);"
        " for (const g of ['tobago', 'dao', 'isla_dorada', 'dragons_gold'])"
        " localStorage.setItem(`${g}.speed`, '0'); }",
        [f"tobago.tokens.{game['id']}", json.dumps(tokens)],
    )
    page.goto(f"{server}/{kind}/games/{game['id']}{query}")


#: axe-core, vendored from the npm registry (static/vendor/axe-core/, MPL-2.0).
def dao_idle(page, after: int | None = None, *, bots: bool = True, timeout: float = 20_000) -> dict:
    """Until a DAO game page shows the server's latest snapshot (newer than ``after``), its replay
    done and, with ``bots``, no bot thinking (the table's replies have come); that snapshot."""
    settled = " && window.daoGame.snap.bot !== 'thinking'" if bots else ""
    page.wait_for_function(
        "v => window.daoGame && window.daoGame.snap && !window.daoGame.busy"
        + settled
        + " && (v === null || window.daoGame.snap.version > v)",
        arg=after,
        timeout=timeout,
    )
    return page.evaluate("() => window.daoGame.snap")


AXE = Path(__file__).resolve().parents[1] / "static/vendor/axe-core/axe.min.js"


def axe_violations(page) -> list[dict]:
    """Run axe-core on the page as it is now; returns the violations (id, impact, nodes)."""
    if not page.evaluate("() => !!window.axe"):
        # from the site itself: the pages' Content-Security-Policy allows scripts from 'self' only
        origin = page.evaluate("() => location.origin")
        page.add_script_tag(url=origin + "/static/vendor/axe-core/axe.min.js")
    result = page.evaluate("async () => (await window.axe.run(document)).violations")
    return [
        {
            "id": v["id"],
            "impact": v["impact"],
            "nodes": [n["target"] for n in v["nodes"]][:5],
            "help": v["help"],
        }
        for v in result
    ]


#: What a catalogue key shown as text looks like: a key's first part (``review``, ``isla`` ...),
#: then parts of which one has an underscore or there are two (``review.level_easy``,
#: ``games.dao.levels.easy``), so a file or module named in prose (``map.json``) is not one.
_PREFIXES = sorted({key.split(".")[0] for lang in ("en", "zh") for key in catalogue(lang)})
_FIRST = "|".join(map(re.escape, _PREFIXES))
_KEY = re.compile(
    rf"\b(?:{_FIRST})(?:\.[a-z0-9]+)*\.(?:[a-z0-9]*_[a-z0-9_]*|[a-z0-9_]+\.[a-z0-9_.]+)\b"
)


def raw_keys(page) -> list[str]:
    """The catalogue keys the page shows as words: in its text and in the labels, titles,
    placeholders and alternative texts it gives."""
    text = page.evaluate(
        """() => [document.body.innerText, ...[...document.querySelectorAll(
            '[aria-label], [title], [placeholder], [alt]')].flatMap((e) =>
            ['aria-label', 'title', 'placeholder', 'alt'].map((a) => e.getAttribute(a) || ''))
        ].join(' ')"""
    )
    return sorted(set(_KEY.findall(text)))


@dataclass(frozen=True)
class SignedIn:
    """An account's session: its name, the session cookie's value and the CSRF token."""

    name: str
    cookie: str
    csrf: str


def _call(server: str, method: str, path: str, body: dict | None, headers: dict) -> tuple:
    import json
    import urllib.request

    req = urllib.request.Request(
        server + path,
        method=method,
        data=None if body is None else json.dumps(body).encode(),
        headers={"Content-Type": "application/json", **headers},
    )
    with urllib.request.urlopen(req, timeout=60) as resp:
        raw = resp.read()
        return (json.loads(raw) if raw else None), resp.headers


def sign_up(server: str, name: str, password: str = "a long passphrase") -> SignedIn:
    """Make the account ``name`` through the API (``POST /api/accounts``): its session."""
    out, headers = _call(server, "POST", "/api/accounts", {"name": name, "password": password}, {})
    cookie = next(
        c.split(";", 1)[0].split("=", 1)[1]
        for c in headers.get_all("Set-Cookie")
        if c.startswith("study_session=")
    )
    return SignedIn(out["name"], cookie, out["csrf_token"])


def as_account(server: str, who: SignedIn, method: str, path: str, body: dict | None = None):
    """A JSON call to the live server as ``who`` (its cookie, and its CSRF token)."""
    headers = {"Cookie": f"study_session={who.cookie}", "X-CSRF-Token": who.csrf}
    return _call(server, method, path, body, headers)[0]


def signed_in_page(browser, server: str, who: SignedIn, **context_options):
    """A page in a fresh context that holds ``who``'s session cookie."""
    page = new_page(browser, **context_options)
    page.context.add_cookies([{"name": "study_session", "value": who.cookie, "url": server}])
    return page


def play_out(server: str, game_id: str, players: dict[int, SignedIn]) -> dict:
    """Play ``game_id`` to its end through the API, each seat of ``players`` as its account (the
    first legal action each time; other seats are the table's quick bots); the last snapshot."""
    for _ in range(500):
        snap = api(server, "GET", f"/api/games/{game_id}")
        if snap["over"]:
            return snap
        seat = snap["to_act"][0]
        mine = as_account(server, players[seat], "GET", f"/api/games/{game_id}")
        assert mine["seat"] == seat
        body = {"version": mine["version"], "action": mine["legal_actions"][0]}
        as_account(server, players[seat], "POST", f"/api/games/{game_id}/actions", body)
    raise AssertionError("the game did not end")


def player_with_games(server: str, name: str) -> tuple[SignedIn, dict, dict]:
    """The account ``name`` with a DAO game in play against the quick bot (its turn) and one
    finished (rated): the account and the two games' creation answers."""
    who = sign_up(server, name)
    seats = [{"type": "human"}, {"type": "bot", "level": "easy"}]
    body = {"game": "dao", "seats": seats}
    running = as_account(server, who, "POST", "/api/games", body)
    finished = as_account(server, who, "POST", "/api/games", body)
    play_out(server, finished["id"], {0: who})
    return who, running, finished
