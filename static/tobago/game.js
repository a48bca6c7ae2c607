// The Tobago game page: draws the seat's view (the island, the maps' columns, my hand, the players,
// the sharing) and sends the player's actions; everyone else's moves are replayed one by one at a
// pace a person can follow (the page's life, the replay and the log are static/common/gamepage.js's,
// shared with the other games; this file is the renderer and the actions). The deduction helper
// asks /api/tobago/helper with the public position and this seat's own hand only.

import { api } from "../common/api.js";
import { $, h, scrollBox } from "../common/dom.js";
import { panelSwitch } from "../common/gameclient.js";
import { gamePage } from "../common/gamepage.js";
import { driveCosts, HexBoard, key, landmarkSwatch, TERRAINS, terrainSwatch } from "../common/hexboard.js";
import { clueText, lang, list, t } from "../common/i18n.js";
import { drawPosition } from "./gameboard.js";
import { renderActions, renderColumns, renderEnd, renderHand, renderPlayers, renderSharing } from "./gamepanels.js";
import { MAP_COLOURS, mapIcon, seatMarker } from "./icons.js";
import { applyEvent, eventText, mapName, ownTargetNote, seatName, setPlaceNames } from "./logtext.js";

const root = $("game");
const page = gamePage({
  kind: "tobago", strings: "game.", root, handle: "tobagoGame", draw, note, apply, over, settled, opened,
  log: { keep: 250, empty: null }, watching: null, hearOwn: false,
  spaceName: (q, r) => (placeShorts && placeShorts.get(key(q, r))) || t(`terrain.${terrainOf.get(key(q, r)) || "sea"}`),
  handleExtra: { get helper() { return helperFresh() ? helperData : null; } },
});
const { client, mySeat } = page;
const { gameId } = client;

let board = null;
let terrainOf = new Map();
let islandSpec = null;
let helperData = null; // the helper's answer, with the `version` it was computed for
let helperFor = -1;
let explained = null; // the space whose explanation the helper shows: [q, r]
let placeNames = null; // "q,r" → the space's name for players (the helper's `places`, once)
let placeShorts = null; // "q,r" → its short name (the log's, and a refusal's)
let refused = null; // the space the error on screen names: [q, r], marked on the island
setPlaceNames(new Map()); // the log says "a space" until the names come, never coordinates
let previewSpaces = null;
let notice = null; // the latest curse, raise or end, shown over the island until the next action
const allEvents = [];
// a refusal that names a space marks it on the island while it is shown
const showError = client.showError.bind(client);
client.showError = (e) => {
  refused = e && e.params && Array.isArray(e.params.space) ? e.params.space : null;
  showError(e);
  drawBoard();
};

