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
 * The bar that keeps the time left beside the controls that answer it: it sticks to the top or
 * the bottom of the screen while its panel is in view (the countdown element is the page's,
 * `ctx.countdown`; the review has none). Null when it would be empty.
 */
function timedBar(ctx, ...controls) {
  const shown = controls.flat().filter(Boolean);
  if (!ctx.countdown && !shown.length) return null;
  return h("div", { class: "dg-timed-bar" }, ctx.countdown, shown.length ? h("span", { class: "dg-buttons" }, shown) : null);
}

/**
 * A split editor: every token of `treasure` goes to one of `columns` ([{key, label}]): a box per
 * slayer or lot, a row per colour with − / + (keyboard: the buttons are in the tab order; when a
 * press disables its button, focus stays in the row, on the other one). `draft[key]` holds each
 * box's tokens. Returns {node, done} (done: every token is given).
 */
function editor(treasure, columns, draft, redraw) {
  const colours = COLOURS.filter((c) => treasure[c]);
  const left = (c) => treasure[c] - columns.reduce((n, col) => n + (draft[col.key][c] || 0), 0);
  const change = (key, c, d) => {
    draft[key][c] = Math.max(0, (draft[key][c] || 0) + d);
    const [same, other] = d > 0 ? ["plus", "minus"] : ["minus", "plus"];
    redraw(`ed-${key}-${c}-${same}`, `ed-${key}-${c}-${other}`);
  };
  const rest = Object.fromEntries(colours.map((c) => [c, left(c)]));
  const done = colours.every((c) => rest[c] === 0);
  const boxes = columns.map((col) => h("li", { class: "dg-share" },
    h("h4", {}, col.label, " ", h("span", { class: "muted" }, t("dg.tokens_count", { count: total(draft[col.key]) }))),
    h("ul", { class: "dg-share-rows" }, colours.map((c) => {
      const n = draft[col.key][c] || 0;
      const say = { colour: colourLabel(c), who: col.label, count: n };
      return h("li", { class: "dg-cell" },
        h("span", { class: "dg-cell-name" }, chip(c, null), colourLabel(c)),
        h("button", { type: "button", id: `ed-${col.key}-${c}-minus`, class: "small secondary", disabled: !(n > 0), "aria-label": t("dg.take_back", say), onclick: () => change(col.key, c, -1) }, "−"),
        h("span", { class: "dg-count", "aria-hidden": "true" }, String(n)),
        h("button", { type: "button", id: `ed-${col.key}-${c}-plus`, class: "small secondary", disabled: rest[c] <= 0, "aria-label": t("dg.give_one", say), onclick: () => change(col.key, c, 1) }, "+"));
    }))));
  const line = done ? h("p", { class: "dg-left-line done" }, t("dg.all_given"))
    : h("p", { class: "dg-left-line" }, t("dg.left_to_give", { tokens: tokensText(rest) }));
  return { node: h("div", { class: "dg-editor" }, line, h("ul", { class: "dg-shares" }, boxes)), done };
}

function freshDraft(keys) { return Object.fromEntries(keys.map((k) => [k, {}])); }

function fill(draft, shares) {
  for (const [k, tokens] of Object.entries(shares)) draft[k] = { ...tokens };
}

/** The negotiation's body: what was slain and by whom, then the step's own part. */
export function renderNegotiation(section, box, view, ctx) {
  const neg = view.negotiation;
  section.hidden = !neg;
  if (!neg) { box.replaceChildren(); ctx.ui.draft = null; return; }
  const { who } = ctx;
  const dragon = view.dragons[neg.dragon];
  const body = [
    h("p", {}, t("dg.neg_about", { n: neg.dragon + 1, slayers: neg.participants.map((s, i) => t("dg.slayer_attack", { who: who(s), attack: neg.attack[i] })).join(t("dg.list_sep")) })),
    h("p", { class: "dg-treasure-line" }, t("dg.treasure"), " ", chips(dragon.treasure)),
    neg.wizard ? h("p", { class: "hint-text" }, t("dg.ev_wizard", { who: who(neg.wizard.seat), count: neg.wizard.red })) : null,
  ];
  const step = { proposals: proposalsStep, divide: divideStep, pick: pickStep, steal: stealStep, look: stealStep }[neg.step];
  if (step) body.push(...step(neg, dragon, ctx));
  box.replaceChildren(...body.filter(Boolean));
}

