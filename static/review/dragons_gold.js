// Dragon's Gold's piece of the review page: the dragons with their strength, treasure and the
// hunters under them, the negotiation and the market as they stood (the game page's own panels,
// with no actions offered), each player's hunters and token count, and every hoard, hand and
// note the chosen view shows. The game page has no helper panel, so the review has none either:
// the analysis judges fight plays, picks and market answers by the greedy bot's values.

import { $, h } from "../common/dom.js";
import { t } from "../common/i18n.js";
import { renderMarket, renderNegotiation } from "../dragons_gold/panels.js";
import { chips, eventText, hunterAttack, hunterLabel, hunterTag, itemLabel, seatName, tableFacts } from "../dragons_gold/tokens.js";

export async function createRenderer({ root, helperBox, seats, viewer = null }) {
  const who = (s) => seatName(seats, s, viewer);
  helperBox.replaceChildren(h("p", { class: "muted" }, t("review.dg_no_helper")));
  root.replaceChildren(
    h("h3", {}, t("dg.dragons")),
    h("p", { id: "rv-facts", class: "hint-text" }),
    h("ol", { id: "rv-dragons", class: "dg-dragons" }),
    h("section", { id: "rv-negotiation", class: "dg-negotiation", "aria-labelledby": "rv-neg-h", hidden: true },
      h("h3", { id: "rv-neg-h" }, t("dg.negotiation")), h("div", { id: "rv-neg-body" })),
    h("section", { id: "rv-market", class: "dg-market", "aria-labelledby": "rv-market-h", hidden: true },
      h("h3", { id: "rv-market-h" }, t("dg.market")), h("div", { id: "rv-market-body" })),
    h("h3", {}, t("dg.players")),
    h("ul", { id: "rv-players", class: "dg-players" }),
    h("h3", {}, t("review.dg_hoards")),
    h("div", { id: "rv-hands", class: "rv-hands" }));
  const ui = { seats, replaying: true, actor: null, hunter: null, sword: false, draft: null, draftKey: null, clock: null };

  return {
    seatName: (i, me = viewer) => seatName(seats, i, me),
    async render(pos) {
      const v = pos.view;
      $("rv-facts").textContent = tableFacts(v);
      $("rv-dragons").replaceChildren(...v.dragons.map((d, i) => h("li", { class: `dg-dragon${d.slain ? " slain" : ""}` },
        h("h4", {}, t("dg.dragon_n", { n: i + 1 }), " ", h("span", { class: "dg-strength" }, t("dg.strength", { n: d.strength }))),
        h("p", {}, t("dg.attack_of", { attack: d.attack, strength: d.strength })),
        h("div", { class: "dg-treasure" }, chips(d.treasure)),
        d.hunters.length ? h("ol", { class: "dg-stack", "aria-label": t("dg.stack") }, d.hunters.map((e) => hunterTag(e, who))) : h("p", { class: "muted small" }, t("dg.no_hunters")),
        d.slain ? h("p", { class: "badge" }, t("dg.slain")) : null)));
      const ctx = { who, mySeat: pos.seat, legal: [], send: () => {}, ui, redraw: () => {} };
      renderNegotiation($("rv-negotiation"), $("rv-neg-body"), v, ctx);
      renderMarket($("rv-market"), $("rv-market-body"), v, ctx);
      $("rv-players").replaceChildren(...v.players.map((p, i) => h("li", { class: `dg-player${v.turn === i ? " acting" : ""}` },
        h("span", { class: `dg-seatdot seat-${i}`, "aria-hidden": "true" }, String(i + 1)),
        h("span", { class: "dg-player-name" }, who(i)),
        h("span", { class: "dg-player-facts" }, t("dg.tokens_count", { count: p.tokens }),
          v.options.advanced ? ` · ${t("dg.items_count", { count: p.items })}` : "", " · ",
          Object.entries(p.hunters).map(([name, where]) => h("span", { class: `dg-mini ${where}`, title: `${hunterLabel(name)}: ${t(`dg.where_${where}`)}` }, String(hunterAttack(name))))))));
      const shown = v.players.filter((p) => p.hoard !== null);
      $("rv-hands").replaceChildren(...(shown.length ? shown.map((p) => h("section", { class: "rv-hand", "data-seat": String(p.seat), "aria-label": who(p.seat) },
        h("p", {}, h("strong", {}, who(p.seat))),
        h("div", { class: "dg-hoard" }, chips(p.hoard, "dg.screen_empty")),
        p.hand && p.hand.length ? h("p", {}, t("dg.my_items"), " ", p.hand.map((c) => h("span", { class: "dg-item" }, itemLabel(c.item)))) : null))
        : [h("p", { class: "muted" }, t("review.no_hands"))]));
    },
    moveText(entry) {
      return entry.events.map((e) => eventText(e, who)).filter(Boolean).join(" ");
    },
    bestText(d) {
      const a = d.best_action;
      if (a.type === "play") return t("review.dg_play", { hunter: hunterLabel(a.hunter), n: a.dragon + 1 });
      if (a.type === "pick") return t("review.dg_pick", { n: a.lot + 1 });
      return t(a.type === "accept" ? "review.dg_accept" : "review.dg_reject");
    },
  };
}
