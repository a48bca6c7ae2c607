// Dragon's Gold game page panels: the negotiation (proposals with a split editor, answers, the
// division's lots, thieves), the market (offers, trades, shown hoards) and the end screen.
// Each `render*` draws from the view on screen and, when it is the latest snapshot, offers this
// seat's legal actions as buttons (`send(action)` posts one).

import { h, scrollBox } from "../common/dom.js";
import { t } from "../common/i18n.js";
import { chip, chips, COLOURS, colourLabel, tokensText, total } from "./tokens.js";

const find = (legal, pred) => legal.find(pred) || null;
const button = (label, action, send, extra = {}) =>
  h("button", { type: "button", class: extra.class || "", disabled: !action, onclick: () => action && send(action), ...extra.attrs }, label);

/**
 * A split editor: every token of `treasure` goes to one of `columns` ([{key, label}]) by clicking
 * + / − (keyboard: the buttons are in the tab order). `draft[key]` holds each column's tokens.
 */
function editor(treasure, columns, draft, redraw) {
  const colours = COLOURS.filter((c) => treasure[c]);
  const left = (c) => treasure[c] - columns.reduce((n, col) => n + (draft[col.key][c] || 0), 0);
  const change = (key, c, d) => { draft[key][c] = Math.max(0, (draft[key][c] || 0) + d); redraw(); };
  const head = h("tr", {}, h("th", { scope: "col" }, t("dg.colour")), h("th", { scope: "col" }, t("dg.unassigned")),
    columns.map((col) => h("th", { scope: "col" }, col.label)));
  const rows = colours.map((c) => h("tr", {},
    h("th", { scope: "row" }, chip(c, null), " ", colourLabel(c)),
    h("td", { class: left(c) ? "dg-left" : "muted" }, String(left(c))),
    columns.map((col) => h("td", { class: "dg-cell" },
      h("button", { type: "button", id: `ed-${col.key}-${c}-minus`, class: "small secondary", disabled: !(draft[col.key][c] > 0), "aria-label": t("dg.take_back", { colour: colourLabel(c), who: col.label }), onclick: () => change(col.key, c, -1) }, "−"),
      h("span", { class: "dg-count" }, String(draft[col.key][c] || 0)),
      h("button", { type: "button", id: `ed-${col.key}-${c}-plus`, class: "small secondary", disabled: left(c) <= 0, "aria-label": t("dg.give_one", { colour: colourLabel(c), who: col.label }), onclick: () => change(col.key, c, 1) }, "+")))));
  const done = colours.every((c) => left(c) === 0);
  return { table: h("table", { class: "dg-editor" }, h("thead", {}, head), h("tbody", {}, rows)), done };
}

function freshDraft(keys) { return Object.fromEntries(keys.map((k) => [k, {}])); }

function fill(draft, shares) {
  for (const [k, tokens] of Object.entries(shares)) draft[k] = { ...tokens };
}

