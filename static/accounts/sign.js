// The sign-in and sign-up pages (templates/accounts/sign.html): send the form to the accounts API
// (POST /api/session or /api/accounts: the session cookie, and its CSRF token for later writes),
// then, when this browser holds seats as a guest (their tokens in localStorage, common/api.js),
// offer to move them into the account in one click (POST /api/me/seats): the moved ones leave
// localStorage, since the account now holds them on every device. Then on to the page the
// sign-in was asked from (data-next, a path of this site: web/accounts_pages.py safe_next).

import { api, seatTokens, setCsrfToken } from "../common/api.js";
import { $, h } from "../common/dom.js";
import { errorText } from "../common/errors.js";
import { t } from "../common/i18n.js";

const root = $("sign");
const { mode, next } = root.dataset;
/** The most seats one request moves (web/accounts/service.py MAX_MOVED). */
const BATCH = 100;
/** Why a seat was not moved, by the API's reason: the tokens of these open nothing any more. */
const DEAD = new Set(["no_such_game", "not_a_seat_token"]);

function fail(box, text) {
  box.textContent = text;
  box.hidden = false;
}

/** What the form says before asking the server (the server checks the same, in these words). */
function refusal(name, password) {
  if (mode === "signup") {
    const length = [...name.normalize("NFKC").replace(/\s+/g, " ").trim()].length;
    if (length < 3 || length > 24) return { field: "name", reason: "name_length", params: { min: 3, max: 24 } };
    if (password.length < 8 || password.length > 256) return { field: "password", reason: "password_length", params: { min: 8, max: 256 } };
  } else if (!name.trim() || !password) {
    return { field: name.trim() ? "password" : "name", reason: "sign_in_empty" };
  }
  return null;
}

/** The header shows the new account's name (the page goes on from here). */
function showSignedIn(name) {
  const link = document.querySelector(".sign-in-link");
  if (!link) return;
  link.textContent = name;
  link.href = "/me";
}

$("sign-form").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const err = $("form-error");
  err.hidden = true;
  const name = $("name").value;
  const password = $("password").value;
  const wrong = refusal(name, password);
  if (wrong) {
    fail(err, wrong.reason === "sign_in_empty" ? t("acct.sign_in_empty") : errorText(wrong));
    $(wrong.field).focus();
    return;
  }
  $("submit").disabled = true;
  try {
    const out = await api("POST", mode === "signup" ? "/api/accounts" : "/api/session", { name, password });
    setCsrfToken(out.csrf_token);
    showSignedIn(out.name);
    afterSignIn();
  } catch (e) {
    fail(err, errorText(e));
    $("submit").disabled = false;
    $(e.field === "name" ? "name" : "password").focus();
  }
});

/** Signed in: offer the guest seats, or go on. */
function afterSignIn() {
  const held = seatTokens.held();
  if (!held.length) { location.assign(next); return; }
  $("sign-form").hidden = true;
  root.querySelector(".other-way").hidden = true;
  $("seats-text").textContent = t("acct.seats_offer", { count: held.length });
  const offer = $("seats-offer");
  offer.hidden = false;
  offer.focus();
}

async function moveSeats() {
  const held = seatTokens.held();
  const button = $("move-seats");
  button.disabled = true;
  $("seats-error").hidden = true;
  const moved = [];
  const skipped = [];
  try {
    for (let i = 0; i < held.length; i += BATCH) {
      const out = await api("POST", "/api/me/seats", { seats: held.slice(i, i + BATCH) });
      moved.push(...out.moved);
      skipped.push(...out.skipped);
    }
  } catch (e) {
    fail($("seats-error"), errorText(e));
    button.disabled = false;
    button.focus();
    return;
  }
  for (const s of [...moved, ...skipped.filter((x) => DEAD.has(x.reason))]) seatTokens.remove(s.game, s.seat);
  if (!skipped.length) { location.assign(next); return; }
  // some stayed this browser's: say which and why, then the player goes on
  button.hidden = true;
  const go = $("seats-skip");
  go.textContent = t("acct.continue");
  $("seats-done").replaceChildren(
    h("p", {}, t("acct.seats_moved", { count: moved.length })),
    h("ul", {}, skipped.map((s) => h("li", {}, t("acct.seat_skipped", { game: s.game, n: s.seat + 1, why: t(`acct.skip_${s.reason}`) })))));
  go.focus();
}

$("move-seats").addEventListener("click", moveSeats);
