// What the new-game pages of every game share: reading the seat rows, and starting the game —
// POST /api/games, keeping the tokens of this browser's seats (common/api.js; not the seat a
// signed-in player's account holds, which the session cookie plays), then opening my seat, or first showing the share links of the seats left open for friends (each leads to the
// join page, templates/join.html; a friend's seat is an invitation, whose secret the link carries
// after `#invite=`, where it never reaches a server's log).
//
// The page (templates/new_game.html, from the game's descriptor: web/game_site.py NewGamePage)
// has a form #new-game with rows in #seat-rows (#seat-<i>-type: me / friend / anyone / bot /
// none, #seat-<i>-name, #seat-<i>-level), the rule options' fields (each marked data-option and
// data-widget), the table's settings (#table-rated, #fill-after, #fill-level: tableChoice),
// #game-seed, and a hidden #created section with #share-links and the link #open-seat. `newGamePage` runs it from the page's #new-game-data (the kind, its seat bounds and
// bot levels, the rows to start with, the strings' prefix): static/common/new.js for most games;
// a page with more to ask (Tobago's island) passes its own `options` and `body`.

import { api, seatLinks, seatTokens } from "./api.js";
import { $, h } from "./dom.js";
import { errorText } from "./errors.js";
import { t } from "./i18n.js";
import { timeOptions } from "./timecontrol.js";


/**
 * A Copy button for the link in `input`: it copies (or, without clipboard access, selects the
 * link for the reader to copy) and says so, on the button and to screen readers, for 2 s.
 */
export function copyButton(input, label, done) {
  const status = h("span", { class: "visually-hidden", role: "status" });
  const button = h("button", { type: "button", class: "secondary small copy", onclick: async () => {
    input.select();
    let ok = true;
    try { await navigator.clipboard.writeText(input.value); } catch (e) { ok = false; }
    button.textContent = ok ? done : label;
    status.textContent = ok ? done : "";
    if (ok) setTimeout(() => { button.textContent = label; status.textContent = ""; }, 2000);
  } }, label);
  return h("span", { class: "copy-box" }, button, status);
}

/**
 * The clock options from the page's clock choice (templates/game_controls.html `turn_field`,
 * common/timecontrol.js): a time per move, a bank per player, or nothing.
 */
export function turnOption() {
  return timeOptions();
}

/** The seats the rows ask for: [{seat (as POST /api/games takes it), local (mine here)}]. */
export function readSeats() {
  const out = [];
  for (let i = 0; i < $("seat-rows").children.length; i++) {
    const type = $(`seat-${i}-type`).value;
    const name = $(`seat-${i}-name`).value.trim() || null;
    if (type === "none") continue;
    if (type === "bot") out.push({ seat: { type: "bot", level: $(`seat-${i}-level`).value }, local: false });
    else {
      // "friend": an invitation by share link only; "anyone": also listed under open games
      const open = type === "friend" || type === "anyone";
      out.push({ seat: { type: "human", name, open, listed: type === "anyone" }, local: type === "me" });
    }
  }
  return out;
}

/**
 * Create a `kind` game with `seats` (from readSeats) and the rest of the request in `body`
 * (options, seed), keep my seats' tokens, then open my first seat — or, with seats open for
 * friends, show their share links first. API errors are thrown for the page to word.
 */
export async function startGame(kind, seats, body, strings) {
  const game = await api("POST", "/api/games", { game: kind, seats: seats.map((s) => s.seat), ...body });
  let first = null;
  let account = false; // the first of my seats is held by the signed-in account: no token kept
  game.seats.forEach((s, i) => {
    if (s.token && seats[i].local) {
      if (first === null) { first = i; account = !!s.player; }
      if (!s.player) seatTokens.set(game.id, i, s.token);
    }
  });
  const url = account ? `/${kind}/games/${game.id}` : `/${kind}/games/${game.id}?seat=${first}`;
  const open = game.seats.filter((s) => s.open);
  if (!open.length) { location.assign(url); return; }
  $("new-game").hidden = true;
  $("created").hidden = false;
  $("open-seat").href = url;
  const links = Object.fromEntries(open.map((s) => {
    const invite = s.invite ? `#invite=${encodeURIComponent(s.invite)}` : "";
    return [s.index, `${location.origin}/${kind}/games/${game.id}/join/${s.index}${invite}`];
  }));
  seatLinks.set(game.id, links);
  $("share-links").replaceChildren(...open.map((s) => {
    const link = links[s.index];
    const id = `share-${s.index}`;
    const label = t(`${strings}share_label`, { n: s.index + 1 });
    const input = h("input", { type: "text", readonly: true, value: link, class: "share-url", id, "aria-label": label });
    return h("li", {}, h("label", { for: id }, label), input,
      copyButton(input, t(`${strings}copy`), t("common.copied")));
  }));
  $("open-seat").focus();
}

