// The unsubscribe page of "your turn" e-mails (templates/accounts/stop_mail.html): its button
// sends the link's secret (POST /api/mail/stop) and says it is done, or why not.

import { api } from "../common/api.js";
import { errorText } from "../common/errors.js";
import { $ } from "../common/dom.js";

const { token } = $("stop").dataset;

$("stop-mail").addEventListener("click", async () => {
  $("stop-error").hidden = true;
  $("stop-mail").disabled = true;
  try {
    await api("POST", "/api/mail/stop", { token });
    $("stop-mail").hidden = true;
    $("stop-done").hidden = false;
    $("stop-done").focus();
  } catch (e) {
    $("stop-error").textContent = errorText(e);
    $("stop-error").hidden = false;
    $("stop-mail").disabled = false;
    $("stop-mail").focus();
  }
});
