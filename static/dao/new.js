// The DAO new-game page: 2–6 seats (me, a friend with a share link, a bot of a level, nobody),
// the two rule options, an optional seed. Creates the game through POST /api/games, keeps the
// seat tokens in localStorage, then opens my seat or first shows the share links (common/newgame.js).

import { h } from "../common/dom.js";
import { t } from "../common/i18n.js";
import { offeredLevels, readSeats, startGame, turnOption } from "../common/newgame.js";
import { errorText } from "../common/errors.js";

const $ = (id) => document.getElementById(id);
const form = $("new-game");
const MAX_SEATS = 6;
const MIN_SEATS = 2;
const DEFAULTS = [
  { type: "me" },
  { type: "bot", level: "strong" },
  { type: "bot", level: "normal" },
  { type: "bot", level: "easy" },
  { type: "none" },
  { type: "none" },
];
let levels = ["easy", "normal", "strong"];

function seatRow(i, d) {
  const types = ["me", "friend", "anyone", "bot", ...(i >= MIN_SEATS ? ["none"] : [])];
  const type = h("select", { id: `seat-${i}-type`, class: "seat-type", "aria-label": t("dao.seat_type", { n: i + 1 }) },
    types.map((v) => h("option", { value: v, selected: v === d.type }, t(`dao.type_${v}`))));
  const name = h("input", { type: "text", id: `seat-${i}-name`, class: "seat-name", maxlength: 40, autocomplete: "off",
    placeholder: t("dao.name_placeholder"), "aria-label": t("dao.seat_name", { n: i + 1 }) });
  const level = h("select", { id: `seat-${i}-level`, class: "seat-level", "aria-label": t("dao.seat_level", { n: i + 1 }) },
    levels.map((l) => h("option", { value: l, selected: l === (d.level || "strong") }, t(`dao.level_${l}`))));
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

function readOptions() {
  const two = $("two-rounds").value;
  return {
    bust_match: form.querySelector('input[name="bust_match"]:checked').value,
    two_rounds: two === "auto" ? null : two === "on",
    ...turnOption(),
  };
}

function fail(text) {
  const err = $("form-error");
  err.textContent = text;
  err.hidden = false;
}

async function create(ev) {
  ev.preventDefault();
  $("form-error").hidden = true;
  const seats = readSeats();
  if (seats.length < MIN_SEATS || seats.length > MAX_SEATS) return fail(t("dao.err_seats"));
  if (!seats.some((s) => s.local)) return fail(t("dao.err_me"));
  const body = { options: readOptions() };
  const seedText = $("game-seed").value.trim();
  if (seedText !== "") {
    const seed = Number(seedText);
    if (!Number.isSafeInteger(seed) || seed < 0) return fail(t("dao.err_seed"));
    body.seed = seed;
  }
  $("create-game").disabled = true;
  try {
    await startGame("dao", seats, body, "dao.");
  } catch (e) {
    fail(t("dao.err_create", { message: errorText(e) }));
  } finally {
    $("create-game").disabled = false;
  }
}

async function init() {
  levels = await offeredLevels("dao", "dao.", levels);
  $("seat-rows").replaceChildren(...DEFAULTS.map((d, i) => seatRow(i, d)));
  form.addEventListener("submit", create);
}

init();
