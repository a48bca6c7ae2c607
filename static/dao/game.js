// The DAO game page: loads this seat's view through the game API, draws the table (deck and
// display), my face-down pile, the others' card counts, the odds helper and the log; sends take /
// turn (buttons or the T / U keys); follows everyone else's moves and replays them one by one at a
// readable pace, showing a bust as it happens (the page's life, the replay and the log are
// static/common/gamepage.js's, shared with the other games; this file is the renderer and the
// actions).

import { $, h } from "../common/dom.js";
import { clone, endScreen, panelSwitch } from "../common/gameclient.js";
import { gamePage } from "../common/gamepage.js";
import { t } from "../common/i18n.js";
import { applyEvent, cardBack, cardFace, cardText, DATA, eventText, nameList } from "./cards.js";
import { renderEnd, renderHelper, renderPile } from "./panels.js";

const root = $("dao");
const page = gamePage({
  kind: "dao", strings: "dao.", root, handle: "daoGame", draw, note, apply, first, settled, opened,
  log: { keep: 200, empty: "dao.log_empty" }, watching: "dao.spectating",
});
const { client, mySeat } = page;

const showEnd = endScreen((end, latest) => renderEnd(end, latest, ui));
const ui = { get seats() { return page.seats; }, flash: null, fresh: -1, pileOpen: false, mySeat };

const current = () => page.current();
const myTurn = () => page.myTurn();
const who = (s) => page.who(s);

// --- drawing ------------------------------------------------------------------------------------

function renderStatus() {
  const v = page.shown;
  let text;
  if (v.over) text = t("dao.status_over");
  else if (page.replaying && page.actor === mySeat) text = t("dao.status_replay_you");
  else if (page.replaying) text = t("dao.status_replay", { who: who(page.actor ?? v.to_act[0]) });
  else if (myTurn()) text = t("dao.status_you");
  else if (mySeat === null) text = t("dao.status_watch", { who: nameList(v.to_act.map(who)) });
  else text = t("dao.status_wait", { who: nameList(v.to_act.map(who)) });
  $("status").textContent = text;
  $("status").classList.toggle("mine", myTurn());
}

function renderTable() {
  const v = page.shown;
  $("round").textContent = v.rounds > 1 ? t("dao.round", { n: v.round, m: v.rounds }) : "";
  const deckLabel = v.deck > 0 ? t("dao.deck_label", { count: v.deck }) : t("dao.deck_empty");
  $("deck").setAttribute("aria-label", deckLabel);
  $("deck").title = deckLabel;
  $("deck").classList.toggle("empty", v.deck === 0);
  $("deck-count").textContent = String(v.deck);
  const over = v.total > DATA.bust_above;
  const items = v.display.map((c, i) => h("li", { class: `dao-slot${i === 0 ? " first" : ""}${i === ui.fresh ? " fresh" : ""}` },
    cardFace(c, { extra: over && i === v.display.length - 1 ? "culprit" : "" }),
    i === 0 ? h("span", { class: "dao-first-tag" }, t("dao.first")) : null));
  $("display").replaceChildren(...(items.length ? items : [h("li", { class: "dao-slot muted dao-empty" }, t("dao.display_empty"))]));
  $("display").classList.toggle("over", over);
  const total = $("total");
  total.textContent = v.display.length ? t(over ? "dao.display_over" : "dao.display_total", { total: v.total, max: DATA.bust_above }) : "";
  total.classList.toggle("over", over);
  const meter = Math.min(1, v.total / (DATA.bust_above + 1));
  total.style.setProperty("--fill", `${Math.round(meter * 100)}%`);
}

function renderFlash() {
  const box = $("flash");
  const f = ui.flash;
  box.hidden = !f;
  if (!f) { box.replaceChildren(); return; }
  box.className = `dao-flash ${f.kind}`;
  const last = f.cards ? f.cards.length - 1 : -1;
  box.replaceChildren(h("strong", {}, f.text), f.cards ? h("span", { class: "dao-flash-cards" },
    f.cards.map((c, i) => cardFace(c, { small: true, extra: i !== last ? "" : f.kind === "bust" ? "culprit" : "saver" }))) : null);
}

function setButton(id, label, enabled) {
  const b = $(id);
  b.querySelector(".label").textContent = label;
  b.setAttribute("aria-disabled", enabled ? "false" : "true");
}

function renderButtons() {
  const v = page.shown;
  $("actions").hidden = mySeat === null || v.over;
  // at the end the table is empty (cards left on it are listed on the end screen)
  $("table").hidden = v.over;
  $("toggle-helper").hidden = v.over || mySeat === null;
  const legal = myTurn() && !client.busy ? client.snap.legal_actions.map((a) => a.type) : [];
  const first = v.display[0];
  setButton("take", first ? t("dao.take_card", { card: cardText(first) }) : t("dao.take"), legal.includes("take"));
  setButton("turn", t("dao.turn"), legal.includes("turn"));
  root.classList.toggle("my-turn", legal.length > 0);
  root.classList.toggle("over", v.over);
}

