// The DAO game page's panels that are rebuilt from a view: my pile (face down, opened on demand),
// the odds helper (the `helper` part of this seat's view) and the end screen with every player's
// cards grouped by element.

import { h, scrollBox } from "../common/dom.js";
import { lang, t } from "../common/i18n.js";
import { bestOf, cardBack, cardFace, cardText, DATA, elementLabel, elementSymbol, groupByElement, nameList, seatName } from "./cards.js";

const LOCALE = lang === "zh" ? "zh-Hant" : "en";
const signed = new Intl.NumberFormat(LOCALE, { signDisplay: "exceptZero", maximumFractionDigits: 2 });
const plain = new Intl.NumberFormat(LOCALE, { maximumFractionDigits: 2 });

/** A probability as a percentage: one decimal below 10 %, none above. */
export function percent(p) {
  const pct = p * 100;
  if (pct > 0 && pct < 0.1) return "<0.1%";
  return `${new Intl.NumberFormat(LOCALE, { maximumFractionDigits: pct < 10 ? 1 : 0 }).format(pct)}%`;
}

function chip(element) {
  return h("span", { class: `dao-chip el-${element}`, style: `--el: ${DATA.elements.find((e) => e.name === element)?.colour || "#666"}`, "aria-hidden": "true" }, elementSymbol(element));
}

/** Cards grouped by element, each group with the score that element would give; best marked. */
export function groups(cards, { small = false } = {}) {
  if (!cards.length) return h("p", { class: "muted" }, t("dao.no_cards"));
  const best = bestOf(cards);
  return h("div", { class: "dao-groups" }, groupByElement(cards).map((g) => {
    const isBest = g.element === best.element;
    return h("div", { class: `dao-group${isBest ? " best" : ""}`, role: "group", "aria-label": `${elementLabel(g.element)}: ${t("dao.group_score", { score: best.scores[g.element] })}` },
      h("div", { class: "dao-group-head" }, chip(g.element), h("span", {}, elementLabel(g.element)),
        h("span", { class: "dao-group-score" }, t("dao.group_score", { score: best.scores[g.element] })),
        isBest ? h("span", { class: "badge" }, t("dao.best")) : null),
      h("div", { class: "dao-group-cards" }, g.cards.map((c) => cardFace(c, { small }))));
  }));
}

/** My pile: a face-down stack with its count; opened, my cards grouped by element. */
export function renderPile(box, view, ui) {
  const me = ui.mySeat !== null ? view.players[ui.mySeat] : null;
  box.hidden = !me || view.over;
  if (!me || !me.cards) return;
  const cards = me.cards;
  box.querySelector("#pile-stack").replaceChildren(...Array.from({ length: Math.max(1, Math.min(cards.length, 6)) }, (_, i) => cardBack(cards.length ? "stacked" : "stacked ghost")));
  box.querySelector("#pile-count").textContent = cards.length ? t("dao.pile_count", { count: cards.length }) : t("dao.pile_none");
  const toggle = box.querySelector("#toggle-pile");
  toggle.setAttribute("aria-expanded", ui.pileOpen ? "true" : "false");
  toggle.textContent = ui.pileOpen ? t("dao.hide_pile") : t("dao.show_pile");
  const pile = box.querySelector("#pile");
  pile.hidden = !ui.pileOpen;
  if (!ui.pileOpen) { pile.replaceChildren(); return; }
  const best = bestOf(cards);
  pile.replaceChildren(
    h("p", { class: "dao-score-now" }, t("dao.score_now", { score: best.score }),
      cards.length ? ` · ${t("dao.best_is", { element: elementLabel(best.element) })}` : ""),
    groups(cards));
}

