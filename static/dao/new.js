// The DAO new-game page: 2–6 seats (me, a friend with a share link, a bot of a level, nobody),
// the two rule options, an optional seed. Creates the game through POST /api/games, keeps the
// seat tokens in localStorage (common/api.js), then opens my seat or first shows the share links.

import { api, seatTokens } from "../common/api.js";
import { t } from "../common/i18n.js";
import { h } from "./cards.js";

const $ = (id) => document.getElementById(id);
const form = $("new-game");
const MAX_SEATS = 6;
const MIN_SEATS = 2;
const DEFAULTS = [
  { type: "me" },
  { type: "bot", level: "ev" },
  { type: "bot", level: "greedy" },
  { type: "bot", level: "random" },
  { type: "none" },
  { type: "none" },
];
let levels = ["ev", "greedy", "random"];

function seatRow(i, d) {
  const types = ["me", "friend", "bot", ...(i >= MIN_SEATS ? ["none"] : [])];
  const type = h("select", { id: `seat-${i}-type`, class: "seat-type", "aria-label": t("dao.seat_type", { n: i + 1 }) },
    types.map((v) => h("option", { value: v, selected: v === d.type }, t(`dao.type_${v}`))));
  const name = h("input", { type: "text", id: `seat-${i}-name`, class: "seat-name", maxlength: 40, autocomplete: "off",
    placeholder: t("dao.name_placeholder"), "aria-label": t("dao.seat_name", { n: i + 1 }) });
  const level = h("select", { id: `seat-${i}-level`, class: "seat-level", "aria-label": t("dao.seat_level", { n: i + 1 }) },
    levels.map((l) => h("option", { value: l, selected: l === (d.level || "ev") }, t(`dao.level_${l}`))));
  const row = h("li", { class: "dao-seat-row" }, h("span", { class: "seat-no" }, t("dao.seat_n", { n: i + 1 })), type, name, level);
  const sync = () => {
    level.hidden = type.value !== "bot";
    name.hidden = type.value === "none" || type.value === "bot";
    row.classList.toggle("empty", type.value === "none");
  };
  type.addEventListener("change", sync);
  sync();
  return row;
}

function readSeats() {
  const out = [];
  for (let i = 0; i < MAX_SEATS; i++) {
    const type = $(`seat-${i}-type`).value;
    const name = $(`seat-${i}-name`).value.trim() || null;
    if (type === "none") continue;
    if (type === "bot") out.push({ seat: { type: "bot", level: $(`seat-${i}-level`).value }, local: false });
    else out.push({ seat: { type: "human", name, open: type === "friend" }, local: type === "me" });
  }
  return out;
}

function readOptions() {
  const two = $("two-rounds").value;
  return {
    bust_match: form.querySelector('input[name="bust_match"]:checked').value,
    two_rounds: two === "auto" ? null : two === "on",
  };
}

function fail(text) {
  const err = $("form-error");
  err.textContent = text;
  err.hidden = false;
}

function showShareLinks(game, url) {
  form.hidden = true;
  $("created").hidden = false;
  $("open-seat").href = url;
  const open = game.seats.filter((s) => s.open);
  $("share-links").replaceChildren(...open.map((s) => {
    const link = `${location.origin}/dao/games/${game.id}/join/${s.index}`;
    const id = `share-${s.index}`;
    const input = h("input", { type: "text", readonly: true, value: link, class: "share-url", id });
    return h("li", {}, h("label", { for: id }, t("dao.share_label", { n: s.index + 1 })), input,
      h("button", { type: "button", class: "secondary small", onclick: async () => {
        input.select();
        try { await navigator.clipboard.writeText(link); } catch (e) { /* the text stays selected to copy */ }
      } }, t("dao.copy")));
  }));
  $("open-seat").focus();
}

async function create(ev) {
  ev.preventDefault();
  $("form-error").hidden = true;
  const seats = readSeats();
  if (seats.length < MIN_SEATS || seats.length > MAX_SEATS) return fail(t("dao.err_seats"));
  if (!seats.some((s) => s.local)) return fail(t("dao.err_me"));
  const body = { game: "dao", seats: seats.map((s) => s.seat), options: readOptions() };
  const seedText = $("game-seed").value.trim();
  if (seedText !== "") {
    const seed = Number(seedText);
    if (!Number.isSafeInteger(seed) || seed < 0) return fail(t("dao.err_seed"));
    body.seed = seed;
  }
  $("create-game").disabled = true;
  try {
    const game = await api("POST", "/api/games", body);
    let first = null;
    game.seats.forEach((s, i) => {
      if (s.token && seats[i].local) {
        seatTokens.set(game.id, i, s.token);
        if (first === null) first = i;
      }
    });
    const url = `/dao/games/${game.id}?seat=${first}`;
    if (!game.seats.some((s) => s.open)) { location.assign(url); return; }
    showShareLinks(game, url);
  } catch (e) {
    fail(t("dao.err_create", { message: e.message }));
  } finally {
    $("create-game").disabled = false;
  }
}

async function init() {
  try {
    const kinds = await api("GET", "/api/games/kinds");
    const kind = kinds.kinds.find((k) => k.name === "dao");
    if (kind && kind.bots.length) levels = ["ev", "greedy", "random"].filter((l) => kind.bots.includes(l)).concat(kind.bots.filter((l) => !["ev", "greedy", "random"].includes(l)));
  } catch (e) { /* keep the known levels; creating will report a real problem */ }
  $("seat-rows").replaceChildren(...DEFAULTS.map((d, i) => seatRow(i, d)));
  form.addEventListener("submit", create);
}

init();
