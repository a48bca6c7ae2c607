// The Isla Dorada game page: loads this seat's view through the game API, draws the island (SVG),
// the round track, the auction, the face-up cards, my hand and goal cards, the players and the
// log; my turn's controls come from actions.js. Everyone else's moves arrive through the events
// long-poll (static/common/gameclient.js) and are replayed one at a time at the chosen pace: the
// log says each, and the expedition walks its path on the map. By keyboard: skip links to my move,
// the island, my hand and the log; after each action focus goes to my next step (a route picked on
// the map: the number to bid), or waits on the status line for my turn (static/common/focus.js).

import { h } from "../common/dom.js";
import { firstControl, FocusKeeper, skipLinks } from "../common/focus.js";
import { clone, endScreen, GameClient } from "../common/gameclient.js";
import { t } from "../common/i18n.js";
import { actionPanel, mapChoices } from "./actions.js";
import { eventText, learnMap, nameList, placeName, seatName } from "./cards.js";
import { drawMap, legendItems } from "./map.js";
import { renderAuction, renderDisplay, renderEnd, renderHand, renderPlayers, renderTrack } from "./panels.js";

const $ = (id) => document.getElementById(id);
const root = $("isla");
const client = new GameClient({ kind: "isla_dorada", gameId: root.dataset.game, strings: "isla.", replay, settle, render, seatName: (s) => seatName(client.snap ? client.snap.seats : ui.seats, s, mySeat) });
const { mySeat } = client;

let shown = null; // the view on screen: client.snap.view, or a step of a replay
const showEnd = endScreen((end, latest) => renderEnd(end, latest, ui));
let phaseKey = "";
const logLines = [];
const ui = { seats: [], mySeat, replaying: false, actor: null, path: [] };
resetChoices();

function resetChoices() {
  Object.assign(ui, { target: null, value: null, shaman: null, ovetos: null, sangaia: null,
    plays: null, keep: null, drop: null, dropT: null, dropD: null, figure: null });
}

const current = () => (!ui.replaying && client.current ? client.snap : null);
const myTurn = () => !!current() && !client.snap.over && mySeat !== null && client.snap.legal_actions.length > 0;
const who = (s) => seatName(ui.seats, s, mySeat);
/** My next step: the first control of my move (null when it is not my turn). */
const nextStep = () => (myTurn() && !client.busy && !ui.replaying ? firstControl($("action-body")) : null);
const keeper = new FocusKeeper(root, $("status"), nextStep);

function renderStatus() {
  const v = shown;
  let text;
  if (v.over) text = t("isla.status_over");
  else if (ui.replaying) text = t("isla.status_replay", { who: ui.actor === null ? t("isla.table") : who(ui.actor) });
  else if (myTurn()) text = t(v.phase === "bid" && v.auction.high === null ? "isla.status_you_open" : `isla.status_you_${v.phase}`);
  else if (mySeat === null) text = t("isla.status_watch", { who: nameList(v.to_act.map(who)), phase: t(`isla.phase_${v.phase}`) });
  else text = t("isla.status_wait", { who: nameList(v.to_act.map(who)), phase: t(`isla.phase_${v.phase}`) });
  $("status").textContent = text;
  $("status").classList.toggle("mine", myTurn());
}

function renderMap() {
  const latest = current();
  const choices = latest && !client.busy ? mapChoices(latest, ui, mySeat, (f) => render(f)) : {};
  drawMap($("map"), shown, { ...choices, path: ui.path });
  $("where").textContent = t("isla.where", { place: placeName(shown.expedition) });
  return choices.selected;
}

/**
 * After a pick on the map: by keyboard, on to the next step of the bid (the number to bid); by a
 * tap or a click, on the place or route picked.
 */
function focusAfterPick(selected) {
  const card = $("action-body").querySelector("#bid-value:not([disabled]), #figure-send");
  const node = document.getElementById(`route-${selected}`) || document.getElementById(`place-${selected}`);
  const next = keeper.pointer ? node : card || node;
  if (next) keeper.focus(next);
}