const stored = (() => { try { return JSON.parse(localStorage.getItem("tobago.visibleMaps")); } catch (e) { return null; } })();
const ui = {
  gameId,
  mySeat,
  get seats() { return page.seats; },
  legal: [],
  get busy() { return client.busy; },
  get replaying() { return page.replaying; },
  mode: null,
  confirmExchange: false,
  visible: new Set(Array.isArray(stored) ? stored : MAP_COLOURS),
  act,
  setMode(m) { ui.mode = m; ui.confirmExchange = false; page.render(); },
  askExchange() { ui.confirmExchange = true; page.render(); const b = $("exchange"); if (b) b.focus(); },
  toggleMap(colour, on) {
    if (on) ui.visible.add(colour); else ui.visible.delete(colour);
    try { localStorage.setItem("tobago.visibleMaps", JSON.stringify([...ui.visible])); } catch (e) { /* ignore */ }
    page.render();
  },
  hintFor(card, colour) {
    if (!helperFresh()) return null;
    const hand = page.shown.players[mySeat].hand || [];
    const hi = hand.findIndex((c) => c.id === card);
    return helperData.hints.find((x) => x.hand_index === hi && x.map === colour) || null;
  },
  /** Why `card` cannot be played on `colour` now, in words (null: it can, or nobody knows yet). */
  whyNot(card, colour) {
    const v = page.shown;
    const me = v.players[mySeat];
    const turnReason = v.phase !== "turn" || !v.to_act.includes(mySeat) ? "not_your_turn"
      : v.turn && v.turn.mode === "drive" ? "driving_this_turn"
        : me.markers_left < 1 ? "no_marker_left"
          : v.turn && v.turn.mode === "clues" && me.amulets < 1 ? "extra_clue_needs_amulet" : null;
    if (turnReason) return t(`game.why_${turnReason}`);
    if (!helperFresh()) return null;
    const hi = (me.hand || []).findIndex((c) => c.id === card);
    const r = (helperData.refusals || []).find((x) => x.hand_index === hi && x.map === colour);
    return r ? t(`game.why_${r.reason}`) : null;
  },
  preview(card, colour) {
    const hint = card === null ? null : ui.hintFor(card, colour);
    const next = hint ? hint.candidates : null;
    if (next === previewSpaces) return;
    previewSpaces = next;
    drawBoard();
  },
  endEvent() { return allEvents.findLast((e) => e.type === "game_over") || null; },
  sharingLog() {
    let start = -1;
    allEvents.forEach((e, i) => { if (e.type === "sharing_started") start = i; });
    if (start < 0) return [];
    return allEvents.slice(start + 1).filter((e) => ["card_accepted", "card_declined", "card_discarded", "curse"].includes(e.type)).map((e) => eventText(e, ui.seats, mySeat)).slice(-8);
  },
  waitingText() {
    if (!page.shown) return "";
    if (page.shown.phase === "over") return t("game.over");
    const names = list(page.shown.to_act.map((s) => seatName(ui.seats, s, mySeat)));
    if (mySeat === null) return t("game.spectating", { who: names });
    return t("game.waiting_for", { who: names });
  },
};

/** The island request form of a view's island reference. */
function specOf(ref) {
  if (ref.custom) return ref.custom;
  const m = /^generated-(\d+)$/.exec(ref.spec);
  return m ? { generated: Number(m[1]), landmarks_seed: ref.landmarks_seed } : { name: ref.spec, landmarks_seed: ref.landmarks_seed };
}

async function loadIsland(view) {
  islandSpec = specOf(view.island);
  const solved = await api("POST", "/api/tobago/solve", { island: islandSpec, maps: [] });
  const isl = solved.island;
  terrainOf = new Map(isl.spaces.map((s) => [key(s.q, s.r), s.terrain]));
  board = new HexBoard($("board"), isl.spaces, isl.landmarks, { size: 26, title: t("game.island_title", { name: view.island.name || "" }) });
  board.onActivate(onHex);
  const [, , w, h_] = board.svg.getAttribute("viewBox").split(" ").map(Number);
  root.classList.toggle("wide-island", w / h_ > 2);
  setZoom(w / h_ > 2 && window.innerWidth < 700);
  renderLegend();
}

function renderLegend() {
  const items = TERRAINS.map((tn) => h("li", {}, terrainSwatch(tn, 22), t(`terrain.${tn}`)));
  for (const lm of ["palm", "hut", "statue"]) items.push(h("li", {}, landmarkSwatch(lm, 22), t(`terrain.${lm}`)));
  for (const m of MAP_COLOURS) items.push(h("li", {}, mapIcon(m, 18), t("game.legend_candidate", { map: mapName(m) })));
  items.push(h("li", {}, h("span", { class: "amulet-icon", "aria-hidden": "true" }, "★"), t("game.label_amulet")));
  $("legend").replaceChildren(h("ul", {}, items));
}

function myAtv(view) {
  return mySeat !== null && view.players[mySeat] ? view.players[mySeat].atv : null;
}

/** Reachable spaces (legal drive destinations) with their costs from my ATV. */
function reach(view) {
  const drives = ui.legal.filter((a) => a.type === "drive");
  const atv = myAtv(view);
  if (!drives.length || !atv) return null;
  const costs = driveCosts(terrainOf, atv);
  return new Map(drives.map((a) => [key(...a.to), costs.get(key(...a.to))]));
}

