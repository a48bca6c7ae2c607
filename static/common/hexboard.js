// The island as an interactive SVG: pointy-top axial hexes (rules §1), terrain colours *and*
// patterns (the same palette and textures as hexmap/svg.py, so colour-blind players can tell them
// apart), landmarks, and named overlay layers the pages draw into (candidates, ATVs, costs...).
//
// Keyboard: the board is one tab stop (roving tabindex); arrow keys move between hexes, Home goes
// to the first one, Enter or Space activates the focused hex (the same as a click).

const NS = "http://www.w3.org/2000/svg";
const SQRT3 = Math.sqrt(3);
export const DIRECTIONS = [[1, 0], [1, -1], [0, -1], [-1, 0], [-1, 1], [0, 1]];
export const TERRAINS = ["jungle", "beach", "river", "lake", "mountain", "grassland"];
export const TERRAIN_STYLE = {
  jungle: ["#1f6f3a", "#0d3d1d"],
  grassland: ["#b5d86a", "#5d7f1f"],
  beach: ["#f5e3a1", "#a8883a"],
  river: ["#2f6db5", "#d8ecff"],
  lake: ["#7fb8e6", "#1d4f80"],
  mountain: ["#8a7a6a", "#3b2f25"],
};
export const SEA_COLOUR = "#dcecf5";
let boardCount = 0;

/** Make an SVG element with attributes (and optional text). */
export function svgEl(tag, attrs = {}, text = null) {
  const el = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== null && v !== undefined) el.setAttribute(k, v);
  if (text !== null) el.textContent = text;
  return el;
}

export const key = (q, r) => `${q},${r}`;

/** Centre of hex (q, r) for hexes of radius `size` (no origin shift). */
export function toPixel(q, r, size) {
  return [(SQRT3 * q + (SQRT3 / 2) * r) * size, 1.5 * r * size];
}

export function corners(cx, cy, size, scale = 1) {
  const pts = [];
  for (let i = 0; i < 6; i++) {
    const a = (Math.PI / 180) * (60 * i + 30);
    pts.push([cx + size * scale * Math.cos(a), cy + size * scale * Math.sin(a)]);
  }
  return pts;
}

const pts = (list) => list.map(([x, y]) => `${x.toFixed(2)},${y.toFixed(2)}`).join(" ");

/** The pattern marks of one terrain in a tile of side s (as hexmap/svg.py draws them). */
function texture(terrain, s, ink) {
  const h = s / 2;
  const line = { stroke: ink, "stroke-width": s / 12, fill: "none" };
  switch (terrain) {
    case "jungle":
      return [["circle", { cx: h / 2, cy: h / 2, r: s / 7, fill: ink }], ["circle", { cx: h * 1.5, cy: h * 1.5, r: s / 7, fill: ink }]];
    case "grassland":
      return [["path", { d: `M${h * 0.6},${h} l${s / 10},${-s / 5} l${s / 10},${s / 5}`, ...line }]];
    case "beach":
      return [["circle", { cx: s * 0.25, cy: s * 0.3, r: s / 16, fill: ink }], ["circle", { cx: s * 0.75, cy: s * 0.8, r: s / 16, fill: ink }]];
    case "river":
      return [["path", { d: `M0,${h} q${s / 4},${-s / 4} ${h},0 t${h},0`, ...line }]];
    case "lake":
      return [["path", { d: `M${s * 0.2},${h} h${s * 0.6}`, ...line }]];
    case "mountain":
      return [["path", { d: `M${s * 0.15},${s * 0.75} L${h},${s * 0.25} L${s * 0.85},${s * 0.75}`, ...line }]];
    default:
      return [];
  }
}

