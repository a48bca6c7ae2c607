// A game's lobby, /<kind> (templates/lobby.html, web/game_pages.py render_lobby), the same for
// every game kind, run from the page's #lobby-data (the kind and its title, its seat bounds, its bot levels'
// words, the signed-in account's name):
//
// - the open tables (GET /api/lobby/<kind>, the longest waiting first): who sits, the clock,
//   rated or casual, how long each has waited, when bots take its free seats; asked for again
//   every few seconds while the page is shown. Each table's list item is kept and only its words
//   change, new tables are put in their place and gone ones taken out, so nothing the player is
//   reading moves and focus stays where it is (a focused table that leaves hands focus to the
//   next one). New tables are announced politely, once each.
// - "Join": one click claims the table's first free listed seat (POST /api/games/<id>/seats/<i>/
//   claim) and opens the game, as the join page does (common/join.js): a guest's token is kept
//   in this browser, a signed-in player's account holds the seat.
// - "Play now" (POST /api/quick-play): the seat range and the clock (common/timecontrol.js); a
//   guest sends its own tables as `avoid` (the server cannot tell a guest's tables apart).
// - this browser's games of the kind (their tokens in localStorage).

import { api, seatTokens, signedIn } from "./api.js";
import { $, h } from "./dom.js";
import { errorText } from "./errors.js";
import { list, t } from "./i18n.js";
import { seatName } from "./seats.js";
import { timeOptions } from "./timecontrol.js";

const cfg = JSON.parse($("lobby-data").textContent);
const kind = cfg.kind;
/** How often the open tables are asked for again (ms); the server keeps its answer a second. */
const EVERY_MS = 4000;
/** Where a guest's name is remembered between visits. */
const NAME_KEY = "lobby.name";
const GAME_ID = /^[A-Za-z0-9_-]{12}$/;

/** A game's page: as this browser's seat `seat`, or (none) as the signed-in account's. */
const gameUrl = (id, seat) => (seat === undefined || seat === null ? `/${kind}/games/${id}` : `/${kind}/games/${id}?seat=${seat}`);

/**
 * `seconds` in words: a clock's setting exactly (`exact`: "90 seconds", "3 days"), a wait rounded
 * down to its largest unit ("3 minutes").
 */
function duration(seconds, exact) {
  const units = [[86400, "common.days"], [3600, "lobby.hours"], [60, "common.minutes"]];
  for (const [size, key] of units) {
    if (seconds >= size && (!exact || seconds % size === 0)) return t(key, { count: Math.floor(seconds / size) });
  }
  return t("lobby.seconds", { count: Math.max(0, Math.ceil(seconds)) });
}

/** The seat of `game` this browser plays (its token's, or the signed-in account's), or null. */
function youAt(game) {
  const seat = mySeat(game);
  if (seat !== null) return seat === undefined ? null : seat;
  const i = game.seats.findIndex((s) => s.player === cfg.account);
  return i < 0 ? null : i;
}

/** Seat `i` of `game` as the lobby names it: a free seat, a friend's seat, a guest; a bot or a
 * deleted player the one way every page does ("Bot 3 (strong)", common/seats.js); mine "(you)". */
function seatWord(game, i, you) {
  const s = game.seats[i];
  const name = s.open ? (s.listed ? t("lobby.seat_free") : t("lobby.seat_friend"))
    : s.type === "bot" || s.deleted ? seatName(game.seats, i)
    : s.player || s.name || t("lobby.seat_guest");
  return i === you ? t("common.seat_you", { name }) : name;
}

const who = (game) => { const you = youAt(game); return list(game.seats.map((s, i) => seatWord(game, i, you))); };

/** The seats as chips, a free one marked, a list separator between them for screen readers. */
function seatChips(game) {
  const sep = list(["", ""]);
  const you = youAt(game);
  return game.seats.map((s, i) => [
    i ? h("span", { class: "visually-hidden" }, sep) : null,
    h("span", { class: `lobby-seat${s.listed ? " free" : ""}${s.type === "bot" ? " bot" : ""}` }, seatWord(game, i, you)),
  ]);
}

/** A table's clock in words. */
function clockWords(c) {
  if (c.mode === "turn") return t("lobby.clock_turn", { time: duration(c.turn_seconds, true) });
  if (c.mode === "bank") {
    const time = duration(c.time_bank_s, true);
    if (!c.increment_s) return t("lobby.clock_bank", { time });
    return t("lobby.clock_bank_increment", { time, increment: t("common.increment_seconds", { count: c.increment_s }) });
  }
  return t("lobby.clock_none");
}

/**
 * This browser's seat at `table`: its token's seat (a guest's), `null` (the signed-in account
 * sits there) or `undefined` (not mine).
 */
