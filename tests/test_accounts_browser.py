"""Accounts in a real Chromium (Playwright): two browser contexts are two devices of one player.

- Signed in on both through the pages, one seat plays on both: the game made on the new-game
  page keeps no token (the account holds the seat), each page finds its seat by the session
  cookie, and a move made on one device shows on the other.
- A guest's seats move into the account at sign-up in one click (their tokens leave the
  browser); another device signed in plays them.
- A rated game between two accounts (a friend's seat claimed on the join page while signed in,
  then played out through the API with each account's cookie and CSRF token) moves both
  ratings, and the leaderboard page shows both players.
- Signing out everywhere on one device ends the other's session: its next page says "Sign in".
- The account page: a token made (shown once) and revoked, the password changed, the account
  deleted (its seat then reads "deleted player" on the game page); focus after each action.

Screenshots land in ``test-output/accounts/`` (git-ignored): every account page at 1280 and
390 px, in English and Chinese. The server limits failed sign-ins (10 per 15 minutes per
address) and new accounts (50 an hour): this module's fresh server sees a handful of each.
"""

from __future__ import annotations

import json

import pytest

from i18n import catalogue
from tests.browser_support import (
    PHONE,
    SignedIn,
    api,
    as_account,
    close_clean,
    dao_idle,
    new_page,
    open_as,
    play_out,
    player_with_games,
    shots_dir,
    sign_up,
    signed_in_page,
)

pytestmark = pytest.mark.browser
expect = pytest.importorskip("playwright.sync_api").expect
SHOTS = shots_dir("accounts")
PASSWORD = "a long passphrase"
BOT = {"type": "bot", "level": "easy"}  # the quick bot: its replies come with the move's answer


def sign_up_page(page, server: str, name: str, next_path: str = "/me") -> None:
    """Make an account on the sign-up page (no guest seats here: straight on to ``next``)."""
    page.goto(f"{server}/signup?next={next_path}&lang=en")
    page.fill("#name", name)
    page.fill("#password", PASSWORD)
    page.click("#submit")


def dao_on_form(page, server: str, choices: dict[str, str]) -> str:
    """A two-seat DAO game made on the new-game page with these choices (select → value) and
    seats 2 and 3 empty; the id in its page's address."""
    page.goto(f"{server}/dao/new?lang=en")
    for select, value in {**choices, "#seat-2-type": "none", "#seat-3-type": "none"}.items():
        page.select_option(select, value)
    page.click("#create-game")
    page.wait_for_url("**/dao/games/*")
    return page.url.split("/games/")[1]


def signed_up(browser, server: str, name: str, **context_options):
    """A new page whose account ``name`` was made on the sign-up page, on its "me" page."""
    page = new_page(browser, **context_options)
    sign_up_page(page, server, name)
    page.wait_for_url("**/me")
    return page


def sign_in_page(page, server: str, name: str, password: str = PASSWORD, next_path="/me") -> None:
    page.goto(f"{server}/signin?next={next_path}&lang=en")
    page.fill("#name", name)
    page.fill("#password", password)
    page.click("#submit")


def session_of(page, server: str) -> SignedIn:
    """The session of a signed-in page: its cookie and the CSRF token the page carries."""
    cookie = next(c["value"] for c in page.context.cookies(server) if c["name"] == "study_session")
    csrf = page.get_attribute('meta[name="csrf-token"]', "content")
    name = page.text_content(".account-name")
    return SignedIn(name.strip(), cookie, csrf)


def tokens_of(page, game_id: str) -> dict:
    return json.loads(
        page.evaluate("k => localStorage.getItem(k) || '{}'", f"tobago.tokens.{game_id}")
    )


def dao_move(page) -> int:
    """Take or turn (what the seat may do) on the DAO page by keyboard; the version before."""
    snap = page.evaluate("() => window.daoGame.snap")
    assert snap["legal_actions"], snap["to_act"]
    kind = snap["legal_actions"][0]["type"]
    page.focus(f"#{kind}")
    page.keyboard.press("Enter")
    return snap["version"]