/** Landmark symbols in a 20×20 box centred on 0,0: outlines that differ, not only colours. */
const SYMBOLS = {
  palm: [
    ["path", { d: "M0,9 Q1,2 0,-3", stroke: "#5a3a1a", "stroke-width": 2.4, fill: "none" }],
    ["path", { d: "M0,-3 Q-6,-7 -9,-2 M0,-3 Q6,-7 9,-2 M0,-3 Q-3,-9 -6,-9 M0,-3 Q3,-9 6,-9", stroke: "#0b5d1e", "stroke-width": 2.6, fill: "none" }],
  ],
  hut: [
    ["path", { d: "M-8,1 L0,-8 L8,1 Z", fill: "#c0392b", stroke: "#000", "stroke-width": 1 }],
    ["rect", { x: -6, y: 1, width: 12, height: 8, fill: "#f4d3a0", stroke: "#000", "stroke-width": 1 }],
    ["rect", { x: -1.5, y: 4, width: 3, height: 5, fill: "#000" }],
  ],
  statue: [
    ["path", { d: "M-5,9 L-5,-3 Q-5,-9 0,-9 Q5,-9 5,-3 L5,9 Z", fill: "#9e9e9e", stroke: "#000", "stroke-width": 1.2 }],
    ["rect", { x: -3, y: -4, width: 2, height: 2, fill: "#000" }],
    ["rect", { x: 1, y: -4, width: 2, height: 2, fill: "#000" }],
    ["path", { d: "M-2,3 H2", stroke: "#000", "stroke-width": 1.2 }],
  ],
};

/** Add the terrain patterns and landmark symbols to an <svg> (ids prefixed with `prefix`). */
export function addDefs(svg, prefix, size) {
  const defs = svgEl("defs");
  const s = Math.max(6, size / 3);
  for (const [terrain, [base, ink]] of Object.entries(TERRAIN_STYLE)) {
    const pat = svgEl("pattern", { id: `${prefix}-t-${terrain}`, patternUnits: "userSpaceOnUse", width: s, height: s });
    pat.append(svgEl("rect", { width: s, height: s, fill: base }));
    for (const [tag, attrs] of texture(terrain, s, ink)) pat.append(svgEl(tag, attrs));
    defs.append(pat);
  }
  for (const [kind, shapes] of Object.entries(SYMBOLS)) {
    const sym = svgEl("symbol", { id: `${prefix}-lm-${kind}`, viewBox: "-10 -10 20 20" });
    for (const [tag, attrs] of shapes) sym.append(svgEl(tag, attrs));
    defs.append(sym);
  }
  const marker = svgEl("marker", { id: `${prefix}-arrow`, viewBox: "0 0 10 10", refX: 7, refY: 5, markerWidth: 4, markerHeight: 4, orient: "auto" });
  marker.append(svgEl("path", { d: "M0,0 L10,5 L0,10 z", fill: "#000" }));
  defs.append(marker);
  svg.append(defs);
}

/** A small standalone SVG swatch of a terrain (legend, clue icons). */
export function terrainSwatch(terrain, px = 22) {
  const svg = svgEl("svg", { viewBox: "-11 -11 22 22", width: px, height: px, class: "swatch", "aria-hidden": "true" });
  const prefix = `sw${++boardCount}`;
  addDefs(svg, prefix, 24);
  svg.append(svgEl("polygon", { points: pts(corners(0, 0, 10)), fill: `url(#${prefix}-t-${terrain})`, stroke: "#333", "stroke-width": 1 }));
  return svg;
}

/** A small standalone SVG of a landmark symbol. */
export function landmarkSwatch(kind, px = 22) {
  const svg = svgEl("svg", { viewBox: "-11 -11 22 22", width: px, height: px, class: "swatch", "aria-hidden": "true" });
  const prefix = `sw${++boardCount}`;
  addDefs(svg, prefix, 24);
  svg.append(svgEl("use", { href: `#${prefix}-lm-${kind}`, x: -10, y: -10, width: 20, height: 20 }));
  return svg;
}