function drawBoard() {
  if (!board || !page.shown) return;
  let targets = null;
  if (ui.mode && ui.mode.startsWith("remove:")) {
    const m = ui.mode.slice(7);
    targets = new Set(ui.legal.filter((a) => a.type === "remove_marker" && a.map === m).map((a) => key(...a.space)));
  }
  drawPosition(board, page.shown, {
    visible: ui.visible, reach: ui.mode === "drive" ? reach(page.shown) : null, preview: previewSpaces, targets, seats: ui.seats, mySeat, placeName,
  });
  // the space a refusal names is marked while it is shown; the helper's, while the helper shows it
  const named = new Map();
  if (refused && !$("error").hidden) named.set(key(...refused), refused);
  if (explained && !$("helper").hidden) named.set(key(...explained), explained);
  for (const xy of named.values()) {
    board.overlayHex("labels", ...xy, "named-outer", 0.93);
    board.overlayHex("labels", ...xy, "named", 0.93);
  }
}

function renderToggles() {
  $("map-toggles").replaceChildren(...page.shown.maps.map((m) => h("button", {
    type: "button", class: "small secondary map-toggle", id: `toggle-${m.colour}`, "aria-pressed": ui.visible.has(m.colour) ? "true" : "false",
    onclick: () => ui.toggleMap(m.colour, !ui.visible.has(m.colour)),
  }, mapIcon(m.colour, 16), `${mapName(m.colour)} `, h("span", { class: "count" }, m.count === 1 ? t("game.located_short") : String(m.count ?? "?")))));
}

function renderStatus() {
  const v = page.shown;
  let text;
  if (v.phase === "over") text = t("game.over");
  else if (mySeat !== null && v.to_act.includes(mySeat) && !ui.replaying) {
    text = v.phase === "sharing" ? t("game.status_sharing_you") : v.phase === "place_atv" ? t("game.status_atv") : v.phase === "first_clue" ? t("game.status_first") : t("game.status_you", { n: v.turn_number });
  }
  else text = ui.waitingText();
  $("status").textContent = text;
}

/** Whether the helper's answer is for the position on screen (else it is not shown at all). */
function helperFresh() {
  return !!helperData && !!page.shown && !ui.replaying && client.current && helperData.version === client.shownVersion;
}

function renderHelper() {
  const costs = $("helper-costs");
  const hintsBox = $("helper-hints");
  if (explained) explainSpace(...explained);
  // a finished game keeps the why of each space (explainSpace), not costs or plays to make
  if (!helperFresh() || page.shown.phase === "over") {
    const wait = page.shown && page.shown.phase !== "over" ? h("p", { class: "muted" }, t("common.loading")) : null;
    costs.replaceChildren(...(wait ? [wait] : []));
    hintsBox.replaceChildren();
    return;
  }
  const seatsOrder = helperSeats(page.shown);
  costs.replaceChildren(scrollBox(t("helper.costs"), h("table", { class: "costs-table" },
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("game.player")), page.shown.maps.map((m) => h("th", { scope: "col", title: mapName(m.colour) }, mapIcon(m.colour, 16), h("span", { class: "visually-hidden" }, mapName(m.colour)))))),
    h("tbody", {}, seatsOrder.map((s, i) => h("tr", { class: s === mySeat ? "me" : "" },
      h("th", { scope: "row" }, seatMarker(s, 16), " ", seatName(ui.seats, s, mySeat)),
      helperData.maps.map((m) => h("td", {}, m.costs[i] === null || m.costs[i] === undefined ? "—" : String(m.costs[i])))))))));
  const hints = helperData.hints.slice(0, 8);
  if (!hints.length) { hintsBox.replaceChildren(h("li", { class: "muted" }, mySeat === null ? t("helper.no_hand") : t("helper.no_plays"))); return; }
  const canPlay = new Set(ui.legal.filter((a) => a.type === "play_clue").map((a) => `${a.card}/${a.map}`));
  const hand = page.shown.players[mySeat].hand || [];
  hintsBox.replaceChildren(...hints.map((x) => {
    const card = hand[x.hand_index];
    const playable = card && canPlay.has(`${card.id}/${x.map}`);
    return h("li", {},
      h("strong", {}, x.sentence), " → ", mapIcon(x.map, 14), " ", mapName(x.map),
      h("div", { class: "reason" }, x.reason),
      playable ? h("button", { type: "button", class: "small secondary", disabled: ui.busy, onclick: () => act({ type: "play_clue", card: card.id, map: x.map }) }, t("helper.play_this")) : null);
  }));
}

