// The generic game page (templates/play.html, web/game_pages.py): plays any game kind from what
// the game API gives every client, the seat's view and its legal actions. The position is drawn
// by the kind's review renderer (static/review/<kind>.js, or generic.js: the view as an outline),
// the legal actions are buttons (worded by `games.<kind>.actions.<type>` where the catalogue has
// it, else the action's type and fields), the log lines are the renderer's, and the page's life
// (the loop, the replay, the log) is static/common/gamepage.js's, as on every game page. A timed
// phase shows its time left.

import { $, h } from "../common/dom.js";
import { gamePage } from "../common/gamepage.js";
import { has, list, t } from "../common/i18n.js";
import { seatName } from "../common/seats.js";

const root = $("play");
const kind = root.dataset.kind;
const page = gamePage({
  kind, strings: "play.", root, handle: "playGame", draw, note, opened, over: () => false, seatName: (s) => who(s),
  log: { keep: Infinity, empty: null, newestLast: true }, watching: null,
});
const { client, mySeat } = page;
const ui = { renderer: null, clock: null, focusActions: false };

const who = (s) => (ui.renderer ? ui.renderer.seatName(s, mySeat) : seatName(client.snap ? client.snap.seats : [], s, mySeat));
const current = () => page.current();
const myTurn = () => page.myTurn();

/** An action in words: the kind's sentence for its type, else its type and fields. */
function actionText(action) {
  const key = `games.${kind}.actions.${action.type}`;
  if (has(key)) return t(key, action);
  const fields = Object.entries(action).filter(([k]) => k !== "type")
    .map(([k, v]) => t("play.field", { name: k, value: typeof v === "object" ? JSON.stringify(v) : String(v) }));
  return fields.length ? t("play.action_fields", { type: action.type, fields: list(fields) }) : action.type;
}

function renderStatus(snap) {
  let text;
  if (snap.over) text = t("play.status_over", { who: list(snap.winners.map(who)) });
  else if (page.replaying) text = t("play.status_replay");
  else if (myTurn()) text = t("play.status_you");
  else if (mySeat === null) text = t("play.status_watch", { who: list(snap.to_act.map(who)) });
  else text = t("play.status_wait", { who: list(snap.to_act.map(who)) });
  $("status").textContent = text;
  $("status").classList.toggle("mine", myTurn());
}

function renderActions() {
  const snap = client.snap;
  const mine = myTurn();
  const buttons = mine ? snap.legal_actions.map((a) => h("li", {}, h("button", {
    type: "button", class: "secondary", "aria-disabled": client.busy ? "true" : "false",
    onclick: () => { if (!client.busy) { ui.focusActions = true; client.send(a); } },
  }, actionText(a)))) : [];
  const hadFocus = $("actions").contains(document.activeElement); // a redraw keeps it in the box
  $("action-list").replaceChildren(...buttons);
  if (hadFocus && !$("actions").contains(document.activeElement)) ui.focusActions = true;
  $("actions-note").textContent = mine ? t("play.choose", { count: buttons.length }) : snap.over ? t("play.no_actions_over") : t("play.no_actions");
  if (ui.focusActions && current() && !client.busy) { // after my move: the next choice, or the box
    const next = $("action-list").querySelector("button");
    (next || $("actions")).focus();
    if (next || snap.over || snap.bot !== "thinking") ui.focusActions = false; // (else: once the bots answered)
  }
}

function renderPlayers(snap) {
  $("players").replaceChildren(...snap.seats.map((s, i) => {
    const acting = snap.to_act.includes(i);
    const parts = [who(i)]; // "(you)" for my seat, as every page names it
    if (acting) parts.push(t("play.to_act"));
    if (snap.scores) parts.push(t("play.score", { score: snap.scores[i] }));
    return h("li", { class: `${acting ? "acting" : ""}${i === mySeat ? " me" : ""}`.trim() }, parts.join(" · "));
  }));
}

function renderEnd(snap) {
  $("end").hidden = !snap.over;
  root.classList.toggle("over", snap.over);
  if (!snap.over) return;
  $("end-scores").replaceChildren(...snap.seats.map((s, i) => h("li", { class: snap.winners.includes(i) ? "winner" : "" },
    t("play.end_line", { who: who(i), score: snap.scores[i] }))));
}

/** The time left of a timed phase, counted down from the snapshot's `deadline` and `now`. */
function renderClock(snap) {
  if (ui.clock) clearInterval(ui.clock);
  ui.clock = null;
  const box = $("clock");
  // a turn clock (turn_seconds) is shown with every seat's, under the status (common/table.js)
  box.hidden = snap.over || snap.deadline === null || (snap.turn_deadlines || []).some((d) => d !== null);
  if (box.hidden) return;
  const end = performance.now() + (snap.deadline - snap.now) * 1000;
  const tick = () => { box.textContent = t("play.clock", { count: Math.max(0, Math.ceil((end - performance.now()) / 1000)) }); };
  tick();
  ui.clock = setInterval(tick, 1000);
}

async function drawPosition(snap) {
  await ui.renderer.render({
    view: snap.view, seat: mySeat, helper: null, helper_seat: mySeat, to_act: snap.to_act,
    legal_actions: snap.legal_actions, step: snap.version, steps: snap.version, expected: [], move: null,
  });
  renderStatus(snap);
  renderPlayers(snap);
  renderActions();
  renderEnd(snap);
  renderClock(snap);
}

// --- the page's hooks ------------------------------------------------------------------------------

/** The renderer's line for a log entry (one line a move, by its first event). */
function note(entry, e) {
  return e === entry.events[0] ? { text: ui.renderer.moveText(entry, mySeat), kind: "" } : null;
}

/** Others' moves come as log lines at the chosen pace; the position is drawn once they are in
 * (while a replay runs or an action is on its way, the status and the actions only). */
function draw() {
  if (page.replaying || client.busy) { renderStatus(client.snap); renderActions(); }
  else drawPosition(client.snap);
}

/** The kind's review renderer, before the first draw. */
async function opened() {
  const { createRenderer } = await import(root.dataset.renderer);
  ui.renderer = await createRenderer({ root: $("position"), helperBox: h("div"), seats: client.snap.seats });
}

page.start();
