"""The accounts' pages, and what every page shows of the signed-in player.

Pages (``templates/accounts/``, scripts ``static/accounts/``, strings ``acct.*`` in
``i18n/<lang>/accounts.json``):

- ``/signup`` and ``/signin``: one form each, sent to the accounts API by
  ``static/accounts/sign.js``, which then offers to move the seats this browser holds as a guest
  into the account (``POST /api/me/seats``) and goes on to ``?next=`` (a path of this site only,
  else ``/me``);
- ``/account``: the password, signing out everywhere, personal access tokens, deleting the
  account (``static/accounts/account.js``);
- ``/me``: my running and finished games from every device, 10 finished at a time
  (``?before=``), built here from the store (no script asks for them), so the page stays as
  cheap as the API's answer;
- ``/players/<name>``: a player's profile; ``/leaderboards`` and ``/leaderboards/<kind>``.

The site frame (``templates/base.html``) reads ``account`` (the signed-in account, by the session
cookie alone: a page never acts for an access token), ``csrf_token`` (written into a ``<meta>``
that ``static/common/api.js`` sends back on every write) and ``sign_in_href`` (this page as the
sign-in's ``next``). Every account page, and every page of a browser that sends the session
cookie, is ``Cache-Control: no-store``: what it shows is one player's.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from datetime import UTC, datetime
from functools import partial
from typing import Any
from urllib.parse import quote, urlsplit

from flask import (
    Blueprint,
    Response,
    current_app,
    g,
    has_request_context,
    redirect,
    render_template,
    request,
)
from flask.typing import ResponseReturnValue
from markupsafe import Markup

from errors import NotFound
from games.base import get_kind
from hexmap.sized_cache import SizedCache
from i18n import catalogue, translate
from web.accounts import ratings
from web.accounts.credentials import COOKIE, Presented, account_of, csrf_token
from web.accounts_api import (
    FINISHED_PAGE,
    RECENT,
    accounts,
    finished_out,
    leaderboard,
    rating_out,
)
from web.game_site import site_of, site_or_404, sites
from web.i18n import current_lang, script_json
from web.seat_names import seat_name
from web.storage.accounts import Account, PlayerGame, Rating

bp = Blueprint("accounts_pages", __name__)
#: Where a sign-in goes when it is told nowhere (or somewhere off this site).
HOME = "/me"
#: Finished games on a page of my games (then "older games"): as many as the API gives.
ME_PAGE = FINISHED_PAGE
#: The most running games my games lists (the latest moved first).
MAX_RUNNING = 500
#: Games' list items as built (``finished_items``, ``running_items``).
ITEMS: SizedCache[Markup] = SizedCache("account-page-games", 4 << 20)
INF = float("inf")
#: The most of an unknown name a 404 page repeats.
MAX_NAME_SHOWN = 60
#: The pages that are the account's own (always ``no-store``).
OWN_PAGES = ("/signin", "/signup", "/account", "/me")


# --- who is signed in ---------------------------------------------------------------------------


def page_account() -> Account | None:
    """The account signed in to this browser (its session cookie; ``None`` for a guest, or a
    session that has ended), worked out once a request. Only the cookie counts: a page is a
    browser's, and reading it checks no CSRF token."""
    if "page_account" not in g:
        cookie = request.cookies.get(COOKIE)
        found = None
        if cookie:
            a = accounts()
            found = account_of(a.store, Presented(None, cookie, None, False), a.now())
        g.page_account = found
    return g.page_account


def safe_next(raw: str | None) -> str:
    """Where to go after signing in: ``raw`` when it is a path of this site, else ``HOME`` (an
    address elsewhere, ``//host``, a backslash or a control character would lead off the
    site)."""
    if not raw or not raw.startswith("/") or raw.startswith("//") or "\\" in raw:
        return HOME
    if any(ord(ch) < 0x20 or ord(ch) == 0x7F for ch in raw):
        return HOME
    parts = urlsplit(raw)
    return HOME if parts.scheme or parts.netloc else raw


def this_page() -> str:
    """The path and query of this request (what ``next`` names to come back here)."""
    query = request.query_string.decode("latin-1")
    return request.path + (f"?{query}" if query else "")


