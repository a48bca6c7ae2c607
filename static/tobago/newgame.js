// The new-game page: seats, island (with a live preview), rule options from the kinds metadata,
// the turn clock. Creates the game through POST /api/games, keeps the seat tokens in localStorage,
// and either opens the player's seat or first shows the share links of the seats left open for
// friends (common/newgame.js, shared with the other games). The previewed landmarks are sent as
// the option `landmarks_seed`, so the deal stays the server's secret; a game seed typed by the
// host (to play a known deal again) is sent as the seed, and every seat is told the host chose it.

import { api } from "../common/api.js";
import { h } from "../common/dom.js";
import { HexBoard } from "../common/hexboard.js";
import { lang, t } from "../common/i18n.js";
import { gameKind, levelList, readSeats, startGame, turnOption } from "../common/newgame.js";
import { errorText } from "../common/errors.js";

const $ = (id) => document.getElementById(id);
const form = $("new-game");
const SEAT_DEFAULTS = [
  { type: "me", name: "" },
  { type: "bot", level: "normal" },
  { type: "bot", level: "normal" },
  { type: "bot", level: "normal" },
];
let kind = null;
let landmarksSeed = randomSeed();
let previewToken = 0;

function randomSeed() { return Math.floor(Math.random() * 2 ** 31); }

function seatRow(i, d, levels) {
  const type = h("select", { id: `seat-${i}-type`, class: "seat-type", "aria-label": t("new.seat_type", { n: i + 1 }) },
    ["me", "friend", "anyone", "bot", ...(i >= 2 ? ["none"] : [])].map((v) => h("option", { value: v, selected: v === d.type }, t(`new.type_${v}`))));
  const name = h("input", { type: "text", id: `seat-${i}-name`, class: "seat-name", maxlength: 40, placeholder: t("new.name_placeholder"), "aria-label": t("new.seat_name", { n: i + 1 }), value: d.name || "" });
  const level = h("select", { id: `seat-${i}-level`, class: "seat-level", "aria-label": t("new.seat_level", { n: i + 1 }) },
    levels.map((l) => h("option", { value: l, selected: l === (d.level || "normal") }, t(`seat.level_${l}`))));
  const sync = () => {
    level.hidden = type.value !== "bot";
    name.hidden = type.value === "none" || type.value === "bot";
  };
  type.addEventListener("change", sync);
  sync();
  return h("li", { class: "seat-row" }, h("span", { class: "seat-no" }, t("seat.n", { n: i + 1 })), type, name, level);
}

function renderOptions() {
  const box = $("option-list");
  const opts = kind.options.filter((o) => typeof o.default === "boolean");
  box.replaceChildren(...opts.map((o) => h("p", { class: "option" },
    h("label", {}, h("input", { type: "checkbox", id: `opt-${o.name}`, name: o.name, checked: o.default }), " ", h("strong", {}, t(`option.${o.name}`))),
    h("br"), h("span", { class: "hint-text" }, lang === "zh" && o.description_zh ? o.description_zh : o.description))));
}

function islandChoice() {
  const v = form.querySelector('input[name="island"]:checked').value;
  if (v === "generated") return `generated-${Number($("island-seed").value) || 0}`;
  return v;
}

/** The game seed the host typed, or null (the server deals). */
function typedSeed() {
  const text = $("game-seed").value.trim();
  const v = Number(text);
  return text !== "" && Number.isSafeInteger(v) && v >= 0 ? v : null;
}

/** The landmarks' seed: the typed game seed's (the option's default, -1), else the preview's. */
function landmarksFor() {
  const typed = typedSeed();
  return typed !== null ? typed : landmarksSeed;
}

function specFor(island) {
  const m = /^generated-(\d+)$/.exec(island);
  return m ? { generated: Number(m[1]), landmarks_seed: landmarksFor() } : { name: island, landmarks_seed: landmarksFor() };
}

async function preview() {
  const mine = ++previewToken;
  const island = islandChoice();
  $("generated-tools").hidden = !island.startsWith("generated");
  const box = $("island-preview");
  box.setAttribute("aria-busy", "true");
  try {
    const solved = await api("POST", "/api/tobago/solve", { island: specFor(island), maps: [] });
    if (mine !== previewToken) return;
    const b = new HexBoard(box, solved.island.spaces, solved.island.landmarks, { size: 16, title: t("new.preview_title", { name: island }) });
    b.svg.querySelectorAll("polygon.hex").forEach((p) => p.removeAttribute("tabindex"));
    $("island-facts").textContent = t("new.island_facts", { n: solved.island.spaces.length });
  } catch (e) {
    if (mine === previewToken) box.replaceChildren(h("p", { class: "error" }, errorText(e, {}, { detail: true })));
  } finally {
    box.removeAttribute("aria-busy");
  }
}

async function create(ev) {
  ev.preventDefault();
  const err = $("form-error");
  err.hidden = true;
  const seats = readSeats();
  if (seats.length < 2) { err.textContent = t("new.err_seats"); err.hidden = false; return; }
  if (!seats.some((s) => s.local)) { err.textContent = t("new.err_me"); err.hidden = false; return; }
  const options = { island: islandChoice(), ...turnOption() };
  for (const o of kind.options.filter((x) => typeof x.default === "boolean")) options[o.name] = $(`opt-${o.name}`).checked;
  const seed = typedSeed();
  if (seed === null) options.landmarks_seed = landmarksSeed; // as previewed; the deal is dealt
  $("create-game").disabled = true;
  try {
    await startGame("tobago", seats, seed === null ? { options } : { options, seed }, "new.");
  } catch (e) {
    err.textContent = t("new.err_create", { message: errorText(e) });
    err.hidden = false;
  } finally {
    $("create-game").disabled = false;
  }
}

async function init() {
  kind = await gameKind("tobago");
  $("seat-rows").replaceChildren(...SEAT_DEFAULTS.map((d, i) => seatRow(i, d, kind.bots)));
  $("bot-levels").replaceChildren(levelList(kind.levels, "seat."));
  renderOptions();
  form.querySelectorAll('input[name="island"]').forEach((r) => r.addEventListener("change", preview));
  $("island-seed").addEventListener("change", preview);
  $("another-island").addEventListener("click", () => { $("island-seed").value = Math.floor(Math.random() * 100000); preview(); });
  $("new-landmarks").addEventListener("click", () => { landmarksSeed = randomSeed(); $("game-seed").value = ""; preview(); });
  $("game-seed").addEventListener("change", preview);
  form.addEventListener("submit", create);
  preview();
}

init().catch((e) => { $("form-error").textContent = errorText(e); $("form-error").hidden = false; });