/** A slayer's answer to the proposal in words: accepts, rejects; not yet: mine "awaiting
 * you" (I am not thinking, the page waits for me), another's "thinking". */
function answerWord(answer, mine) {
  return answer ? t(`dg.answer_${answer}`) : t(mine ? "dg.answer_yours" : "dg.answer_waiting");
}

function proposalsStep(neg, dragon, ctx) {
  const { who, mySeat, legal, send, ui, redraw } = ctx;
  const p = neg.proposal;
  const out = [h("p", { class: "hint-text" }, t("dg.neg_help"))];
  out.push(p ? h("div", { class: "dg-proposal", id: "proposal" },
    h("h3", {}, t("dg.proposal_by", { n: p.number, who: who(p.by) })),
    h("ul", {}, neg.participants.map((s) => h("li", {},
      h("span", { class: "dg-share-who" }, who(s)), " ", chips(p.shares[String(s)]), " ",
      s === p.by ? h("span", { class: "badge" }, t("dg.proposer"))
        : h("span", { class: `badge ${p.answers[String(s)] || "waiting"}` }, answerWord(p.answers[String(s)], s === mySeat))))))
    : h("p", { class: "muted" }, t("dg.no_proposal")));
  const accept = find(legal, (a) => a.type === "accept");
  const reject = find(legal, (a) => a.type === "reject");
  out.push(timedBar(ctx, accept || reject ? [
    button(t("dg.accept"), accept, send, { attrs: { id: "accept" } }),
    button(t("dg.reject"), reject, send, { class: "secondary", attrs: { id: "reject" } })] : []));
  if (neg.participants.includes(mySeat) && legal.some((a) => a.type === "propose")) {
    const keys = neg.participants.map(String);
    const key = `p:${dragon.id}:${neg.dragon}:${neg.participants}`;
    if (!ui.draft || ui.draftKey !== key) { ui.draftKey = key; ui.draft = freshDraft(keys); }
    const ed = editor(dragon.treasure, neg.participants.map((s) => ({ key: String(s), label: who(s) })), ui.draft, redraw);
    const byAttack = legal.find((a) => a.type === "propose");
    out.push(h("h3", {}, t("dg.your_proposal")),
      h("p", { class: "dg-buttons" },
        h("button", { type: "button", class: "secondary small", id: "fill-attack", onclick: () => { fill(ui.draft, byAttack.shares); redraw("propose"); } }, t("dg.fill_attack")),
        p ? h("button", { type: "button", class: "secondary small", id: "fill-current", onclick: () => { fill(ui.draft, p.shares); redraw(); } }, t("dg.fill_current")) : null,
        h("button", { type: "button", class: "secondary small", id: "clear", onclick: () => { ui.draft = freshDraft(keys); redraw(); } }, t("dg.clear"))),
      ed.node,
      h("p", { class: "dg-buttons" }, button(t("dg.propose"), ed.done ? { type: "propose", shares: ui.draft } : null, send, { attrs: { id: "propose" } })));
  }
  return out;
}