def sign_in_url(next_path: str) -> str:
    return "/signin?next=" + quote(next_path, safe="/")


@bp.app_context_processor
def _frame() -> dict[str, Any]:
    """``account``, ``csrf_token`` and ``sign_in_href`` for the site frame (module doc)."""
    if not has_request_context():
        return {}
    account = page_account()
    if account is not None:
        return {"account": account, "csrf_token": csrf_token(request.cookies[COOKIE])}
    on_sign_page = request.path in ("/signin", "/signup")
    return {
        "account": None,
        "csrf_token": None,
        "sign_in_href": "/signin" if on_sign_page else sign_in_url(this_page()),
    }


@bp.after_app_request
def _private(resp: Response) -> Response:
    """No cache keeps an account page, or any page a signed-in browser was shown."""
    own = request.path in OWN_PAGES or request.path.startswith(("/players/", "/leaderboards"))
    if own or (resp.mimetype == "text/html" and request.cookies.get(COOKIE)):
        resp.headers["Cache-Control"] = "no-store"
    return resp


def _signed_in_or_redirect() -> Account | ResponseReturnValue:
    account = page_account()
    return account if account is not None else redirect(sign_in_url(this_page()))


# --- words -----------------------------------------------------------------------------------


def kind_title(lang: str, kind: str) -> str:
    return translate(lang, site_of(kind).title)


def level_name(lang: str, kind: str, level: str | None) -> str:
    """A bot level's short name in ``lang`` (the review's words; the level itself if none)."""
    name = get_kind(kind).level(level or "")
    key = f"review.level_{name}"
    return translate(lang, key) if key in catalogue(lang) else name


def seat_label(lang: str, seat: dict[str, Any], mine: int | None = None) -> str:
    """A seat as every page names it (``web.seat_names``: the player's name, "Bot 2 (strong)",
    a deleted player, "Seat 2", "(you)" after mine); a seat still open, "free seat"."""
    if seat.get("open") and not seat.get("deleted"):
        text = translate(lang, "acct.free_seat")
        return translate(lang, "common.seat_you", name=text) if seat["index"] == mine else text
    return seat_name(lang, seat, mine)


def seat_labels(lang: str, seats: list[dict[str, Any]], mine: int | None) -> str:
    return translate(lang, "common.list_sep").join(seat_label(lang, s, mine) for s in seats)