export class HexBoard {
  /**
   * cells: [{q, r, terrain}] — terrain null draws an empty (sea) cell that can still be focused
   * and clicked (the playground's editor); landmarks: [{q, r, kind, facing}].
   * options: {size, label(q, r) → accessible name, title}
   */
  constructor(container, cells, landmarks = [], options = {}) {
    this.container = container;
    this.size = options.size || 24;
    this.label = options.label || ((q, r) => `(${q}, ${r})`);
    this.prefix = `hb${++boardCount}`;
    this.handlers = [];
    this.cells = new Map();
    this.focusKey = null;
    this.build(cells, landmarks, options.title || "");
  }

  build(cells, landmarks, title) {
    const size = this.size;
    let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
    for (const c of cells) {
      const [x, y] = toPixel(c.q, c.r, size);
      minX = Math.min(minX, x); maxX = Math.max(maxX, x); minY = Math.min(minY, y); maxY = Math.max(maxY, y);
    }
    const pad = size * 1.1;
    const w = size * SQRT3 / 2;
    this.origin = [-(minX - w - pad), -(minY - size - pad)];
    const width = maxX - minX + 2 * (w + pad);
    const height = maxY - minY + 2 * (size + pad);
    const svg = svgEl("svg", { viewBox: `0 0 ${width.toFixed(1)} ${height.toFixed(1)}`, class: "hexboard", role: "group", "aria-label": title });
    addDefs(svg, this.prefix, size);
    svg.append(svgEl("rect", { class: "sea", x: 0, y: 0, width, height, fill: SEA_COLOUR }));
    this.svg = svg;
    this.layers = {};
    for (const name of ["hexes", "coast", "under", "landmarks", "over", "candidates", "amulets", "atvs", "labels", "focus"]) {
      this.layers[name] = svg.appendChild(svgEl("g", { class: `layer-${name}` }));
    }
    for (const c of cells) this.addCell(c);
    this.drawCoast();
    this.setLandmarks(landmarks);
    svg.addEventListener("click", (ev) => {
      const poly = ev.target.closest("polygon.hex");
      if (poly) this.activate(poly.dataset.q | 0, poly.dataset.r | 0, ev);
    });
    svg.addEventListener("keydown", (ev) => this.onKey(ev));
    svg.addEventListener("focusin", (ev) => {
      const poly = ev.target.closest && ev.target.closest("polygon.hex");
      if (poly) this.setRoving(poly.dataset.q | 0, poly.dataset.r | 0);
      if (poly && poly.matches(":focus-visible")) this.showFocus(poly);
    });
    svg.addEventListener("focusout", () => this.layers.focus.replaceChildren());
    this.container.replaceChildren(svg);
    const first = cells.find((c) => c.terrain) || cells[0];
    if (first) this.setRoving(first.q, first.r);
  }

  addCell(c) {
    const [cx, cy] = this.centre(c.q, c.r);
    const poly = svgEl("polygon", {
      class: `hex ${c.terrain ? "terrain-" + c.terrain : "empty"}`,
      "data-q": c.q, "data-r": c.r, "data-terrain": c.terrain || "sea",
      points: pts(corners(cx, cy, this.size)),
      fill: c.terrain ? `url(#${this.prefix}-t-${c.terrain})` : "transparent",
      tabindex: -1, role: "button", focusable: "true",
    });
    poly.setAttribute("aria-label", this.label(c.q, c.r));
    this.layers.hexes.append(poly);
    this.cells.set(key(c.q, c.r), { ...c, el: poly });
  }

  /** Change a cell's terrain (null: sea) — the playground's editor. */
  setTerrain(q, r, terrain) {
    const cell = this.cells.get(key(q, r));
    if (!cell) return;
    cell.terrain = terrain;
    const el = cell.el;
    el.setAttribute("class", `hex ${terrain ? "terrain-" + terrain : "empty"}`);
    el.dataset.terrain = terrain || "sea";
    el.setAttribute("fill", terrain ? `url(#${this.prefix}-t-${terrain})` : "transparent");
    this.drawCoast();
  }

  isLand(q, r) {
    const c = this.cells.get(key(q, r));
    return !!(c && c.terrain);
  }