def shoot(page, name: str) -> None:
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def no_sideways_scroll(page) -> None:
    wider = page.evaluate(
        "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"
    )
    assert wider <= 0, f"the page is {wider} px wider than the screen"


def test_one_seat_plays_on_two_devices_signed_in(browser, live_server):
    phone = signed_up(browser, live_server, "Ana Two", viewport=PHONE)
    expect(phone.locator(".account-name")).to_have_text("Ana Two")
    laptop = new_page(browser)
    sign_in_page(laptop, live_server, "ana two")  # a name is one whatever its capitals
    laptop.wait_for_url("**/me")
    # a DAO game against the quick bot, made on the laptop's new-game page
    game_id = dao_on_form(laptop, live_server, {"#seat-1-level": "easy"})
    assert "?" not in game_id  # no ?seat=: the account's seat needs no token
    assert tokens_of(laptop, game_id) == {}
    dao_idle(laptop)
    phone.goto(f"{live_server}/dao/games/{game_id}?lang=en")
    dao_idle(phone)
    assert tokens_of(phone, game_id) == {}
    for page in (laptop, phone):
        snap = page.evaluate("() => window.daoGame.snap")
        assert snap["seat"] == 0 and snap["legal_actions"], snap["seat"]
        expect(page.locator("#error")).to_be_hidden()  # not "watching"
    # a move on the laptop shows on the phone, and one on the phone on the laptop
    before = dao_move(laptop)
    dao_idle(laptop, before)
    dao_idle(phone, before)
    assert phone.evaluate("() => window.daoGame.snap.version") == laptop.evaluate(
        "() => window.daoGame.snap.version"
    )
    if not phone.evaluate("() => window.daoGame.snap.over"):
        before = dao_move(phone)
        dao_idle(phone, before)
        dao_idle(laptop, before)
    shoot(phone, "two-devices-phone")
    # my games lists it, with "your turn" when it is
    phone.goto(f"{live_server}/me?lang=en")
    expect(phone.locator(".my-game a", has_text="DAO game").first).to_be_visible()
    no_sideways_scroll(phone)
    close_clean(laptop, phone)


def test_guest_seats_move_into_the_account_at_sign_up_and_play_on_another_device(
    browser, live_server
):
    guest = new_page(browser)
    games = [
        api(live_server, "POST", "/api/games", {"game": "dao", "seats": [{"type": "human"}, BOT]})
        for _ in range(2)
    ]
    open_as(guest, live_server, "dao", games[0], 0)
    dao_idle(guest)
    guest.evaluate(
        "([k, v]) => localStorage.setItem(k, v)",
        [f"tobago.tokens.{games[1]['id']}", json.dumps({"0": games[1]["seats"][0]["token"]})],
    )
    sign_up_page(guest, live_server, "Bo Guest", next_path=f"/dao/games/{games[0]['id']}")
    offer = guest.locator("#seats-offer")
    expect(offer).to_be_visible()
    expect(offer).to_be_focused()  # the question comes to the player
    expect(guest.locator("#seats-text")).to_contain_text("2 seats")
    shoot(guest, "seats-offer")
    guest.click("#move-seats")
    guest.wait_for_url(f"**/dao/games/{games[0]['id']}")
    for g in games:
        assert tokens_of(guest, g["id"]) == {}  # the account holds them now
    dao_idle(guest)
    assert guest.evaluate("() => window.daoGame.snap.seat") == 0
    # another device, signed in, plays the seat
    other = new_page(browser, viewport=PHONE)
    sign_in_page(other, live_server, "Bo Guest", next_path=f"/dao/games/{games[1]['id']}")
    other.wait_for_url(f"**/dao/games/{games[1]['id']}")
    dao_idle(other)
    before = dao_move(other)
    dao_idle(other, before)
    expect(other.locator("#error")).to_be_hidden()
    mine = as_account(live_server, session_of(other, live_server), "GET", "/api/me/games")
    assert {g["id"] for g in mine["running"]} == {g["id"] for g in games}
    close_clean(guest, other)