def time_left(lang: str, seconds: float) -> str:
    """A duration as its two largest units ("2 days 3 h", "5 min 10 s"), in ``lang``."""
    left = max(0, math.ceil(seconds))
    parts = [("days", left // 86400), ("hours", left % 86400 // 3600)]
    parts += [("minutes", left % 3600 // 60), ("seconds", left % 60)]
    first = next((i for i, (_, n) in enumerate(parts) if n), len(parts) - 1)
    shown = [p for p in parts[first : first + 2] if p[1]] or [("seconds", 0)]
    return translate(lang, "acct.unit_sep").join(
        translate(lang, f"acct.{unit}", count=n) for unit, n in shown
    )


def when(lang: str, t: float) -> dict[str, str]:
    """A moment for a ``<time>`` element: its ISO form (the page's script writes it in the
    reader's own time zone) and the same in UTC as the page says it first."""
    moment = datetime.fromtimestamp(t, UTC)
    return {
        "iso": moment.isoformat(),
        "text": translate(lang, "acct.utc", time=f"{moment:%Y-%m-%d %H:%M}"),
    }


def number(x: float, places: int = 1) -> str:
    """A score or rating as people read it: no ".0" on a whole number, a true minus sign."""
    text = str(int(x)) if float(x).is_integer() else f"{x:.{places}f}"
    return text.replace("-", "−")


def signed(x: float) -> str:
    return f"{x:+.1f}".replace("-", "−")


# --- the rows of the pages -----------------------------------------------------------------------


def _row(lang: str, kind: str, game_id: str, players: str, seats: int) -> dict[str, Any]:
    return {
        "title": kind_title(lang, kind),
        "href": f"/{kind}/games/{game_id}",
        "review": f"/{kind}/games/{game_id}/review",
        "players": players,
        "seats": seats,
    }


def clock_of(lang: str, p: PlayerGame, now: float) -> tuple[str | None, bool]:
    """The time left on my clock when one runs (``True``), else on the game's phase, if any."""
    g_ = p.game
    mine = g_.turn_deadlines.get(p.seat)
    deadline = mine if mine is not None else g_.deadline
    return (None if deadline is None else time_left(lang, deadline - now)), mine is not None


def running_row(lang: str, p: PlayerGame, clock: tuple[str | None, bool]) -> dict[str, Any]:
    """A running game of mine: whose turn it is, and the time left (``clock_of``)."""
    g_ = p.game
    seats = g_.public_seats()
    row = _row(lang, g_.kind, g_.id, seat_labels(lang, seats, p.seat), len(seats))
    others = [seat_label(lang, seats[s]) for s in g_.to_act if s != p.seat]
    row.update(
        your_turn=p.seat in g_.to_act,
        waiting=translate(lang, "common.list_sep").join(others),
        clock=clock[0],
        own_clock=clock[1],
        updated=when(lang, g_.updated),
    )
    return row


def running_items(
    lang: str, games: list[tuple[Mapping[str, Any], PlayerGame]], now: float
) -> list[Markup]:
    """The list items of my running games (``templates/accounts/running_game.html``), my
    turn first: each kept while its game, my seat and the time left say the same. ``games``:
    each row (``running_rows``) and its record read without seats, which are read only for an
    item not kept."""
    store = accounts().store
    out = []
    for row, p in sorted(games, key=lambda pair: pair[1].seat not in pair[1].game.to_act):
        clock = clock_of(lang, p, now)
        key = (p.game.id, p.game.version, p.game.updated, p.seat, lang, clock)
        item = ITEMS.get(key)
        if item is None:
            whole = store.player_game(row)
            item = _kept(key, "accounts/running_game.html", lang, running_row(lang, whole, clock))
        out.append(item)
    return out


def _kept(key: tuple, template: str, lang: str, row: dict[str, Any]) -> Markup:
    """``template`` rendered for ``row`` (as ``g``), kept in ``ITEMS`` under ``key``."""
    tpl = current_app.jinja_env.get_template(template)
    html = Markup(tpl.render(g=row, tr=partial(translate, lang)))
    return ITEMS.put(key, html, 2 * len(html))


def result_text(lang: str, place: int | None, score: float | None, seats: int) -> str:
    if place is None:
        return translate(lang, "acct.no_result")
    where = (
        translate(lang, "acct.won")
        if place == 1
        else translate(lang, "acct.place", place=place, seats=seats)
    )
    if score is None:
        return where
    return translate(lang, "acct.result", place=where, score=number(score))


def finished_row(lang: str, game: dict[str, Any], mine: bool) -> dict[str, Any]:
    """A finished game of a player (``web.accounts_api.finished_out``'s shape): the result, and
    the rating change when it was rated; ``mine``: the reader's own (their seat says "you")."""
    kind, seats = game["game"], game["seats"]
    you = game["seat"] if mine else None
    row = _row(lang, kind, game["id"], seat_labels(lang, seats, you), len(seats))
    change = game["rating"]
    if change is not None:
        before, after = change["before"], change["after"]
        change = translate(
            lang,
            "acct.rating_change",
            before=number(before),
            after=number(after),
            delta=signed(after - before),
        )
    row.update(
        won=game["place"] == 1,
        result=result_text(lang, game["place"], game["score"], len(seats)),
        rating=change,
        ended=when(lang, game["ended"]),
    )
    return row


def rating_row(lang: str, r: dict[str, Any]) -> dict[str, Any]:
    """A rating (``web.accounts_api.rating_out``'s shape) as the pages show it."""
    return {
        "ordinal": number(r["ordinal"]),
        "skill": translate(lang, "acct.skill_pm", mu=number(r["mu"]), sigma=number(r["sigma"])),
        "games": r["games"],
        "provisional": r["provisional"],
    }


# --- the pages ---------------------------------------------------------------------------------


def _sign_page(mode: str) -> ResponseReturnValue:
    target = safe_next(request.args.get("next"))
    if page_account() is not None:
        return redirect(target)
    return render_template("accounts/sign.html", next_path=target, mode=mode)


@bp.get("/signin")
def sign_in_page() -> ResponseReturnValue:
    return _sign_page("signin")


@bp.get("/signup")
def sign_up_page() -> ResponseReturnValue:
    return _sign_page("signup")


@bp.get("/account")
def account_page() -> ResponseReturnValue:
    account = _signed_in_or_redirect()
    if not isinstance(account, Account):
        return account
    store = accounts().store
    tokens = [t.__dict__ for t in store.tokens(account.id)]
    data = {"tokens": tokens, "name": account.name}
    tag = f'<script type="application/json" id="account-data">{script_json(data)}</script>'
    email, mail_off = store.email_of(account.id)
    return render_template(
        "accounts/account.html",
        created=when(current_lang(), account.created),
        profile=profile_href(account.name),
        account_data=Markup(tag),
        email=email,
        mail_off=mail_off,
    )


def profile_href(name: str) -> str:
    return "/players/" + quote(name, safe="")


def _before() -> float | None:
    """``?before=``: the end time the list of finished games goes back from (none: newest)."""
    try:
        before = float(request.args.get("before", ""))
    except ValueError:
        return None
    return before if 0 <= before <= 1e12 else None


# --- finished games, kept as shown ----------------------------------------------------------


def _item_key(r: Mapping[str, Any], lang: str, mine: bool) -> tuple:
    result = (r["seat"], r["place"], r["score"], r["ended"], r["mu_before"], r["mu_after"])
    return (r["id"], r["updated"], result, lang, mine)


def finished_items(
    lang: str, account: Account, before: float, limit: int, mine: bool, public: bool = False
) -> list[tuple[float, Markup]]:
    """The account's finished games that ended before ``before``, newest first, ``limit`` of
    them (``public``: public games only), each with its list item
    (``templates/accounts/finished_game.html``; ``mine``: the reader's own, "you").

    A finished game's item changes only with what its row of the store says (its seats move
    its ``updated``; its result and rating change are the seat's), so each is built once and
    kept in ``ITEMS`` under those values: a page of my games or a profile asks the store
    for those values alone and joins what it kept, reading whole rows only for what it has
    not built (``bench/accounts_bench.py`` holds both pages to three health checks)."""
    store = accounts().store
    rows = store.finished_rows(account.id, before, limit, public, keys_only=True)
    items = [ITEMS.get(_item_key(r, lang, mine)) for r in rows]
    if any(item is None for item in items):
        rows = store.finished_rows(account.id, before, limit, public)
        items = [ITEMS.get(_item_key(r, lang, mine)) or _build(lang, r, mine) for r in rows]
    return [(r["ended"], item) for r, item in zip(rows, items, strict=True) if item is not None]


def _build(lang: str, r: Mapping[str, Any], mine: bool) -> Markup:
    """A finished game's list item, built from its whole row, and kept."""
    row = finished_row(lang, finished_out(accounts().store.player_game(r)), mine)
    return _kept(_item_key(r, lang, mine), "accounts/finished_game.html", lang, row)


@bp.get("/me")
def me_page() -> ResponseReturnValue:
    account = _signed_in_or_redirect()
    if not isinstance(account, Account):
        return account
    lang, a = current_lang(), accounts()
    before = _before()
    rows = [] if before is not None else a.store.running_rows(account.id, MAX_RUNNING)
    running = [(r, a.store.player_game(r, seats=False)) for r in rows]
    finished = finished_items(
        lang, account, float("inf") if before is None else before, ME_PAGE + 1, True
    )
    older = None
    if len(finished) > ME_PAGE:
        finished = finished[:ME_PAGE]
        older = f"/me?before={finished[-1][0]!r}"
    main = me_main(
        lang,
        account.name,
        tuple(running_items(lang, running, a.now())),
        tuple(item for _, item in finished),
        older,
        before is not None,
        sum(1 for _, p in running if p.seat in p.game.to_act),
    )
    return render_template("accounts/me.html", main=main)


def me_main(
    lang: str,
    name: str,
    running: tuple[Markup, ...],
    finished: tuple[Markup, ...],
    older: str | None,
    paged: bool,
    my_turns: int,
) -> Markup:
    """The content of my games (``templates/accounts/me_main.html``), kept while it says the
    same: its items are kept ones, so telling them apart costs their (kept) hashes.
    ``my_turns``: the running games in which it is my turn."""
    key = ("me", lang, name, running, finished, older, paged, my_turns)
    found = ITEMS.get(key)
    if found is not None:
        return found
    tpl = current_app.jinja_env.get_template("accounts/me_main.html")
    html = Markup(
        tpl.render(
            tr=partial(translate, lang),
            name=name,
            running=running,
            finished=finished,
            older=older,
            paged=paged,
            my_turns=my_turns,
            profile=profile_href(name),
        )
    )
    return ITEMS.put(key, html, len(html))


@bp.get("/players/<name>")
def player_page(name: str) -> ResponseReturnValue:
    lang, me, a = current_lang(), page_account(), accounts()
    try:
        account = a.named(name)
    except NotFound:  # in words, with the way to the players there are
        return render_template("accounts/no_player.html", name=name[:MAX_NAME_SHOWN]), 404
    played = tuple(a.stats(account))
    rated = tuple((r.kind, r.mu, r.sigma, r.games) for r in a.ratings(account))
    recent = tuple(item for _, item in finished_items(lang, account, INF, RECENT, False, True))
    mine = me is not None and me.id == account.id
    main = player_main(lang, account, played, rated, recent, mine)
    return render_template("accounts/player.html", name=account.name, main=main)


def player_main(
    lang: str,
    account: Account,
    played: tuple[tuple[str, int, int], ...],
    rated: tuple[tuple[str, float, float, int], ...],
    recent: tuple[Markup, ...],
    mine: bool,
) -> Markup:
    """A profile's content (``templates/accounts/player_main.html``): per kind, played and won
    (``stats``) and the rating (``rated``: kind, mu, sigma, rated games); the recent games' kept
    items. Kept while it says the same (``me_main``)."""
    key = ("player", lang, account.id, account.name, played, rated, recent, mine)
    found = ITEMS.get(key)
    if found is not None:
        return found
    counts = {kind: (n, won) for kind, n, won in played}
    ratings_ = {
        kind: rating_row(lang, rating_out(Rating(kind, mu, sigma, n, 0.0)))
        for kind, mu, sigma, n in rated
    }
    games = [
        {
            "kind": kind,
            "title": kind_title(lang, kind),
            "played": counts.get(kind, (0, 0))[0],
            "won": counts.get(kind, (0, 0))[1],
            "rating": ratings_.get(kind),
        }
        for kind in sorted(set(counts) | set(ratings_))
    ]
    tpl = current_app.jinja_env.get_template("accounts/player_main.html")
    html = Markup(
        tpl.render(
            tr=partial(translate, lang),
            name=account.name,
            created=when(lang, account.created),
            games=games,
            recent=recent,
            provisional_under=ratings.PROVISIONAL_UNDER,
            mine=mine,
        )
    )
    return ITEMS.put(key, html, len(html))


@bp.get("/leaderboards")
def leaderboards_page() -> str:
    lang = current_lang()
    boards = [
        {"kind": k, "title": kind_title(lang, k), "href": f"/leaderboards/{k}"}
        for k in (site.kind for site in sites())
    ]
    return render_template(
        "accounts/leaderboards.html", boards=boards, provisional_under=ratings.PROVISIONAL_UNDER
    )


@bp.get("/leaderboards/<kind>")
def leaderboard_page(kind: str) -> str:
    site_or_404(kind)
    lang = current_lang()
    board = leaderboard(kind)
    players = [
        {
            "rank": p["rank"],
            "name": p["name"],
            "href": profile_href(p["name"]),
            **rating_row(lang, p),
        }
        for p in board["players"]
    ]
    bots = [
        {
            "level": level_name(lang, kind, b["level"]),
            "ordinal": number(b["mu"] - 3 * b["sigma"]),
            "skill": translate(lang, "acct.skill_pm", mu=number(b["mu"]), sigma=number(b["sigma"])),
        }
        for b in board["bots"]
    ]
    me = page_account()
    return render_template(
        "accounts/leaderboard.html",
        title=kind_title(lang, kind),
        players=players,
        bots=bots,
        provisional_under=board["provisional_under"],
        my_name=me.name if me else None,
    )