function mySeat(table) {
  const held = Object.keys(seatTokens.all(table.id));
  if (held.length) return Number(held[0]);
  if (cfg.account && table.seats.some((s) => s.player === cfg.account)) return null;
  return undefined;
}

/** The guest's name for a seat ("" when none is typed, or when signed in). */
function playerName() {
  const input = $("player-name");
  const name = input ? input.value.trim() : "";
  try { if (input) localStorage.setItem(NAME_KEY, name); } catch (e) { /* private mode */ }
  return name;
}

function setText(el, text) {
  if (el.textContent !== text) el.textContent = text;
}

function showError(box, text) {
  box.textContent = text;
  box.hidden = false;
}

// --- the open tables ------------------------------------------------------------------------

/** A table's list item; its parts are kept (`li.parts`) and their words changed by `fillTable`. */
function tableItem(table) {
  const id = `table-${table.id}`;
  const parts = {
    who: h("p", { class: "lobby-who", id: `${id}-who` }),
    facts: h("p", { class: "lobby-facts", id: `${id}-facts` }),
    fill: h("p", { class: "lobby-fill" }),
    action: h("div", { class: "lobby-action" }),
    mode: null,
  };
  const li = h("li", { class: "lobby-table", id, dataset: { game: table.id } },
    h("div", { class: "lobby-about" }, parts.who, parts.facts, parts.fill), parts.action);
  li.parts = parts;
  return li;
}

/** The table's words as of `now` (the service's clock), and its button: Join, or my table. */
function fillTable(li, table, now) {
  li.table = table;
  const { parts } = li;
  if (parts.who.textContent !== who(table)) parts.who.replaceChildren(...seatChips(table).flat().filter(Boolean));
  const waited = Math.max(0, now - table.created);
  const facts = [
    clockWords(table.clock),
    table.rated ? t("lobby.rated") : t("lobby.casual"),
    waited < 60 ? t("lobby.waited_new") : t("lobby.waited", { time: duration(waited, false) }),
  ];
  setText(parts.facts, facts.join(" · "));
  parts.fill.hidden = table.fill_at === null;
  if (table.fill_at !== null) {
    const level = cfg.levels[table.fill_level] || table.fill_level;
    const left = table.fill_at - now;
    const time = left >= 60 ? t("common.minutes", { count: Math.ceil(left / 60) }) : duration(left, false);
    setText(parts.fill, left <= 5 ? t("lobby.fill_now", { level }) : t("lobby.fill_in", { level, time }));
  }
  const seat = mySeat(table);
  const mode = seat === undefined ? "join" : "yours";
  if (parts.mode === mode) return;
  parts.mode = mode;
  const described = `${li.id}-who ${li.id}-facts`;
  parts.action.replaceChildren(...(mode === "join"
    ? [h("button", { type: "button", class: "lobby-join", "aria-describedby": described, onclick: () => join(li) }, t("lobby.join"))]
    : [h("span", { class: "lobby-yours" }, t("lobby.yours")),
      h("a", { class: "button secondary small", href: gameUrl(table.id, seat), "aria-describedby": described }, t("lobby.open"))]));
}

/** The first control of a table's item (where focus goes when the focused table leaves). */
const controlOf = (li) => li.querySelector("button, a");

let known = null; // the tables announced or shown so far (null: nothing drawn yet)

/** Draw the answer of GET /api/lobby/<kind> over what is shown (see the module's comment). */
function draw(data) {
  const box = $("tables");
  const ids = new Set(data.tables.map((x) => x.id));
  const items = [...box.children];
  let refocus;
  items.forEach((li, i) => {
    if (ids.has(li.dataset.game)) return;
    if (li.contains(document.activeElement)) {
      const stays = (x) => ids.has(x.dataset.game);
      refocus = items.slice(i + 1).find(stays) || items.slice(0, i).reverse().find(stays) || null;
    }
    li.remove();
  });
  const fresh = [];
  data.tables.forEach((table, i) => {
    let li = $(`table-${table.id}`);
    if (!li) {
      li = tableItem(table);
      const next = data.tables.slice(i + 1).map((x) => $(`table-${x.id}`)).find(Boolean);
      box.insertBefore(li, next || null);
      if (known && !known.has(table.id) && mySeat(table) === undefined) fresh.push(table);
    }
    fillTable(li, table, data.now);
  });
  known = new Set([...(known || []), ...ids]);
  box.hidden = !data.tables.length;
  const shown = data.tables.length;
  setText($("table-count"), !data.count ? t("lobby.none")
    : data.count > shown ? t("lobby.count_more", { count: data.count, shown }) : t("lobby.count", { count: data.count }));
  if (refocus !== undefined) {
    (refocus ? controlOf(refocus) : $("tables-h")).focus();
    setText($("lobby-news"), t("lobby.gone"));
  } else if (fresh.length) {
    setText($("lobby-news"), fresh.length === 1 ? t("lobby.news_one", { who: who(fresh[0]) }) : t("lobby.news_many", { count: fresh.length }));
  }
}

