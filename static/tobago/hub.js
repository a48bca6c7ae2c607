// The Tobago hub: games of this browser (tokens in localStorage) and games with a free seat.

import { api, seatTokens } from "../common/api.js";
import { h } from "../common/dom.js";
import { list, t } from "../common/i18n.js";
import { seatName } from "./logtext.js";
import { errorText } from "../common/errors.js";

const names = (g) => list(g.seats.map((s, i) => seatName(g.seats, i)));

async function mine() {
  const box = document.getElementById("my-games");
  const ids = seatTokens.myGames();
  if (!ids.length) { box.replaceChildren(h("li", { class: "muted" }, t("hub.none_mine"))); return; }
  const items = [];
  for (const id of ids.slice(0, 12)) {
    try {
      const g = await api("GET", `/api/games/${id}`);
      const seat = Object.keys(seatTokens.all(id))[0];
      items.push(h("li", {}, h("a", { href: `/tobago/games/${id}?seat=${seat}` }, names(g)), " — ", g.over ? t("hub.finished") : t("hub.running"),
        g.over ? [" · ", h("a", { href: `/tobago/games/${id}/review`, class: "review-link" }, t("hub.review"))] : null));
    } catch (e) { /* a game of another database: skip */ }
  }
  box.replaceChildren(...(items.length ? items : [h("li", { class: "muted" }, t("hub.none_mine"))]));
}

async function open() {
  const box = document.getElementById("open-games");
  try {
    const found = await api("GET", "/api/games?open=true&limit=20");
    const games = found.games.filter((g) => g.game === "tobago");
    if (!games.length) { box.replaceChildren(h("li", { class: "muted" }, t("hub.none_open"))); return; }
    box.replaceChildren(...games.map((g) => h("li", {}, names(g), " — ",
      g.free_seats.map((s) => h("a", { class: "button small", href: `/tobago/games/${g.id}/join/${s}` }, t("hub.take_seat", { n: s + 1 }))))));
  } catch (e) {
    box.replaceChildren(h("li", { class: "error" }, errorText(e)));
  }
}

mine();
open();