def test_a_rated_game_between_two_accounts_moves_both_ratings_onto_the_leaderboard(
    browser, live_server
):
    host = signed_up(browser, live_server, "Cleo")
    friend = signed_up(browser, live_server, "Dev", viewport=PHONE)
    cleo, dev = session_of(host, live_server), session_of(friend, live_server)
    seats = [{"type": "human"}, {"type": "human", "open": True}]
    game = as_account(live_server, cleo, "POST", "/api/games", {"game": "dao", "seats": seats})
    assert game["seats"][0]["player"] == "Cleo"
    # the friend takes the seat on the join page, signed in: no token is kept
    friend.goto(
        f"{live_server}/dao/games/{game['id']}/join/1?lang=en#invite={game['seats'][1]['invite']}"
    )
    expect(friend.locator("#join-form")).to_be_visible()
    friend.click("#join-claim")
    friend.wait_for_url(f"**/dao/games/{game['id']}")
    assert tokens_of(friend, game["id"]) == {}
    dao_idle(friend)
    assert friend.evaluate("() => window.daoGame.snap.seat") == 1
    # the join link again: the account holds a seat of the game, so straight to it
    friend.goto(f"{live_server}/dao/games/{game['id']}/join/1#invite=x")
    friend.wait_for_url(f"**/dao/games/{game['id']}")
    end = play_out(live_server, game["id"], {0: cleo, 1: dev})
    assert end["over"]
    for who in (cleo, dev):
        me = as_account(live_server, who, "GET", "/api/me")
        (dao,) = [r for r in me["ratings"] if r["game"] == "dao"]
        # a game always narrows the rating's uncertainty (a draw may leave mu where it was)
        assert dao["games"] == 1 and dao["sigma"] < 25 / 3, dao
    friend.goto(f"{live_server}/leaderboards/dao?lang=en")
    names = friend.locator("table.board tbody th a").all_text_contents()
    assert {"Cleo", "Dev"} <= set(names), names
    expect(friend.locator("tr.me")).to_contain_text("Dev")
    no_sideways_scroll(friend)
    shoot(friend, "leaderboard-dao-390-en")
    # each one's finished game, with its rating change, on my games and the profile
    host.goto(f"{live_server}/me?lang=en")
    expect(host.locator(".my-game .rating-change")).to_contain_text("skill 25 → ")
    host.goto(f"{live_server}/players/Dev?lang=en")
    expect(host.locator("table.account-table")).to_contain_text("DAO")
    expect(host.locator(".badge", has_text="provisional")).to_be_visible()
    close_clean(host, friend)


def test_signing_out_everywhere_ends_the_other_devices_session(browser, live_server):
    sign_up(live_server, "Eve Away", PASSWORD)
    one, two = new_page(browser), new_page(browser, viewport=PHONE)
    for page in (one, two):
        sign_in_page(page, live_server, "Eve Away")
        page.wait_for_url("**/me")
    one.goto(f"{live_server}/account?lang=en")
    one.click("#sign-out-everywhere")
    one.wait_for_url("**/signin?next=/account")
    expect(one.locator(".sign-in-link")).to_have_text("Sign in")
    two.goto(f"{live_server}/leaderboards?lang=en")  # any page: the session has ended
    expect(two.locator(".sign-in-link")).to_have_text("Sign in")
    expect(two.locator("meta[name='csrf-token']")).to_have_count(0)
    two.goto(f"{live_server}/me")
    two.wait_for_url("**/signin?next=/me")
    # the header's Sign out ends this browser's session alone
    sign_in_page(one, live_server, "Eve Away")
    one.wait_for_url("**/me")
    sign_in_page(two, live_server, "Eve Away")
    two.wait_for_url("**/me")
    two.click("#sign-out")
    expect(two.locator(".sign-in-link")).to_be_visible()
    one.reload()
    expect(one.locator(".account-name")).to_have_text("Eve Away")
    close_clean(one, two)