let timer = null;
let asking = false;

/** Ask for the open tables now, then again every EVERY_MS while the page is shown. */
async function refresh() {
  clearTimeout(timer);
  if (asking) return;
  asking = true;
  try {
    draw(await api("GET", `/api/lobby/${kind}`));
  } catch (e) {
    setText($("table-count"), t("lobby.refresh_failed", { message: errorText(e) }));
  } finally {
    asking = false;
    timer = setTimeout(() => { if (!document.hidden) refresh(); else timer = null; }, EVERY_MS);
  }
}

document.addEventListener("visibilitychange", () => { if (!document.hidden && !asking) refresh(); });

/** Take the first free listed seat of the table of `li` and open the game. */
async function join(li) {
  const table = li.table;
  const button = li.querySelector(".lobby-join");
  if (!button || button.getAttribute("aria-disabled") === "true" || !table.free.length) return;
  const seat = table.free[0];
  $("join-error").hidden = true;
  button.setAttribute("aria-disabled", "true");
  button.textContent = t("lobby.joining");
  try {
    const name = playerName();
    const out = await api("POST", `/api/games/${table.id}/seats/${seat}/claim`, name ? { name } : {});
    // signed in, the account holds the seat: the game answers this browser as that seat
    const held = signedIn() && (await api("GET", `/api/games/${table.id}`).catch(() => ({}))).seat === seat;
    if (!held) seatTokens.set(table.id, seat, out.token);
    location.assign(gameUrl(table.id, held ? null : seat));
  } catch (e) {
    showError($("join-error"), errorText(e));
    button.removeAttribute("aria-disabled");
    button.textContent = t("lobby.join");
    refresh();
  }
}

// --- Play now -------------------------------------------------------------------------------

let playing = false;

async function playNow(ev) {
  ev.preventDefault();
  if (playing) return;
  const button = $("play-now");
  const fail = (text) => showError($("play-error"), text);
  $("play-error").hidden = true;
  const low = $("seats-from") ? Number($("seats-from").value) : cfg.min_seats;
  const high = $("seats-to") ? Number($("seats-to").value) : cfg.max_seats;
  if (low > high) {
    fail(errorText({ reason: "seats_range", params: { min: low, max: high } }));
    $("seats-from").focus();
    return;
  }
  const name = playerName();
  const body = { game: kind, seats: [low, high], time_control: timeOptions(), ...(name ? { name } : {}) };
  if (!signedIn()) body.avoid = seatTokens.myGames().filter((id) => GAME_ID.test(id)).slice(0, 50);
  playing = true;
  button.setAttribute("aria-disabled", "true");
  button.textContent = t("lobby.finding");
  try {
    const out = await api("POST", "/api/quick-play", body);
    const byAccount = !!(out.seats[out.seat] || {}).player; // the account holds it: no token kept
    if (!byAccount) seatTokens.set(out.id, out.seat, out.token);
    location.assign(gameUrl(out.id, byAccount ? null : out.seat));
  } catch (e) {
    fail(errorText(e));
    playing = false;
    button.removeAttribute("aria-disabled");
    button.textContent = t("lobby.play");
  }
}

// --- this browser's games of the kind ------------------------------------------------------

async function mine() {
  const ids = seatTokens.myGames().filter((id) => GAME_ID.test(id));
  const games = await Promise.all(ids.map((id) => api("GET", `/api/games/${id}`).catch(() => null)));
  const items = games.filter((g) => g && g.game === kind).map((g) => {
    const state = g.over ? t("lobby.finished") : g.seats.some((s) => s.open) ? t("lobby.waiting") : t("lobby.running");
    const review = g.over ? [" · ", h("a", { href: `/${kind}/games/${g.id}/review` }, t("lobby.review"))] : null;
    return h("li", {}, h("a", { href: gameUrl(g.id, mySeat(g)) }, who(g)), " — ", state, review);
  });
  $("my-games").replaceChildren(...(items.length ? items : [h("li", { class: "muted" }, t("lobby.none_mine", { game: cfg.title }))]));
}

const nameInput = $("player-name");
if (nameInput) {
  try { nameInput.value = localStorage.getItem(NAME_KEY) || ""; } catch (e) { /* private mode */ }
}
$("quick-play").addEventListener("submit", playNow);
refresh();
mine();
