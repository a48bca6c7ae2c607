"""One descriptor per game for the web: everything the site shows of a game kind.

A game's web module, ``web/<kind>_pages.py``, ends with ``SITE = GameSite(...)``: the blueprints
of its own pages and API, how the site names and links it (its title, the home page's paragraph,
its links in the menu, on the home page and on the error page, its rules page), what its pages
load (stylesheet, the string prefixes its scripts read, the data script they draw with), its
new-game page (``NewGamePage``, ``OptionField``) and its game page's frame (``GamePage``), and its
review (the renderer script, the analyst, the full view, the helper's wording). The service
registers the blueprints the descriptors name (``web.register_web``); the menu and the home page
(``web.pages``), the rules pages (``web.rules_pages``), the review pages and API
(``web.review_pages``, ``web.review``) and the generic game page (``web.game_pages``) read the
rest. A descriptor is data and references only: the engine stays in ``games/``.

No list of games is kept here: for every kind in the engines' registry (``games.base.kinds()``,
whose built-in games are ``games.base.BUILTIN_GAMES``) the site imports ``web.<kind>_pages``
when that module exists, so a game added later touches its own folders and that list only. A
kind without a web module (the test suite's games) gets ``GameSite(kind)``: the generic game
and join pages, the generic review renderer, no analysis, no rules page, no place in the menu.
"""

from __future__ import annotations

import dataclasses
import importlib
import importlib.util
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any, Literal

from flask import Blueprint, abort
from markupsafe import Markup

from games.analysis import Analyst
from games.base import BUILTIN_GAMES, GameKind, OptionSpec, get_kind, kinds
from games.review import FullView, merged_players_view
from web.i18n import script_json


@dataclass(frozen=True)
class Link:
    """A link the site shows: its words (a catalogue key) and where it goes."""

    label: str
    href: str


@dataclass(frozen=True)
class OptionField:
    """How the new-game page asks for one rule option. What the option is (its default, its
    choices, its bounds) is the kind's ``OptionSpec``; this says only how it is shown:
    ``check`` (a boolean), ``radio`` or ``select`` (one of its choices, each worded by the key
    in ``words``, in the choices' order), ``number`` (an integer within its bounds; ``error`` is
    the sentence for another value) or ``turn`` (the clock every game takes: none, real time
    — ``time_bank_s`` with ``increment_s`` — or turn-based, ``turn_seconds``; its name is
    ``turn_seconds``). ``label`` is its words; ``help`` a sentence under a check box."""

    name: str
    widget: Literal["check", "radio", "select", "number", "turn"]
    label: str = ""
    words: tuple[str, ...] = ()
    help: str | None = None
    error: str | None = None


@dataclass(frozen=True)
class NewGamePage:
    """The game's new-game page (``templates/new_game.html``, ``static/common/new.js``): the
    seat rows, the bot levels, the rule options it asks for, the seed, the share links. The
    seat count's bounds, the options' values and the bot levels are the kind's own
    (``GameKind``); the words are the catalogue keys after ``strings`` (``new_title``,
    ``new_lede``, ``seats``, ``seats_help``, ``options``, ``seat_type``, ``type_<type>``,
    ``seat_name``, ``name_placeholder``, ``seat_level``, ``create``, ``err_seats``, ``err_me``,
    ``err_seed``, ``err_create``, and the shared controls' ``advanced``, ``seed``,
    ``seed_help``, ``created``, ``share_help``, ``share_label``, ``copy``, ``open_seat``)."""

    strings: str
    #: The rows the page starts with, one a seat: ``me``, ``friend``, ``anyone``, ``none`` or
    #: ``bot:<level>``.
    seats: tuple[str, ...]
    #: What a seat may be (``none`` only past the kind's fewest seats; ``anyone``: listed in the
    #: game's lobby).
    seat_types: tuple[str, ...] = ("me", "friend", "anyone", "bot", "none")
    #: A bot row's level until one is chosen.
    level: str = "normal"
    #: The rule options it asks for, in the order shown.
    options: tuple[OptionField, ...] = ()
    #: The page's title and lede keys (defaults ``<strings>new_title`` / ``new_lede``; lede
    #: ``None``: no lede).
    title: str = ""
    lede: str | None = ""
    #: Where the bot levels' and the seat numbers' words are (``<level_strings>level_<name>``,
    #: ``seat_n`` with ``{n}``).
    level_strings: str = ""
    seat_n: str = ""
    #: The string prefixes the page's scripts read (default: ``strings``), with clue sentences?
    script_strings: tuple[str, ...] = ()
    clues: bool = False
    #: The template (one that extends ``new_game.html``) and the script module.
    template: str = "new_game.html"
    script: str = "common/new.js"

    def __post_init__(self) -> None:
        p = self.strings
        defaults = {
            "title": p + "new_title",
            "lede": p + "new_lede",
            "level_strings": p,
            "seat_n": p + "seat_n",
            "script_strings": (p,),
        }
        for name, value in defaults.items():
            if getattr(self, name) == "" or getattr(self, name) == ():
                object.__setattr__(self, name, value)

    def bot_level(self, seat: str) -> str | None:
        """The level of a row ``bot:<level>``; ``None`` for another row."""
        return seat.split(":", 1)[1] if seat.startswith("bot:") else None


