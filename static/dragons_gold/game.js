// The Dragon's Gold game page: this seat's view through the game API — the dragons with their
// strength, treasure and the hunters under them; my hunters (face up or down) and items; my hoard
// behind my screen (others' token counts only); the negotiation and market panels with a live
// countdown from the snapshot's `deadline` and `now`, kept beside the controls that answer it; the
// log; the end screen with every hoard and the score breakdown. The page is in the order a turn is
// played (a share or a trade to answer, my hunters, the dragons); by keyboard, skip links, and
// focus kept on my next step after each action (static/common/focus.js). The page's life (the
// loop, the replay, the log) is static/common/gamepage.js's.

import { $, h } from "../common/dom.js";
import { firstControl, FocusKeeper, skipLinks } from "../common/focus.js";
import { endScreen } from "../common/gameclient.js";
import { gamePage } from "../common/gamepage.js";
import { t } from "../common/i18n.js";
import { renderEnd, renderMarket, renderNegotiation } from "./panels.js";
import { chips, eventText, hunterAttack, hunterLabel, hunterTag, itemEffect, itemLabel, nameList, tableFacts, tokensText } from "./tokens.js";

const root = $("dg");
const page = gamePage({
  kind: "dragons_gold", strings: "dg.", root, handle: "dgGame", draw, note, pause, settled, opened,
  log: { keep: 150, empty: "dg.log_empty" }, watching: "dg.spectating", heard: 3,
});
const { client, mySeat } = page;

const showEnd = endScreen((end, latest) => renderEnd(end, latest, who));
const ui = { hunter: null, sword: false, draft: null, draftKey: null, clock: null, timed: "" };
// the time left: moved into the bar of whichever panel runs against the clock (panels.js)
const countdownValue = h("span", { id: "countdown-value" });
const countdown = h("div", { id: "countdown", class: "dg-countdown", hidden: true },
  h("span", { class: "dg-countdown-label" }, t("dg.time_left")), " ", countdownValue);

const current = () => page.current();
const legal = () => {
  const snap = current();
  return snap && !snap.over && mySeat !== null && !client.busy ? snap.legal_actions : [];
};
const who = (s) => page.who(s);
const send = (action) => {
  if (client.busy) return;
  keeper.sending();
  client.send(action, () => { ui.draft = null; });
};

/** My next step now: an answer, a share to propose, a lot, a trade, else my hunter (or null). */
function nextStep() {
  if (!legal().length) return null;
  for (const sel of ["#accept", "#fill-attack", "#fill-balanced", "#neg-body .dg-lots button", "#neg-body", "#market-body .dg-offers button",
    "#offer-to", "#market-body", "#hunters button[aria-pressed='true']", "#hunters"]) {
    const el = root.querySelector(sel);
    const control = el && (el.matches("button, select") ? el : firstControl(el));
    if (control && !control.disabled && !control.closest("[hidden]")) return control;
  }
  return null;
}
const keeper = new FocusKeeper(root, $("status"), nextStep);

/** Redraw after a choice on the page, focus on the first of `prefer` (ids) still enabled, else kept. */
function redraw(...prefer) {
  page.render();
  const el = prefer.map((x) => $(x)).find((x) => x && !x.disabled);
  if (el && el !== document.activeElement) keeper.focus(el);
}

// --- the countdown ---------------------------------------------------------------------------------

function remaining() {
  const c = ui.clock;
  if (!c || c.deadline === null) return null;
  return c.deadline - (c.now + (performance.now() - c.at) / 1000);
}

function tick() {
  const left = remaining();
  countdown.hidden = left === null || !current();
  if (left === null) return;
  const s = Math.max(0, Math.ceil(left));
  countdownValue.textContent = t("dg.countdown", { m: Math.floor(s / 60), s: String(s % 60).padStart(2, "0") });
  countdown.classList.toggle("urgent", s <= 10);
  countdown.setAttribute("data-seconds", String(s));
}

/**
 * When a negotiation I take part in or the market opens, its panel comes into view (on a phone
 * it may be far from where I was reading).
 */
function showTimedPanel() {
  const v = page.shown;
  const neg = v.negotiation;
  const key = neg ? `n:${neg.dragon}:${v.dragons[neg.dragon].id}` : v.market ? `m:${v.deck}` : "";
  if (key === ui.timed) return;
  ui.timed = key;
  const mine = neg ? neg.participants.includes(mySeat) : !!v.market && mySeat !== null;
  const panel = $(neg ? "negotiation" : "market");
  const top = panel.getBoundingClientRect().top;
  if (key && mine && (top < 0 || top > innerHeight / 2)) panel.scrollIntoView({ block: "start" });
}

