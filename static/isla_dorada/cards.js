// Isla Dorada's words and small pictures: card chips, place and route names in the page's
// language, and one sentence per public event (the log and the screen reader announcements).

import { h } from "../common/dom.js";
import { lang, list, t } from "../common/i18n.js";
import { seatName } from "../common/seats.js";
import { tableText } from "../common/table.js";

/** The page data from isla_data_script(): card kinds with their facts, the rules' numbers. */
export const DATA = JSON.parse(document.getElementById("isla-data").textContent);
export const KINDS = Object.fromEntries(DATA.kinds.map((k) => [k.kind, k]));
export const KIND_ORDER = DATA.kinds.map((k) => k.kind);
const WATER = ["river", "lake", "sea"];

let places = {};
let routes = {};
/** Learn the map of a view (names, routes) once. */
export function learnMap(map) {
  places = Object.fromEntries(map.locations.map((l) => [l.id, l]));
  routes = Object.fromEntries(map.routes.map((r) => [r.id, r]));
}
export const place = (id) => places[id];
export const route = (id) => routes[id];
export const placeName = (id) => (places[id] ? (lang === "zh" ? places[id].name_zh : places[id].name) : id);
export const kindName = (kind) => t(`isla.kind_${kind}`);
export const typeName = (type) => t(`isla.type_${type}`);
export const familyName = (f) => t(`isla.family_${f}`);

/** The other end of route `id` seen from `from`. */
export function across(id, from) {
  const r = routes[id];
  return r.a === from ? r.b : r.a;
}

/** "Mountain route to Snow Pass". */
export function routeText(id, from) {
  const r = routes[id];
  return t("isla.route_to", { type: typeName(r.type), place: placeName(across(id, from)) });
}

export function cardText(c) {
  if (c.kind === "bonus") return t("isla.bonus_card", { family: familyName(c.family), points: c.points });
  const k = KINDS[c.kind];
  return k && k.value ? t("isla.card_value", { kind: kindName(c.kind), value: k.value }) : kindName(c.kind);
}

/** A small card picture (a span) for an adventure card. */
export function cardChip(c, extra = "") {
  const k = KINDS[c.kind] || {};
  const cls = `icard k-${c.kind}${k.lightning ? " lightning" : ""}${k.special ? " special" : ""} ${extra}`.trim();
  return h("span", { class: cls, title: cardText(c) },
    k.lightning ? h("span", { class: "icard-bolt", "aria-hidden": "true" }, "⚡") : null,
    h("span", { class: "icard-name" }, c.kind === "bonus" ? familyName(c.family) : kindName(c.kind)),
    k.value ? h("span", { class: "icard-value" }, String(k.value)) : null,
    c.kind === "bonus" ? h("span", { class: "icard-value" }, `+${c.points}`) : null,
    k.gold ? h("span", { class: "icard-gold", title: t("isla.costs_gold", { n: k.gold }) }, `${k.gold}g`) : null);
}

/** A goal card (treasure, curse, destiny) as text. */
export function goalText(g) {
  if (g.kind === "destiny") return missionText(g);
  const key = g.kind === "curse" ? "isla.curse_card" : g.start ? "isla.start_card" : "isla.treasure_card";
  return t(key, { place: placeName(g.location), points: g.points });
}

/** A destiny mission's condition ("4 auctions won"), the same whoever holds the card. */
export function missionBody(m) {
  switch (m.mission) {
    case "family": return t("isla.mission_family", { count: m.count, family: familyName(m.family) });
    case "pair": return t("isla.mission_pair", { a: placeName(m.locations[0]), b: placeName(m.locations[1]) });
    default: return t(`isla.mission_${m.mission}`, { count: m.count });
  }
}

/** "Destiny: 4 auctions won (+6)"; with `key` "isla.your_destiny" or "isla.destiny_of" (and `who`). */
export function missionText(m, key = "isla.mission", who = "") {
  return t(key, { mission: missionBody(m), points: m.points, who });
}

