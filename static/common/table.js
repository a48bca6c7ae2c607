// What the table does in every game (games/turns.py), in the reader's words, for every game page:
// the log's lines for the table's own entries (it played for a seat whose time ran out; a seat
// marked away, and back; it ended a game whose log is full), and under #status the facts every
// seat is told: that the host chose the deal (the snapshot's `seed_chosen`), each seat's clock —
// its time left for this move (`turn_deadlines`) or its time bank (`banks`, the running one
// counted down from the snapshot's `now`), "away" for a seat marked absent (`absent`) — and, when
// this browser's seat is marked away, the "I'm back" button that sends `{"type": "back"}`.

import { $, h } from "./dom.js";
import { t } from "./i18n.js";

let ticking = null;

/**
 * The sentence for one of the table's events, or undefined for an event that is not the
 * table's (the game words it). `who(i)` names seat i as the page does.
 */
export function tableText(e, who) {
  if (e.type === "turn_timeout") return t("common.table_played_for", { name: who(e.seat) });
  if (e.type === "absent") return t("common.table_absent", { name: who(e.seat) });
  if (e.type === "back") return t("common.table_back", { name: who(e.seat) });
  if (e.type === "game_ended") return ["log_full", "expired"].includes(e.end) ? t(`common.table_${e.end}`) : null;
  return undefined;
}

/** Seconds as the clock reads them: 0:42, 1:05:09, 2 d 3:04:05. */
export function clockText(seconds) {
  const s = Math.max(0, Math.ceil(seconds));
  const days = Math.floor(s / 86400);
  const hours = Math.floor((s % 86400) / 3600);
  const mins = Math.floor((s % 3600) / 60);
  const pad = (n) => String(n).padStart(2, "0");
  const clock = s >= 3600 ? `${hours}:${pad(mins)}:${pad(s % 60)}` : `${mins}:${pad(s % 60)}`;
  return days ? t("common.days_clock", { count: days, clock }) : clock;
}

function line(id, after) {
  let box = $(id);
  if (!box) {
    box = h("p", { id, class: "table-status" });
    after.after(box);
  }
  return box;
}

/**
 * Each seat's clock as `[seat, words(now)]`: with time banks every seat's bank (the running ones
 * count down), else the seats whose turn clock runs; a seat marked away says so.
 */
function seatClocks(snap, nameOf) {
  if (snap.over) return [];
  const ends = snap.turn_deadlines || [];
  const banks = (snap.banks || []).some((b) => b !== null) ? snap.banks : null;
  const away = new Set(snap.absent || []);
  const runs = (i) => ends[i] !== null && ends[i] !== undefined;
  const seats = snap.seats.map((_, i) => i).filter((i) => banks || runs(i) || away.has(i));
  return seats.map((i) => [i, (now) => {
    const name = nameOf(i);
    if (away.has(i)) return t("common.seat_away", { name });
    if (!banks) return t("common.seat_clock", { name, time: clockText(ends[i] - now) });
    if (!runs(i)) return t("common.seat_clock", { name, time: clockText(banks[i]) });
    return t("common.seat_clock_running", { name, time: clockText(banks[i] - (now - snap.now)) });
  }]);
}

/**
 * This browser's seat marked away (`client.mySeat` in the snapshot's `absent`): a notice with the
 * "I'm back" button, which sends `{"type": "back"}` (any version takes it) and then puts focus on
 * the status line; hidden otherwise.
 */
function showBack(snap, client, after) {
  const away = !!client && client.token && !snap.over && (snap.absent || []).includes(client.mySeat);
  let box = $("table-back");
  if (!away) {
    if (box) box.hidden = true;
    return;
  }
  if (!box) {
    const button = h("button", { type: "button", id: "im-back" }, t("common.im_back"));
    button.addEventListener("click", () => {
      button.disabled = true;
      client.send({ type: "back" }, () => {
        const status = $("status");
        if (!status.hasAttribute("tabindex")) status.setAttribute("tabindex", "-1");
        status.focus();
      }).finally(() => { button.disabled = false; });
    });
    box = h("div", { id: "table-back", class: "notice table-back" }, h("p", { role: "status" }, t("common.away_you")), button);
    after.after(box);
  }
  box.hidden = false;
}

/**
 * Under #status (after the bots' line): "the host chose this deal" when the snapshot says so, each
 * seat's clock while clocks run, counted down every second, and this browser's "I'm back" when
 * its seat is marked away. `nameOf(i)` names seat i; `client` (common/gameclient.js) sends.
 */
export function showTable(snap, nameOf, client = null) {
  const anchor = $("bot-status") || $("status");
  const seed = line("table-seed", anchor);
  seed.textContent = snap.seed_chosen && !snap.over ? t("common.seed_chosen") : "";
  seed.hidden = !seed.textContent;
  const clocks = line("table-clocks", seed);
  showBack(snap, client, clocks);
  if (ticking) clearInterval(ticking);
  ticking = null;
  const each = seatClocks(snap, nameOf);
  clocks.hidden = !each.length;
  if (!each.length) { clocks.textContent = ""; return; }
  const start = performance.now();
  const tick = () => {
    const now = snap.now + (performance.now() - start) / 1000;
    const words = each.map(([, say]) => say(now));
    clocks.textContent = t("common.time_left", { clocks: words.join(t("common.clause_sep")) });
  };
  tick();
  ticking = setInterval(tick, 1000);
}
