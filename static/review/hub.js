// The review hub: the signed-in player's own finished games first (GET /api/me/games), then
// finished games of every kind with a link to their review, and a record to import
// (POST /api/games/import) that opens the review of the imported copy.

import { api, seatTokens, signedIn } from "../common/api.js";
import { $, h } from "../common/dom.js";
import { lang, list, t } from "../common/i18n.js";
import { errorText } from "../common/errors.js";
import { seatName } from "../common/seats.js";

const reviewable = new Set(JSON.parse($("review-kinds").textContent));
const LOCALE = lang === "zh" ? "zh-Hant" : "en";
const when = new Intl.DateTimeFormat(LOCALE, { dateStyle: "medium", timeStyle: "short" });


const kindTitles = api("GET", "/api/games/kinds").then((kinds) =>
  Object.fromEntries(kinds.kinds.map((k) => [k.name, lang === "zh" ? k.title_zh : k.title])));

/** The seat of game `g` this browser holds a token for (its lowest), else null. */
function tokenSeat(g) {
  const mine = Object.keys(seatTokens.all(g.id)).map(Number).filter(Number.isInteger).sort((a, b) => a - b);
  return mine.length ? mine[0] : null;
}

/** One game of a list: its review link named by the game and its players (as every page names
 * them, common/seats.js; `me`, the seat I played, "you"), and when. */
function gameItem(g, title, at, extra = "", me = tokenSeat(g)) {
  const seats = list(g.seats.map((s, i) => seatName(g.seats, i, me)));
  return h("li", {},
    h("a", { href: `/${g.game}/games/${g.id}/review` }, t("review.game_line", { game: title[g.game] || g.game, seats })),
    " ", h("span", { class: "muted" }, when.format(new Date(at * 1000)), extra));
}

async function finished() {
  const box = $("finished");
  try {
    const [listed, title] = await Promise.all([api("GET", "/api/games?limit=200"), kindTitles]);
    const games = listed.games.filter((g) => g.over && reviewable.has(g.game)).slice(0, 60);
    if (!games.length) { box.replaceChildren(h("li", { class: "muted" }, t("review.none_finished"))); return; }
    box.replaceChildren(...games.map((g) => gameItem(g, title, g.created, g.origin === "import" ? ` · ${t("review.imported")}` : "")));
  } catch (e) {
    box.replaceChildren(h("li", { class: "error" }, errorText(e)));
  }
}

/** The signed-in player's own finished games, newest first (the page shows the list when signed in). */
async function yours() {
  const box = $("yours");
  if (!box || !signedIn()) return;
  try {
    const [mine, title] = await Promise.all([api("GET", "/api/me/games"), kindTitles]);
    const games = mine.finished.filter((g) => reviewable.has(g.game));
    if (!games.length) { box.replaceChildren(h("li", { class: "muted" }, t("acct.finished_none"))); return; }
    box.replaceChildren(...games.map((g) => gameItem(g, title, g.ended, "", g.seat)));
  } catch (e) {
    box.replaceChildren(h("li", { class: "error" }, errorText(e)));
  }
}

/**
 * Why the import was refused, in the page's words: the reason's sentence (an engine's refusal of
 * one of the record's actions names its own reason), else the field at fault, as the API names it
 * (the server's English detail added on English pages).
 */
function refusal(e) {
  if (e.reason === "invalid" && e.field) {
    const field = t("review.import_field", { field: e.field });
    return lang === "en" && e.message ? `${field} ${e.message}.` : field;
  }
  return errorText(e, {}, { detail: true });
}

$("record-file").addEventListener("change", async () => {
  const file = $("record-file").files[0];
  if (file) $("record-text").value = await file.text();
});

$("import-form").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const err = $("import-error");
  err.hidden = true;
  let record;
  try { record = JSON.parse($("record-text").value); } catch (e) {
    err.textContent = t("review.import_not_json");
    err.hidden = false;
    return;
  }
  try {
    const game = await api("POST", "/api/games/import", record);
    location.assign(`/${game.game}/games/${game.id}/review`);
  } catch (e) {
    err.textContent = t("review.import_refused", { why: refusal(e) });
    err.hidden = false;
  }
});

yours();
finished();
