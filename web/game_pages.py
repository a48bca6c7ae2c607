"""What the pages of every game share: the game-id check, the game page, the join page, and the
generic game page that plays any kind.

Each game's pages blueprint (``web/<kind>_pages.py``) keeps its own routes and templates and
describes itself once as a ``GameSite`` (``web.game_site``); its routes render through
``render_game`` and ``render_join`` here, so the parts that are the same for every game cannot
drift apart. ``pages_blueprint`` makes a game's blueprint with the routes every game has (its
new-game page, its game page, the join page; ``/<kind>`` leads to the new-game page unless the
game has a hub of its own), each rendered from the game's descriptor.

The join page is one template (``templates/join.html``) and one script
(``static/common/join.js``) for every game: it claims a free seat from a share link
(``POST /api/games/<id>/seats/<i>/claim``), keeps the seat's token in this browser and opens the
game's page for that seat. Each game words it in its own strings, named by a key prefix: the
catalogues hold ``<prefix>`` + every name in ``JOIN_KEYS``.

**The generic game page** (``/<kind>/games/<id>``, ``templates/play.html``,
``static/play/play.js``) serves every kind whose descriptor has no game page of its own: it
draws the seat's view with the kind's review renderer (``static/review/generic.js`` unless the
descriptor names another), offers the seat's legal actions as buttons (worded by
``games.<kind>.actions.<type>`` where the catalogue has it), follows the game like every game
page (``static/common/gameclient.js``) and links the review at the end. Its join page is the
shared one in the ``play.join_`` strings.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Flask, abort, redirect, render_template
from flask.typing import ResponseReturnValue
from markupsafe import Markup
from werkzeug.routing import BaseConverter

from errors import NotFound
from web.accounts_pages import page_account
from web.game_site import GameSite, site_of, site_or_404
from web.i18n import script_json
from web.storage import GameRecord

bp = Blueprint("game_pages", __name__)
#: Longer than any id ``web.storage`` makes: such a page is a 404 without asking the database.
MAX_GAME_ID = 64
#: The strings the join page uses, after the game's prefix (``join.`` + ``title`` …).
JOIN_KEYS = ("title", "name", "claim", "invite", "invite_by", "taken", "watch", "no_game", "err")


class KindConverter(BaseConverter):
    """A game kind's URL segment: a lowercase name, never ``api`` (so an API path that matches
    no API route stays a plain 404, not a page route's 405)."""

    regex = r"(?!api$)[a-z][a-z0-9_]*"


def install_converters(app: Flask) -> None:
    """Make ``<kind:…>`` known to ``app`` (before the blueprint is registered)."""
    app.url_map.converters["kind"] = KindConverter


def check_game_id(game_id: str, kind: str | None = None) -> GameRecord | None:
    """A 404 page for an id no game can have, for an id of no stored game, and (with ``kind``)
    for a game of another kind: the player sees "there is no such game", not an empty layout.
    With ``kind``, the game found."""
    if len(game_id) > MAX_GAME_ID:
        abort(404)
    if kind is None:
        return None
    from web.games_api import sessions  # the pages sit beside the API in the web layer

    try:
        found = sessions().store.get(game_id)
    except NotFound:
        found = None
    if found is None or found.kind != kind:
        raise NotFound(f"no {kind} game {game_id!r}", "id", reason="no_such_game")
    return found


def account_seat(game: GameRecord | None) -> int | None:
    """The seat of ``game`` the account signed in to this browser holds (``None``: none, or a
    guest): the page's script plays it through the session cookie when this browser holds no
    token for the seat it is asked for (``static/common/gameclient.js``)."""
    account = page_account()
    return None if account is None or game is None else game.seat_of_account(account.id)


def render_game(site: GameSite, template: str, game_id: str, **context: Any) -> str:
    """``template`` for the game ``game_id`` of ``site``'s kind (404 for an impossible id)."""
    game = check_game_id(game_id, site.kind)
    seat = account_seat(game)
    return render_template(template, game_id=game_id, site=site, account_seat=seat, **context)


def render_join(site: GameSite, game_id: str, seat: int) -> str:
    """The page a share link opens: claim seat ``seat`` of ``game_id`` (a signed-in player who
    holds a seat of the game already is sent on to it by the page's script)."""
    game = check_game_id(game_id, site.kind)
    return render_template(
        "join.html", game_id=game_id, seat=seat, site=site, account_seat=account_seat(game)
    )


def render_new_game(site: GameSite) -> str:
    """The game's new-game page, from its descriptor's ``new_page``."""
    page = site.new_page
    if page is None:
        abort(404)
    kind = site.game_kind
    data = {
        "kind": site.kind,
        "strings": page.strings,
        "level_strings": page.level_strings,
        "seat_n": page.seat_n,
        "min_seats": kind.type.min_seats,
        "max_seats": kind.type.max_seats,
        "seat_types": list(page.seat_types),
        "seats": [
            {"type": "bot" if page.bot_level(s) else s, "level": page.bot_level(s)}
            for s in page.seats
        ],
        "level": page.level,
        "levels": list(kind.levels),
    }
    tag = f'<script type="application/json" id="new-game-data">{script_json(data)}</script>'
    return render_template(
        page.template, site=site, page=page, kind=kind, new_game_data=Markup(tag)
    )


def pages_blueprint(import_name: str, kind: str, *, hub: bool = False) -> Blueprint:
    """The blueprint of ``kind``'s pages (named ``<kind>_pages``, its ``import_name`` the game's
    web module): ``/<kind>/new``, ``/<kind>/games/<id>`` (the template its descriptor's
    ``game_page`` names), ``/<kind>/games/<id>/join/<seat>`` and, without a ``hub`` of its own,
    ``/<kind>`` leading to the new-game page. The descriptor is read when a page is asked for."""
    bp = Blueprint(f"{kind}_pages", import_name)

    def new_game() -> str:
        return render_new_game(site_of(kind))

    def game_page(game_id: str) -> str:
        site = site_of(kind)
        assert site.game_page is not None, kind
        return render_game(site, site.game_page.template, game_id, page=site.game_page)

    def join_page(game_id: str, seat: int) -> str:
        return render_join(site_of(kind), game_id, seat)

    def to_new_game() -> ResponseReturnValue:
        return redirect(f"/{kind}/new")

    bp.add_url_rule(f"/{kind}/new", "new_game", new_game)
    bp.add_url_rule(f"/{kind}/games/<game_id>", "game_page", game_page)
    bp.add_url_rule(f"/{kind}/games/<game_id>/join/<int:seat>", "join_page", join_page)
    if not hub:
        bp.add_url_rule(f"/{kind}", "hub", to_new_game)
    return bp


def _generic(kind: str) -> GameSite:
    site = site_or_404(kind)
    if site.own_game_page:  # its own blueprint serves /<kind>/games/<id>
        abort(404)
    return site


@bp.get("/<kind:kind>/games/<game_id>")
def play_page(kind: str, game_id: str) -> str:
    site = _generic(kind)
    return render_game(site, "play.html", game_id, kind=kind)


@bp.get("/<kind:kind>/games/<game_id>/join/<int:seat>")
def play_join_page(kind: str, game_id: str, seat: int) -> str:
    return render_join(_generic(kind), game_id, seat)