function divideStep(neg, dragon, ctx) {
  const { who, legal, send, ui, redraw } = ctx;
  const k = neg.participants.length;
  const out = [h("p", {}, t("dg.divide_help", { who: who(neg.divider), k }))];
  if (!legal.some((a) => a.type === "divide")) return out;
  const keys = Array.from({ length: k }, (_, i) => String(i));
  if (!ui.draft || ui.draftKey !== `d:${dragon.id}`) { ui.draftKey = `d:${dragon.id}`; ui.draft = freshDraft(keys); }
  const ed = editor(dragon.treasure, keys.map((i) => ({ key: i, label: t("dg.lot_n", { n: Number(i) + 1 }) })), ui.draft, redraw);
  const balanced = legal.find((a) => a.type === "divide");
  out.push(h("h3", {}, t("dg.your_lots")), h("p", { class: "dg-buttons" },
    h("button", { type: "button", class: "secondary small", id: "fill-balanced", onclick: () => { balanced.lots.forEach((l, i) => { ui.draft[String(i)] = { ...l }; }); redraw("divide"); } }, t("dg.fill_balanced"))),
  ed.node,
  h("p", { class: "dg-buttons" }, button(t("dg.divide"), ed.done ? { type: "divide", lots: keys.map((i) => ui.draft[i]) } : null, send, { attrs: { id: "divide" } })));
  return out;
}

function pickStep(neg, dragon, ctx) {
  const { who, legal, send } = ctx;
  return [h("p", {}, t("dg.pick_help", { order: neg.order.map(who).join(" → ") })),
    h("ol", { class: "dg-lots" }, neg.lots.map((lot, i) => {
      const pick = find(legal, (a) => a.type === "pick" && a.lot === i);
      return h("li", {}, h("span", {}, t("dg.lot_n", { n: i + 1 })), " ", chips(lot), " ",
        neg.taken[i] !== null ? h("span", { class: "badge" }, who(neg.taken[i]))
          : pick ? button(t("dg.pick_lot", { n: i + 1 }), pick, send, { class: "small", attrs: { id: `pick-${i}` } }) : null);
    }))];
}

function stealStep(neg, dragon, ctx) {
  const { who, legal, send } = ctx;
  const acts = legal.filter((a) => a.type === "steal" || a.type === "take");
  const decline = find(legal, (a) => a.type === "decline"); // a thief may take nothing
  return [h("p", {}, t("dg.steal_help", { who: who(neg.thief) })),
    neg.looking_at ? h("p", {}, t("dg.looking_at", { who: who(neg.looking_at.seat) }), " ", chips(neg.looking_at.hoard)) : null,
    acts.length || decline ? h("p", { class: "dg-buttons" }, acts.map((a) => a.type === "steal"
      ? button(t("dg.steal_from", { who: who(a.from) }), a, send, { attrs: { id: `steal-${a.from}` } })
      : button(t("dg.take_colour", { colour: colourLabel(a.colour) }), a, send, { attrs: { id: `take-${a.colour}` } })),
    decline ? button(t("dg.decline_theft"), decline, send, { class: "secondary", attrs: { id: "decline-theft" } }) : null) : null];
}

