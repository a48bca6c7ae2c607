"""Names and chat lines that look alike are alike (issue 44, item 7): ``web.text_rules`` refuses
every character class the issue lists (soft hyphen, Hangul fillers, braille blank, tag
characters, U+FFF9, CR/LF, BEL, DEL, NEL, U+2028/2029, private use, unassigned, spaces but
U+0020), and every name (a seat's, a claim's, a record's, an account's, a token's label) and
every chat line is held to it: 400, a stable reason, the field and the character, worded in
English and Chinese; the API description's pattern says the same."""

from __future__ import annotations

import re

import pytest

from errors import InvalidInput
from i18n import translate
from web.accounts.names import account_name
from web.schemas_chat import chat_text
from web.schemas_games import plain_name
from web.text_rules import character_class, line_pattern, name_pattern, unfit_character

#: (character, its class): one at least of every class the issue names.
UNFIT = [
    ("\u00ad", "format"),  # soft hyphen: "Ana" and "An\u00ada" look the same
    ("\u3164", "blank letter"),  # Hangul filler
    ("\u115f", "blank letter"),  # Hangul choseong filler
    ("\u1160", "blank letter"),  # Hangul jungseong filler
    ("\uffa0", "blank letter"),  # halfwidth Hangul filler
    ("\u2800", "blank letter"),  # braille pattern blank
    ("\U000e0041", "format"),  # tag latin capital letter A
    ("\U000e0020", "format"),  # tag space
    ("\ufff9", "format"),  # interlinear annotation anchor
    ("\u200b", "format"),  # zero width space
    ("\u202e", "format"),  # right-to-left override
    ("\r", "control"),
    ("\n", "control"),
    ("\x07", "control"),  # BEL
    ("\x7f", "control"),  # DEL
    ("\x85", "control"),  # NEL
    ("\u2028", "line separator"),
    ("\u2029", "paragraph separator"),
    ("\u00a0", "space other than U+0020"),  # no-break space
    ("\u3000", "space other than U+0020"),  # ideographic space
    ("\u2003", "space other than U+0020"),  # em space
    ("\ue000", "private use"),
    ("\U000f0000", "private use"),
    ("\u0378", "unassigned"),
    ("\U000e0080", "unassigned"),
]
IDS = [f"U+{ord(c):04X}" for c, _ in UNFIT]
FIT = ["Ana", "安娜", "Zoë", "O'Brien-Smith", "🙂 Bo", "Deal? 🐉❤️", "한글 이름", "Ana (2)"]


@pytest.mark.parametrize(("char", "kind"), UNFIT, ids=IDS)
def test_every_class_the_issue_lists_is_unfit_and_the_pattern_agrees(char, kind):
    assert character_class(char) == kind
    for text in (f"A{char}na", f"{char}Ana", f"Ana{char}"):
        assert unfit_character(text) == char
        assert re.fullmatch(name_pattern(), text) is None
        assert re.fullmatch(line_pattern(), text) is None


@pytest.mark.parametrize("text", FIT)
def test_names_and_lines_in_any_script_are_fit(text):
    assert unfit_character(text) is None
    assert re.fullmatch(name_pattern(), text) and re.fullmatch(line_pattern(), text)


def test_the_pattern_and_the_rule_agree_on_every_code_point():
    assert name_pattern().startswith("^[") and name_pattern().endswith("]*$")
    fit = re.compile(f"[{name_pattern()[2:-3]}]")  # the class of the pattern's characters
    for c in range(0x110000):
        ch = chr(c)
        assert (fit.fullmatch(ch) is not None) == (character_class(ch) is None), hex(c)
    assert re.fullmatch(line_pattern(), " x ") and not re.fullmatch(line_pattern(), "   ")


@pytest.mark.parametrize(("char", "kind"), UNFIT, ids=IDS)
def test_a_seat_name_holding_it_is_refused(char, kind):
    with pytest.raises(InvalidInput) as e:
        plain_name(f"An{char}a")
    assert e.value.reason == "hidden_character"
    assert e.value.params == {"character": f"U+{ord(char):04X}"}
    assert kind in e.value.message


@pytest.mark.parametrize(("char", "kind"), UNFIT, ids=IDS)
def test_an_account_name_holding_it_is_refused(char, kind):
    with pytest.raises(InvalidInput) as e:
        account_name(f"An{char}a")
    assert (e.value.reason, e.value.field) == ("hidden_character", "name")


@pytest.mark.parametrize(("char", "kind"), UNFIT, ids=IDS)
def test_a_chat_line_holding_it_is_refused(char, kind):
    with pytest.raises(InvalidInput) as e:
        chat_text(f"hello {char} there")
    breaks = kind in ("control", "line separator", "paragraph separator")
    assert e.value.reason == ("chat_control_character" if breaks else "chat_hidden_character")
    assert e.value.params == {"character": f"U+{ord(char):04X}"}


def test_the_refusals_are_worded_in_both_languages():
    for lang in ("en", "zh"):
        for reason in ("hidden_character", "chat_hidden_character", "chat_control_character"):
            text = translate(lang, f"error.{reason}", character="U+3164")
            assert "U+3164" in text and not text.startswith("error.")


SOFT = "Ana\u00ad"


def test_over_http_every_kind_of_name_refuses_a_look_alike(client):
    """Seats at creation, a claim, a record's seats, the lobby, an account and a token label."""
    seats = [{"type": "human", "name": "Ana"}, {"type": "human", "name": SOFT}]
    resp = client.post("/api/games", json={"game": "dao", "seats": seats})
    assert (resp.status_code, resp.get_json()["error"]["field"]) == (400, "seats[1].name")
    open_seat = {"type": "human", "open": True, "listed": True}
    game = client.post("/api/games", json={"game": "dao", "seats": [seats[0], open_seat]})
    claim = client.post(f"/api/games/{game.get_json()['id']}/seats/1/claim", json={"name": SOFT})
    assert (claim.status_code, claim.get_json()["error"]["reason"]) == (400, "hidden_character")
    quick = client.post("/api/quick-play", json={"game": "dao", "seats": [2, 2], "name": SOFT})
    assert (quick.status_code, quick.get_json()["error"]["field"]) == (400, "name")
    account = client.post(
        "/api/accounts", json={"name": "\u3164\u3164\u3164", "password": "a long passphrase"}
    )
    err = account.get_json()["error"]
    assert (account.status_code, err["reason"], err["field"]) == (400, "hidden_character", "name")
    assert err["params"] == {"character": "U+3164"}


def test_over_http_a_chat_line_refuses_a_soft_hyphen_and_keeps_a_plain_line(client):
    seats = [{"type": "human", "name": "Ana"}, {"type": "human", "name": "Bo"}]
    game = client.post("/api/games", json={"game": "dao", "seats": seats}).get_json()
    auth = {"Authorization": f"Bearer {game['seats'][0]['token']}"}
    path = f"/api/games/{game['id']}/chat"
    resp = client.post(path, json={"text": "deal\u00ad?"}, headers=auth)
    assert resp.status_code == 400 and resp.get_json()["error"]["reason"] == "chat_hidden_character"
    resp = client.post(path, json={"text": "deal?"}, headers=auth)
    assert resp.status_code == 201