/** Seats in the helper's cost order: me first (if seated and placed), then the others placed. */
function helperSeats(v) {
  const out = [];
  if (myAtv(v)) out.push(mySeat);
  v.players.forEach((p, i) => { if (i !== mySeat && p.atv) out.push(i); });
  return out;
}

/** Ask the helper about the latest position. A finished game keeps its helper (why each
 *  space is out; no hand to rank), and the first answer brings every space's name. */
async function refreshHelper() {
  const snap = client.snap;
  const v = snap && snap.view;
  if (!v || !islandSpec) { helperData = null; renderHelper(); return; }
  if (helperFor === snap.version) return;
  helperFor = snap.version;
  const me = myAtv(v);
  const body = {
    island: islandSpec,
    maps: v.maps.map((m) => ({ id: m.colour, clues: m.clues.map((c) => c.clue), removed: m.removed })),
    hand: !snap.over && mySeat !== null && v.players[mySeat].hand ? v.players[mySeat].hand.map((c) => c.clue) : [],
    me,
    others: v.players.filter((p, i) => i !== mySeat && p.atv).map((p) => p.atv),
    options: { near_includes_target: v.options.near_includes_target, treasure_on_landmarks: v.options.treasure_on_landmarks },
    lang,
    places: placeNames === null,
  };
  try {
    const data = await api("POST", "/api/tobago/helper", body);
    if (data.places) {
      placeNames = new Map(data.places.map((p) => [key(...p.space), p.name]));
      placeShorts = new Map(data.places.map((p) => [key(...p.space), p.short]));
      setPlaceNames(placeShorts);
      page.reword((e) => eventText(e, page.seats, mySeat)); // the log's lines name the spaces now
    }
    if (helperFor === client.snap.version) { helperData = { ...data, version: snap.version }; page.render(); }
  } catch (e) { client.showError(e); }
}

const sentence = (text) => text.charAt(0).toUpperCase() + text.slice(1);

/** A space's name for players: from the helper (terrain, where, region, landmark); until it
 *  has answered, the terrain alone (a page never shows coordinates). */
function placeName(q, r) {
  return (placeNames && placeNames.get(key(q, r))) || t(`terrain.${terrainOf.get(key(q, r))}`);
}

/** Explain a space: is it a candidate of each map, and if not, what excluded it. */
function explainSpace(q, r) {
  const box = $("helper-why");
  if (!terrainOf.has(key(q, r))) return;
  explained = [q, r];
  const lines = page.shown.maps.map((m, i) => {
    let why;
    const hm = helperFresh() && helperData.maps[i];
    const ex = hm ? hm.excluded.find((x) => x.space[0] === q && x.space[1] === r) : null;
    if (!hm) why = t("common.loading");
    else if (!ex) why = m.count === 1 ? t("helper.the_treasure") : t("helper.is_candidate");
    else if (ex.by === "removed") why = t("helper.why_removed");
    else if (ex.by === "landmark") why = t("helper.why_landmark");
    else {
      const c = m.clues[ex.by];
      why = t("helper.why_clue", { n: ex.by + 1, clue: c ? clueText(c.clue) : "?" });
      if (ex.own && c) why += t("helper.why_sep") + ownTargetNote(c.clue);
    }
    return h("li", {}, mapIcon(m.colour, 14), " ", h("strong", {}, mapName(m.colour)), t("common.colon"), why);
  });
  box.replaceChildren(h("p", {}, h("strong", { class: "helper-place" }, sentence(placeName(q, r)))), h("ul", { class: "why-list" }, lines));
}

