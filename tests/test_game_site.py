"""One descriptor per game (``web.game_site``): every built-in kind has its own, whole and true to
the files it names; the menu, the home page and the rules pages follow them; and no kind's name
is spread over the shared files.

**The count.** For each built-in kind, the files that name it outside its own are counted and
held to ``MAX_SHARED`` (the list of built-in games, ``games.base.BUILTIN_GAMES``, and at most one
more). A kind's own files are its folders and files (``games/<kind>/``, ``static/<kind>/``,
``templates/<kind>/``, ``i18n/<lang>/<kind>.json``, ``web/rules/<lang>/<kind>.md``,
``static/review/<kind>.js`` and ``.css``), its web module ``web/<kind>_pages.py`` and the modules of the
blueprints its descriptor names; for Tobago also the island and deduction layers and the puzzles'
pages (``EXTRA_OWN``). Not counted: the tests and benchmarks (each game's are its own files; the
shared ones take kinds as parameters) and the README (the map of the code describes every game).
A file names a kind when the kind's identifier stands in it as a word of its own (a letter,
digit, ``_`` or ``-`` on either side makes another word: ``dao-log`` is a CSS class), the site's
own name aside (``SITE_NAME``: the site is called after Tobago).
"""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest
from markupsafe import escape

from games.base import BUILTIN_GAMES
from i18n import LANGS, catalogue, has, lookup
from web.game_site import GameSite, listed_sites, module_name, site_of, sites

ROOT = Path(__file__).resolve().parents[1]
BUILTIN = [s.kind for s in sites() if f"games.{s.kind}" in BUILTIN_GAMES]
MAX_SHARED = 2
#: Tobago's island and deduction layers and its puzzles' pages are Tobago's own too.
EXTRA_OWN = {"tobago": ("hexmap/", "solver/", "templates/puzzles/", "static/puzzles/")}
#: The site's own name, not the kind's: its database file, its browser storage keys, its
#: PostgreSQL connection pool.
SITE_NAME = re.compile(r'tobago\.(?:sqlite3|tokens|invites|myGames|lang|chat)\b|name="tobago"')


def test_every_builtin_game_has_a_descriptor_of_its_own():
    assert len(BUILTIN) == len(BUILTIN_GAMES)  # one kind a module, each found by the site
    for name in BUILTIN:
        site = site_of(name)
        assert site.kind == name and site != GameSite(name), name
        assert site.blueprints and site.own_game_page and site.listed and site.rules, name
        assert site.analyst is not None, name
        assert module_name(name) == f"web.{name}_pages"


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("name", BUILTIN)
def test_a_rules_page_speaks_to_players_not_developers(name, lang):
    """A rules page is for players: it names no file of the code and no command (the data
    files and the simulations behind a Decision are the README's to name)."""
    text = (ROOT / "web/rules" / lang / f"{name}.md").read_text(encoding="utf-8")
    assert not re.findall(r"`[^`]*(?:\.json|\.py|python |games[./])[^`]*`", text)


@pytest.mark.parametrize("name", BUILTIN)
def test_a_descriptor_names_files_and_strings_that_exist(name):
    site = site_of(name)
    for path in filter(None, (site.stylesheet, site.review_script)):
        assert (ROOT / "static" / path).is_file(), path
    for lang in ("en", "zh"):
        assert (ROOT / "web/rules" / lang / f"{name}.md").is_file()
    keys = [site.title, site.blurb, *(link.label for link in site.nav + site.home_links)]
    keys += [link.label for link in site.error_links]
    for lang in LANGS:
        missing = [k for k in keys if not has(lang, k)]
        assert not missing, (lang, missing)
        assert any(k.startswith(site.strings) for k in catalogue(lang)), site.strings


#: The words the shared new-game page and its script (``templates/new_game.html``,
#: ``templates/game_controls.html``, ``static/common/newgame.js``) build from a page's prefix.
NEW_PAGE_KEYS = (
    *("seats", "seats_help", "seat_type", "seat_name", "name_placeholder", "seat_level", "create"),
    *("err_seats", "err_me", "err_seed", "err_create", "advanced", "seed", "seed_help"),
    *("created", "share_help", "share_label", "copy", "open_seat"),
)
PACES = ("slow", "normal", "fast", "instant")
#: The words the shared game-page frame (``templates/game_page.html``) builds from its prefix.
GAME_PAGE_KEYS = ("speed", *(f"speed_{pace}" for pace in PACES), "seat_switch")