def test_the_account_page_tokens_password_and_deleting_the_account(browser, live_server):
    page = signed_up(browser, live_server, "Flo Keys")
    flo = session_of(page, live_server)
    page.goto(f"{live_server}/account?lang=en")
    expect(page.locator("#token-list")).to_contain_text("no access tokens")
    # a token: made, shown once with a Copy button, focus on it
    page.fill("#token-label", "my bot")
    page.press("#token-label", "Enter")
    expect(page.locator("#new-token")).to_be_focused()
    token = page.input_value("#new-token")
    assert token.startswith("tbp_")
    expect(page.locator("#token-made .copy")).to_be_visible()
    shoot(page, "account-token-made")
    bearer = {"Authorization": f"Bearer {token}"}
    assert page.request.get(f"{live_server}/api/me", headers=bearer).json()["name"] == "Flo Keys"
    page.reload()
    expect(page.locator("#token-list")).to_contain_text("my bot")
    assert token not in page.content()  # never shown again
    page.click("#token-list button")
    expect(page.locator("#token-list")).to_contain_text("no access tokens")
    expect(page.locator("#token-label")).to_be_focused()
    fresh = page.context.request.get(f"{live_server}/api/me", headers=bearer)
    assert fresh.status == 403 and fresh.json()["error"]["reason"] == "unknown_token"
    # the password: the wrong current one is refused in words, then changed
    page.fill("#current-password", "not my password")
    page.fill("#new-password", "another long one")
    page.click("#change-password")
    expect(page.locator("#password-error")).to_have_text("That password is wrong.")
    page.fill("#current-password", PASSWORD)
    page.click("#change-password")
    expect(page.locator("#password-done")).to_be_focused()
    other = new_page(browser)
    sign_in_page(other, live_server, "Flo Keys", "another long one")
    other.wait_for_url("**/me")
    other.context.close()
    # deleting: the password and the box, then the seat reads "deleted player"
    seats = [{"type": "human"}, {"type": "human"}]
    game = as_account(live_server, flo, "POST", "/api/games", {"game": "dao", "seats": seats})
    page.fill("#delete-password", "another long one")
    page.click("#delete-account")
    expect(page.locator("#delete-error")).to_contain_text("Tick the box")
    expect(page.locator("#delete-sure")).to_be_focused()
    page.check("#delete-sure")
    page.click("#delete-account")
    expect(page.locator("h1")).to_have_text("Account deleted")
    expect(page.locator(".notice")).to_be_focused()
    watcher = new_page(browser)
    open_as(watcher, live_server, "dao", game, 1, "?lang=en")
    dao_idle(watcher)
    expect(watcher.locator("#player-0")).to_contain_text("deleted player")
    shoot(watcher, "deleted-player-seat")
    assert page.request.get(f"{live_server}/players/Flo%20Keys").status == 404
    close_clean(page, watcher)


def test_hot_seat_signed_in_keeps_the_other_seats_token_and_switches_between_both(
    browser, live_server
):
    page = signed_up(browser, live_server, "Gus Hot")
    game_id = dao_on_form(page, live_server, {"#seat-1-type": "me"})
    assert "?" not in game_id
    assert list(tokens_of(page, game_id)) == ["1"]  # the second "me" seat: a token, as a guest's
    dao_idle(page)
    assert page.evaluate("() => window.daoGame.snap.seat") == 0
    switch = page.locator("#seat-switch")
    expect(switch).to_be_visible()
    assert switch.locator("option").count() == 2
    switch.select_option("1")
    page.wait_for_url(f"**/dao/games/{game_id}?seat=1")
    dao_idle(page)
    assert page.evaluate("() => window.daoGame.snap.seat") == 1
    page.goto(f"{live_server}/dao/games/{game_id}?seat=0")  # no token for it: the account's
    dao_idle(page)
    assert page.evaluate("() => window.daoGame.snap.seat") == 0
    close_clean(page)


