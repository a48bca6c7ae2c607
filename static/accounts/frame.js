// The site frame of a signed-in browser (templates/base.html): the header's Sign out button ends
// this browser's session (DELETE /api/session, with the page's CSRF token) and shows the page
// again as a guest sees it.

import { api } from "../common/api.js";
import { errorText } from "../common/errors.js";

const button = document.getElementById("sign-out");
button.addEventListener("click", async () => {
  button.disabled = true;
  try {
    await api("DELETE", "/api/session");
    location.reload();
  } catch (e) {
    button.disabled = false;
    button.title = errorText(e);
  }
});
