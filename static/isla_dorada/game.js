// The Isla Dorada game page: loads this seat's view through the game API, draws the island (SVG),
// the round track, the auction, the face-up cards, my hand and goal cards, the players and the
// log; my turn's controls come from actions.js. Everyone else's moves are replayed one at a time
// at the chosen pace (the page's life, the replay and the log are static/common/gamepage.js's):
// the log says each, and the expedition walks its path on the map. By keyboard: skip links to my
// move, the island, my hand and the log; after each action focus goes to my next step (a route
// picked on the map: the number to bid), or waits on the status line for my turn
// (static/common/focus.js).

import { $, h } from "../common/dom.js";
import { firstControl, FocusKeeper, skipLinks } from "../common/focus.js";
import { endScreen } from "../common/gameclient.js";
import { gamePage } from "../common/gamepage.js";
import { t } from "../common/i18n.js";
import { actionPanel, mapChoices } from "./actions.js";
import { eventText, learnMap, nameList, placeName } from "./cards.js";
import { drawMap, legendItems } from "./map.js";
import { renderAuction, renderDisplay, renderEnd, renderHand, renderPlayers, renderTrack } from "./panels.js";

const root = $("isla");
const page = gamePage({
  kind: "isla_dorada", strings: "isla.", root, handle: "islaGame", draw, note, apply, settled, opened,
  log: { keep: 250, empty: "isla.log_empty" }, watching: "isla.spectating",
});
const { client, mySeat } = page;

const showEnd = endScreen((end, latest) => renderEnd(end, latest, ui));
let phaseKey = "";
const ui = { get seats() { return page.seats; }, mySeat, path: [] };
resetChoices();

function resetChoices() {
  Object.assign(ui, { target: null, value: null, shaman: null, ovetos: null, sangaia: null,
    plays: null, keep: null, drop: null, dropT: null, dropD: null, figure: null });
}

const current = () => page.current();
const myTurn = () => page.myTurn();
const who = (s) => page.who(s);
/** My next step: the first control of my move (null when it is not my turn). */
const nextStep = () => (myTurn() && !client.busy && !page.replaying ? firstControl($("action-body")) : null);
const keeper = new FocusKeeper(root, $("status"), nextStep);

function renderStatus() {
  const v = page.shown;
  let text;
  if (v.over) text = t("isla.status_over");
  else if (page.replaying) text = t("isla.status_replay", { who: page.actor === null ? t("isla.table") : who(page.actor) });
  else if (myTurn()) text = t(v.phase === "bid" && v.auction.high === null ? "isla.status_you_open" : `isla.status_you_${v.phase}`);
  else if (mySeat === null) text = t("isla.status_watch", { who: nameList(v.to_act.map(who)), phase: t(`isla.phase_${v.phase}`) });
  else text = t("isla.status_wait", { who: nameList(v.to_act.map(who)), phase: t(`isla.phase_${v.phase}`) });
  $("status").textContent = text;
  $("status").classList.toggle("mine", myTurn());
}

function renderMap() {
  const latest = current();
  const choices = latest && !client.busy ? mapChoices(latest, ui, mySeat, (f) => page.render(f)) : {};
  drawMap($("map"), page.shown, { ...choices, path: ui.path });
  $("where").textContent = t("isla.where", { place: placeName(page.shown.expedition) });
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
  const body = (latest && !client.busy ? actionPanel(latest, ui, mySeat, act, () => page.render()) : []).filter(Boolean);
  $("actions").hidden = mySeat === null || page.shown.over;
  $("action-body").replaceChildren(...(body.length ? body : [h("p", { class: "muted" }, page.replaying || client.busy ? t("isla.wait_moves") : t("isla.nothing_now"))]));
  root.classList.toggle("my-turn", myTurn());
  root.classList.toggle("over", page.shown.over);
}

/** The renderer (page.render: the log after it); `focusSelected`: after a pick on the map. */
function draw(focusSelected = false) {
  const shown = page.shown;
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
  if (focusSelected && selected) focusAfterPick(selected);
  showEnd(latest);
  keeper.settle(!!latest && !client.busy);
}

/** An event's log line (`view`: the replayed view, null in the history). */
function note(entry, e, view) {
  const text = eventText(e, page.seats, mySeat, view);
  if (!text) return null;
  const kind = e.type === "round" ? "round" : e.type === "cursed" ? "bad" : e.type === "treasures" ? "good" : entry.seat === mySeat ? "mine" : "";
  return { text, kind };
}

/** An event on the replayed view: the expedition walks its path (drawn on the map). */
function apply(view, e) {
  if (e.type === "round") ui.path = [];
  if (e.type === "travel") {
    if (!ui.path.length) ui.path = [view.expedition];
    view.expedition = e.to;
    ui.path.push(e.to);
  }
  if (e.type === "arrive" && e.marker) view.explored[e.at] = (view.explored[e.at] || 0) + 1;
}

/** The latest snapshot is on screen: a new step of play starts my choices afresh. */
function settled(next) {
  const v = next.view;
  const key = `${v.phase}/${v.round}/${v.to_act.join(",")}/${v.auction ? v.auction.high : ""}/${v.draw ? v.draw.step : ""}`;
  if (key !== phaseKey) { phaseKey = key; resetChoices(); }
}

function act(action) {
  if (!action || client.busy || !myTurn()) return;
  keeper.sending();
  client.send(action, () => resetChoices());
}

/** The island's names and legend, once; a watcher has no hand. */
async function opened() {
  learnMap(client.snap.view.map);
  $("legend").replaceChildren(...legendItems().map(([svg, text]) => h("li", {}, svg, " ", text)));
  if (mySeat === null) $("hand-box").hidden = true;
}

skipLinks({
  "skip-actions": () => firstControl($("action-body")),
  "skip-map": () => $("map").querySelector('[role="button"]') || $("map"),
  "skip-hand": () => null,
  "skip-log": () => null,
});

page.start();
