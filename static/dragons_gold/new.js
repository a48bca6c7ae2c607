// The Dragon's Gold new-game page: 3–6 seats (me, a friend with a share link, a bot, nobody), the
// rule options (advanced, negotiation rule, timers), an optional seed. Creates the game through
// POST /api/games, keeps the seat tokens, then opens my seat or shows the share links first
// (common/newgame.js).

import { h } from "../common/dom.js";
import { t } from "../common/i18n.js";
import { offeredLevels, readSeats, startGame } from "../common/newgame.js";
import { errorText } from "../common/errors.js";

const $ = (id) => document.getElementById(id);
const form = $("new-game");
const MAX_SEATS = 6;
const MIN_SEATS = 3;
const DEFAULTS = [
  { type: "me" },
  { type: "bot", level: "normal" },
  { type: "bot", level: "normal" },
  { type: "bot", level: "easy" },
  { type: "none" },
  { type: "none" },
];
let levels = ["easy", "normal", "strong"];

function seatRow(i, d) {
  const types = ["me", "friend", "bot", ...(i >= MIN_SEATS ? ["none"] : [])];
  const type = h("select", { id: `seat-${i}-type`, class: "seat-type", "aria-label": t("dg.seat_type", { n: i + 1 }) },
    types.map((v) => h("option", { value: v, selected: v === d.type }, t(`dg.type_${v}`))));
  const name = h("input", { type: "text", id: `seat-${i}-name`, class: "seat-name", maxlength: 40, autocomplete: "off",
    placeholder: t("dg.name_placeholder"), "aria-label": t("dg.seat_name", { n: i + 1 }) });
  const level = h("select", { id: `seat-${i}-level`, class: "seat-level", "aria-label": t("dg.seat_level", { n: i + 1 }) },
    levels.map((l) => h("option", { value: l, selected: l === (d.level || "normal") }, t(`dg.level_${l}`))));
  const row = h("li", { class: "dg-seat-row" }, h("span", { class: "seat-no" }, t("dg.seat_n", { n: i + 1 })), type, name, level);
  const sync = () => {
    level.hidden = type.value !== "bot";
    name.hidden = type.value === "none" || type.value === "bot";
    row.classList.toggle("empty", type.value === "none");
  };
  type.addEventListener("change", sync);
  sync();
  return row;
}

function fail(text) {
  const err = $("form-error");
  err.textContent = text;
  err.hidden = false;
}

function seconds(id) {
  const n = Number($(id).value);
  return Number.isInteger(n) && n >= 5 && n <= 600 ? n : null;
}

async function create(ev) {
  ev.preventDefault();
  $("form-error").hidden = true;
  const seats = readSeats();
  if (seats.length < MIN_SEATS || seats.length > MAX_SEATS) return fail(t("dg.err_seats"));
  if (!seats.some((s) => s.local)) return fail(t("dg.err_me"));
  const neg = seconds("opt-neg-seconds");
  const market = seconds("opt-market-seconds");
  if (neg === null || market === null) return fail(t("dg.err_seconds"));
  const body = {
    options: {
      advanced: $("opt-advanced").checked,
      negotiation: form.querySelector('input[name="negotiation"]:checked').value,
      negotiation_seconds: neg,
      market_seconds: market,
    },
  };
  const seedText = $("game-seed").value.trim();
  if (seedText !== "") {
    const seed = Number(seedText);
    if (!Number.isSafeInteger(seed) || seed < 0) return fail(t("dg.err_seed"));
    body.seed = seed;
  }
  $("create-game").disabled = true;
  try {
    await startGame("dragons_gold", seats, body, "dg.");
  } catch (e) {
    fail(t("dg.err_create", { message: errorText(e) }));
  } finally {
    $("create-game").disabled = false;
  }
}

async function init() {
  levels = await offeredLevels("dragons_gold", "dg.", levels);
  $("seat-rows").replaceChildren(...DEFAULTS.map((d, i) => seatRow(i, d)));
  form.addEventListener("submit", create);
}

init();