function onHex(q, r) {
  if (page.shown && !$("helper").hidden) { explainSpace(q, r); drawBoard(); }
  if (ui.busy || ui.replaying || !client.snap) return;
  const same = (xy) => xy && xy[0] === q && xy[1] === r;
  const place = ui.legal.find((a) => a.type === "place_atv" && same(a.at));
  if (place) return act(place);
  if (ui.mode === "drive") {
    const drive = ui.legal.find((a) => a.type === "drive" && same(a.to));
    if (drive) return act(drive);
  }
  if (ui.mode && ui.mode.startsWith("remove:")) {
    const m = ui.mode.slice(7);
    const rm = ui.legal.find((a) => a.type === "remove_marker" && a.map === m && same(a.space));
    if (rm) return act(rm);
  }
}

/** The renderer (page.render: the log after it), keeping keyboard focus where it was when possible. */
function draw() {
  const active = document.activeElement;
  const focusKey = active && active !== document.body && !board?.svg.contains(active)
    ? active.id ? `#${active.id}` : active.dataset && active.dataset.card !== undefined && active.dataset.map ? `[data-card="${active.dataset.card}"][data-map="${active.dataset.map}"]` : active.dataset && active.dataset.map ? `.${[...active.classList].join(".")}[data-map="${active.dataset.map}"]` : null
    : null;
  const wasInside = active && root.contains(active) && !board?.svg.contains(active);
  const latest = page.current();
  ui.legal = latest ? latest.legal_actions : [];
  if (ui.mode === null && page.shown.turn && page.shown.turn.mode === "drive" && ui.legal.some((a) => a.type === "drive")) ui.mode = "drive";
  renderStatus();
  renderActions($("actions"), page.shown, ui);
  $("actions").hidden = page.shown.phase === "over";
  for (const id of ["helper-costs", "helper-hints"]) $(id).previousElementSibling.hidden = page.shown.phase === "over";
  renderToggles();
  renderHand($("hand"), page.shown, ui);
  renderColumns($("columns"), page.shown, ui);
  renderPlayers($("players"), page.shown, ui);
  renderSharing($("sharing"), page.shown, ui);
  renderEnd($("end"), latest, ui);
  renderHelper();
  renderNotice();
  drawBoard();
  $("skip-replay").hidden = !ui.replaying;
  if (wasInside && !root.contains(document.activeElement)) {
    // a redraw (a helper answer, another player's move) keeps focus on the same control, or
    // else (once the latest position is on screen) on the player's next step
    const again = focusKey && root.querySelector(focusKey);
    if (again && !again.disabled) again.focus({ preventScroll: true });
    else focusAfterAction = true;
  }
  keepFocus(latest !== null);
}

/** An event's log line; replayed (`view`), a curse, a raise or the end shows over the island. */
function note(entry, e, view) {
  allEvents.push(e);
  const text = eventText(e, page.seats, mySeat);
  if (view && ["curse", "raised", "game_over"].includes(e.type)) notice = { text, curse: e.type === "curse" };
  return text;
}

function renderNotice() {
  const box = $("notice");
  box.hidden = !notice;
  box.textContent = notice ? notice.text : "";
  box.classList.toggle("curse", !!(notice && notice.curse));
}

/** An event on the replayed view, whose seat to act is the mover's. */
function apply(view, e, entry) {
  applyEvent(view, e);
  view.to_act = [entry.seat];
}

/** The replay stops at the move that ended the game (the end screen comes with it). */
function over(view, entry) {
  return entry.events.some((e) => e.type === "game_over");
}

/** The latest snapshot is on screen: the drive mode ends with the drive; the helper is asked. */
function settled() {
  if (!(page.shown.turn && page.shown.turn.mode === "drive")) ui.mode = ui.mode === "drive" ? null : ui.mode;
  refreshHelper();
}

function act(action) {
  if (client.busy || !client.snap) return;
  focusAfterAction = root.contains(document.activeElement) || document.activeElement === document.body;
  ui.confirmExchange = false;
  notice = null;
  previewSpaces = null;
  return client.send(action, () => {
    if (!["drive", "spend_amulet", "pick_amulet"].includes(action.type)) ui.mode = null;
  });
}