// --- drawing ---------------------------------------------------------------------------------------

function statusText(v) {
  const snap = client.snap;
  if (v.phase === "over") return t("dg.status_over");
  if (page.replaying) return page.actor === null ? t("dg.status_table") : t("dg.status_replay", { who: who(page.actor) });
  const acting = snap ? snap.to_act : [];
  const mine = legal().length > 0;
  if (v.phase === "fight") return mine ? t("dg.status_you") : t("dg.status_wait", { who: nameList(acting.map(who)) });
  if (v.phase === "market") return mine ? t("dg.status_market_you") : t("dg.status_market");
  const neg = v.negotiation;
  if (neg.step === "proposals") return mine ? t("dg.status_negotiate_you") : t("dg.status_negotiate", { who: nameList(neg.participants.map(who)) });
  return mine ? t(`dg.status_${neg.step}_you`) : t("dg.status_wait", { who: nameList(acting.map(who)) });
}

function renderDragons() {
  const v = page.shown;
  const plays = legal().filter((a) => a.type === "play");
  const hunters = [...new Set(plays.map((a) => a.hunter))];
  if (!hunters.includes(ui.hunter)) ui.hunter = hunters.length ? hunters[hunters.length - 1] : null;
  $("table-facts").textContent = tableFacts(v);
  $("dragons").replaceChildren(...v.dragons.map((d, i) => {
    const play = plays.find((a) => a.hunter === ui.hunter && a.dragon === i && (ui.sword ? a.card !== undefined : a.card === undefined));
    const fill = Math.min(100, Math.round((100 * d.attack) / d.strength));
    return h("li", { class: `dg-dragon${d.slain ? " slain" : ""}`, id: `dragon-${i}` },
      h("h3", {}, t("dg.dragon_n", { n: i + 1 }), " ", h("span", { class: "dg-strength" }, t("dg.strength", { n: d.strength }))),
      h("div", { class: "dg-meter", role: "img", "aria-label": t("dg.attack_of", { attack: d.attack, strength: d.strength }), style: `--fill: ${fill}%` },
        h("span", {}, t("dg.attack_of", { attack: d.attack, strength: d.strength }))),
      h("div", { class: "dg-treasure" }, chips(d.treasure)),
      d.hunters.length ? h("ol", { class: "dg-stack", "aria-label": t("dg.stack") }, d.hunters.map((e) => hunterTag(e, who))) : h("p", { class: "muted small" }, t("dg.no_hunters")),
      d.slain ? h("p", { class: "badge" }, t("dg.slain")) : null,
      play ? h("button", { type: "button", class: "dg-attack", id: `attack-${i}`, onclick: () => send(play) },
        t("dg.attack_with", { hunter: hunterLabel(ui.hunter), attack: hunterAttack(ui.hunter) + (ui.sword ? 2 : 0), n: i + 1 })) : null);
  }));
}

function renderMine() {
  const v = page.shown;
  $("mine").hidden = $("screen").hidden = mySeat === null || v.phase === "over";
  if (mySeat === null) return;
  const me = v.players[mySeat];
  const plays = legal().filter((a) => a.type === "play");
  $("hunters").replaceChildren(...Object.entries(me.hunters).map(([name, where]) => {
    const can = plays.some((a) => a.hunter === name);
    return h("button", { type: "button", id: `hunter-${name}`, class: `dg-hunter-card ${where}${ui.hunter === name && can ? " chosen" : ""}`,
      "aria-pressed": ui.hunter === name && can ? "true" : "false", disabled: !can,
      onclick: () => { ui.hunter = name; redraw(); } },
    h("strong", {}, String(hunterAttack(name))), " ", hunterLabel(name), h("span", { class: "dg-where" }, t(`dg.where_${where}`)));
  }));
  const uses = legal().filter((a) => a.type === "use");
  const hasSword = plays.some((a) => a.card !== undefined);
  if (!hasSword) ui.sword = false;
  const hand = me.hand || [];
  $("items").replaceChildren(...[
    hand.length ? h("p", {}, t("dg.my_items"), " ", hand.map((c) => h("span", { class: "dg-item", title: itemEffect(c.item) }, itemLabel(c.item)))) : null,
    hasSword ? h("label", { class: "dg-sword" }, h("input", { type: "checkbox", id: "use-sword", checked: ui.sword, onchange: (ev) => { ui.sword = ev.target.checked; redraw(); } }), " ", t("dg.with_sword")) : null,
    uses.length ? h("p", { class: "dg-buttons" }, uses.map((a, i) => h("button", { type: "button", class: "secondary small", id: `use-${i}`, onclick: () => send(a) }, useLabel(a, hand)))) : null,
  ].filter(Boolean));
  $("hoard").replaceChildren(chips(me.hoard || {}, "dg.screen_empty"));
  $("notes").replaceChildren(...v.notes.slice(-6).reverse().map((n) => h("li", { class: "hint-text" }, noteText(n))));
}

