// Isla Dorada's piece of the review page: the island with the expedition, the round track, the
// auction, the face-up cards, the players with what they played, and every hand and goal card the
// chosen view shows (the game page's own modules). The game page has no helper panel, so the
// review has none either: the analysis judges bids, moves and treasure plays by the planner.

import { $, h } from "../common/dom.js";
import { t } from "../common/i18n.js";
import { eventText, learnMap, placeName, routeName, seatName } from "../isla_dorada/cards.js";
import { drawMap } from "../isla_dorada/map.js";
import { renderAuction, renderDisplay, renderHand, renderPlayers, renderTrack } from "../isla_dorada/panels.js";

export async function createRenderer({ root, helperBox, seats, view, viewer = null }) {
  learnMap(view.map);
  helperBox.replaceChildren(h("p", { class: "muted" }, t("review.isla_no_helper")));
  root.replaceChildren(
    h("p", { id: "rv-where", class: "isla-where" }),
    h("div", { id: "rv-track", class: "isla-track", role: "img" }),
    h("div", { id: "rv-map", class: "isla-map", tabindex: "0", role: "region", "aria-label": t("isla.map") }),
    h("h3", {}, t("isla.auction")),
    h("div", { id: "rv-auction" }),
    h("h3", {}, t("isla.display")),
    h("div", { id: "rv-display", class: "isla-display" }),
    h("h3", {}, t("isla.players")),
    h("ul", { id: "rv-players", class: "isla-players" }),
    h("h3", {}, t("review.isla_hands")),
    h("div", { id: "rv-hands", class: "rv-hands" }));

  return {
    seatName: (i, me = viewer) => seatName(seats, i, me),
    async render(pos) {
      const v = pos.view;
      const me = pos.seat;
      const ui = { seats, mySeat: viewer }; // names: my own seat "(you)", as everywhere
      $("rv-where").textContent = t("isla.where", { place: placeName(v.expedition) }).replace(/^[—–-]\s*/, "");
      renderTrack($("rv-track"), v);
      drawMap($("rv-map"), v, { path: [] });
      renderAuction($("rv-auction"), v, ui);
      renderDisplay($("rv-display"), v);
      renderPlayers($("rv-players"), v, ui, v.over ? v.winners || [] : []);
      const shown = v.players.map((p, i) => i).filter((i) => v.players[i].hand !== null);
      $("rv-hands").replaceChildren(...(shown.length ? shown.map((i) => {
        const hand = h("div", { class: "isla-hand" });
        const count = h("span", { class: "muted" });
        const goals = h("div", { class: "isla-goals" });
        // the seat's own "mine" part (its mission's progress) comes with its view, or mine_all
        const own = me === i ? v : { ...v, mine: v.mine_all ? v.mine_all[i] : null };
        renderHand(hand, count, goals, own, i);
        return h("section", { class: "rv-hand", "data-seat": String(i), "aria-label": seatName(seats, i, viewer) },
          h("p", {}, h("strong", {}, seatName(seats, i, viewer)), " ", count), hand, goals);
      }) : [h("p", { class: "muted" }, t("review.no_hands"))]));
    },
    moveText(entry, seat) {
      return entry.events.map((e) => eventText(e, seats, seat, null)).filter(Boolean).join(" ");
    },
    bestText(d) {
      const a = d.best_action;
      if (a.type === "bid") {
        const target = a.flight ? t("isla.flight_to", { place: placeName(a.flight) }) : routeName(a.route);
        return t("review.isla_bid", { target, value: a.value });
      }
      if (a.type === "pay") return t("review.isla_pay", { count: a.cards.length });
      if (a.type === "juju") return t("review.isla_juju", { who: seatName(seats, a.target, viewer) });
      if (a.type === "detour") return t("review.isla_detour", { route: routeName(a.route) });
      if (a.type === "treasures") return t("review.isla_treasures", { count: a.plays.length });
      return t(`review.isla_${a.type}`);
    },
  };
}