export function goalChip(g) {
  return h("span", { class: `igoal g-${g.kind}`, title: goalText(g) }, goalText(g));
}

/** A seat's name for people: one name on every page (common/seats.js). */
export { seatName };

export function nameList(names) {
  return names.join(lang === "zh" ? "、" : ", ");
}

function bidText(b, from) {
  const target = b.flight ? t("isla.flight_to", { place: placeName(b.to) }) : routeText(b.route, from);
  return t("isla.bid_of", { value: b.value, target });
}

/** One sentence for a public event (or null when it says nothing worth a line). */
export function eventText(e, seats, me, view) {
  const who = (s) => seatName(seats, s, me);
  const table = tableText(e, who);
  if (table !== undefined) return table;
  const from = view ? view.expedition : null;
  switch (e.type) {
    case "round": return t("isla.ev_round", { n: e.round, who: who(e.leader) });
    case "bid": return t("isla.ev_bid", { who: who(e.seat), bid: bidText(e.bid, from) });
    case "pass": return t("isla.ev_pass", { who: who(e.seat) });
    case "juju": return t("isla.ev_juju", { who: who(e.seat), target: who(e.target) });
    case "ovetos": return t("isla.ev_ovetos", { who: who(e.seat) });
    case "won": return t("isla.ev_won", { who: who(e.seat), value: e.bid.value });
    case "paid": return t("isla.ev_paid", { who: who(e.seat), cards: list(e.cards.map(cardText)), gold: e.gold });
    // games stored before bids were spoken (issue 22): idle rounds and their stalled end
    case "idle": return t("isla.ev_idle", { count: e.running });
    case "travel": return t(e.route ? "isla.ev_travel" : "isla.ev_fly", { place: placeName(e.to) });
    case "sangaia": return t("isla.ev_sangaia", { who: who(e.seat) });
    case "arrive": return t(e.marker ? "isla.ev_arrive" : "isla.ev_arrive_camp", { place: placeName(e.at), count: e.markers_left });
    case "cursed": return t("isla.ev_cursed", { who: who(e.seat), cards: list(e.cards.map(goalText)) });
    case "treasures": return t("isla.ev_treasures", { who: who(e.seat), cards: list(e.plays.map((p) => goalText(p.card) + (p.bonus ? ` + ${cardText(p.bonus)}` : ""))) });
    case "news": return t("isla.ev_news", { draw: e.draw, keep: e.keep });
    case "take": case "buy":
      return t(e.card ? `isla.ev_${e.type}_card` : `isla.ev_${e.type}_deck`, { who: who(e.seat), card: e.card ? cardText(e.card) : "" });
    case "reshuffle": return t("isla.ev_reshuffle", { count: e.cards });
    case "map": return t("isla.ev_map", { who: who(e.seat) });
    case "no_effect": return t("isla.ev_no_effect", { card: cardText(e.card) });
    case "bigfoot": case "leviathan":
      return t(`isla.ev_${e.type}`, { who: who(e.seat), route: routeName(e.route) });
    case "thief": return t("isla.ev_thief", { who: who(e.seat), target: who(e.target) });
    case "voodoo": return t("isla.ev_voodoo", { who: who(e.seat), target: who(e.target) });
    case "hand_limit": return t("isla.ev_hand_limit", { who: nameList(e.seats.map(who)) });
    case "discard": return t("isla.ev_discard", { who: who(e.seat), count: e.count });
    case "game_over": return t(e.reason === "stalled" ? "isla.ev_over_stalled" : "isla.ev_over");
    default: return null;
  }
}

/** "Mountain route Snow Pass – Old Mine". */
export function routeName(id) {
  const r = routes[id];
  if (!r) return id;
  return t("isla.route_name", { type: typeName(r.type), a: placeName(r.a), b: placeName(r.b) });
}

export const isWater = (type) => WATER.includes(type);
