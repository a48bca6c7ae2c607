"""The account pages without a browser (``web.accounts_pages``): where a sign-in may lead, the
pages a guest is sent away from, ``no-store`` on every page a signed-in browser is shown, the
frame's words and CSRF token, the game page naming the account's seat, my games paging, the
profile (counts, ratings, a 404 in words), the leaderboards of every registered kind, and the
kept list items following what their rows say (a deleted player's seat)."""

from __future__ import annotations

import re

import pytest

from tests.kinds import BUILTIN
from web.accounts_pages import ME_PAGE, safe_next

PASSWORD = "a long passphrase"
DAO_VS_BOT = {"game": "dao", "seats": [{"type": "human"}, {"type": "bot", "level": "easy"}]}


def sign_up(client, name: str) -> str:
    """Make the account ``name`` on ``client`` (its cookie kept); the CSRF token."""
    resp = client.post("/api/accounts", json={"name": name, "password": PASSWORD})
    assert resp.status_code == 201, resp.get_json()
    return resp.get_json()["csrf_token"]


def play_out(client, game_id: str, csrf: str) -> None:
    """Play the account's seat to the end (the quick bot answers in each move)."""
    for _ in range(300):
        snap = client.get(f"/api/games/{game_id}").get_json()
        if snap["over"]:
            return
        body = {"version": snap["version"], "action": snap["legal_actions"][0]}
        resp = client.post(
            f"/api/games/{game_id}/actions", json=body, headers={"X-CSRF-Token": csrf}
        )
        assert resp.status_code == 200, resp.get_json()
    raise AssertionError("the game did not end")


@pytest.mark.parametrize(
    ("raw", "to"),
    [
        ("/dao/games/abc?seat=1", "/dao/games/abc?seat=1"),
        ("/account", "/account"),
        (None, "/me"),
        ("", "/me"),
        ("https://elsewhere.example/", "/me"),
        ("//elsewhere.example/x", "/me"),
        ("/\\elsewhere.example", "/me"),
        ("javascript:alert(1)", "/me"),
        ("/x\r\nSet-Cookie: a=b", "/me"),
        ("me", "/me"),
    ],
)
def test_a_sign_in_leads_back_to_a_page_of_this_site_only(raw, to):
    assert safe_next(raw) == to


def test_guests_are_sent_to_sign_in_and_back(client):
    for path in ("/me", "/account", "/me?before=5"):
        resp = client.get(path)
        assert resp.status_code == 302
        assert resp.headers["Location"].startswith("/signin?next=/")
        assert resp.headers["Cache-Control"] == "no-store"
    page = client.get("/signin?next=/dao/new").get_data(as_text=True)
    assert 'data-next="/dao/new"' in page
    assert 'data-next="/me"' in client.get("/signin?next=//evil.example").get_data(as_text=True)


def test_the_frame_says_sign_in_or_who_is_signed_in_with_the_csrf_token(client):
    guest = client.get("/rules?lang=en").get_data(as_text=True)
    assert 'href="/signin?next=/rules%3Flang%3Den"' in guest
    assert 'name="csrf-token"' not in guest and "frame.js" not in guest
    assert 'href="/leaderboards"' in re.search(r'<nav class="site-nav".*?</nav>', guest, re.S)[0]
    csrf = sign_up(client, "Ana Frame")
    resp = client.get("/rules?lang=zh")
    page = resp.get_data(as_text=True)
    assert f'<meta name="csrf-token" content="{csrf}">' in page
    assert '<a href="/me" class="account-name"' in page and ">Ana Frame</a>" in page
    assert 'id="sign-out"' in page and "登出" in page
    assert resp.headers["Cache-Control"] == "no-store"  # a signed-in browser's page
    assert client.get("/signin").status_code == 302  # signed in already: on to /me
    # a guest's page of the same address may be kept by caches; a signed-in one never
    assert "Cache-Control" not in client.application.test_client().get("/rules").headers


def test_the_game_page_names_the_seat_the_account_holds(client):
    csrf = sign_up(client, "Bo Seats")
    made = client.post("/api/games", json=DAO_VS_BOT, headers={"X-CSRF-Token": csrf})
    game = made.get_json()
    assert game["seats"][0]["player"] == "Bo Seats"
    page = client.get(f"/dao/games/{game['id']}").get_data(as_text=True)
    assert f'data-game="{game["id"]}" data-account-seat="0"' in page
    join = client.get(f"/dao/games/{game['id']}/join/1").get_data(as_text=True)
    assert 'data-account-seat="0"' in join
    other = client.application.test_client()
    assert "data-account-seat" not in other.get(f"/dao/games/{game['id']}").get_data(as_text=True)


