// The solver playground, for people playing the physical game: pick a classic or generated island
// or paint one, place landmarks (rule breaks listed), put clue cards in four columns and a hand;
// candidates, why-not explanations and legal plays update at once (POST /api/tobago/solve).
// The whole state lives in the URL hash (#s=...), so a position can be bookmarked and shared.

import { api } from "../common/api.js";
import { $, h, scrollBox } from "../common/dom.js";
import { DIRECTIONS, HexBoard, key, landmarkSwatch, TERRAINS, terrainSwatch } from "../common/hexboard.js";
import { clauses, clueText, lang, list, t } from "../common/i18n.js";
import { candidateMarker, clueIcon, MAP_COLOURS, mapIcon } from "./icons.js";
import { errorText } from "../common/errors.js";

const DECK = JSON.parse($("pg-deck").textContent);
const LETTER = { jungle: "j", beach: "b", river: "r", lake: "l", mountain: "m", grassland: "g" };
const TERRAIN_OF = Object.fromEntries(Object.entries(LETTER).map(([k, v]) => [v, k]));
const KINDS = ["palm", "hut", "statue"];
const DRY = new Set(["jungle", "beach", "mountain", "grassland"]);
const CAND_OFFSET = { white: [-0.46, -0.22], grey: [0.46, -0.22], black: [-0.46, 0.3], brown: [0.46, 0.3] };

/** The playground's state (what the URL holds). */
let state = { src: "classic-1", seed: 1, spaces: {}, landmarks: [], cols: [[], [], [], []], hand: [] };
let tool = "jungle";
let target = 0; // 0-3: a column, 4: the hand
let board = null;
let solved = null;
let boardKey = "";
let painting = false;
let solveToken = 0;
let places = null; // "q,r" → a space's name for players (the helper's `places`) ...
let placesFor = ""; // ... for this island

// --- URL state ---------------------------------------------------------------------------------

