""" "Your turn" e-mails on the web: an account gives or removes its address
(``PUT /api/me/email``), and an e-mail's link turns them off with no sign-in (the page
``/mail/stop?t=<secret>``, whose button sends ``POST /api/mail/stop``). Sending is
``web.accounts.mail``'s; the store's side ``web.storage.mail``."""

from __future__ import annotations

from flask import Blueprint, Response, render_template, request

from errors import NotFound
from web.accounts.mail import checked_address
from web.accounts_api import CSRF_HEADER, SIGNED_IN, accounts, me
from web.apidoc import ApiRoutes, validated
from web.schemas_accounts import EmailIn, EmailOut, StopMailIn
from web.storage import new_token

bp = Blueprint("turn_mail", __name__)
api = ApiRoutes(bp, "accounts")


@bp.after_request
def _no_store(resp: Response) -> Response:
    resp.headers["Cache-Control"] = "no-store"
    return resp


@api.put(
    "/api/me/email",
    "Give (or remove: null) the address for 'your turn' e-mails of turn-based games; giving "
    "one turns them on",
    request=EmailIn,
    response=EmailOut,
    errors={**SIGNED_IN, 400: "Not an e-mail address (bad_email)"},
    params=[CSRF_HEADER],
    cookie="required",
)
def set_email() -> dict:
    body = validated(EmailIn)
    address = checked_address(body.email)
    account = me(session_only=True)
    accounts().store.set_email(account.id, address, new_token())
    return {"email": address, "mail_off": False}


@api.post(
    "/api/mail/stop",
    "Turn off an account's 'your turn' e-mails with the secret of their unsubscribe link (no "
    "sign-in)",
    request=StopMailIn,
    status=204,
    errors={404: "No account's link has this secret (no_such_link)"},
)
def stop_mail() -> Response:
    body = validated(StopMailIn)
    if not accounts().store.stop_mail(body.token):
        raise NotFound("no e-mails go out with this link", "token", reason="no_such_link")
    return Response(status=204)


@bp.get("/mail/stop")
def stop_page() -> str:
    """The page an e-mail's unsubscribe link opens: one button (a link that changed anything by
    itself would be followed by mail scanners)."""
    token = request.args.get("t", "")[:100]
    return render_template("accounts/stop_mail.html", token=token)