def test_my_games_pages_back_through_finished_games_and_lists_the_running_ones(client, clock):
    csrf = sign_up(client, "Cy Pages")
    headers = {"X-CSRF-Token": csrf}
    ids = []
    for _ in range(ME_PAGE + 2):
        game = client.post("/api/games", json=DAO_VS_BOT, headers=headers).get_json()
        play_out(client, game["id"], csrf)
        ids.append(game["id"])
        clock.advance(60)  # each ends at its own time
    running = client.post("/api/games", json=DAO_VS_BOT, headers=headers).get_json()
    first = client.get("/me?lang=en").get_data(as_text=True)
    assert first.count('class="my-game your-turn"') == 1 and running["id"] in first
    reviews = r'href="/dao/games/[\w-]+/review">Review</a>'
    assert len(re.findall(reviews, first)) == ME_PAGE
    assert first.count('class="rating-change">skill ') == ME_PAGE  # rated against the bot
    older = re.search(r'href="(/me\?before=[0-9.e+]+)" id="older"', first)
    assert older is not None
    second = client.get(older.group(1) + "&lang=en").get_data(as_text=True)
    assert len(re.findall(reviews, second)) == 2 and running["id"] not in second
    assert 'id="older"' not in second and 'href="/me"' in second
    shown = set(re.findall(r'href="/dao/games/([\w-]+)/review"', first + second))
    assert shown == set(ids)
    # the profile: played and won, the rating, recent games; counted as they change
    profile = client.get("/players/cy%20pages?lang=en").get_data(as_text=True)
    played = re.search(r"<td>(\d+)</td><td>(\d+)</td>", profile)
    assert played is not None and int(played.group(1)) == ME_PAGE + 2
    assert 'class="badge">provisional' not in profile  # 12 rated games


def test_a_kept_list_item_follows_its_row_a_deleted_players_seat(client, app):
    csrf = sign_up(client, "Di Gone")
    seats = [{"type": "human"}, {"type": "human", "open": True, "listed": True}]
    game = client.post(
        "/api/games", json={"game": "dao", "seats": seats}, headers={"X-CSRF-Token": csrf}
    ).get_json()
    friend = app.test_client()
    friend_csrf = sign_up(friend, "Ed Stays")
    claim = friend.post(
        f"/api/games/{game['id']}/seats/1/claim", json={}, headers={"X-CSRF-Token": friend_csrf}
    )
    assert claim.status_code == 200, claim.get_json()
    for _ in range(300):  # both play to the end, each by the session cookie
        snap = client.get(f"/api/games/{game['id']}").get_json()
        if snap["over"]:
            break
        who, token = (client, csrf) if 0 in snap["to_act"] else (friend, friend_csrf)
        mine = who.get(f"/api/games/{game['id']}").get_json()
        body = {"version": mine["version"], "action": mine["legal_actions"][0]}
        assert (
            who.post(
                f"/api/games/{game['id']}/actions", json=body, headers={"X-CSRF-Token": token}
            ).status_code
            == 200
        )
    before = friend.get("/me?lang=en").get_data(as_text=True)
    assert "Di Gone" in before
    gone = client.delete("/api/me", json={"password": PASSWORD}, headers={"X-CSRF-Token": csrf})
    assert gone.status_code == 204
    after = friend.get("/me?lang=en").get_data(as_text=True)
    assert "Di Gone" not in after and "deleted player, Ed Stays (you)" in after
    missing = friend.get("/players/Di%20Gone?lang=en")
    assert missing.status_code == 404 and "Nobody here is called “Di Gone”" in missing.get_data(
        as_text=True
    )


def test_my_games_name_seats_the_one_way_a_bot_by_its_number_and_level(client):
    """The games lists name a seat as every page does (web.seat_names): "Bot 2 (easy)", and my
    own seat with "(you)" after my name, in both languages."""
    csrf = sign_up(client, "Gu Bots")
    done = client.post("/api/games", json=DAO_VS_BOT, headers={"X-CSRF-Token": csrf}).get_json()
    play_out(client, done["id"], csrf)
    client.post("/api/games", json=DAO_VS_BOT, headers={"X-CSRF-Token": csrf})  # one running
    en = client.get("/me?lang=en").get_data(as_text=True)
    assert en.count("Gu Bots (you), Bot 2 (easy)") == 2  # the running game and the finished one
    assert "easy bot" not in en
    zh = client.get("/me?lang=zh").get_data(as_text=True)
    assert zh.count("Gu Bots（你）、電腦 2（簡單）") == 2
    profile = client.get("/players/gu%20bots?lang=en").get_data(as_text=True)
    assert "Gu Bots, Bot 2 (easy)" in profile  # a reader who is not signed in as me: no "(you)"


def test_leaderboards_list_every_registered_kind_and_its_bots(client):
    page = client.get("/leaderboards?lang=en").get_data(as_text=True)
    for kind in BUILTIN:
        assert f'href="/leaderboards/{kind}"' in page
    board = client.get("/leaderboards/dao?lang=en").get_data(as_text=True)
    assert "Nobody has a rating in this game yet" in board
    assert board.count('<th scope="row">') == 3  # the three bot levels' fixed ratings
    assert "skill minus three times the uncertainty" in board
    assert client.get("/leaderboards/nosuchgame").status_code == 404