function encode() {
  const s = { i: state.src, c: state.cols, h: state.hand };
  if (state.src === "generated") s.g = state.seed;
  if (state.src === "custom") {
    s.t = Object.entries(state.spaces).map(([k, v]) => `${k},${LETTER[v]}`).join(";");
    s.m = state.landmarks.map((l) => [l.kind[0], l.q, l.r, l.facing ?? 0]);
  }
  const bytes = new TextEncoder().encode(JSON.stringify(s));
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function decode(text) {
  try {
    const bin = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
    const s = JSON.parse(new TextDecoder().decode(Uint8Array.from(bin, (c) => c.charCodeAt(0))));
    const out = { src: s.i || "classic-1", seed: s.g || 1, spaces: {}, landmarks: [], cols: [[], [], [], []], hand: Array.isArray(s.h) ? s.h.slice(0, 8) : [] };
    if (Array.isArray(s.c)) out.cols = [0, 1, 2, 3].map((i) => (Array.isArray(s.c[i]) ? s.c[i].filter((n) => typeof n === "string") : []));
    if (typeof s.t === "string" && s.t) {
      for (const part of s.t.split(";")) {
        const [q, r, l] = part.split(",");
        if (TERRAIN_OF[l]) out.spaces[`${Number(q)},${Number(r)}`] = TERRAIN_OF[l];
      }
    }
    if (Array.isArray(s.m)) out.landmarks = s.m.map(([k, q, r, f]) => ({ kind: KINDS.find((x) => x[0] === k), q, r, facing: k === "s" ? f : undefined })).filter((l) => l.kind);
    return out;
  } catch (e) {
    return null;
  }
}

function save() { history.replaceState(null, "", `#s=${encode()}`); }

// --- the island --------------------------------------------------------------------------------

function islandSpec() {
  if (state.src === "custom") {
    return {
      spaces: Object.entries(state.spaces).map(([k, terrain]) => { const [q, r] = k.split(",").map(Number); return { q, r, terrain }; }),
      landmarks: state.landmarks.map((l) => (l.kind === "statue" ? { q: l.q, r: l.r, kind: l.kind, facing: l.facing ?? 0 } : { q: l.q, r: l.r, kind: l.kind })),
    };
  }
  if (state.src === "generated") return { generated: state.seed };
  return { name: state.src };
}

/** Cells of the editing grid: every space, its neighbours, and a disk around the origin. */
function gridCells() {
  const cells = new Map();
  const add = (q, r) => { if (!cells.has(key(q, r))) cells.set(key(q, r), { q, r, terrain: state.spaces[key(q, r)] || null }); };
  for (const k of Object.keys(state.spaces)) {
    const [q, r] = k.split(",").map(Number);
    add(q, r);
    for (const [dq, dr] of DIRECTIONS) add(q + dq, r + dr);
  }
  const R = 5;
  for (let q = -R; q <= R; q++) for (let r = Math.max(-R, -q - R); r <= Math.min(R, -q + R); r++) add(q, r);
  return [...cells.values()];
}

function buildBoard(spaces, landmarks) {
  const cells = state.src === "custom" ? gridCells() : spaces;
  const k = state.src === "custom" ? `custom:${cells.length}:${cells.map((c) => key(c.q, c.r)).sort().join("|")}` : `${state.src}:${state.seed}`;
  if (board && k === boardKey) {
    if (state.src === "custom") for (const c of cells) if ((board.cells.get(key(c.q, c.r)).terrain || null) !== c.terrain) board.setTerrain(c.q, c.r, c.terrain);
    board.setLandmarks(landmarks);
    return;
  }
  boardKey = k;
  board = new HexBoard($("pg-board"), cells, landmarks, { size: 24, title: t("pg.island") });
  board.onActivate(onHex);
  board.label = (q, r) => hexLabel(q, r);
  const [, , w, hh] = board.svg.getAttribute("viewBox").split(" ").map(Number);
  setZoom(w / hh > 2 && window.innerWidth < 700);
  board.svg.addEventListener("pointerdown", (ev) => {
    const p = ev.target.closest("polygon.hex");
    if (p && state.src === "custom" && TERRAINS.concat(["sea"]).includes(tool)) painting = true;
  });
  board.svg.addEventListener("pointerover", (ev) => {
    const p = ev.target.closest("polygon.hex");
    if (painting && p) paint(p.dataset.q | 0, p.dataset.r | 0);
  });
  window.addEventListener("pointerup", () => { painting = false; });
}

function setZoom(on) {
  $("pg-board").classList.toggle("zoomed", on);
  $("zoom").setAttribute("aria-pressed", on ? "true" : "false");
}

function paint(q, r) {
  const k = key(q, r);
  const now = tool === "sea" ? undefined : tool;
  if (state.spaces[k] === now) return;
  if (now) state.spaces[k] = now; else { delete state.spaces[k]; state.landmarks = state.landmarks.filter((l) => key(l.q, l.r) !== k); }
  changed();
}

function onHex(q, r) {
  const k = key(q, r);
  if (state.src === "custom") {
    if (TERRAINS.includes(tool) || tool === "sea") { paint(q, r); return; }
    if (KINDS.includes(tool) && state.spaces[k]) {
      const at = state.landmarks.find((l) => key(l.q, l.r) === k);
      if (at && at.kind === "statue" && tool === "statue") at.facing = ((at.facing ?? 0) + 1) % 6;
      else if (at && at.kind === tool) state.landmarks = state.landmarks.filter((l) => l !== at);
      else { state.landmarks = state.landmarks.filter((l) => l !== at); state.landmarks.push({ kind: tool, q, r, facing: tool === "statue" ? 0 : undefined }); }
      changed();
      return;
    }
    if (tool === "remove") { state.landmarks = state.landmarks.filter((l) => key(l.q, l.r) !== k); changed(); return; }
  }
  explain(q, r);
}

function hexLabel(q, r) {
  const terrain = board.cells.get(key(q, r)).terrain;
  const parts = [terrain ? placeName(q, r) : t("terrain.sea")];
  const lm = (board.landmarks || []).find((l) => l.q === q && l.r === r);
  if (lm) parts.push(t(`terrain.${lm.kind}`));
  if (solved) {
    const maps = solved.maps.filter((m) => m.candidates.some((c) => c[0] === q && c[1] === r)).map((m) => t(`map.${m.id}`));
    if (maps.length) parts.push(t("game.label_candidate", { maps: list(maps) }));
  }
  return clauses(parts);
}

/** Problems of a painted island, in words: ties for the largest region, landmark rule breaks. */
function problems(spaces, landmarks) {
  const out = [];
  const terr = new Map(Object.entries(spaces));
  const seen = new Set();
  const sizes = {};
  for (const [k, tn] of terr) {
    if (seen.has(k)) continue;
    let n = 0;
    const stack = [k];
    seen.add(k);
    while (stack.length) {
      const [q, r] = stack.pop().split(",").map(Number);
      n++;
      for (const [dq, dr] of DIRECTIONS) {
        const nk = key(q + dq, r + dr);
        if (!seen.has(nk) && terr.get(nk) === tn) { seen.add(nk); stack.push(nk); }
      }
    }
    (sizes[tn] = sizes[tn] || []).push(n);
  }
  for (const [tn, list] of Object.entries(sizes)) {
    list.sort((a, b) => b - a);
    if (list.length > 1 && list[0] === list[1]) out.push({ text: t("pg.tie", { terrain: t(`terrain.${tn}`), n: list[0] }), spaces: [] });
  }
  const dist = (a, b) => (Math.abs(a.q - b.q) + Math.abs(a.r - b.r) + Math.abs(a.q + a.r - b.q - b.r)) / 2;
  for (const l of landmarks) {
    const tn = spaces[key(l.q, l.r)];
    if (tn && !DRY.has(tn)) out.push({ text: t("pg.on_water", { kind: t(`terrain.${l.kind}`), terrain: t(`terrain.${tn}`) }), spaces: [[l.q, l.r]] });
    if (l.kind === "statue" && DIRECTIONS.some(([dq, dr]) => !spaces[key(l.q + dq, l.r + dr)])) out.push({ text: t("pg.statue_sea"), spaces: [[l.q, l.r]] });
  }
  landmarks.forEach((a, i) => landmarks.slice(i + 1).forEach((b) => {
    if (a.kind === b.kind && dist(a, b) < 4) out.push({ text: t("pg.too_close", { kind: t(`terrain.${a.kind}`), n: dist(a, b) }), spaces: [[a.q, a.r], [b.q, b.r]] });
  }));
  return out;
}

// --- solving and drawing -----------------------------------------------------------------------

async function changed() {
  save();
  renderColumns();
  renderHand();
  await solve();
}

async function solve() {
  const mine = ++solveToken;
  const err = [];
  let island = null;
  if (state.src === "custom" && !Object.keys(state.spaces).length) {
    solved = null;
    buildBoard([], []);
    showProblems([{ text: t("pg.paint_first"), spaces: [] }]);
    draw();
    return;
  }
  try {
    const body = { island: islandSpec(), maps: MAP_COLOURS.map((id, i) => ({ id, clues: state.cols[i] })), hand: state.hand };
    const out = await api("POST", "/api/tobago/solve", body);
    if (mine !== solveToken) return;
    solved = out;
    island = out.island;
    namePlaces(body.island);
  } catch (e) {
    if (mine !== solveToken) return;
    solved = null;
    err.push({ text: t("pg.refused", { message: errorText(e, {}, { detail: true }) }), spaces: [] });
  }
  if (state.src === "custom") {
    const spaces = Object.entries(state.spaces).map(([k, terrain]) => { const [q, r] = k.split(",").map(Number); return { q, r, terrain }; });
    buildBoard(spaces, state.landmarks);
    err.unshift(...problems(state.spaces, state.landmarks));
  } else if (island) {
    buildBoard(island.spaces, island.landmarks);
    err.unshift(...problems(Object.fromEntries(island.spaces.map((s) => [key(s.q, s.r), s.terrain])), island.landmarks));
  }
  showProblems(err);
  draw(err);
  renderColumns();
  renderHand();
}

function showProblems(list) {
  $("pg-problems").replaceChildren(...list.map((p) => h("li", {}, p.text)));
}

let explained = null; // the space the why-panel names: [q, r], marked on the map
let lastProblems = [];

function draw(problemList = []) {
  if (!board) return;
  lastProblems = problemList;
  board.clear("candidates", "over", "under", "labels");
  for (const p of problemList) for (const [q, r] of p.spaces) if (board.cells.has(key(q, r))) board.overlayHex("over", q, r, "pg-bad", 0.8);
  if (solved) {
    solved.maps.forEach((m) => {
      if (!state.cols[MAP_COLOURS.indexOf(m.id)].length) return;
      const [ox, oy] = CAND_OFFSET[m.id];
      for (const [q, r] of m.candidates) {
        if (!board.cells.has(key(q, r))) continue;
        const [cx, cy] = board.centre(q, r);
        if (m.count === 1) board.overlayHex("over", q, r, `located located-${m.id}`, 0.92);
        board.layer("candidates").append(candidateMarker(m.id, cx + ox * board.size, cy + oy * board.size, board.size * (m.count === 1 ? 0.24 : 0.17)));
      }
    });
  }
  if (explained && board.cells.has(key(...explained))) {
    board.overlayHex("labels", ...explained, "named-outer", 0.93);
    board.overlayHex("labels", ...explained, "named", 0.93);
  }
  board.relabel();
}

function explain(q, r) {
  const box = $("pg-why");
  if (!solved) return;
  const cell = solved.island.spaces.find((s) => s.q === q && s.r === r);
  if (!cell) { box.replaceChildren(h("p", {}, t("pg.sea_space"))); return; }
  const lines = solved.maps.map((m, i) => {
    const ex = m.excluded.find((x) => x.space[0] === q && x.space[1] === r);
    let why;
    if (!state.cols[i].length) why = t("pg.no_clues");
    else if (!ex) why = m.count === 1 ? t("helper.the_treasure") : t("helper.is_candidate");
    else if (ex.by === "removed") why = t("helper.why_removed");
    else if (ex.by === "landmark") why = t("helper.why_landmark");
    else why = t("helper.why_clue", { n: ex.by + 1, clue: clueText(state.cols[i][ex.by]) });
    return h("li", {}, mapIcon(m.id, 14), " ", h("strong", {}, t(`map.${m.id}`)), t("common.colon"), why);
  });
  box.replaceChildren(h("p", {}, h("strong", { class: "helper-place" }, sentence(placeName(q, r)))), h("ul", { class: "why-list" }, lines));
  explained = [q, r];
  draw(lastProblems);
}

const sentence = (text) => text.charAt(0).toUpperCase() + text.slice(1);

/** A space's name for players (terrain, where, region, nearest landmark) once the helper has
 *  named this island's spaces; the terrain alone before, or when the island cannot be named. */
function placeName(q, r) {
  const cell = board && board.cells.get(key(q, r));
  return (places && places.get(key(q, r))) || t(`terrain.${(cell && cell.terrain) || "sea"}`);
}

/** Ask the helper to name the spaces of the island just solved (once per island). */
async function namePlaces(spec) {
  const k = JSON.stringify(spec);
  if (k === placesFor) return;
  placesFor = k;
  places = null;
  try {
    const out = await api("POST", "/api/tobago/helper", { island: spec, maps: [], lang, places: true });
    if (placesFor !== k) return;
    places = new Map(out.places.map((p) => [key(...p.space), p.name]));
    renderColumns();
    if (explained) explain(...explained);
    if (board) board.relabel();
  } catch (e) { /* the names stay terrains: the solve answer already said what is wrong */ }
}

// --- panels ------------------------------------------------------------------------------------

function renderColumns() {
  $("pg-columns").replaceChildren(...MAP_COLOURS.map((colour, i) => {
    const m = solved && solved.maps[i];
    const clues = state.cols[i];
    let count = "";
    if (m && clues.length) count = m.count === 1 ? t("pg.located_at", { place: placeName(...m.candidates[0]) }) : m.count === 0 ? t("pg.contradiction") : t("game.candidates_n", { count: m.count });
    return h("section", { class: `column column-${colour}${m && clues.length && m.count === 1 ? " is-located" : ""}`, "data-map": colour },
      h("header", {}, h("span", { class: "column-title" }, mapIcon(colour, 18), h("strong", {}, t(`map.${colour}`))), h("span", { class: "count", id: `pg-count-${colour}` }, count)),
      h("ol", { class: "column-clues" }, clues.map((n, k) => h("li", { class: "column-clue" }, clueIcon(n, 30), h("span", { class: "clue-sentence" }, clueText(n)),
        h("button", { type: "button", class: "small secondary", "aria-label": t("pg.remove_clue", { clue: clueText(n) }), onclick: () => { clues.splice(k, 1); changed(); } }, "×")))));
  }));
}

function renderHand() {
  $("pg-hand").replaceChildren(...(state.hand.length ? state.hand.map((n, k) => h("span", { class: "hand-card" }, clueIcon(n, 30), " ", clueText(n), " ",
    h("button", { type: "button", class: "small secondary", "aria-label": t("pg.remove_clue", { clue: clueText(n) }), onclick: () => { state.hand.splice(k, 1); changed(); } }, "×"))) : [h("span", { class: "muted" }, t("pg.hand_empty"))]));
  if (!solved || !state.hand.length) { $("pg-plays").replaceChildren(); return; }
  const rows = state.hand.map((n, hi) => h("tr", {}, h("th", { scope: "row" }, clueText(n)), MAP_COLOURS.map((m) => {
    const p = solved.plays.find((x) => x.hand_index === hi && x.map === m);
    // compact cells (✓ and what the play leaves), so the four maps fit beside the card names;
    // the words are the cell's tooltip and what a screen reader hears
    const words = p ? (p.legal ? t("pg.legal_n", { n: p.remaining }) : t("pg.illegal")) : "";
    return h("td", { class: p && p.legal ? "legal" : "illegal", title: words },
      h("span", { "aria-hidden": "true" }, p ? (p.legal ? `✓ ${p.remaining}` : "—") : ""), h("span", { class: "visually-hidden" }, words));
  })));
  $("pg-plays").replaceChildren(scrollBox(t("pg.plays"), h("table", { class: "costs-table pg-plays" },
    h("caption", { class: "visually-hidden" }, t("pg.plays")),
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("pg.card")), MAP_COLOURS.map((m) => h("th", { scope: "col" }, mapIcon(m, 14), " ", t(`map.${m}`))))),
    h("tbody", {}, rows))));
}