export function renderNegotiation(section, box, view, ctx) {
  const neg = view.negotiation;
  section.hidden = !neg;
  if (!neg) { box.replaceChildren(); ctx.ui.draft = null; return; }
  const { who, mySeat, legal, send, ui, redraw } = ctx;
  const dragon = view.dragons[neg.dragon];
  const treasure = dragon.treasure;
  const body = [];
  body.push(h("p", {}, t("dg.neg_about", { n: neg.dragon + 1, slayers: neg.participants.map((s, i) => `${who(s)} (${neg.attack[i]})`).join(t("dg.list_sep")) })));
  body.push(h("p", { class: "dg-treasure-line" }, t("dg.treasure"), " ", chips(treasure)));
  if (neg.wizard) body.push(h("p", { class: "hint-text" }, t("dg.ev_wizard", { who: who(neg.wizard.seat), count: neg.wizard.red })));
  if (neg.step === "proposals") {
    body.push(h("p", { class: "hint-text" }, t("dg.neg_help")));
    const p = neg.proposal;
    if (p) {
      body.push(h("div", { class: "dg-proposal", id: "proposal" },
        h("h3", {}, t("dg.proposal_by", { n: p.number, who: who(p.by) })),
        h("ul", {}, neg.participants.map((s) => h("li", {},
          h("span", { class: "dg-share-who" }, who(s)), " ", chips(p.shares[String(s)]), " ",
          s === p.by ? h("span", { class: "badge" }, t("dg.proposer"))
            : h("span", { class: `badge ${p.answers[String(s)] || "waiting"}` }, t(`dg.answer_${p.answers[String(s)] || "waiting"}`)))))));
      const accept = find(legal, (a) => a.type === "accept");
      const reject = find(legal, (a) => a.type === "reject");
      if (accept || reject) {
        body.push(h("p", { class: "dg-buttons" },
          button(t("dg.accept"), accept, send, { attrs: { id: "accept" } }),
          button(t("dg.reject"), reject, send, { class: "secondary", attrs: { id: "reject" } })));
      }
    } else body.push(h("p", { class: "muted" }, t("dg.no_proposal")));
    if (neg.participants.includes(mySeat) && legal.some((a) => a.type === "propose")) {
      const keys = neg.participants.map(String);
      if (!ui.draft || ui.draftKey !== `p:${dragon.id}:${neg.dragon}:${neg.participants}`) {
        ui.draftKey = `p:${dragon.id}:${neg.dragon}:${neg.participants}`;
        ui.draft = freshDraft(keys);
      }
      const ed = editor(treasure, neg.participants.map((s) => ({ key: String(s), label: who(s) })), ui.draft, redraw);
      const byAttack = legal.find((a) => a.type === "propose");
      body.push(h("h3", {}, t("dg.your_proposal")), ed.table,
        h("p", { class: "dg-buttons" },
          h("button", { type: "button", class: "secondary small", id: "fill-attack", onclick: () => { fill(ui.draft, byAttack.shares); redraw(); } }, t("dg.fill_attack")),
          p ? h("button", { type: "button", class: "secondary small", id: "fill-current", onclick: () => { fill(ui.draft, p.shares); redraw(); } }, t("dg.fill_current")) : null,
          h("button", { type: "button", class: "secondary small", onclick: () => { ui.draft = freshDraft(keys); redraw(); } }, t("dg.clear")),
          button(t("dg.propose"), ed.done ? { type: "propose", shares: ui.draft } : null, send, { attrs: { id: "propose" } })));
    }
  } else if (neg.step === "divide") {
    const k = neg.participants.length;
    body.push(h("p", {}, t("dg.divide_help", { who: who(neg.divider), k })));
    if (legal.some((a) => a.type === "divide")) {
      const keys = Array.from({ length: k }, (_, i) => String(i));
      if (!ui.draft || ui.draftKey !== `d:${dragon.id}`) { ui.draftKey = `d:${dragon.id}`; ui.draft = freshDraft(keys); }
      const ed = editor(treasure, keys.map((i) => ({ key: i, label: t("dg.lot_n", { n: Number(i) + 1 }) })), ui.draft, redraw);
      const balanced = legal.find((a) => a.type === "divide");
      body.push(ed.table, h("p", { class: "dg-buttons" },
        h("button", { type: "button", class: "secondary small", onclick: () => { balanced.lots.forEach((l, i) => { ui.draft[String(i)] = { ...l }; }); redraw(); } }, t("dg.fill_balanced")),
        button(t("dg.divide"), ed.done ? { type: "divide", lots: keys.map((i) => ui.draft[i]) } : null, send, { attrs: { id: "divide" } })));
    }
  } else if (neg.step === "pick") {
    body.push(h("p", {}, t("dg.pick_help", { order: neg.order.map(who).join(" → ") })));
    body.push(h("ol", { class: "dg-lots" }, neg.lots.map((lot, i) => {
      const pick = find(legal, (a) => a.type === "pick" && a.lot === i);
      return h("li", {}, h("span", {}, t("dg.lot_n", { n: i + 1 })), " ", chips(lot), " ",
        neg.taken[i] !== null ? h("span", { class: "badge" }, who(neg.taken[i])) : pick ? button(t("dg.pick"), pick, send, { class: "small" }) : null);
    })));
  } else if (neg.step === "steal" || neg.step === "look") {
    body.push(h("p", {}, t("dg.steal_help", { who: who(neg.thief) })));
    if (neg.looking_at) body.push(h("p", {}, t("dg.looking_at", { who: who(neg.looking_at.seat) }), " ", chips(neg.looking_at.hoard)));
    const acts = legal.filter((a) => a.type === "steal" || a.type === "take");
    if (acts.length) body.push(h("p", { class: "dg-buttons" }, acts.map((a) => button(
      a.type === "steal" ? t("dg.steal_from", { who: who(a.from) }) : t("dg.take_colour", { colour: colourLabel(a.colour) }), a, send))));
  }
  box.replaceChildren(...body);
}

function numberRow(prefix, max) {
  return h("div", { class: "dg-amounts" }, COLOURS.map((c) => h("label", { class: "dg-amount" }, chip(c, null), " ",
    h("span", { class: "visually-hidden" }, colourLabel(c)),
    h("input", { type: "number", min: 0, max, step: 1, value: 0, id: `${prefix}-${c}`, inputmode: "numeric", "aria-label": t(`dg.${prefix}_colour`, { colour: colourLabel(c) }) }))));
}

function readAmounts(prefix) {
  const out = {};
  for (const c of COLOURS) {
    const n = Number(document.getElementById(`${prefix}-${c}`).value);
    if (Number.isInteger(n) && n > 0) out[c] = n;
  }
  return out;
}

