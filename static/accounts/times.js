// Times on the account pages in the reader's own time zone: the server writes each moment as
// <time class="local" datetime="ISO"> with the same moment in UTC as its text; this module
// rewrites the text in the page's language and the browser's zone (and formats new ones).

import { lang } from "../common/i18n.js";

const format = new Intl.DateTimeFormat(lang === "zh" ? "zh-Hant" : "en", { dateStyle: "medium", timeStyle: "short" });

/** A moment (seconds since 1970) in the reader's words and zone. */
export function timeText(seconds) { return format.format(new Date(seconds * 1000)); }

/** Every `time.local` under `root`, written in the reader's zone. */
export function localTimes(root = document) {
  for (const el of root.querySelectorAll("time.local[datetime]")) {
    const at = Date.parse(el.getAttribute("datetime"));
    if (!Number.isNaN(at)) el.textContent = format.format(new Date(at));
  }
}

localTimes();