def _new_page_keys(site: GameSite) -> list[str]:
    page = site.new_page
    assert page is not None, site.kind
    p = page.strings
    keys = [page.title, page.seat_n, *(p + k for k in NEW_PAGE_KEYS)]
    keys += [page.lede, p + "rules"] if page.lede else []
    keys += [p + "options"] if page.options else []
    keys += [f"{p}type_{t}" for t in page.seat_types]
    levels = site.game_kind.levels
    keys += [f"{page.level_strings}level_{level}" for level in levels]
    keys += [f"games.{site.kind}.levels.{level}" for level in levels]
    assert {page.bot_level(s) for s in page.seats} - {None} <= set(levels)
    assert {"bot" if page.bot_level(s) else s for s in page.seats} <= set(page.seat_types)
    for field in page.options:
        spec = site.option_spec(field.name)  # the kind takes the option
        if field.widget == "turn":
            continue
        keys += [field.label, *field.words, *filter(None, (field.help, field.error))]
        if field.widget in ("radio", "select"):
            assert spec.choices is not None and len(field.words) == len(spec.choices), field
        if field.widget == "number":
            assert spec.bounds is not None and field.error, field
    return keys


def _game_page_keys(site: GameSite) -> list[str]:
    page = site.game_page
    assert page is not None, site.kind
    keys = [page.title, *(page.strings + k for k in GAME_PAGE_KEYS)]
    keys += [f"{page.strings}skip_{name}" for name in page.skip_links]
    return keys + ([page.strings + "skip_links"] if page.skip_links else [])


@pytest.mark.parametrize("name", BUILTIN)
def test_a_descriptors_pages_name_files_and_strings_that_exist(name):
    site = site_of(name)
    assert site.new_page is not None and site.game_page is not None
    for template in (site.new_page.template, site.game_page.template):
        assert (ROOT / "templates" / template).is_file(), template
    for script in (site.new_page.script, site.game_page.script):
        assert (ROOT / "static" / script).is_file(), script
    keys = _new_page_keys(site) + _game_page_keys(site)
    for lang in LANGS:
        missing = sorted({k for k in keys if not has(lang, k)})
        assert not missing, (lang, missing)


def test_the_shared_new_game_script_builds_the_keys_the_descriptors_are_checked_for():
    script = (ROOT / "static/common/newgame.js").read_text("utf-8")
    built = set(re.findall(r"\$\{(?:p|strings)\}([a-z_]+)[`$]", script))
    assert built >= {"seat_type", "seat_name", "name_placeholder", "seat_level", "type_"}
    assert built - {"type_"} <= set(NEW_PAGE_KEYS)  # type_<t>: checked per seat type


@pytest.mark.parametrize("name", BUILTIN)
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_new_game_page_is_its_descriptors(client, name, lang):
    site = site_of(name)
    page = site.new_page
    assert page is not None
    html = client.get(f"/{name}/new?lang={lang}").get_data(as_text=True)
    found = re.search(r'<script type="application/json" id="new-game-data">(.*?)</script>', html)
    data = json.loads(found.group(1))
    kind = site.game_kind
    assert data["kind"] == name and data["strings"] == page.strings
    assert (data["min_seats"], data["max_seats"]) == (kind.type.min_seats, kind.type.max_seats)
    assert data["levels"] == list(kind.levels) and len(data["seats"]) == len(page.seats)
    fields = re.findall(r'data-option="([a-z_]+)" data-widget="([a-z]+)"', html)
    assert fields == [(f.name, f.widget) for f in page.options if f.widget != "turn"]
    assert ('id="turn-seconds"' in html) == any(f.widget == "turn" for f in page.options)
    levels = re.search(r'<div class="bot-levels">.*?</dl>', html, re.S).group(0)
    assert re.findall(r"<dt>(.*?)</dt>", levels) == [
        str(escape(lookup(lang, f"{page.level_strings}level_{level}"))) for level in kind.levels
    ]
    assert page.script in html and str(site.stylesheet) in html


def test_the_app_serves_what_the_descriptors_name(client):
    rules = {str(r) for r in client.application.url_map.iter_rules()}
    for site in sites():
        for blueprint in site.blueprints:
            assert blueprint.name in client.application.blueprints
        if site.own_game_page:
            assert f"/{site.kind}/games/<game_id>" in rules, site.kind
        for link in site.nav + site.home_links + site.error_links:
            assert client.get(link.href, follow_redirects=True).status_code == 200, link


def test_the_menu_and_the_home_page_list_the_games_in_their_order(client):
    home = client.get("/?lang=en").get_data(as_text=True)
    nav = re.search(r'<nav class="site-nav".*?</nav>', home, re.S).group(0)
    hrefs = re.findall(r'href="([^"]+)"', nav)
    expected = [link.href for s in listed_sites() for link in s.nav]
    expected += ["/review", "/rules", "/leaderboards"]
    assert hrefs == expected
    articles = re.findall(r'<article id="game-([a-z-]+)"', home)
    assert articles == [s.kind.replace("_", "-") for s in listed_sites()]
    index = client.get("/rules?lang=zh").get_data(as_text=True)
    assert re.findall(r'href="/rules/([a-z_]+)"', index) == [s.kind for s in sites() if s.rules]
    assert client.get("/rules/no_such_game").status_code == 404


