// DAO cards as DOM and the pure helpers the pages share: element facts (from the page's
// <script id="dao-data">, built from the deck's data file), card faces, scores per element,
// seat names, event sentences, and applying a public event to a view (for paced replays).

import { h } from "../common/dom.js";
import { lang, list, t } from "../common/i18n.js";
import { seatName } from "../common/seats.js";
import { tableText } from "../common/table.js";

const dataNode = document.getElementById("dao-data");
export const DATA = dataNode ? JSON.parse(dataNode.textContent) : { elements: [], bust_above: 12, card_count: 60 };
export const ELEMENTS = DATA.elements.map((e) => e.name);
const INFO = Object.fromEntries(DATA.elements.map((e) => [e.name, e]));

export const elementLabel = (name) => (INFO[name] ? INFO[name].label : name);
export const elementSymbol = (name) => (INFO[name] ? INFO[name].symbol : "?");
export const elementColour = (name) => (INFO[name] ? INFO[name].colour : "#666");

/** A card in words: "Fire 3" / "火3". */
export function cardText(card) {
  return t("dao.card", { element: elementLabel(card.element), value: card.value });
}

/** A face-up card: the element's colour, symbol and name, and the value in two corners. */
export function cardFace(card, { small = false, extra = "" } = {}) {
  const showName = lang !== "zh" || elementLabel(card.element) !== elementSymbol(card.element);
  return h("span", {
    class: `dcard el-${card.element}${small ? " small" : ""}${extra ? ` ${extra}` : ""}`,
    role: "img",
    "aria-label": cardText(card),
    style: `--el: ${elementColour(card.element)}`,
    title: cardText(card),
  },
  h("span", { class: "dcard-corner", "aria-hidden": "true" }, String(card.value)),
  h("span", { class: "dcard-sym", "aria-hidden": "true" }, elementSymbol(card.element)),
  showName && !small ? h("span", { class: "dcard-name", "aria-hidden": "true" }, elementLabel(card.element)) : null,
  h("span", { class: "dcard-corner end", "aria-hidden": "true" }, String(card.value)));
}

/** A card back (face down). */
export function cardBack(extra = "") {
  return h("span", { class: `dcard back${extra ? ` ${extra}` : ""}`, "aria-hidden": "true" });
}

/** Per element: the score if that element is chosen (its values, minus 1 per other card). */
export function elementScores(cards) {
  const out = Object.fromEntries(ELEMENTS.map((e) => [e, 0]));
  for (const c of cards) out[c.element] += c.value + 1;
  for (const e of ELEMENTS) out[e] -= cards.length;
  return out;
}

/** The best element of a pile and its score (first in table order on a tie). */
export function bestOf(cards) {
  const scores = elementScores(cards);
  let best = ELEMENTS[0];
  for (const e of ELEMENTS) if (scores[e] > scores[best]) best = e;
  return { element: best, score: scores[best] || 0, scores };
}

/** Cards grouped by element in table order, values ascending within a group. */
export function groupByElement(cards) {
  return ELEMENTS.map((e) => ({ element: e, cards: cards.filter((c) => c.element === e).sort((a, b) => a.value - b.value) }))
    .filter((g) => g.cards.length);
}

/** A seat's name for people: one name on every page (common/seats.js). */
export { seatName };

/** Names as a list in this language ("A, B" / "A、B"). */
export function nameList(names) { return list(names); }

/** One public event as a sentence (null for events that need no line). */
export function eventText(e, seats, mySeat) {
  const who = (s) => seatName(seats, s, mySeat);
  const table = tableText(e, who);
  if (table !== undefined) return table;
  switch (e.type) {
    case "take": return t("dao.ev_take", { who: who(e.seat), card: cardText(e.card) });
    case "turn": return t("dao.ev_turn", { who: who(e.seat), card: cardText(e.card), total: e.total });
    case "saved": return t("dao.ev_saved", { card: cardText(e.card), matched: cardText(e.matched), total: e.total });
    case "bust": return t("dao.ev_bust", { who: who(e.seat), total: e.total, count: e.cards.length });
    case "refill": return t("dao.ev_refill", { cards: nameList(e.cards.map(cardText)) });
    case "round_start": return t("dao.ev_round_start", { n: e.round, who: who(e.first) });
    case "round_end": return t("dao.ev_round_end", { n: e.round });
    case "game_over": return t("dao.ev_game_over", { who: nameList(e.winners.map(who)) });
    default: return null;
  }
}

/** Apply one public event to a (copied) view, so others' moves can be shown step by step.
 *  The next server snapshot replaces the result; this only has to look right in between. */
export function applyEvent(view, e) {
  const me = view.you;
  const gain = (seat, cards) => {
    const p = view.players[seat];
    p.count += cards.length;
    if (p.cards) p.cards.push(...cards.map((c) => ({ ...c })));
  };
  const sum = () => view.display.reduce((a, c) => a + c.value, 0);
  switch (e.type) {
    case "take":
      view.display.shift();
      gain(e.seat, [e.card]);
      view.to_act = [(e.seat + 1) % view.players.length];
      break;
    case "turn":
      view.display.push({ ...e.card });
      view.deck = Math.max(0, view.deck - 1);
      view.to_act = [(e.seat + 1) % view.players.length];
      break;
    case "bust":
      gain(e.seat, e.cards);
      view.display = [];
      break;
    case "refill":
      view.display.push(...e.cards.map((c) => ({ ...c })));
      view.deck = Math.max(0, view.deck - e.cards.length);
      break;
    case "round_end":
      view.display = [];
      break;
    case "round_start":
      if (e.round > view.round) {
        view.round = e.round;
        view.deck = Math.floor(DATA.card_count / view.rounds);
        view.players.forEach((p, i) => { p.count = 0; p.cards = i === me ? [] : null; });
      }
      view.to_act = [e.first];
      break;
    case "game_over":
      view.over = true;
      view.to_act = [];
      break;
    default:
      break;
  }
  view.total = sum();
  return view;
}