  drawCoast() {
    const parts = [];
    const edge = { 0: [5, 0], 1: [4, 5], 2: [3, 4], 3: [2, 3], 4: [1, 2], 5: [0, 1] };
    for (const c of this.cells.values()) {
      if (!c.terrain) continue;
      const cs = corners(...this.centre(c.q, c.r), this.size);
      DIRECTIONS.forEach(([dq, dr], d) => {
        if (!this.isLand(c.q + dq, c.r + dr)) {
          const [a, b] = edge[d];
          parts.push(`M${cs[a][0].toFixed(2)},${cs[a][1].toFixed(2)} L${cs[b][0].toFixed(2)},${cs[b][1].toFixed(2)}`);
        }
      });
    }
    this.layers.coast.replaceChildren(svgEl("path", { class: "coast", d: parts.join(" ") }));
  }

  centre(q, r) {
    const [x, y] = toPixel(q, r, this.size);
    return [x + this.origin[0], y + this.origin[1]];
  }

  hexEl(q, r) {
    const c = this.cells.get(key(q, r));
    return c ? c.el : null;
  }

  /** Landmarks (statue facing drawn as an arrow; `facings` overrides: "q,r" → direction). */
  setLandmarks(landmarks, facings = {}) {
    this.landmarks = landmarks;
    const g = this.layers.landmarks;
    g.replaceChildren();
    const icon = this.size * 0.78;
    for (const lm of landmarks) {
      const [cx, cy] = this.centre(lm.q, lm.r);
      const grp = svgEl("g", { class: `landmark ${lm.kind}`, "data-q": lm.q, "data-r": lm.r });
      let facing = lm.kind === "statue" ? facings[key(lm.q, lm.r)] ?? lm.facing : null;
      if (facing !== null && facing !== undefined) {
        const [dx, dy] = toPixel(...DIRECTIONS[facing], 1);
        const len = Math.hypot(dx, dy);
        const ux = dx / len, uy = dy / len;
        grp.dataset.facing = facing;
        grp.append(svgEl("line", {
          class: "facing", x1: cx + ux * this.size * 0.3, y1: cy + uy * this.size * 0.3,
          x2: cx + ux * this.size * 0.98, y2: cy + uy * this.size * 0.98, "marker-end": `url(#${this.prefix}-arrow)`,
        }));
      }
      grp.append(svgEl("use", { href: `#${this.prefix}-lm-${lm.kind}`, x: cx - icon / 2, y: cy - icon / 2, width: icon, height: icon }));
      g.append(grp);
    }
  }

  layer(name) { return this.layers[name]; }
  clear(...names) { for (const n of names) this.layers[n].replaceChildren(); }

  /** A polygon over hex (q, r), shrunk by `scale`, in layer `name`, with CSS `cls`. */
  overlayHex(name, q, r, cls, scale = 0.86) {
    const [cx, cy] = this.centre(q, r);
    const el = svgEl("polygon", { class: `overlay ${cls}`, "data-q": q, "data-r": r, points: pts(corners(cx, cy, this.size, scale)) });
    this.layers[name].append(el);
    return el;
  }

  /** Text centred at a hex (costs, counts). */
  text(name, q, r, value, cls = "", dy = 0) {
    const [cx, cy] = this.centre(q, r);
    const el = svgEl("text", { class: `hex-text ${cls}`, x: cx, y: cy + dy * this.size, "text-anchor": "middle", "dominant-baseline": "central" }, String(value));
    this.layers[name].append(el);
    return el;
  }

  /** Call `fn(q, r, event)` when a hex is clicked or activated from the keyboard. */
  onActivate(fn) { this.handlers.push(fn); }

  activate(q, r, ev) {
    this.setRoving(q, r);
    for (const fn of this.handlers) fn(q, r, ev);
  }

  /** Refresh every hex's accessible name (after the overlays changed). */
  relabel() {
    for (const c of this.cells.values()) c.el.setAttribute("aria-label", this.label(c.q, c.r));
  }