def test_a_watcher_is_invited_to_sign_in_and_hubs_lead_to_my_games(browser, live_server):
    who, running, finished = player_with_games(live_server, "Hal Hub")
    guest = new_page(browser, viewport=PHONE)
    guest.goto(f"{live_server}/dao/games/{running['id']}?lang=en")
    dao_idle(guest)
    invite = guest.locator("#error a", has_text="Sign in to play it from here")
    expect(invite).to_be_visible()
    shoot(guest, "watcher-invite-390-en")
    invite.click()
    guest.wait_for_url(f"**/signin?next=%2Fdao%2Fgames%2F{running['id']}*")
    sign_in_page_here = guest  # the form of the page the invitation opened
    sign_in_page_here.fill("#name", "Hal Hub")
    sign_in_page_here.fill("#password", PASSWORD)
    sign_in_page_here.click("#submit")
    guest.wait_for_url(f"**/dao/games/{running['id']}*")
    dao_idle(guest)
    assert guest.evaluate("() => window.daoGame.snap.seat") == 0
    expect(guest.locator("#error")).to_be_hidden()
    # the finished game is watched without an invitation (nothing is left to play)
    other = new_page(browser)
    other.goto(f"{live_server}/dao/games/{finished['id']}?lang=en")
    dao_idle(other)
    expect(other.locator("#error a")).to_have_count(0)
    # the review hub lists my games first; Tobago's hub leads to my games
    guest.goto(f"{live_server}/review?lang=en")
    yours = guest.locator("#yours a")
    expect(yours.first).to_have_attribute("href", f"/dao/games/{finished['id']}/review")
    guest.goto(f"{live_server}/tobago?lang=en")
    expect(guest.locator("a[href='/me']", has_text="My games on every device")).to_be_visible()
    close_clean(guest, other)


def test_sign_in_refusals_are_worded_and_focus_the_field_to_fix(browser, live_server):
    page = new_page(browser, viewport=PHONE)
    page.goto(f"{live_server}/signup?lang=en")
    page.fill("#name", "Io")
    page.fill("#password", PASSWORD)
    page.click("#submit")
    expect(page.locator("#form-error")).to_have_text("A name has 3 to 24 characters.")
    expect(page.locator("#name")).to_be_focused()
    page.fill("#name", "Ivy Short")
    page.fill("#password", "short")
    page.press("#password", "Enter")
    expect(page.locator("#form-error")).to_contain_text("8 to 256 characters")
    expect(page.locator("#password")).to_be_focused()
    sign_up(live_server, "Ivy Taken")
    page.fill("#name", "IVY TAKEN")
    page.fill("#password", PASSWORD)
    page.click("#submit")
    expect(page.locator("#form-error")).to_have_text("The name IVY TAKEN is taken: choose another.")
    page.goto(f"{live_server}/signin?next=https://elsewhere.example/&lang=zh")
    page.fill("#name", "Ivy Taken")
    page.fill("#password", "not the password")
    page.click("#submit")
    expect(page.locator("#form-error")).to_have_text(catalogue("zh")["error.wrong_credentials"])
    expect(page.locator("#password")).to_be_focused()
    page.fill("#password", PASSWORD)
    page.click("#submit")
    page.wait_for_url(f"{live_server}/me")  # an address off the site is not followed
    close_clean(page)


#: The account pages, shot at 1280 and 390 px in both languages ({name}: the player).
SHOT_PAGES = {
    "signin": "/signin",
    "signup": "/signup",
    "me": "/me",
    "account": "/account",
    "profile": "/players/{name}",
    "leaderboards": "/leaderboards",
    "leaderboard": "/leaderboards/dao",
    "no-player": "/players/nobody-here",
}
SIGNED_OUT = {"signin", "signup", "no-player"}