function useLabel(a, hand) {
  const item = hand.find((c) => c.card === a.card).item;
  if (item === "crystal_ball") return t("dg.use_ball", { who: who(a.seat) });
  if (item === "wind") return t("dg.use_wind", { a: a.dragons[0] + 1, b: a.dragons[1] + 1 });
  if (item === "horn") return t("dg.use_horn", { hunter: hunterLabel(a.hunter) });
  return t("dg.use_map");
}

function noteText(n) {
  if (n.type === "stole") return t("dg.note_stole", { colour: t(`dg.c_${n.colour}`), who: who(n.seat) });
  if (n.type === "robbed") return t("dg.note_robbed", { colour: t(`dg.c_${n.colour}`), who: who(n.seat) });
  if (n.type === "looked") return t("dg.note_looked", { who: who(n.seat), tokens: tokensText(n.hoard) });
  if (n.type === "item_drawn") return t("dg.note_item", { item: itemLabel(n.item) });
  return t("dg.note_map", { colour: t(`dg.c_${n.colour}`) });
}

function renderPlayers() {
  const v = page.shown;
  const acting = current() ? client.snap.to_act : [];
  $("players").replaceChildren(...v.players.map((p, i) => h("li", { class: `dg-player${i === mySeat ? " me" : ""}${acting.includes(i) ? " acting" : ""}`, id: `player-${i}` },
    h("span", { class: `dg-seatdot seat-${i}`, "aria-hidden": "true" }, String(i + 1)),
    h("span", { class: "dg-player-name" }, who(i), acting.includes(i) && v.phase !== "over" ? h("span", { class: "badge" }, t("dg.to_act")) : null),
    h("span", { class: "dg-player-facts" },
      t("dg.tokens_count", { count: p.tokens }),
      v.options.advanced ? ` · ${t("dg.items_count", { count: p.items })}` : "",
      " · ", Object.entries(p.hunters).map(([name, where]) => h("span", { class: `dg-mini ${where}`, title: `${hunterLabel(name)}: ${t(`dg.where_${where}`)}` }, String(hunterAttack(name))))))));
}

/** The renderer (page.render: the log after it). */
function draw() {
  const shown = page.shown;
  keeper.begin();
  $("status").textContent = statusText(shown);
  $("status").classList.toggle("mine", legal().length > 0);
  $("table").hidden = shown.phase === "over";
  root.classList.toggle("over", shown.phase === "over");
  renderDragons();
  const ctx = { who, mySeat, legal: legal(), send, ui, redraw, countdown };
  renderNegotiation($("negotiation"), $("neg-body"), shown, ctx);
  renderMarket($("market"), $("market-body"), shown, ctx);
  // a control scrolled into view (by focus too) stays clear of the time bar stuck at the top
  const bar = root.querySelector("section:not([hidden]) .dg-timed-bar");
  document.documentElement.style.scrollPaddingTop = bar ? `${bar.offsetHeight + 8}px` : "";
  renderMine();
  renderPlayers();
  tick();
  const latest = current();
  if (latest) showTimedPanel();
  showEnd(latest);
  keeper.settle(!!latest && !client.busy);
}

// --- events and replays ----------------------------------------------------------------------------

/** Names in the log: this seat in the third person ("Ana (you) plays…", "Seat 2 (you) plays…"). */
const logWho = (s) => (s === mySeat && !(page.seats[s] || {}).name ? t("dg.you_seat", { n: s + 1 }) : who(s));

function note(entry, e) {
  const text = eventText(e, logWho);
  return text ? { text, kind: entry.seat === null ? "table" : entry.seat === mySeat ? "mine" : "" } : null;
}

/** Others' fight moves are paced so they can be followed (a long batch is shown at once). */
function pause(entry, entries) {
  return entries.length < 30 && entry.events.some((e) => e.type === "hunter_played");
}

/** The countdown is the timed phase's; a turn clock (turn_seconds) is shown with every seat's. */
function settled(next) {
  const turnClock = (next.turn_deadlines || []).some((d) => d !== null);
  ui.clock = { deadline: turnClock ? null : next.deadline, now: next.now, at: performance.now() };
}

async function opened() {
  setInterval(tick, 250);
}

skipLinks({
  "skip-actions": nextStep,
  "skip-dragons": () => $("dragons").querySelector(".dg-attack"),
  "skip-screen": () => null,
  "skip-log": () => null,
});

page.start();