/** The odds helper from the view's `helper` (null: none for this page, or not current). */
export function renderHelper(box, helper, { stale = false, watching = false, over = false } = {}) {
  box.classList.toggle("stale", stale);
  box.closest(".dao-helper").classList.toggle("is-over", over);
  if (!helper) {
    if (stale && box.childElementCount) return; // keep the last odds, dimmed, during a replay
    box.replaceChildren(h("p", { class: "muted" }, over ? "" : watching ? t("dao.helper_none") : stale ? t("dao.helper_stale") : t("dao.helper_none")));
    return;
  }
  const p = helper.bust_probability;
  const take = helper.take;
  const turn = helper.turn;
  const adviceTake = helper.advice === "take";
  const scores = helper.element_scores;
  const anyCards = Object.values(scores).some((s) => s !== 0);
  box.replaceChildren(
    h("div", { class: "dao-odds" },
      h("p", { class: "dao-prob-line" }, h("span", {}, t("dao.bust_prob")), " ", h("strong", { id: "bust-prob", class: "dao-prob" }, percent(p))),
      h("div", { class: "dao-bar", "aria-hidden": "true" }, h("span", { style: `width: ${Math.round(p * 100)}%` })),
      h("p", { class: "hint-text" }, t("dao.bust_detail", { bust: helper.bust_cards, unseen: helper.unseen, save: helper.save_cards, max: DATA.bust_above }))),
    h("h3", {}, t("dao.gains")),
    h("table", { class: "dao-gains" }, h("tbody", {},
      h("tr", { class: adviceTake ? "advised" : "" }, h("th", { scope: "row" }, t("dao.gain_take", { card: cardText(take.card) })),
        h("td", { id: "gain-take" }, signed.format(take.gain))),
      h("tr", { class: adviceTake ? "" : "advised" }, h("th", { scope: "row" }, t("dao.gain_turn")),
        h("td", { id: "gain-turn" }, signed.format(turn.gain),
          h("small", {}, turn.gain_if_bust === null ? t("dao.gain_no_bust") : t("dao.gain_if_bust", { gain: signed.format(turn.gain_if_bust) })))))),
    h("p", { class: "dao-advice", id: "advice" }, t(adviceTake ? "dao.advice_take" : "dao.advice_turn")),
    h("h3", {}, t("dao.element_scores")),
    h("table", { class: "dao-elements" },
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("dao.element")), h("th", { scope: "col" }, t("dao.score")))),
      h("tbody", {}, DATA.elements.map((e) => {
        const best = anyCards && e.name === helper.best_element;
        return h("tr", { class: best ? "best" : "" },
          h("th", { scope: "row" }, chip(e.name), " ", e.label, best ? h("span", { class: "badge" }, t("dao.best")) : null),
          h("td", {}, plain.format(scores[e.name])));
      }))),
    h("p", { class: "dao-best", id: "best-element" }, anyCards
      ? t("dao.best_element", { element: elementLabel(helper.best_element), score: helper.score })
      : t("dao.no_best")));
}

/** The end screen: winners, the score table (per round and total) and every pile by element. */
export function renderEnd(box, snap, ui) {
  const v = snap.view;
  const name = (s) => seatName(ui.seats, s, ui.mySeat);
  const winners = snap.winners || v.winners || [];
  const rounds = v.finished || [];
  const iWon = ui.mySeat !== null && winners.includes(ui.mySeat);
  const head = iWon && winners.length === 1 ? t("dao.you_won")
    : t(winners.length > 1 ? "dao.winners" : "dao.winner", { who: nameList(winners.map(name)) });
  const multi = rounds.length > 1;
  const table = scrollBox(t("dao.end_title"), h("table", { class: "dao-score-table" },
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("dao.players")),
      multi ? rounds.map((r) => h("th", { scope: "col" }, t("dao.round_n", { n: r.round }))) : null,
      h("th", { scope: "col" }, t("dao.total")))),
    h("tbody", {}, v.players.map((p, i) => h("tr", { class: `${winners.includes(i) ? "won" : ""}${i === ui.mySeat ? " me" : ""}` },
      h("th", { scope: "row" }, name(i), winners.includes(i) ? h("span", { class: "badge win" }, "★") : null),
      multi ? rounds.map((r) => h("td", {}, String(r.scores[i]))) : null,
      h("td", { class: "total" }, String(snap.scores ? snap.scores[i] : p.total)))))));
  const bestText = (cards) => (cards.length ? ` · ${t("dao.best_is", { element: elementLabel(bestOf(cards).element) })}` : "");
  const piles = h("div", { class: "dao-end-piles" }, v.players.map((p, i) => h("article", { class: `dao-end-player${winners.includes(i) ? " won" : ""}` },
    h("h3", {}, name(i), " · ", t("dao.points", { score: snap.scores ? snap.scores[i] : p.total }), multi ? "" : bestText(rounds[0].piles[i])),
    rounds.map((r) => h("div", { class: "dao-end-round" },
      multi ? h("p", { class: "dao-end-round-head" }, t("dao.round_label", { n: r.round }), " ", t("dao.points", { score: r.scores[i] }), bestText(r.piles[i])) : null,
      groups(r.piles[i], { small: true }))))));
  const leftovers = rounds.filter((r) => r.left.length);
  box.replaceChildren(
    h("h2", { id: "end-h" }, t("dao.end_title")),
    h("p", { class: "dao-winners", id: "winners" }, head),
    table,
    piles,
    leftovers.length ? h("div", { class: "dao-left" }, h("h3", {}, t("dao.left_over")),
      leftovers.map((r) => h("p", {}, multi ? t("dao.round_label", { n: r.round }) : "", r.left.map((c) => cardFace(c, { small: true }))))) : null,
    h("p", { class: "dao-end-links" }, h("a", { class: "button", href: "/dao/new" }, t("dao.new_game")), " ",
      h("a", { class: "button secondary", href: `/dao/games/${snap.id}/review`, id: "review-link" }, t("dao.review_link")), " ",
      h("a", { class: "button secondary", href: "/rules/dao" }, t("dao.rules"))));
}