  setRoving(q, r) {
    const k = key(q, r);
    if (!this.cells.has(k)) return;
    if (this.focusKey && this.cells.has(this.focusKey)) this.cells.get(this.focusKey).el.setAttribute("tabindex", "-1");
    this.focusKey = k;
    this.cells.get(k).el.setAttribute("tabindex", "0");
  }

  focusHex(q, r) {
    this.setRoving(q, r);
    const el = this.hexEl(q, r);
    if (el) el.focus();
  }

  showFocus(poly) {
    const q = poly.dataset.q | 0, r = poly.dataset.r | 0;
    this.setRoving(q, r);
    const [cx, cy] = this.centre(q, r);
    this.layers.focus.replaceChildren(
      svgEl("polygon", { class: "focus-ring-outer", points: pts(corners(cx, cy, this.size, 0.97)) }),
      svgEl("polygon", { class: "focus-ring", points: pts(corners(cx, cy, this.size, 0.97)) }),
    );
  }

  onKey(ev) {
    const poly = ev.target.closest && ev.target.closest("polygon.hex");
    if (!poly) return;
    const q = poly.dataset.q | 0, r = poly.dataset.r | 0;
    if (ev.key === "Enter" || ev.key === " ") {
      ev.preventDefault();
      this.activate(q, r, ev);
      return;
    }
    const dirs = { ArrowRight: [1, 0], ArrowLeft: [-1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
    if (ev.key === "Home") {
      ev.preventDefault();
      const first = [...this.cells.values()][0];
      this.focusHex(first.q, first.r);
      return;
    }
    const d = dirs[ev.key];
    if (!d) return;
    ev.preventDefault();
    const next = this.nearestInDirection(q, r, d);
    if (next) this.focusHex(next.q, next.r);
  }

  /** The closest cell from (q, r) whose centre lies within 60° of screen direction d. */
  nearestInDirection(q, r, d) {
    const [x0, y0] = this.centre(q, r);
    let best = null, bestScore = Infinity;
    for (const c of this.cells.values()) {
      if (c.q === q && c.r === r) continue;
      const [x, y] = this.centre(c.q, c.r);
      const dx = x - x0, dy = y - y0;
      const along = dx * d[0] + dy * d[1];
      if (along <= 0) continue;
      const across = Math.abs(dx * d[1] - dy * d[0]);
      if (across > along * 1.2) continue;
      const score = along + across * 2;
      if (score < bestScore) { bestScore = score; best = c; }
    }
    return best;
  }
}

/** Drive costs from `start` (rules §5): 1 point to cross your whole region, 1 to step onto a
 *  neighbouring space of another terrain; the sea is never entered. Returns Map "q,r" → cost. */
export function driveCosts(terrainOf, start) {
  const cost = new Map([[key(...start), 0]]);
  const frontier = [start];
  const regionDone = new Set();
  const regionOf = (q, r) => {
    const t = terrainOf.get(key(q, r));
    const seen = new Set([key(q, r)]);
    const out = [[q, r]];
    for (let i = 0; i < out.length; i++) {
      for (const [dq, dr] of DIRECTIONS) {
        const n = [out[i][0] + dq, out[i][1] + dr];
        const k = key(...n);
        if (!seen.has(k) && terrainOf.get(k) === t) { seen.add(k); out.push(n); }
      }
    }
    return out;
  };
  for (let i = 0; i < frontier.length; i++) {
    const [q, r] = frontier[i];
    const c = cost.get(key(q, r)) + 1;
    const t = terrainOf.get(key(q, r));
    const region = regionOf(q, r);
    const rk = region.map((h) => key(...h)).sort()[0];
    if (!regionDone.has(rk)) {
      regionDone.add(rk);
      for (const h of region) if (!cost.has(key(...h))) { cost.set(key(...h), c); frontier.push(h); }
    }
    for (const [dq, dr] of DIRECTIONS) {
      const n = [q + dq, r + dr];
      const k = key(...n);
      const nt = terrainOf.get(k);
      if (nt && nt !== t && !cost.has(k)) { cost.set(k, c); frontier.push(n); }
    }
  }
  return cost;
}
