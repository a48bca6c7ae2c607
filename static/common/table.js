// What the table does in every game (games/turns.py), in the reader's words, for every game page:
// the log's lines for the table's own entries (it played for a seat whose time ran out; it
// ended a game whose log is full), and under #status the facts every seat is told: that the host
// chose the deal (the snapshot's `seed_chosen`) and each seat's time left on its turn clock
// (`turn_deadlines`, counted down from the snapshot's `now`).

import { h } from "./dom.js";
import { t } from "./i18n.js";

const $ = (id) => document.getElementById(id);
let ticking = null;

/**
 * The sentence for one of the table's events, or undefined for an event that is not the
 * table's (the game words it). `who(i)` names seat i as the page does.
 */
export function tableText(e, who) {
  if (e.type === "turn_timeout") return t("common.table_played_for", { name: who(e.seat) });
  if (e.type === "game_ended") return e.end === "log_full" ? t("common.table_log_full") : null;
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
 * Under #status (after the bots' line): "the host chose this deal" when the snapshot says so, and
 * each seat's time left while turn clocks run, counted down every second. `nameOf(i)` names seat i.
 */
export function showTable(snap, nameOf) {
  const anchor = $("bot-status") || $("status");
  const seed = line("table-seed", anchor);
  seed.textContent = snap.seed_chosen && !snap.over ? t("common.seed_chosen") : "";
  seed.hidden = !seed.textContent;
  const clocks = line("table-clocks", seed);
  if (ticking) clearInterval(ticking);
  ticking = null;
  const running = snap.over ? [] : (snap.turn_deadlines || []).map((d, i) => [i, d]).filter(([, d]) => d !== null);
  clocks.hidden = !running.length;
  if (!running.length) { clocks.textContent = ""; return; }
  const start = performance.now();
  const tick = () => {
    const now = snap.now + (performance.now() - start) / 1000;
    const each = running.map(([i, d]) => t("common.seat_clock", { name: nameOf(i), time: clockText(d - now) }));
    clocks.textContent = t("common.time_left", { clocks: each.join(t("common.clause_sep")) });
  };
  tick();
  ticking = setInterval(tick, 1000);
}
