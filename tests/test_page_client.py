"""Every game page is the one page client with its game's renderer plugged in (issue 45, item 6).

A game's page script (its descriptor's ``game_page.script``, and the generic game page's
``static/play/play.js``) builds its page with ``gamePage`` from ``static/common/gamepage.js`` and
declares its renderer through the interface documented there; the page's life (the game client,
the replay, the hand-off to the latest snapshot, the log, the start, the tests' handle) is written
once, there, so no page script makes a ``GameClient`` or writes those again. The behaviour itself
is the browser tests' (each game's ``tests/test_<kind>_browser.py``, the generic page's
``tests/test_generic_game_browser.py``).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from web.game_site import sites

ROOT = Path(__file__).resolve().parents[1]
STATIC = ROOT / "static"
CLIENT = STATIC / "common" / "gamepage.js"

#: What only the page client writes: the game client made, a replay, a hand-off to the latest
#: snapshot, the log drawn, the tests' handle set (``window.<name>Game = ...``).
ITS_OWN = {
    "GameClient": re.compile(r"\bnew GameClient\b"),
    "replay": re.compile(r"\b(?:async\s+)?function\s+replay\b"),
    "settle": re.compile(r"\bfunction\s+settle\b"),
    "renderLog": re.compile(r"\bfunction\s+renderLog\b"),
    "window handle": re.compile(r"\bwindow\.\w+Game\s*="),
}
#: The declaration's hooks every game gives (the top of static/common/gamepage.js).
REQUIRED = ("kind", "strings", "root", "handle", "draw", "note", "log", "watching")


def page_scripts() -> list[Path]:
    """The page script of every registered kind with a game page of its own, and the generic one."""
    scripts = [STATIC / s.game_page.script for s in sites() if s.game_page is not None]
    return [*scripts, STATIC / "play" / "play.js"]


def test_every_game_page_is_listed():
    scripts = page_scripts()
    assert len(scripts) >= 2 and all(p.is_file() for p in scripts), scripts


@pytest.mark.parametrize("script", page_scripts(), ids=lambda p: str(p.relative_to(STATIC)))
def test_a_page_script_plugs_into_the_page_client(script):
    text = script.read_text(encoding="utf-8")
    imports = r'import \{[^}]*\bgamePage\b[^}]*\} from "\.\./common/gamepage\.js"'
    assert re.search(imports, text), script
    assert re.search(r"\bpage\.start\(\)", text), script
    again = [name for name, pattern in ITS_OWN.items() if pattern.search(text)]
    assert not again, f"{script.name} writes the page client's own {again} again"


@pytest.mark.parametrize("hook", REQUIRED)
def test_the_interface_is_documented_where_it_is_read(hook):
    """Each required part of the declaration is documented at the top of the client, and read
    there (``game.<hook>``, or taken apart at the start)."""
    text = CLIENT.read_text(encoding="utf-8")
    head = text.split("\nimport ", 1)[0]
    assert re.search(rf"^//\s+{hook}\b|^//\s+[\w, ]*\b{hook}\b", head, re.M), hook
    assert re.search(rf"\bgame\.{hook}\b|\bgame\.root\.dataset", text), hook


def test_the_page_client_alone_makes_the_game_client():
    makes = ITS_OWN["GameClient"]
    users = [p for p in STATIC.rglob("*.js") if makes.search(p.read_text(encoding="utf-8"))]
    assert users == [CLIENT]