export function renderMarket(section, box, view, ctx) {
  const mk = view.market;
  section.hidden = !mk;
  if (!mk) { box.replaceChildren(); return; }
  const { who, mySeat, legal, send } = ctx;
  const kept = {};  // what is typed in the offer form survives a redraw
  box.querySelectorAll("input, select").forEach((el) => { kept[el.id] = el.value; });
  const body = [h("p", { class: "hint-text" }, t("dg.market_help"))];
  body.push(h("h3", {}, t("dg.offers")));
  body.push(mk.offers.length ? h("ul", { class: "dg-offers" }, mk.offers.map((o) => {
    const accept = find(legal, (a) => a.type === "accept" && a.offer === o.id);
    const reject = find(legal, (a) => a.type === "reject" && a.offer === o.id);
    return h("li", {}, t("dg.offer_line", { who: who(o.from), to: who(o.to), give: tokensText(o.give), get: tokensText(o.get) }), " ",
      accept ? button(t("dg.accept"), accept, send, { class: "small" }) : null,
      reject ? button(t("dg.reject"), reject, send, { class: "small secondary" }) : null,
      o.from === mySeat ? button(t("dg.withdraw"), find(legal, (a) => a.type === "withdraw"), send, { class: "small secondary" }) : null);
  })) : h("p", { class: "muted" }, t("dg.no_offers")));
  if (mk.shown.length) body.push(h("h3", {}, t("dg.shown")), h("ul", {}, mk.shown.map((s) => h("li", {}, who(s.seat), ": ", chips(s.hoard)))));
  if (mk.done.length) body.push(h("p", { class: "hint-text" }, t("dg.market_done", { who: mk.done.map(who).join(t("dg.list_sep")) })));
  if (legal.some((a) => a.type === "done")) {
    const partners = view.players.map((p) => p.seat).filter((s) => s !== mySeat && !mk.done.includes(s));
    const mine = view.players[mySeat].hoard || {};
    const to = h("select", { id: "offer-to" }, partners.map((s) => h("option", { value: s }, who(s))));
    body.push(h("h3", {}, t("dg.make_offer")),
      partners.length ? h("div", { class: "dg-offer-form" },
        h("p", {}, h("label", { for: "offer-to" }, t("dg.offer_to")), " ", to),
        h("p", {}, t("dg.you_give")), numberRow("give", Math.max(0, total(mine))),
        h("p", {}, t("dg.you_get")), numberRow("get", 40),
        h("p", {}, h("button", { type: "button", id: "offer", onclick: () => {
          const give = readAmounts("give"), get = readAmounts("get");
          if (total(give) + total(get) > 0) send({ type: "offer", to: Number(to.value), give, get });
        } }, t("dg.offer")))) : h("p", { class: "muted" }, t("dg.nobody_to_trade")),
      h("p", { class: "dg-buttons" },
        legal.some((a) => a.type === "show") ? button(t("dg.show_hoard"), { type: "show" }, send, { class: "secondary", attrs: { id: "show" } }) : null,
        button(t("dg.done"), { type: "done" }, send, { class: "secondary", attrs: { id: "done" } })));
  }
  box.replaceChildren(...body);
  for (const [id, value] of Object.entries(kept)) {
    const el = document.getElementById(id);
    if (el && [...box.querySelectorAll("input, select")].includes(el) && (el.tagName !== "SELECT" || [...el.options].some((o) => o.value === value))) el.value = value;
  }
}

export function renderEnd(box, snap, who) {
  const v = snap.view;
  const winners = snap.winners || [];
  const rows = v.players.map((p, i) => {
    const b = v.breakdown[i];
    const flat = Object.values(b.tokens).reduce((a, x) => a + x, 0);
    const maj = Object.entries(b.majorities).map(([c, n]) => `${colourLabel(c)} ${n}`).join(t("dg.list_sep")) || "—";
    return h("tr", { class: winners.includes(i) ? "winner" : "" },
      h("th", { scope: "row" }, who(i), winners.includes(i) ? " ★" : ""),
      h("td", {}, chips(p.hoard)),
      h("td", {}, String(flat)), h("td", {}, String(b.sets)), h("td", {}, maj),
      h("td", {}, h("strong", {}, String(b.total))));
  });
  box.replaceChildren(
    h("h2", { id: "end-h" }, t("dg.end_title")),
    h("p", {}, t(winners.length > 1 ? "dg.winners" : "dg.winner", { who: winners.map(who).join(t("dg.list_sep")) })),
    scrollBox(t("dg.end_title"), h("table", { class: "dg-scores" },
      h("thead", {}, h("tr", {}, ["dg.player", "dg.hoard", "dg.points_tokens", "dg.points_sets", "dg.points_majorities", "dg.total"].map((k) => h("th", { scope: "col" }, t(k))))),
      h("tbody", {}, rows))),
    h("p", {}, t("dg.removed_total", { tokens: tokensText(v.removed) })),
    h("p", {}, h("a", { class: "button", href: "/dragons_gold/new" }, t("dg.new_game")), " ",
      h("a", { class: "button secondary", href: `/dragons_gold/games/${snap.id}/review`, id: "review-link" }, t("dg.review_link"))));
}