/** A row of number fields, one per colour, each named by its token and its colour's name. */
function numberRow(prefix, legend, max) {
  return h("fieldset", { class: "dg-amounts" }, h("legend", {}, legend), COLOURS.map((c) => h("label", { class: "dg-amount", for: `${prefix}-${c}` },
    chip(c, null), h("span", {}, colourLabel(c)),
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
  const trading = legal.some((a) => a.type === "done");
  const body = [h("p", { class: "hint-text" }, t("dg.market_help")),
    timedBar(ctx, trading ? [
      legal.some((a) => a.type === "show") ? button(t("dg.show_hoard"), { type: "show" }, send, { class: "secondary", attrs: { id: "show" } }) : null,
      button(t("dg.done"), { type: "done" }, send, { class: "secondary", attrs: { id: "done" } })] : [])];
  body.push(h("h3", {}, t("dg.offers")));
  body.push(mk.offers.length ? h("ul", { class: "dg-offers" }, mk.offers.map((o) => {
    const accept = find(legal, (a) => a.type === "accept" && a.offer === o.id);
    const reject = find(legal, (a) => a.type === "reject" && a.offer === o.id);
    return h("li", {}, t("dg.offer_line", { who: who(o.from), to: who(o.to), give: tokensText(o.give), get: tokensText(o.get) }), " ",
      accept ? button(t("dg.accept"), accept, send, { class: "small", attrs: { id: `offer-${o.id}-accept` } }) : null,
      reject ? button(t("dg.reject"), reject, send, { class: "small secondary", attrs: { id: `offer-${o.id}-reject` } }) : null,
      o.from === mySeat ? button(t("dg.withdraw"), find(legal, (a) => a.type === "withdraw"), send, { class: "small secondary", attrs: { id: `offer-${o.id}-withdraw` } }) : null);
  })) : h("p", { class: "muted" }, t("dg.no_offers")));
  if (mk.shown.length) body.push(h("h3", {}, t("dg.shown")), h("ul", {}, mk.shown.map((s) => h("li", {}, who(s.seat), t("common.colon"), chips(s.hoard)))));
  if (mk.done.length) body.push(h("p", { class: "hint-text" }, t("dg.market_done", { who: mk.done.map(who).join(t("dg.list_sep")) })));
  if (trading) {
    const partners = view.players.map((p) => p.seat).filter((s) => s !== mySeat && !mk.done.includes(s));
    const mine = view.players[mySeat].hoard || {};
    const to = h("select", { id: "offer-to" }, partners.map((s) => h("option", { value: s }, who(s))));
    body.push(h("h3", {}, t("dg.make_offer")),
      partners.length ? h("div", { class: "dg-offer-form" },
        h("p", {}, h("label", { for: "offer-to" }, t("dg.offer_to")), " ", to),
        numberRow("give", t("dg.you_give"), Math.max(0, total(mine))),
        numberRow("get", t("dg.you_get"), 40),
        h("p", {}, h("button", { type: "button", id: "offer", onclick: () => {
          const give = readAmounts("give"), get = readAmounts("get");
          if (total(give) + total(get) > 0) send({ type: "offer", to: Number(to.value), give, get });
        } }, t("dg.offer")))) : h("p", { class: "muted" }, t("dg.nobody_to_trade")));
  }
  box.replaceChildren(...body.filter(Boolean));
  for (const [id, value] of Object.entries(kept)) {
    const el = document.getElementById(id);
    if (el && [...box.querySelectorAll("input, select")].includes(el) && (el.tagName !== "SELECT" || [...el.options].some((o) => o.value === value))) el.value = value;
  }
}

export function renderEnd(box, snap, who) {
  const v = snap.view;
  const winners = snap.winners || [];
  // the total right after the player: on a phone it is read without scrolling sideways
  const rows = v.players.map((p, i) => {
    const b = v.breakdown[i];
    const flat = Object.values(b.tokens).reduce((a, x) => a + x, 0);
    const maj = Object.entries(b.majorities).map(([c, n]) => `${colourLabel(c)} ${n}`).join(t("dg.list_sep")) || "—";
    return h("tr", { class: winners.includes(i) ? "winner" : "" },
      h("th", { scope: "row" }, who(i), winners.includes(i) ? " ★" : ""),
      h("td", { class: "total" }, String(b.total)),
      h("td", {}, chips(p.hoard)),
      h("td", {}, String(flat)), h("td", {}, String(b.sets)), h("td", {}, maj));
  });
  box.replaceChildren(
    h("h2", { id: "end-h" }, t("dg.end_title")),
    h("p", {}, t(winners.length > 1 ? "dg.winners" : "dg.winner", { who: winners.map(who).join(t("dg.list_sep")) })),
    scrollBox(t("dg.end_title"), h("table", { class: "dg-scores" },
      h("thead", {}, h("tr", {}, ["dg.player", "dg.total", "dg.hoard", "dg.points_tokens", "dg.points_sets", "dg.points_majorities"].map((k) => h("th", { scope: "col", class: k === "dg.total" ? "total" : null }, t(k))))),
      h("tbody", {}, rows))),
    h("p", {}, t("dg.removed_total", { tokens: tokensText(v.removed) })),
    h("p", {}, h("a", { class: "button", href: "/dragons_gold/new" }, t("dg.new_game")), " ",
      h("a", { class: "button secondary", href: `/dragons_gold/games/${snap.id}/review`, id: "review-link" }, t("dg.review_link"))));
}
