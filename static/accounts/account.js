// The account page (templates/accounts/account.html): change the password, sign out everywhere,
// make and revoke personal access tokens (a new token is shown once, with a Copy button), delete
// the account. Each form words the API's refusals (common/errors.js) and leaves keyboard focus
// where the player goes next: on what the action said, or the control that follows.

import { api } from "../common/api.js";
import { $, h } from "../common/dom.js";
import { errorText } from "../common/errors.js";
import { t } from "../common/i18n.js";
import { copyButton } from "../common/newgame.js";
import { timeText } from "./times.js";

const data = JSON.parse($("account-data").textContent);

/** Run `work` for a form's button: errors go in `errorBox` (focus back on the button). */
async function guarded(button, errorBox, work) {
  errorBox.hidden = true;
  button.disabled = true;
  try {
    await work();
  } catch (e) {
    errorBox.textContent = errorText(e);
    errorBox.hidden = false;
    button.focus();
  } finally {
    button.disabled = false;
  }
}

// --- the password ---------------------------------------------------------------------------

$("password-form").addEventListener("submit", (ev) => {
  ev.preventDefault();
  const err = $("password-error");
  $("password-done").hidden = true;
  const password = $("current-password").value;
  const fresh = $("new-password").value;
  if (!password) { err.textContent = t("acct.password_missing"); err.hidden = false; $("current-password").focus(); return; }
  if (fresh.length < 8 || fresh.length > 256) {
    err.textContent = errorText({ reason: "password_length", params: { min: 8, max: 256 } });
    err.hidden = false;
    $("new-password").focus();
    return;
  }
  guarded($("change-password"), err, async () => {
    await api("POST", "/api/me/password", { password, new_password: fresh });
    $("current-password").value = "";
    $("new-password").value = "";
    $("password-done").hidden = false;
    $("password-done").focus();
  });
});

// --- turn e-mails --------------------------------------------------------------------------

$("email-form").addEventListener("submit", (ev) => {
  ev.preventDefault();
  $("email-done").hidden = true;
  guarded($("save-email"), $("email-error"), async () => {
    const given = $("email").value.trim();
    const out = await api("PUT", "/api/me/email", { email: given || null });
    const off = $("email-off");
    if (off) off.hidden = true;
    $("email-done").textContent = t(out.email ? "acct.email_saved" : "acct.email_removed");
    $("email-done").hidden = false;
    $("email-done").focus();
  });
});

// --- every session --------------------------------------------------------------------------

$("sign-out-everywhere").addEventListener("click", () => guarded($("sign-out-everywhere"), $("everywhere-error"), async () => {
  await api("DELETE", "/api/me/sessions");
  location.assign("/signin?next=/account");
}));

// --- access tokens --------------------------------------------------------------------------

function tokenRow(token) {
  const used = token.used ? t("acct.token_used", { time: timeText(token.used) }) : t("acct.token_never_used");
  const revoke = h("button", { type: "button", class: "secondary small", "aria-label": t("acct.token_revoke_named", { label: token.label }),
    onclick: () => revokeToken(token, row, revoke) }, t("acct.token_revoke"));
  const row = h("li", { dataset: { id: token.id } },
    h("span", { class: "token-name" }, token.label),
    h("span", { class: "muted" }, t("acct.token_made_at", { time: timeText(token.created) }), " · ", used),
    revoke);
  return row;
}

function showTokens() {
  const list = $("token-list");
  list.replaceChildren(...(data.tokens.length ? data.tokens.map(tokenRow) : [h("li", { class: "muted" }, t("acct.tokens_none"))]));
}

function revokeToken(token, row, button) {
  guarded(button, $("token-error"), async () => {
    await api("DELETE", `/api/me/tokens/${encodeURIComponent(token.id)}`);
    // focus goes on to the next token's button, else the previous one's, else the label field
    const near = row.nextElementSibling || row.previousElementSibling;
    data.tokens = data.tokens.filter((x) => x.id !== token.id);
    showTokens();
    $("token-status").textContent = t("acct.token_revoked", { label: token.label });
    if (!$("token-made").hidden && $("token-made").dataset.id === token.id) $("token-made").hidden = true;
    const next = near && $("token-list").querySelector(`li[data-id="${CSS.escape(near.dataset.id || "")}"] button`);
    (next || $("token-label")).focus();
  });
}

$("token-form").addEventListener("submit", (ev) => {
  ev.preventDefault();
  const err = $("token-error");
  const label = $("token-label").value.trim();
  if (!label) { err.textContent = t("acct.token_label_missing"); err.hidden = false; $("token-label").focus(); return; }
  guarded($("make-token"), err, async () => {
    const made = await api("POST", "/api/me/tokens", { label });
    data.tokens.unshift({ id: made.id, label: made.label, created: made.created, used: made.used });
    showTokens();
    $("token-label").value = "";
    const box = $("token-made");
    box.dataset.id = made.id;
    $("new-token").value = made.token;
    box.querySelector(".copy-box")?.remove();
    $("new-token").after(copyButton($("new-token"), t("acct.copy"), t("common.copied")));
    box.hidden = false;
    $("new-token").focus();
    $("new-token").select();
  });
});

// --- deleting the account -----------------------------------------------------------------

$("delete-form").addEventListener("submit", (ev) => {
  ev.preventDefault();
  const err = $("delete-error");
  const password = $("delete-password").value;
  if (!password) { err.textContent = t("acct.password_missing"); err.hidden = false; $("delete-password").focus(); return; }
  if (!$("delete-sure").checked) { err.textContent = t("acct.delete_confirm_missing"); err.hidden = false; $("delete-sure").focus(); return; }
  guarded($("delete-account"), err, async () => {
    await api("DELETE", "/api/me", { password });
    // the account is gone and this browser signed out: say so where the page was
    document.querySelector(".account-box").replaceChildren(h("a", { href: "/signin" }, t("acct.sign_in")));
    document.querySelector('meta[name="csrf-token"]')?.remove();
    const done = h("p", { class: "notice", tabindex: "-1" }, t("acct.deleted"));
    $("account").replaceChildren(h("h1", {}, t("acct.deleted_h")), done, h("p", {}, h("a", { class: "button", href: "/" }, t("acct.home"))));
    done.focus();
  });
});

showTokens();