def test_every_account_page_on_a_laptop_and_a_phone_in_both_languages(browser, live_server):
    from tests.browser_support import raw_keys

    who, running, _ = player_with_games(live_server, "Jo Screens")
    # a second running game, waiting on a friend, on a turn clock of a day
    seats = [{"type": "human"}, {"type": "human", "open": True}]
    body = {"game": "dao", "seats": seats, "options": {"turn_seconds": 86400}}
    as_account(live_server, who, "POST", "/api/games", body)
    for width in (1280, 390):
        for lang in ("en", "zh"):
            for name, path in SHOT_PAGES.items():
                out = name in SIGNED_OUT
                size = {"width": width, "height": 900}
                page = (
                    new_page(browser, viewport=size)
                    if out
                    else signed_in_page(browser, live_server, who, viewport=size)
                )
                sep = "&" if "?" in path else "?"
                page.goto(live_server + path.format(name=who.name) + f"{sep}lang={lang}")
                page.wait_for_load_state("networkidle")
                no_sideways_scroll(page)
                assert not raw_keys(page), (name, raw_keys(page))
                assert not page.js_errors, (name, page.js_errors)
                shoot(page, f"{name}-{width}-{lang}")
                page.context.close()


def test_the_account_page_by_keyboard_reaches_every_control_with_focus_shown(browser, live_server):
    who = sign_up(live_server, "Kit Keys")
    page = signed_in_page(browser, live_server, who, viewport=PHONE)
    page.goto(f"{live_server}/account?lang=en")
    page.fill("#token-label", "a script")
    page.click("#make-token")
    expect(page.locator("#new-token")).to_be_focused()
    page.goto(f"{live_server}/account?lang=en")
    wanted = [
        "#sign-out",
        "#current-password",
        "#new-password",
        "#change-password",
        "#sign-out-everywhere",
        "#token-list button",
        "#token-label",
        "#make-token",
        "#delete-password",
        "#delete-sure",
        "#delete-account",
    ]
    page.focus(".skip-link")
    reached = []
    for _ in range(60):
        page.keyboard.press("Tab")
        found = page.evaluate(
            """(wanted) => {
              const a = document.activeElement;
              const style = getComputedStyle(a);
              const shown = style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0;
              return [wanted.find((s) => a.matches(s)) || null, shown];
            }""",
            wanted,
        )
        if found[0]:
            assert found[1], f"{found[0]} has focus but shows no outline"
            reached.append(found[0])
        if found[0] == wanted[-1]:
            break
    assert reached == wanted, reached
    # revoking by keyboard: focus goes on to the token's name field (no token left)
    page.focus("#token-list button")
    page.keyboard.press("Enter")
    expect(page.locator("#token-label")).to_be_focused()
    expect(page.locator("#token-status")).to_have_text("The token “a script” is revoked.")
    close_clean(page)


def test_signing_in_and_out_by_keyboard_alone(browser, live_server):
    sign_up(live_server, "Lu Keys")
    guest = api(
        live_server, "POST", "/api/games", {"game": "dao", "seats": [{"type": "human"}, BOT]}
    )
    page = new_page(browser, viewport=PHONE)
    open_as(page, live_server, "dao", guest, 0, "?lang=en")
    dao_idle(page)
    # from the header's Sign in, the form, then the offer, every step by keys
    page.focus(".sign-in-link")
    page.keyboard.press("Enter")
    page.wait_for_url("**/signin?next=**")
    page.focus(".skip-link")
    page.keyboard.press("Enter")  # to the page's content
    for field, text in (("#name", "Lu Keys"), ("#password", PASSWORD)):
        for _ in range(6):
            page.keyboard.press("Tab")
            if page.evaluate("s => document.activeElement.matches(s)", field):
                break
        expect(page.locator(field)).to_be_focused()
        page.keyboard.type(text)
    page.keyboard.press("Enter")
    expect(page.locator("#seats-offer")).to_be_focused()
    page.keyboard.press("Tab")
    expect(page.locator("#move-seats")).to_be_focused()
    page.keyboard.press("Enter")
    page.wait_for_url(f"**/dao/games/{guest['id']}*")
    dao_idle(page)
    assert page.evaluate("() => window.daoGame.snap.seat") == 0
    assert tokens_of(page, guest["id"]) == {}
    page.focus("#sign-out")
    page.keyboard.press("Enter")
    expect(page.locator(".sign-in-link")).to_be_visible()
    close_clean(page)