function renderActions() {
  const latest = current();
  const body = (latest && !client.busy ? actionPanel(latest, ui, mySeat, act, () => render()) : []).filter(Boolean);
  $("actions").hidden = mySeat === null || shown.over;
  $("action-body").replaceChildren(...(body.length ? body : [h("p", { class: "muted" }, ui.replaying || client.busy ? t("isla.wait_moves") : t("isla.nothing_now"))]));
  root.classList.toggle("my-turn", myTurn());
  root.classList.toggle("over", shown.over);
}

function renderLog() {
  const lines = logLines.slice(-250).reverse().map((l) => h("li", { class: l.kind }, l.text));
  $("log").replaceChildren(...(lines.length ? lines : [h("li", { class: "muted" }, t("isla.log_empty"))]));
}

function render(focusSelected = false) {
  if (!shown) return;
  keeper.begin();
  renderStatus();
  renderTrack($("track"), shown);
  const selected = renderMap();
  renderActions();
  renderHand($("hand"), $("hand-count"), $("goals"), shown, mySeat);
  renderAuction($("auction-body"), shown, ui);
  renderDisplay($("display"), shown);
  const latest = current();
  renderPlayers($("players"), shown, ui, latest && latest.over ? latest.view.winners : []);
  renderLog();
  if (focusSelected && selected) focusAfterPick(selected);
  showEnd(latest);
  keeper.settle(!!latest && !client.busy);
}

function note(entry, e, view) {
  const text = eventText(e, ui.seats, mySeat, view);
  if (!text) return null;
  const kind = e.type === "round" ? "round" : e.type === "cursed" ? "bad" : e.type === "treasures" ? "good" : entry.seat === mySeat ? "mine" : "";
  logLines.push({ text, kind });
  return text;
}

/** New log entries (client.catchUp): each move told in turn; the expedition walks its path. */
async function replay(entries) {
  const animate = client.pace() > 0 && client.shownVersion >= 0;
  const paced = () => animate && !client.skipping;
  ui.replaying = entries.length > 0;
  const view = clone(shown);
  const heard = [];
  for (const entry of entries) {
    ui.actor = entry.seat;
    const said = [];
    for (const e of entry.events) {
      if (e.type === "round") ui.path = [];
      if (e.type === "travel") {
        if (!ui.path.length) ui.path = [view.expedition];
        view.expedition = e.to;
        ui.path.push(e.to);
      }
      if (e.type === "arrive" && e.marker) view.explored[e.at] = (view.explored[e.at] || 0) + 1;
      const text = note(entry, e, view);
      if (text) said.push(text);
    }
    shown = clone(view);
    heard.push(...said);
    if (paced() && said.length) $("announce").textContent = said.join(" ");
    render();
    if (paced() && entry.seat !== mySeat) await client.wait(client.pace());
  }
  if (!paced() && heard.length) $("announce").textContent = heard.join(" ");
  ui.replaying = false;
  ui.actor = null;
}

/** The latest snapshot is on screen now. */
function settle(next) {
  ui.seats = next.seats;
  const v = next.view;
  const key = `${v.phase}/${v.round}/${v.to_act.join(",")}/${v.auction ? v.auction.high : ""}/${v.draw ? v.draw.step : ""}`;
  if (key !== phaseKey) { phaseKey = key; resetChoices(); }
  shown = clone(v);
  render();
}

function act(action) {
  if (!action || client.busy || !myTurn()) return;
  keeper.sending();
  client.send(action, () => resetChoices());
}

async function start() {
  const history = await client.open();
  if (!history) return;
  ui.seats = client.snap.seats;
  learnMap(client.snap.view.map);
  $("legend").replaceChildren(...legendItems().map(([svg, text]) => h("li", {}, svg, " ", text)));
  for (const entry of history) for (const e of entry.events) note(entry, e, null);
  shown = clone(client.snap.view);
  if (mySeat === null) $("hand-box").hidden = true;
  client.watching(t("isla.spectating"));
  client.seatSwitch((s) => seatName(ui.seats, s, null));
  render();
  client.follow();
}

skipLinks({
  "skip-actions": () => firstControl($("action-body")),
  "skip-map": () => $("map").querySelector('[role="button"]') || $("map"),
  "skip-hand": () => null,
  "skip-log": () => null,
});

window.islaGame = {
  get snap() { return client.snap; },
  get shownVersion() { return client.shownVersion; },
  get busy() { return client.busy || ui.replaying || !current(); },
  skip() { client.skip(); },
};
start();