/** One seat row: who plays (`d.type`), a name, a bot's level; `none` past the fewest seats. */
function seatRow(cfg, i, d) {
  const p = cfg.strings;
  const types = cfg.seat_types.filter((v) => v !== "none" || i >= cfg.min_seats);
  const type = h("select", { id: `seat-${i}-type`, class: "seat-type", "aria-label": t(`${p}seat_type`, { n: i + 1 }) },
    types.map((v) => h("option", { value: v, selected: v === d.type }, t(`${p}type_${v}`))));
  const name = h("input", { type: "text", id: `seat-${i}-name`, class: "seat-name", maxlength: 40, autocomplete: "off",
    placeholder: t(`${p}name_placeholder`), "aria-label": t(`${p}seat_name`, { n: i + 1 }) });
  const level = h("select", { id: `seat-${i}-level`, class: "seat-level", "aria-label": t(`${p}seat_level`, { n: i + 1 }) },
    cfg.levels.map((l) => h("option", { value: l, selected: l === (d.level || cfg.level) }, t(`${cfg.level_strings}level_${l}`))));
  const row = h("li", { class: "seat-row" }, h("span", { class: "seat-no" }, t(cfg.seat_n, { n: i + 1 })), type, name, level);
  const sync = () => {
    level.hidden = type.value !== "bot";
    name.hidden = type.value === "none" || type.value === "bot";
    row.classList.toggle("empty", type.value === "none");
  };
  type.addEventListener("change", sync);
  sync();
  return row;
}

/**
 * The rule options the form's fields ask for (templates/game_controls.html `option_field`):
 * `{name: value}`, or `{error}` (a catalogue key) for a number outside its bounds.
 */
export function readOptions(form) {
  const options = {};
  for (const field of form.querySelectorAll("[data-option]")) {
    const name = field.dataset.option;
    const widget = field.dataset.widget;
    if (widget === "check") options[name] = field.checked;
    else if (widget === "radio") options[name] = JSON.parse(field.querySelector("input:checked").value);
    else if (widget === "select") options[name] = JSON.parse(field.value);
    else if (widget === "number") {
      const n = Number(field.value);
      if (!Number.isInteger(n) || n < Number(field.min) || n > Number(field.max)) return { error: field.dataset.error };
      options[name] = n;
    }
  }
  return { options: { ...options, ...turnOption() } };
}

/**
 * The table's settings (templates/game_controls.html `table_fieldset`), as POST /api/games takes
 * them: `rated`, and with a wait chosen, `fill_bots_after_s` and `fill_level` (none on a page
 * without the choice).
 */
export function tableChoice() {
  const rated = $("table-rated");
  if (!rated) return {};
  const after = $("fill-after").value;
  return { rated: rated.checked, ...(after ? { fill_bots_after_s: Number(after), fill_level: $("fill-level").value } : {}) };
}

/** The game seed typed in #game-seed: a number, null (none typed) or undefined (not a seed). */
export function typedSeed() {
  const text = $("game-seed").value.trim();
  if (text === "") return null;
  const seed = Number(text);
  return Number.isSafeInteger(seed) && seed >= 0 ? seed : undefined;
}

/**
 * Run the new-game page from its #new-game-data. `hooks.options(options, seed)` may add to the
 * rule options read from the form (Tobago's island) before the game is created.
 */
export function newGamePage(hooks = {}) {
  const cfg = JSON.parse($("new-game-data").textContent);
  const p = cfg.strings;
  const form = $("new-game");
  const fail = (text) => {
    const err = $("form-error");
    err.textContent = text;
    err.hidden = false;
  };
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    $("form-error").hidden = true;
    const seats = readSeats();
    if (seats.length < cfg.min_seats || seats.length > cfg.max_seats) return fail(t(`${p}err_seats`));
    if (!seats.some((s) => s.local)) return fail(t(`${p}err_me`));
    const read = readOptions(form);
    if (read.error) return fail(t(read.error));
    const seed = typedSeed();
    if (seed === undefined) return fail(t(`${p}err_seed`));
    const options = hooks.options ? hooks.options(read.options, seed) : read.options;
    const body = { options, ...(seed === null ? {} : { seed }), ...tableChoice() };
    $("create-game").disabled = true;
    try {
      await startGame(cfg.kind, seats, body, p);
    } catch (e) {
      fail(t(`${p}err_create`, { message: errorText(e) }));
    } finally {
      $("create-game").disabled = false;
    }
  });
  $("seat-rows").replaceChildren(...cfg.seats.map((d, i) => seatRow(cfg, i, d)));
  const after = $("fill-after");
  if (after) { // the bots' level matters only when they come
    const sync = () => { $("fill-level-box").hidden = !after.value; };
    after.addEventListener("change", sync);
    sync();
  }
}
