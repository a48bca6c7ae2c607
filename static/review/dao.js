// DAO's piece of the review page: the table (deck, display and its total), every pile the chosen
// view shows (grouped by element, as the end screen shows them), the others' counts, the rounds
// already counted, and the odds helper from the position (the game page's own panel).

import { $, h } from "../common/dom.js";
import { list, t } from "../common/i18n.js";
import { cardFace, DATA, eventText, seatName } from "../dao/cards.js";
import { groups, renderHelper } from "../dao/panels.js";

export async function createRenderer({ root, helperBox, seats, viewer = null }) {
  const helperInner = h("div", { id: "helper-body" });
  helperBox.replaceChildren(h("div", { class: "dao-helper" }, helperInner, h("p", { class: "hint-text" }, t("dao.helper_note"))));
  root.replaceChildren(
    h("div", { class: "dao-table" },
      h("p", { id: "rv-round", class: "dao-round" }),
      h("div", { class: "dao-row" },
        h("div", { id: "rv-deck", class: "dao-deck", role: "img" }, h("span", { class: "dcard back", "aria-hidden": "true" }), h("span", { class: "dao-deck-count", id: "rv-deck-count", "aria-hidden": "true" })),
        h("ol", { id: "rv-display", class: "dao-display", "aria-label": t("dao.display_label") })),
      h("p", { id: "rv-total", class: "dao-total" })),
    h("h3", {}, t("dao.players")),
    h("ul", { id: "rv-players", class: "rv-dao-players" }),
    h("div", { id: "rv-rounds" }));

  return {
    seatName: (i, me = viewer) => seatName(seats, i, me),
    async render(pos) {
      const v = pos.view;
      const me = pos.seat;
      $("rv-round").textContent = v.rounds > 1 ? t("dao.round", { n: v.round, m: v.rounds }) : "";
      const deckLabel = v.deck > 0 ? t("dao.deck_label", { count: v.deck }) : t("dao.deck_empty");
      $("rv-deck").setAttribute("aria-label", deckLabel);
      $("rv-deck").title = deckLabel;
      $("rv-deck-count").textContent = String(v.deck);
      const over = v.total > DATA.bust_above;
      const items = v.display.map((c, i) => h("li", { class: `dao-slot${i === 0 ? " first" : ""}` }, cardFace(c),
        i === 0 ? h("span", { class: "dao-first-tag" }, t("dao.first")) : null));
      $("rv-display").replaceChildren(...(items.length ? items : [h("li", { class: "dao-slot muted dao-empty" }, t("dao.display_empty"))]));
      $("rv-total").textContent = v.display.length ? t(over ? "dao.display_over" : "dao.display_total", { total: v.total, max: DATA.bust_above }) : "";
      $("rv-players").replaceChildren(...v.players.map((p, i) => h("li", { class: `rv-dao-player${i === me ? " me" : ""}${v.to_act.includes(i) ? " acting" : ""}`, "data-seat": String(i) },
        h("p", {}, h("strong", {}, seatName(seats, i, viewer)), " · ", t("dao.cards", { count: p.count }),
          v.to_act.includes(i) ? h("span", { class: "badge" }, t("dao.to_play")) : null,
          p.score !== undefined ? h("span", { class: "muted" }, " · ", t("dao.points", { score: p.total ?? p.score })) : null),
        p.cards ? groups(p.cards, { small: true }) : h("p", { class: "muted rv-hidden-pile" }, t("review.dao_hidden")))));
      $("rv-rounds").replaceChildren(...(v.finished || []).map((r) => h("p", { class: "muted" },
        t("review.dao_round_scores", { n: r.round, scores: list(r.scores.map((s, i) => `${seatName(seats, i, viewer)} ${s}`)) }))));
      renderHelper(helperInner, pos.helper, { watching: pos.helper_seat === null, over: v.over });
    },
    moveText(entry, seat) {
      return entry.events.map((e) => eventText(e, seats, seat)).filter(Boolean).join(" ");
    },
    bestText(d) {
      return t(d.best_action.type === "take" ? "review.dao_take" : "review.dao_turn");
    },
  };
}