@dataclass(frozen=True)
class GamePage:
    """The frame of the game's own game page (``templates/game_page.html``, which the game's
    template extends with its panels): the root element ``#<root>`` (its parts' classes
    ``<root>-top``, ``<root>-settings``, ``<root>-end``), the title, the replay speed's slowest
    pace, the skip links (name → target, each worded ``<strings>skip_<name>``), the string
    prefixes its scripts read, the template and the script module (defaults
    ``<kind>/game.html`` and ``<kind>/game.js``)."""

    strings: str
    root: str
    slow_ms: int = 1000
    template: str = ""
    script: str = ""
    title: str = ""
    skip_links: Mapping[str, str] = dataclasses.field(default_factory=dict)
    script_strings: tuple[str, ...] = ()
    clues: bool = False

    def __post_init__(self) -> None:
        if not self.title:
            object.__setattr__(self, "title", self.strings + "game_title")
        if not self.script_strings:
            object.__setattr__(self, "script_strings", (self.strings,))


def data_script(element_id: str, page_data: Callable[[str], Any]) -> Callable[[str], str]:
    """A game's ``data_script``: ``page_data(lang)`` as the JSON script element ``element_id``,
    built once per language."""

    @cache
    def tag(lang: str) -> str:
        body = script_json(page_data(lang))
        return f'<script type="application/json" id="{element_id}">{body}</script>'

    return tag


@dataclass(frozen=True)
class GameSite:
    """What the site knows of one game kind (see the module doc). Only ``kind`` is required:
    the defaults are the generic pages' (``GameSite(kind)`` is what a kind without a web
    module gets)."""

    kind: str
    #: The blueprints of the game's own pages and API, registered by the service.
    blueprints: tuple[Blueprint, ...] = ()

    # --- how the site names and links the game (catalogue keys and addresses) --------------
    #: The game's name (default ``games.<kind>.title``, the key ``/api/games/kinds`` reads).
    title: str = ""
    #: The home page's paragraph about the game.
    blurb: str | None = None
    #: The new-game page's address (default ``/<kind>/new`` with a ``new_page``); ``None``: the
    #: game is not in the menu nor on the home page.
    play: str | None = None
    #: Its links in the site's menu (default: its title, to its lobby ``/<kind>``).
    nav: tuple[Link, ...] = ()
    #: Its buttons on the home page, the first one the main one (default: its lobby, then
    #: rules).
    home_links: tuple[Link, ...] = ()
    #: Its lobby's links besides the new game, the rules and the review (``web.game_pages``).
    lobby_links: tuple[Link, ...] = ()
    #: Its buttons on the error page, after "home".
    error_links: tuple[Link, ...] = ()
    #: Shown first and larger on the home page.
    featured: bool = False
    #: It has a rules page, ``/rules/<kind>`` (``web/rules/<lang>/<kind>.md``).
    rules: bool = False
    #: The pictures its rules page asks for (``[[name: args]]``), each drawn from the game's data
    #: in a language: name → ``(lang, args) -> HTML`` (``web.rules_pictures``); and the colours
    #: they wear as CSS rules (what its scripts would set inline), in ``/rules/pictures.css``.
    rules_pictures: Mapping[str, Callable[[str, str], Markup]] = dataclasses.field(
        default_factory=dict, hash=False
    )
    rules_css: Callable[[], str] | None = None

    # --- what its pages load ----------------------------------------------------------------
    #: The game page is its own (a route of its blueprint; default: it has a ``game_page``);
    #: otherwise the generic one serves.
    own_game_page: bool = False
    #: Its stylesheet under ``static/`` (game, join and review pages).
    stylesheet: str | None = None
    #: The string prefixes its page scripts read, and whether they need the clue sentences.
    strings: tuple[str, ...] = ()
    clues: bool = False
    #: The ``<script type="application/json">`` element its scripts draw with, per language.
    data_script: Callable[[str], str] | None = None
    #: The key prefix of its join page's strings (``JOIN_KEYS`` after it; default
    #: ``<game page's strings>join_``, ``play.join_`` for the generic pages) and the class of its
    #: pages' wrapper (default ``<game page's root>-page``).
    join_strings: str = ""
    page_class: str = ""
    #: Its new-game page and the frame of its game page (with ``own_game_page``).
    new_page: NewGamePage | None = None
    game_page: GamePage | None = None

    # --- its review ---------------------------------------------------------------------------
    #: What draws a position on the review page (and on the generic game page), under ``static/``.
    review_script: str = "review/generic.js"
    #: Judges its decisions (``games/<kind>/analysis.py``); ``None``: no analysis.
    analyst: Analyst | None = None
    #: Everything any seat knew at a position (the review's "everyone" view).
    full_view: FullView = merged_players_view
    #: The helper of a position with its sentences in a language: ``(helper, lang) -> helper``.
    helper_words: Callable[[dict, str], dict] | None = None

    def __post_init__(self) -> None:
        if not self.title:
            object.__setattr__(self, "title", f"games.{self.kind}.title")
        if self.new_page is not None and self.play is None:
            object.__setattr__(self, "play", f"/{self.kind}/new")
        if not self.join_strings:
            strings = self.game_page.strings if self.game_page is not None else "play."
            object.__setattr__(self, "join_strings", strings + "join_")
        if self.game_page is not None:
            object.__setattr__(self, "own_game_page", True)
            if not self.page_class:
                object.__setattr__(self, "page_class", f"{self.game_page.root}-page")
            # its own files by default: templates/<kind>/game.html, static/<kind>/game.js
            page = dataclasses.replace(
                self.game_page,
                template=self.game_page.template or f"{self.kind}/game.html",
                script=self.game_page.script or f"{self.kind}/game.js",
            )
            object.__setattr__(self, "game_page", page)
        if self.play is not None and not self.nav:
            object.__setattr__(self, "nav", (Link(self.title, self.lobby_href),))
        if self.play is not None and not self.home_links:
            links = [Link("home.play", self.lobby_href)]
            if self.rules:
                links.append(Link("home.rules", self.rules_href))
            object.__setattr__(self, "home_links", tuple(links))

    @property
    def listed(self) -> bool:
        """In the menu and on the home page (it has a new-game page)."""
        return self.play is not None

    @property
    def lobby_href(self) -> str:
        """Its lobby: the open tables, Play now, the links to its other pages."""
        return f"/{self.kind}"

    @property
    def rules_href(self) -> str:
        return f"/rules/{self.kind}"

    @property
    def game_kind(self) -> GameKind:
        return get_kind(self.kind)

    def option_spec(self, name: str) -> OptionSpec:
        """The kind's rule option ``name`` (what a new-game page's field asks for)."""
        return next(o for o in self.game_kind.type.options if o.name == name)

    def data_tag(self, lang: str) -> Markup:
        """The game's data script element in ``lang`` (empty when it has none)."""
        return Markup(self.data_script(lang)) if self.data_script is not None else Markup("")