function renderPlayers() {
  const v = page.shown;
  $("players").replaceChildren(...v.players.map((p, i) => {
    const acting = !v.over && v.to_act.includes(i);
    const stack = h("span", { class: "dao-mini-stack", "aria-hidden": "true" }, Array.from({ length: Math.min(p.count, 4) }, () => cardBack("mini")));
    const won = v.over && (client.snap.winners || []).includes(i);
    return h("li", { class: `dao-player${i === mySeat ? " me" : ""}${acting ? " acting" : ""}`, id: `player-${i}` },
      h("span", { class: "dao-seat-no", "aria-hidden": "true" }, String(i + 1)),
      h("span", { class: "dao-player-name" }, who(i),
        acting ? h("span", { class: "badge" }, t("dao.to_play")) : null,
        won ? h("span", { class: "badge win" }, "★") : null),
      h("span", { class: "dao-player-right" },
        h("span", { class: "dao-player-count" }, stack, t("dao.cards", { count: p.count })),
        v.over && p.total !== undefined ? h("strong", { class: "dao-player-score" }, t("dao.points", { score: p.total })) : null));
  }));
}

/** The renderer (page.render: the log after it). */
function draw() {
  const shown = page.shown;
  renderStatus();
  renderTable();
  renderFlash();
  renderButtons();
  renderPile($("pile-box"), shown, ui);
  renderPlayers();
  const latest = current();
  renderHelper($("helper-body"), latest && !latest.over ? latest.view.helper : null, { stale: page.replaying, watching: mySeat === null, over: shown.over });
  showEnd(latest);
}

// --- events and replays -------------------------------------------------------------------------

/** An event's log line; replayed (`view`), a bust or a save also shows in the flash box. */
function note(entry, e, view) {
  const text = eventText(e, page.seats, mySeat);
  if (!text) return null;
  const kind = e.type === "bust" ? "bust" : e.type === "saved" ? "saved" : entry.seat === mySeat ? "mine" : "";
  if (view && (e.type === "bust" || e.type === "saved")) {
    ui.flash = { kind: e.type, text, cards: e.type === "bust" ? e.cards : [e.matched, e.card] };
  }
  return { text, kind };
}

/** An event on the replayed view; the card just turned is marked fresh. */
function apply(view, e) {
  applyEvent(view, e);
  if (e.type === "turn") ui.fresh = view.display.length - 1;
  else if (e.type !== "saved") ui.fresh = -1;
}

/** A bust (or a save) is shown in two steps: the card that went above 12, then what it did. */
async function first(view, entry) {
  ui.fresh = -1;
  const bustAt = entry.events.findIndex((e) => e.type === "bust" || e.type === "saved");
  if (bustAt <= 0) return;
  const before = clone(view);
  for (const e of entry.events.slice(0, bustAt)) applyEvent(before, e);
  page.shown = before;
  ui.fresh = before.display.length - 1;
  ui.flash = null;
  page.render();
  await client.wait(Math.max(client.pace(), 400));
  ui.fresh = -1;
}

/** The latest snapshot is on screen: no card is fresh. */
function settled() {
  ui.fresh = -1;
}

function act(type) {
  if (client.busy || !myTurn() || !client.snap.legal_actions.some((a) => a.type === type)) return;
  ui.flash = null;
  client.send({ type });
}

// --- controls -----------------------------------------------------------------------------------

function setPile(open) {
  ui.pileOpen = open;
  page.render();
}

function onKey(ev) {
  if (ev.ctrlKey || ev.metaKey || ev.altKey || ev.repeat || !$("keys-on").checked) return;
  const tag = ev.target && ev.target.tagName;
  if (["INPUT", "SELECT", "TEXTAREA"].includes(tag) || (ev.target && ev.target.isContentEditable)) return;
  const key = ev.key.toLowerCase();
  if (key === "t") act("take");
  else if (key === "u") act("turn");
  else if (key === "p" && mySeat !== null) setPile(!ui.pileOpen);
  else if (key === "h" && mySeat !== null && !page.shown?.over) setHelper($("helper").hidden);
  else return;
  ev.preventDefault();
}

/** A watcher has no pile and no helper. */
async function opened() {
  if (mySeat === null) { $("pile-box").hidden = true; $("helper").hidden = true; $("toggle-helper").hidden = true; }
}

const setHelper = panelSwitch($("toggle-helper"), $("helper"), "dao.helper", { hide: t("dao.helper_hide"), show: t("dao.helper_show") });
$("take").addEventListener("click", () => act("take"));
$("turn").addEventListener("click", () => act("turn"));
$("toggle-pile").addEventListener("click", () => setPile(!ui.pileOpen));
$("keys-on").addEventListener("change", () => { try { localStorage.setItem("dao.keys", $("keys-on").checked ? "on" : "off"); } catch (e) { /* ignore */ } });
document.addEventListener("keydown", onKey);
try { if (localStorage.getItem("dao.keys") === "off") $("keys-on").checked = false; } catch (e) { /* ignore */ }
page.start();