def _project_files() -> list[str]:
    """Every file of the project (tracked, or new and not ignored)."""
    out = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return [f for f in out.splitlines() if (ROOT / f).is_file()]


def _own(name: str, path: str) -> bool:
    site = site_of(name)
    modules = {module_name(name)} | {b.import_name for b in site.blueprints}
    folders = (f"games/{name}/", f"static/{name}/", f"templates/{name}/", *EXTRA_OWN.get(name, ()))
    return (
        path.startswith(folders)
        or path in {m.replace(".", "/") + ".py" for m in modules}
        or re.fullmatch(
            rf"i18n/[a-z]+/{name}\.json|web/rules/[a-z]+/{name}\.md|static/review/{name}\.(?:js|css)",
            path,
        )
        is not None
    )


def _not_counted(path: str) -> bool:
    return path.startswith(("tests/", "bench/")) or path == "README.md"


def names(name: str, text: str) -> bool:
    """Whether ``text`` names the kind ``name`` (the module doc says when)."""
    word = rf"(?<![A-Za-z0-9_-]){re.escape(name)}(?![A-Za-z0-9_-])"
    return re.search(word, SITE_NAME.sub("", text)) is not None


def key_names(name: str, key: str) -> bool:
    """Whether the catalogue key ``key`` names the kind ``name``: as a word between dots and
    underscores too (``review.engine_dao``, ``rules.pic_dao_elements``), since a key is read
    as ``<namespace>.<words joined by _>``."""
    return re.search(rf"(?<![A-Za-z0-9-]){re.escape(name)}(?![A-Za-z0-9-])", key) is not None


def shared_files_naming(name: str) -> list[str]:
    found = []
    for path in _project_files():
        if _own(name, path) or _not_counted(path):
            continue
        try:
            text = (ROOT / path).read_text("utf-8")
        except UnicodeDecodeError:  # an image or an icon
            continue
        words = json.loads(text) if re.fullmatch(r"i18n/[a-z]+/\w+\.json", path) else {}
        if names(name, text) or any(key_names(name, key) for key in words):
            found.append(path)
    return found


def test_what_names_a_kind():
    assert key_names("dao", "review.engine_dao") and key_names("dao", "rules.pic_dao_values")
    assert key_names("isla_dorada", "review.engine_isla_dorada") and key_names("dao", "dao.x")
    assert not key_names("dao", "review.daos") and not key_names("dao", "page.speed_fast")
    assert names("dao", '"dao"') and names("dao", "/dao/new") and names("dao", "games.dao.title")
    assert names("dao", 'prefixes ("game.", "dao.")') and names("tobago", "/api/tobago/solve")
    assert not names("dao", ".dao-log") and not names("dao", "daonet") and not names("dao", "DAO")
    assert not names("tobago", 'localStorage "tobago.tokens.x", "tobago.sqlite3"')


@pytest.mark.parametrize("name", BUILTIN)
def test_a_kinds_name_is_in_at_most_two_shared_files(name):
    found = shared_files_naming(name)
    assert "games/base.py" in found  # the list of built-in games
    assert len(found) <= MAX_SHARED, found


def test_a_review_page_loads_its_own_styles_and_no_others(client):
    """A game's review styles are its own file (``static/review/<kind>.css``), loaded on its
    reviews only; the shared ``review.css`` keeps what the shared review pieces draw or what
    two games' renderers share."""
    own = {s.kind for s in sites() if (ROOT / "static/review" / f"{s.kind}.css").is_file()}
    assert {"tobago", "dao", "isla_dorada"} <= own
    for site in sites():
        html = client.get(f"/{site.kind}/games/abcdefgh/review").get_data(as_text=True)
        loaded = set(re.findall(r'href="/static/review/([a-z_]+)\.css', html))
        assert loaded == {"review"} | ({site.kind} & own), site.kind
    shared_css = (ROOT / "static/review/review.css").read_text("utf-8")
    classes = set(
        re.findall(r"\.([a-z][a-z0-9_-]*)", re.sub(r"/\*.*?\*/", "", shared_css, flags=re.S))
    )
    shared = [
        *(ROOT / "static/review" / f for f in ("review.js", "generic.js", "hub.js")),
        *(ROOT / "templates/review").glob("*.html"),
        ROOT / "templates/play.html",
        *(ROOT / "static/play").glob("*.js"),
    ]
    shared_text = "".join(p.read_text("utf-8") for p in shared)
    renderers = {s.review_script for s in sites()} - {"review/generic.js"}
    texts = [(ROOT / "static" / r).read_text("utf-8") for r in sorted(renderers)]
    only_one = {
        c
        for c in classes
        if c not in shared_text
        and c.rsplit("-", 1)[0] + "-${" not in shared_text  # built: `mark-${mark}`
        and sum(c in text for text in texts) < 2
    }
    assert not only_one, sorted(only_one)
