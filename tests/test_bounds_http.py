"""Numbers past their bounds in a move, over real HTTP (issue 44, item 1): on a gunicorn server
started as ``make run`` starts it, a ``version`` of 2^53 or 2^64 (any game), Tobago's
``play_clue.card`` and ``extra_marker.clue`` and Isla Dorada's ``bid.value`` of 2^64 are
refused 400 with a JSON error in words (``number_too_large``, the field, the limit), never the
500 the lean path's writer gave when the refusal carried the number; the game is unchanged."""

from __future__ import annotations

import pytest
import requests

from games.base import get_kind
from games.isla_dorada.actions import MAX_BID
from i18n import translate
from solver.deck import DECK_SIZE
from tests.kinds import BUILTIN
from tests.servers import gunicorn_in
from web.schemas_games import MAX_VERSION

HUGE = 2**64


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with gunicorn_in(tmp_path_factory.mktemp("bounds")) as srv:
        yield srv.url


def new_game(url: str, kind: str) -> dict:
    seats = [{"type": "human", "name": f"P{i}"} for i in range(get_kind(kind).type.min_seats)]
    resp = requests.post(f"{url}/api/games", json={"game": kind, "seats": seats}, timeout=30)
    assert resp.status_code == 201, resp.text
    return resp.json()


def seat_view(url: str, game: dict, seat: int) -> dict:
    token = game["seats"][seat]["token"]
    headers = {"Authorization": f"Bearer {token}"}
    return requests.get(f"{url}/api/games/{game['id']}", headers=headers, timeout=30).json()


def post(url: str, game: dict, seat: int, body: bytes | dict) -> requests.Response:
    headers = {"Authorization": f"Bearer {game['seats'][seat]['token']}"}
    path = f"{url}/api/games/{game['id']}/actions"
    if isinstance(body, dict):
        return requests.post(path, json=body, headers=headers, timeout=30)
    headers["Content-Type"] = "application/json"
    return requests.post(path, data=body, headers=headers, timeout=30)


def until_legal(url: str, game: dict, wanted: str) -> tuple[int, dict]:
    """Every seat takes its first legal action until the seat to act may take a ``wanted``
    action: that seat and its view."""
    for _ in range(200):
        seat = seat_view(url, game, 0)["to_act"][0]
        me = seat_view(url, game, seat)
        if any(a["type"] == wanted for a in me["legal_actions"]):
            return seat, me
        first = me["legal_actions"][0]
        resp = post(url, game, seat, {"version": me["version"], "action": first})
        assert resp.status_code == 200, resp.text
    raise AssertionError(f"no {wanted} action came")


def timeless(view: dict) -> dict:
    return {k: v for k, v in view.items() if k not in ("now", "deadline", "turn_deadlines")}


def refused(resp: requests.Response, field: str, limit: int) -> dict:
    assert resp.status_code == 400, resp.text
    assert resp.headers["Content-Type"] == "application/json"
    err = resp.json()["error"]
    assert (err["code"], err["reason"], err["field"]) == ("invalid", "number_too_large", field)
    assert err["params"]["limit"] == limit
    assert f"at most {limit}" in err["message"]
    for lang in ("en", "zh"):
        words = translate(lang, "error.number_too_large", **err["params"])
        assert str(limit) in words and "error." not in words
    return err


@pytest.mark.parametrize("kind", BUILTIN)
@pytest.mark.parametrize("version", [HUGE, 2**53])
def test_a_version_past_2_53_is_refused_400_in_words(server, kind, version):
    game = new_game(server, kind)
    seat = seat_view(server, game, 0)["to_act"][0]
    before = seat_view(server, game, seat)
    body = {"version": version, "action": before["legal_actions"][0]}
    refused(post(server, game, seat, body), "version", MAX_VERSION)
    assert timeless(seat_view(server, game, seat)) == timeless(before)


def test_the_largest_version_is_only_stale(server):
    game = new_game(server, "dao")
    me = seat_view(server, game, 0)
    resp = post(server, game, 0, {"version": MAX_VERSION, "action": me["legal_actions"][0]})
    assert resp.status_code == 409 and resp.json()["error"]["params"]["given"] == MAX_VERSION


@pytest.mark.parametrize(
    "action",
    [
        {"type": "play_clue", "card": HUGE, "map": "white"},
        {"type": "play_clue", "card": DECK_SIZE, "map": "white"},
        {"type": "extra_marker", "map": "white", "clue": HUGE},
    ],
)
def test_tobagos_card_and_clue_are_bounded_by_the_deck(server, action):
    game = new_game(server, "tobago")
    seat, before = until_legal(server, game, "play_clue")
    field = "action.card" if "card" in action else "action.clue"
    refused(
        post(server, game, seat, {"version": before["version"], "action": action}),
        field,
        DECK_SIZE - 1,
    )
    assert timeless(seat_view(server, game, seat)) == timeless(before)


@pytest.mark.parametrize("value", [HUGE, MAX_BID + 1])
def test_an_isla_dorada_bid_is_bounded_by_what_the_deck_pays(server, value):
    game = new_game(server, "isla_dorada")
    seat, before = until_legal(server, game, "bid")
    bid = next(a for a in before["legal_actions"] if a["type"] == "bid")
    body = {"version": before["version"], "action": {**bid, "value": value}}
    refused(post(server, game, seat, body), "action.value", MAX_BID)
    assert timeless(seat_view(server, game, seat)) == timeless(before)


def test_a_huge_number_written_as_text_is_refused_too(server):
    """The body as a client writes it (a 20-digit integer, one with an exponent)."""
    game = new_game(server, "dao")
    me = seat_view(server, game, 0)
    action = str(me["legal_actions"][0]).replace("'", '"')
    for number in (b"18446744073709551616", b"1e30", b"99999999999999999999999999"):
        resp = post(
            server, game, 0, b'{"version": ' + number + b', "action": ' + action.encode() + b"}"
        )
        assert resp.status_code == 400 and resp.headers["Content-Type"] == "application/json"
        assert resp.json()["error"]["field"] == "version"
