// Dragon's Gold drawing helpers shared by the game page's panels: token chips, names, hunters,
// items, and one sentence per public event. Table facts come from #dg-data (web/dragons_gold_pages.py).

import { h } from "../common/dom.js";
import { clauses, t } from "../common/i18n.js";
import { seatName } from "../common/seats.js";
import { tableText } from "../common/table.js";

export const DATA = JSON.parse(document.getElementById("dg-data").textContent);
export const COLOURS = DATA.colours.map((c) => c.name);
const COLOUR = Object.fromEntries(DATA.colours.map((c) => [c.name, c]));
const HUNTER = Object.fromEntries(DATA.hunters.map((x) => [x.name, x]));

export const total = (tokens) => COLOURS.reduce((n, c) => n + ((tokens && tokens[c]) || 0), 0);
export const colourLabel = (c) => COLOUR[c].label;
export const hunterLabel = (name) => HUNTER[name].label;
export const hunterAttack = (name) => HUNTER[name].attack;
export const itemLabel = (item) => DATA.items[item].label;
export const itemEffect = (item) => DATA.items[item].effect;

/** One chip: a coloured token with its count (`n` null: just the token). */
export function chip(colour, n = null, extra = "") {
  const label = n === null ? colourLabel(colour) : t("dg.n_tokens", { n, colour: colourLabel(colour) });
  return h("span", { class: `dg-chip c-${colour} ${extra}`, style: `--c: ${COLOUR[colour].hex}`, title: label, "aria-label": label, role: "img" },
    n === null ? "" : String(n));
}

/** The chips of a set of tokens (nonzero colours), or "none". */
export function chips(tokens, empty = "dg.no_tokens") {
  const out = COLOURS.filter((c) => tokens && tokens[c]).map((c) => chip(c, tokens[c]));
  return out.length ? h("span", { class: "dg-chips" }, out) : h("span", { class: "muted" }, t(empty));
}

/** The table's facts: "Bag: 40 tokens · deck: 1 dragon · out of the game: no tokens". */
export function tableFacts(v) {
  return t("dg.table_facts", { bag: t("dg.bag_n", { count: v.bag }), deck: t("dg.deck_n", { count: v.deck }), removed: tokensText(v.removed) });
}

/** Tokens in words: "2 gold, 1 silver". */
export function tokensText(tokens) {
  const parts = COLOURS.filter((c) => tokens && tokens[c]).map((c) => t("dg.n_tokens", { n: tokens[c], colour: colourLabel(c) }));
  return parts.length ? parts.join(t("dg.list_sep")) : t("dg.no_tokens");
}

/** A seat's name for people: one name on every page (common/seats.js). */
export { seatName };

export const nameList = (names) => names.join(t("dg.list_sep"));

/** A hunter under a dragon (its owner's seat number and colour band). */
export function hunterTag(entry, who) {
  return h("li", { class: `dg-hunter seat-${entry.seat}` },
    h("span", { class: "dg-seatdot", "aria-hidden": "true" }, String(entry.seat + 1)),
    h("span", {}, t("dg.hunter_of", { who: who(entry.seat), hunter: hunterLabel(entry.hunter) })),
    h("strong", {}, entry.sword ? `${entry.attack} ⚔` : String(entry.attack)));
}

/** One public event as a sentence (null: no line). */
export function eventText(e, who) {
  const table = tableText(e, who);
  if (table !== undefined) return table;
  switch (e.type) {
    case "hunter_played": return t("dg.ev_played", { who: who(e.seat), hunter: hunterLabel(e.hunter), n: e.dragon + 1, attack: e.attack });
    case "dragon_slain": return t("dg.ev_slain", { n: e.dragon + 1, who: who(e.seat), drawn: tokensText(e.drawn), slayers: nameList(e.participants.map(who)) });
    case "dragon_revealed": return t("dg.ev_revealed", { strength: e.strength, tokens: tokensText(e.treasure) });
    case "wizard_took": return t("dg.ev_wizard", { who: who(e.seat), count: e.red });
    case "negotiation_started": return t("dg.ev_negotiation", { seconds: e.seconds });
    case "proposal": return t("dg.ev_proposal", { who: who(e.seat), n: e.number });
    case "answer": return t(e.answer === "accept" ? "dg.ev_accept" : "dg.ev_reject", { who: who(e.seat), n: e.number });
    case "treasure_shared": return t(`dg.ev_shared_${e.outcome}`, { shares: clauses(Object.entries(e.shares).map(([s, tk]) => `${who(Number(s))}${t("common.colon")}${tokensText(tk)}`)) });
    case "negotiation_failed": return t("dg.ev_failed", { tokens: tokensText(e.removed) });
    case "divided": return t("dg.ev_divided", { who: who(e.seat) });
    case "lot_picked": return t("dg.ev_picked", { who: who(e.seat), n: e.lot + 1 });
    case "theft": return e.blocked ? t("dg.ev_theft_blocked", { who: who(e.seat), from: who(e.from) }) : e.looks ? t("dg.ev_theft_looks", { who: who(e.seat), from: who(e.from) }) : t("dg.ev_theft", { who: who(e.seat), from: who(e.from) });
    case "theft_taken": return t("dg.ev_theft", { who: who(e.seat), from: who(e.from) });
    case "theft_skipped": return t("dg.ev_theft_skipped", { who: who(e.seat) });
    case "theft_declined": return t("dg.ev_theft_declined", { who: who(e.seat) });
    case "dragon_left": return null;
    case "hunters_turned_up": return t("dg.ev_turned_up", { who: who(e.seat) });
    case "turn_skipped": return t("dg.ev_skipped", { who: who(e.seat) });
    case "dragon_overwhelmed": return t("dg.ev_overwhelmed", { n: e.dragon + 1 });
    case "market_opened": return t("dg.ev_market_opened", { seconds: e.seconds });
    case "market_closed": return t("dg.ev_market_closed");
    case "offer": return t("dg.ev_offer", { who: who(e.from), to: who(e.to), give: tokensText(e.give), get: tokensText(e.get) });
    case "trade": return t("dg.ev_trade", { who: who(e.from), to: who(e.to) });
    case "offer_rejected": return t("dg.ev_offer_rejected", { who: who(e.to) });
    case "hoard_shown": return t("dg.ev_shown", { who: who(e.seat) });
    case "left_market": return t("dg.ev_left_market", { who: who(e.seat) });
    case "item_used": return t("dg.ev_item", { who: who(e.seat), item: itemLabel(e.card.item) });
    case "items_drawn": return t("dg.ev_items_drawn", { who: who(e.seat), count: e.count });
    case "game_over": return t("dg.ev_over");
    default: return null;
  }
}