function renderTargets() {
  const names = [...MAP_COLOURS.map((m) => t(`map.${m}`)), t("pg.hand")];
  $("pg-target").replaceChildren(t("pg.add_to"), " ", ...names.map((n, i) => h("button", {
    type: "button", class: "small secondary tool", role: "radio", "aria-checked": target === i ? "true" : "false", id: `pg-target-${i}`,
    onclick: () => { target = i; renderTargets(); },
  }, i < 4 ? mapIcon(MAP_COLOURS[i], 14) : null, n)));
}

function renderCards() {
  $("pg-cards").replaceChildren(...DECK.map((n) => h("button", {
    type: "button", class: "pg-card", "data-clue": n,
    onclick: () => {
      if (target === 4) { if (state.hand.length < 8) state.hand.push(n); } else state.cols[target].push(n);
      changed();
    },
  }, clueIcon(n, 30), clueText(n))));
}

function renderTools() {
  const box = $("pg-tools");
  box.hidden = state.src !== "custom";
  // the painting tools are explained right before them, and only while they are shown
  $("pg-tools-help").hidden = box.hidden;
  const tools = ["inspect", ...TERRAINS, "sea", ...KINDS, "remove"];
  box.replaceChildren(...tools.map((x) => h("button", {
    type: "button", class: "small secondary tool", id: `pg-tool-${x}`, "aria-pressed": tool === x ? "true" : "false",
    onclick: () => { tool = x; renderTools(); },
  }, TERRAINS.includes(x) ? terrainSwatch(x, 18) : KINDS.includes(x) ? landmarkSwatch(x, 18) : null, t(x === "remove" ? "pg.remove_landmark" : x === "sea" ? "pg.erase" : x === "inspect" ? "pg.inspect" : `terrain.${x}`))));
}