/** The island, before the first draw; a watcher has no hand. */
async function opened() {
  await loadIsland(page.shown);
  if (mySeat === null) $("hand-box").hidden = true;
}

$("skip-replay").addEventListener("click", () => client.skip());

// --- keyboard: skip links, and focus kept where the next step of play is ---------------------

$("skip-board").addEventListener("click", (ev) => {
  ev.preventDefault();
  const hex = board && (board.svg.querySelector('[tabindex="0"]') || board.svg.querySelector("polygon.hex"));
  if (hex) hex.focus();
});
$("skip-hand").addEventListener("click", (ev) => {
  ev.preventDefault();
  ($("hand").querySelector("button:not([disabled])") || $("hand-box")).focus();
});
$("skip-actions").addEventListener("click", (ev) => {
  ev.preventDefault();
  ($("sharing").querySelector("button:not([disabled])") || $("actions").querySelector("button:not([disabled])") || $("actions")).focus();
});

/** The control of the player's next step now (null: nothing for this seat to do). */
function nextStep() {
  for (const sel of ["#accept", "#columns button.extra-marker", "#actions button.first-map", "#actions button.raise",
    "#hand button.play-map:not([disabled])", "#drive-mode", "#end-turn"]) {
    const el = root.querySelector(sel);
    if (el && !el.disabled && !el.closest("[hidden]")) return el;
  }
  return null;
}

let focusAfterAction = false; // an action was sent from this page: place focus once it shows
let parked = false; // focus waits on #status for this seat's next step (others play first)
let lastInput = "keyboard"; // a tap or click moves focus without scrolling the page under the finger
document.addEventListener("pointerdown", () => { lastInput = "pointer"; }, true);
document.addEventListener("keydown", () => { lastInput = "keyboard"; }, true);
document.addEventListener("focusin", (ev) => { if (ev.target !== $("status")) parked = false; });
document.addEventListener("focusout", (ev) => {
  // a control that is disabled or rebuilt while focused drops focus to the body: note it
  if (root.contains(ev.target) && !ev.relatedTarget) focusAfterAction = focusAfterAction || client.busy;
});

/** After a redraw: focus lost to the body (its control disabled or gone) goes to the next step. */
function keepFocus(current) {
  if (!current || client.busy || ui.replaying) return;
  const how = { preventScroll: lastInput === "pointer" };
  if (parked && document.activeElement === $("status")) {
    // the others have played and this seat has a step again: focus goes there
    const next = nextStep();
    if (next) { parked = false; next.focus(how); }
    return;
  }
  if (!focusAfterAction) return;
  const active = document.activeElement;
  const lost = !active || active === document.body;
  const onBoard = active && board && board.svg.contains(active);
  const boardUseful = ui.legal.some((a) => ["place_atv", "drive", "remove_marker"].includes(a.type));
  if (!lost && !(onBoard && !boardUseful)) { focusAfterAction = false; return; }
  focusAfterAction = false;
  const next = nextStep();
  if (next) next.focus(how);
  else { $("status").setAttribute("tabindex", "-1"); $("status").focus(how); parked = true; }
}
function setZoom(on) {
  $("board").classList.toggle("zoomed", on);
  $("zoom").setAttribute("aria-pressed", on ? "true" : "false");
  // say so when the island is wider than its box: it scrolls sideways (the edges shade too)
  $("board-scroll").hidden = !(on && $("board").scrollWidth > $("board").clientWidth + 2);
  const me = client.snap && myAtv(client.snap.view);
  if (on && me && board) {
    const [x] = board.centre(...me);
    const svgBox = board.svg.viewBox.baseVal;
    const scale = board.svg.clientWidth / svgBox.width;
    $("board").scrollLeft = Math.max(0, x * scale - $("board").clientWidth / 2);
  }
}
$("zoom").addEventListener("click", () => setZoom(!$("board").classList.contains("zoomed")));
panelSwitch($("toggle-helper"), $("helper"), "tobago.helper", { hide: t("helper.hide"), show: t("helper.show") });
page.start();