_SITES: dict[str, GameSite] = {}
#: ``sites()`` for the registry's names as they were last asked for.
_ORDER: dict[str, Any] = {}
_LOCK = threading.RLock()  # a game module may ask for a descriptor while it is found


def site_of(kind: str) -> GameSite:
    """The descriptor of the registered game kind ``kind`` (the engines' ``unknown_game`` error
    for another name)."""
    get_kind(kind)
    found = _SITES.get(kind)
    if found is None:
        with _LOCK:
            found = _SITES.get(kind)
            if found is None:
                found = _SITES[kind] = _discover(kind)
    return found


def site_or_404(kind: str) -> GameSite:
    """For a page: the descriptor of ``kind``, a 404 page for a name no kind has."""
    if kind not in kinds():
        abort(404)
    return site_of(kind)


def sites() -> list[GameSite]:
    """Every registered kind's descriptor: the built-in games in ``BUILTIN_GAMES``' order (the
    registry's own order is the order their modules happened to be imported in), then the
    others as registered. Worked out once per registry (every page's menu reads it)."""
    found = kinds()
    names = tuple(found)
    if _ORDER.get("names") != names:
        order = sorted(found, key=lambda name: _rank(found[name]))
        _ORDER.update(names=names, order=[site_of(name) for name in order])
    return list(_ORDER["order"])


def _rank(kind: GameKind) -> int:
    """The place of the kind's package in ``BUILTIN_GAMES`` (after them all: not built in)."""
    module = type(kind).__module__
    for i, package in enumerate(BUILTIN_GAMES):
        if module == package or module.startswith(package + "."):
            return i
    return len(BUILTIN_GAMES)


def listed_sites() -> list[GameSite]:
    """The games of the menu and the home page, in the order of ``sites``."""
    return [s for s in sites() if s.listed]


def module_name(kind: str) -> str:
    """The web module of a game kind (``web/<kind>_pages.py``)."""
    return f"{__package__}.{kind}_pages"


def _discover(kind: str) -> GameSite:
    """The kind's ``SITE`` from its web module; ``GameSite(kind)`` when it has none. An error
    inside an existing module is raised, never a game quietly made generic."""
    name = module_name(kind)
    if not kind.isidentifier() or importlib.util.find_spec(name) is None:
        return GameSite(kind)
    site = importlib.import_module(name).SITE
    if not isinstance(site, GameSite) or site.kind != kind:
        raise TypeError(f"{name}.SITE must be the GameSite of {kind!r}, got {site!r}")
    return site