function syncSource() {
  $("pg-source").value = state.src;
  $("pg-seed-box").hidden = state.src !== "generated";
  $("pg-seed").value = state.seed;
  renderTools();
}

async function init() {
  const m = /#s=([\w-]+)/.exec(location.hash);
  const loaded = m ? decode(m[1]) : null;
  if (loaded) state = loaded;
  syncSource();
  renderTargets();
  renderCards();
  $("pg-source").addEventListener("change", () => { state.src = $("pg-source").value; syncSource(); changed(); });
  $("pg-seed").addEventListener("change", () => { state.seed = Math.max(0, Number($("pg-seed").value) || 0); changed(); });
  $("pg-edit").addEventListener("click", () => {
    if (!solved) return;
    state.spaces = Object.fromEntries(solved.island.spaces.map((s) => [key(s.q, s.r), s.terrain]));
    state.landmarks = solved.island.landmarks.map((l) => ({ ...l }));
    state.src = "custom";
    syncSource();
    changed();
  });
  $("pg-empty").addEventListener("click", () => {
    state = { src: "custom", seed: state.seed, spaces: {}, landmarks: [], cols: [[], [], [], []], hand: [] };
    syncSource();
    changed();
  });
  $("zoom").addEventListener("click", () => setZoom(!$("pg-board").classList.contains("zoomed")));
  $("pg-copy-link").addEventListener("click", async () => {
    try { await navigator.clipboard.writeText(location.href); $("pg-copied").textContent = t("pg.copied"); } catch (e) { $("pg-copied").textContent = location.href; }
  });
  await changed();
}

init();
