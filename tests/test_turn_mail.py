"""'Your turn' e-mails: an account's address (``PUT /api/me/email``), one e-mail per game per
turn once it has been its turn for the settings' wait, in a turn-based game only, sent to a real
SMTP server on loopback (aiosmtpd), and its unsubscribe link turning them off with no sign-in;
on both stores. The service's clock is the tests' ``FakeClock``."""

from __future__ import annotations

import contextlib
import re
import socket
from email import message_from_bytes, policy
from email.message import EmailMessage

import pytest
from aiosmtpd.controller import Controller

from app import create_app
from tests.bots import bots_move
from web.accounts import mail

PW = "correct horse battery"
AFTER_S = 600


class Inbox:
    """An aiosmtpd handler keeping every message it receives."""

    def __init__(self) -> None:
        self.messages: list[EmailMessage] = []

    async def handle_DATA(self, server, session, envelope) -> str:
        self.messages.append(message_from_bytes(envelope.content, policy=policy.default))
        return "250 OK"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def smtp():
    inbox = Inbox()
    controller = Controller(inbox, hostname="127.0.0.1", port=free_port())
    controller.start()
    try:
        yield controller, inbox
    finally:
        with contextlib.suppress(AssertionError):  # stopped by the test already
            controller.stop()


@pytest.fixture
def app(database, clock, smtp):
    controller, _ = smtp
    settings = {
        "TESTING": True,
        "DATABASE": database,
        "CLOCK": clock,
        "SMTP_HOST": "127.0.0.1",
        "SMTP_PORT": controller.port,
        "MAIL_FROM": "tables@example.org",
        "TURN_MAIL_AFTER_S": AFTER_S,
        "BASE_URL": "https://play.example.org",
    }
    made = create_app(settings)
    yield made
    made.extensions["game_sessions"].store.close()


def signed_in(app, name):
    c = app.test_client()
    r = c.post("/api/accounts", json={"name": name, "password": PW})
    c.csrf = {"X-CSRF-Token": r.get_json()["csrf_token"]}
    return c


def send(app, clock):
    a = app.extensions["accounts"]
    return mail.send_due(a.store, app.extensions["mail_settings"], clock())


def turn_based_game(c, turn_seconds=86400):
    seats = [{"type": "human"}, {"type": "bot", "level": "easy"}]
    body = {"game": "dao", "seats": seats, "options": {"turn_seconds": turn_seconds}}
    r = c.post("/api/games", json=body, headers=c.csrf)
    assert r.status_code == 201, r.get_json()
    return r.get_json()["id"]


def test_an_address_is_given_checked_and_removed(app):
    c = signed_in(app, "Ana")
    r = c.put("/api/me/email", json={"email": "not an address"}, headers=c.csrf)
    assert r.status_code == 400 and r.get_json()["error"]["reason"] == "bad_email"
    r = c.put("/api/me/email", json={"email": " ana@example.org "}, headers=c.csrf)
    assert r.get_json() == {"email": "ana@example.org", "mail_off": False}
    assert c.get("/api/me").get_json()["email"] == "ana@example.org"
    assert c.put("/api/me/email", json={"email": "x@y.z"}).status_code == 403  # no CSRF token
    c.put("/api/me/email", json={"email": None}, headers=c.csrf)
    assert c.get("/api/me").get_json()["email"] is None


def test_the_turn_e_mail_arrives_once_per_turn_and_its_link_stops_them(app, clock, smtp):
    _, inbox = smtp
    c = signed_in(app, "Ana")
    c.put("/api/me/email", json={"email": "ana@example.org"}, headers=c.csrf)
    game = turn_based_game(c)
    assert send(app, clock) == 0  # its turn, not long enough yet
    clock.advance(AFTER_S + 1)
    assert send(app, clock) == 1
    assert send(app, clock) == 0  # once per turn
    (msg,) = inbox.messages
    assert msg["To"] == "ana@example.org" and msg["From"] == "tables@example.org"
    text = msg.get_content()
    assert f"https://play.example.org/dao/games/{game}" in text
    stop = re.search(r"https://play\.example\.org/mail/stop\?t=(\S+)", text)
    assert stop is not None and msg["List-Unsubscribe"] == f"<{stop.group(0)}>"
    # the next turn is another e-mail
    g = c.get(f"/api/games/{game}").get_json()
    body_ = {"version": g["version"], "action": g["legal_actions"][0]}
    assert c.post(f"/api/games/{game}/actions", json=body_, headers=c.csrf).status_code == 200
    bots_move(app)
    if c.get(f"/api/games/{game}").get_json()["over"]:
        pytest.skip("the game ended at once")
    clock.advance(AFTER_S + 1)
    assert send(app, clock) == 1
    # the link's page, then its button, with no sign-in
    guest = app.test_client()
    assert guest.get(f"/mail/stop?t={stop.group(1)}").status_code == 200
    assert guest.post("/api/mail/stop", json={"token": stop.group(1)}).status_code == 204
    assert c.get("/api/me").get_json()["mail_off"]
    assert guest.post("/api/mail/stop", json={"token": "nope"}).status_code == 404
    clock.advance(86400)
    assert send(app, clock) == 0


def test_no_e_mail_without_an_address_or_in_a_real_time_game(app, clock, smtp):
    _, inbox = smtp
    c = signed_in(app, "Ana")
    turn_based_game(c)  # no address given
    quick = signed_in(app, "Bo Li")
    quick.put("/api/me/email", json={"email": "bo@example.org"}, headers=quick.csrf)
    seats = [{"type": "human"}, {"type": "bot", "level": "easy"}]
    body = {"game": "dao", "seats": seats, "options": {"time_bank_s": 7200}}
    assert quick.post("/api/games", json=body, headers=quick.csrf).status_code == 201
    clock.advance(AFTER_S + 1)
    assert send(app, clock) == 0 and inbox.messages == []


def test_a_refused_e_mail_is_tried_again(app, clock, smtp):
    controller, inbox = smtp
    c = signed_in(app, "Ana")
    c.put("/api/me/email", json={"email": "ana@example.org"}, headers=c.csrf)
    turn_based_game(c)
    clock.advance(AFTER_S + 1)
    controller.stop()  # the SMTP server is down
    assert send(app, clock) == 0
    again = Controller(inbox, hostname="127.0.0.1", port=controller.port)  # back
    again.start()
    try:
        assert send(app, clock) == 1 and len(inbox.messages) == 1
    finally:
        again.stop()
