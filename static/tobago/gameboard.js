// Drawing a Tobago position on the HexBoard: candidates of each shown map, ATVs, amulets, statue
// facings, and the overlays of the current choice (reachable spaces with costs, a play's preview).

import { key } from "../common/hexboard.js";
import { clauses, list, t } from "../common/i18n.js";
import { atvElement, candidateMarker, MAP_COLOURS } from "./icons.js";
import { mapName, seatName } from "./logtext.js";

/** Where each map's candidate marker sits inside a hex (fractions of the hex radius). */
const CAND_OFFSET = { white: [-0.46, -0.22], grey: [0.46, -0.22], black: [-0.46, 0.3], brown: [0.46, 0.3] };

/** Index of a view's positions for quick look-ups: candidates per map, ATVs, amulets per space. */
export function indexView(view) {
  const cands = {};
  for (const m of view.maps) cands[m.colour] = m.candidates ? new Set(m.candidates.map((c) => key(...c))) : null;
  const atvs = new Map();
  view.players.forEach((p, i) => {
    if (p.atv) {
      const k = key(...p.atv);
      if (!atvs.has(k)) atvs.set(k, []);
      atvs.get(k).push(i);
    }
  });
  const amulets = new Set((view.amulets_on_island || []).map((a) => key(...a)));
  return { cands, atvs, amulets };
}

/**
 * Draw the position. opts: {visible: Set of map colours, reach: Map key → cost (drive mode),
 * preview: [[q, r]...] | null, targets: Set of keys to outline (remove-marker, ATV placement),
 * seats, mySeat}.
 */
export function drawPosition(board, view, opts) {
  const idx = indexView(view);
  const size = board.size;
  board.clear("under", "candidates", "amulets", "atvs", "labels", "over");
  const facings = {};
  for (const s of view.statues || []) facings[key(...s.at)] = s.facing;
  board.setLandmarks(board.landmarks, facings);

  if (opts.preview) {
    const keep = new Set(opts.preview.map((c) => key(...c)));
    for (const cell of board.cells.values()) {
      if (!cell.terrain) continue;
      board.overlayHex("under", cell.q, cell.r, keep.has(key(cell.q, cell.r)) ? "preview-keep" : "preview-out", keep.has(key(cell.q, cell.r)) ? 0.9 : 1);
    }
  }
  for (const colour of MAP_COLOURS) {
    if (!opts.visible.has(colour) || !idx.cands[colour]) continue;
    const m = view.maps.find((x) => x.colour === colour);
    if (!m || m.count === undefined || !m.clues.length) continue;
    const [ox, oy] = CAND_OFFSET[colour];
    const one = idx.cands[colour].size === 1;
    const few = idx.cands[colour].size <= 6;
    for (const k of idx.cands[colour]) {
      const [q, r] = k.split(",").map(Number);
      const [cx, cy] = board.centre(q, r);
      if (one) board.overlayHex("over", q, r, `located located-${colour}`, 0.92);
      board.layer("candidates").append(candidateMarker(colour, cx + ox * size, cy + oy * size, size * (one ? 0.26 : few ? 0.22 : 0.17)));
    }
  }
  if (opts.targets) {
    for (const k of opts.targets) {
      const [q, r] = k.split(",").map(Number);
      board.overlayHex("over", q, r, "target", 0.8);
    }
  }
  if (opts.reach) {
    for (const [k, cost] of opts.reach) {
      const [q, r] = k.split(",").map(Number);
      board.overlayHex("over", q, r, `reach reach-${cost}`, 0.8);
      board.text("labels", q, r, cost, "cost", 0);
    }
  }
  for (const k of idx.amulets) {
    const [q, r] = k.split(",").map(Number);
    const [cx, cy] = board.centre(q, r);
    board.layer("amulets").append(amuletStar(cx, cy - size * 0.6, size * 0.27, q, r));
  }
  for (const [k, seats] of idx.atvs) {
    const [q, r] = k.split(",").map(Number);
    const [cx, cy] = board.centre(q, r);
    const w = size * (seats.length > 2 ? 0.42 : seats.length === 2 ? 0.58 : 0.72);
    seats.forEach((s, i) => {
      const x = cx + (i - (seats.length - 1) / 2) * w * 1.08;
      const el = atvElement(s, x, cy + size * 0.5, w);
      if (s === opts.mySeat) el.classList.add("mine");
      board.layer("atvs").append(el);
    });
  }
  board.label = (q, r) => hexLabel(board, view, idx, opts, q, r);
  board.relabel();
}

/** An amulet: a five-pointed gold star with a dark outline (no candidate marker is a star). */
export function amuletStar(cx, cy, r, q, rr) {
  const pts = [];
  for (let i = 0; i < 10; i++) {
    const a = (Math.PI / 5) * i - Math.PI / 2;
    const d = i % 2 ? r * 0.45 : r;
    pts.push(`${(cx + d * Math.cos(a)).toFixed(2)},${(cy + d * Math.sin(a)).toFixed(2)}`);
  }
  const el = document.createElementNS("http://www.w3.org/2000/svg", "polygon");
  el.setAttribute("class", "amulet");
  el.setAttribute("data-q", q);
  el.setAttribute("data-r", rr);
  el.setAttribute("points", pts.join(" "));
  return el;
}

/** The accessible name of a hex: terrain, landmark, candidates, ATVs, amulet, drive cost. */
function hexLabel(board, view, idx, opts, q, r) {
  const cell = board.cells.get(key(q, r));
  // named as players find it (terrain, where, region, landmark) when the page knows the names
  const parts = [opts.placeName ? opts.placeName(q, r) : `${t(`terrain.${cell.terrain}`)} (${q}, ${r})`];
  const lm = board.landmarks.find((l) => l.q === q && l.r === r);
  if (lm) parts.push(t(`terrain.${lm.kind}`));
  const k = key(q, r);
  const maps = MAP_COLOURS.filter((c) => idx.cands[c] && idx.cands[c].has(k) && opts.visible.has(c));
  if (maps.length) parts.push(t("game.label_candidate", { maps: list(maps.map(mapName)) }));
  if (idx.amulets.has(k)) parts.push(t("game.label_amulet"));
  if (idx.atvs.has(k)) parts.push(t("game.label_atvs", { who: list(idx.atvs.get(k).map((s) => seatName(opts.seats, s, opts.mySeat))) }));
  if (opts.reach && opts.reach.has(k)) parts.push(t("game.label_cost", { n: opts.reach.get(k) }));
  return clauses(parts);
}
