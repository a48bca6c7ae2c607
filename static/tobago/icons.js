// Pictures of Tobago things: clue cards as icons, the four maps' candidate markers, the seats'
// markers and ATVs. Every one differs by shape (and a number or letter), not by colour alone.

import { addDefs, corners, svgEl, TERRAINS } from "../common/hexboard.js";

let iconCount = 0;
export const MAP_COLOURS = ["white", "grey", "black", "brown"];
/** Candidate marker per map: shape, fill, outline (white/black outlines: visible on every terrain). */
export const MAP_STYLE = {
  white: { shape: "circle", fill: "#ffffff", stroke: "#000000" },
  grey: { shape: "square", fill: "#8e8e8e", stroke: "#000000" },
  black: { shape: "triangle", fill: "#111111", stroke: "#ffffff" },
  brown: { shape: "diamond", fill: "#9a5b25", stroke: "#ffffff" },
};
/** Seat colours (the engine's seat_colours) and a shape each. */
export const SEAT_STYLE = [
  { colour: "#d62728", ink: "#fff", shape: "circle" },
  { colour: "#1f5fbf", ink: "#fff", shape: "square" },
  { colour: "#2ca02c", ink: "#000", shape: "triangle" },
  { colour: "#f2c200", ink: "#000", shape: "diamond" },
];

const pts = (list) => list.map(([x, y]) => `${x.toFixed(2)},${y.toFixed(2)}`).join(" ");

/** A shape element centred at (cx, cy) with radius r. */
export function shapeEl(shape, cx, cy, r, attrs = {}) {
  switch (shape) {
    case "square":
      return svgEl("rect", { x: cx - r * 0.85, y: cy - r * 0.85, width: r * 1.7, height: r * 1.7, ...attrs });
    case "triangle":
      return svgEl("polygon", { points: pts([[cx, cy - r * 1.05], [cx + r, cy + r * 0.75], [cx - r, cy + r * 0.75]]), ...attrs });
    case "diamond":
      return svgEl("polygon", { points: pts([[cx, cy - r * 1.1], [cx + r * 1.1, cy], [cx, cy + r * 1.1], [cx - r * 1.1, cy]]), ...attrs });
    default:
      return svgEl("circle", { cx, cy, r, ...attrs });
  }
}

/** A candidate marker of `colour` (white/grey/black/brown) at (cx, cy). */
export function candidateMarker(colour, cx, cy, r) {
  const s = MAP_STYLE[colour];
  return shapeEl(s.shape, cx, cy, r, { class: `cand cand-${colour}`, fill: s.fill, stroke: s.stroke, "stroke-width": Math.max(1, r * 0.35) });
}

/** A standalone icon of a map's candidate marker (legends, column headers). */
export function mapIcon(colour, px = 18) {
  const svg = svgEl("svg", { viewBox: "-10 -10 20 20", width: px, height: px, class: "map-icon", "aria-hidden": "true" });
  svg.append(svgEl("rect", { x: -10, y: -10, width: 20, height: 20, rx: 3, fill: "#c9d6a3" }));
  svg.append(candidateMarker(colour, 0, 0, 6.5));
  return svg;
}

/** A seat's compass marker: its shape, in its colour, with the seat number. */
export function seatMarker(seat, px = 20, title = "") {
  const st = SEAT_STYLE[seat % SEAT_STYLE.length];
  const svg = svgEl("svg", { viewBox: "-10 -10 20 20", width: px, height: px, class: `seat-marker seat-${seat}`, role: "img", "aria-label": title || `${seat + 1}` });
  if (title) svg.append(svgEl("title", {}, title));
  svg.append(shapeEl(st.shape, 0, 0, 8.6, { fill: st.colour, stroke: "#000", "stroke-width": 1.2 }));
  svg.append(svgEl("text", { x: 0, y: st.shape === "triangle" ? 3 : 0.5, "text-anchor": "middle", "dominant-baseline": "central", "font-size": 10, "font-weight": 700, fill: st.ink }, String(seat + 1)));
  return svg;
}

/** An ATV on the board: a rounded body in the seat's colour with wheels and the seat number. */
export function atvElement(seat, cx, cy, w) {
  const st = SEAT_STYLE[seat % SEAT_STYLE.length];
  const h = w * 0.62;
  const g = svgEl("g", { class: `atv atv-seat-${seat}`, "data-seat": seat });
  g.append(svgEl("circle", { cx: cx - w * 0.3, cy: cy + h * 0.5, r: h * 0.24, fill: "#111" }));
  g.append(svgEl("circle", { cx: cx + w * 0.3, cy: cy + h * 0.5, r: h * 0.24, fill: "#111" }));
  g.append(svgEl("rect", { x: cx - w / 2, y: cy - h / 2, width: w, height: h, rx: h * 0.3, fill: st.colour, stroke: "#000", "stroke-width": Math.max(0.8, w * 0.06) }));
  g.append(svgEl("text", { x: cx, y: cy + 0.5, "text-anchor": "middle", "dominant-baseline": "central", "font-size": h * 0.85, "font-weight": 700, fill: st.ink }, String(seat + 1)));
  return g;
}

/** Split a clue notation: {negated, relation: "in"|"near", distance, largest, target}. */
export function parseNotation(n) {
  const m = /^(!)?(in|near1|near2):(largest:)?([a-z]+)$/.exec(n);
  if (!m) return null;
  return { negated: !!m[1], relation: m[2] === "in" ? "in" : "near", distance: m[2] === "in" ? 0 : Number(m[2][4]), largest: !!m[3], target: m[4] };
}

/** A clue card as a picture: the target in the middle (terrain pattern, sea waves or landmark),
 *  rings for "within 1/2", a crown for "largest", a bold slash for "not". */
export function clueIcon(notation, px = 44) {
  const c = parseNotation(notation);
  const svg = svgEl("svg", { viewBox: "-22 -22 44 44", width: px, height: px, class: "clue-icon", "aria-hidden": "true" });
  if (!c) return svg;
  const prefix = `ci${++iconCount}`;
  addDefs(svg, prefix, 30);
  svg.append(svgEl("rect", { x: -21, y: -21, width: 42, height: 42, rx: 5, fill: "#fffdf6", stroke: "#6b6253", "stroke-width": 1.2 }));
  const inner = c.relation === "in" ? 15 : c.distance === 1 ? 9.5 : 6.5;
  for (let ring = c.distance; ring >= 1; ring--) {
    const rr = inner + ring * (c.distance === 1 ? 7.5 : 6.2);
    svg.append(svgEl("polygon", { points: pts(corners(0, 0, rr)), fill: "none", stroke: "#3b3b3b", "stroke-width": 1.3, "stroke-dasharray": "3 2" }));
  }
  const hexPts = pts(corners(0, 0, inner));
  if (TERRAINS.includes(c.target)) {
    svg.append(svgEl("polygon", { points: hexPts, fill: `url(#${prefix}-t-${c.target})`, stroke: "#222", "stroke-width": 1.2 }));
  } else if (c.target === "sea") {
    svg.append(svgEl("polygon", { points: hexPts, fill: "#9cc9e6", stroke: "#1d4f80", "stroke-width": 1.2 }));
    svg.append(svgEl("path", { d: `M${-inner * 0.7},0 q${inner * 0.35},${-inner * 0.35} ${inner * 0.7},0 t${inner * 0.7},0`, stroke: "#1d4f80", "stroke-width": 1.4, fill: "none" }));
  } else {
    svg.append(svgEl("polygon", { points: hexPts, fill: "#ffffff", stroke: "#222", "stroke-width": 1.2 }));
    const s = inner * 1.5;
    svg.append(svgEl("use", { href: `#${prefix}-lm-${c.target}`, x: -s / 2, y: -s / 2, width: s, height: s }));
  }
  if (c.largest) {
    svg.append(svgEl("path", { d: "M-9,-13 L-9,-20 L-4.5,-16 L0,-21 L4.5,-16 L9,-20 L9,-13 Z", fill: "#f2c200", stroke: "#000", "stroke-width": 1.1 }));
  }
  if (c.negated) {
    svg.append(svgEl("line", { x1: -17, y1: 17, x2: 17, y2: -17, stroke: "#fff", "stroke-width": 6, "stroke-linecap": "round" }));
    svg.append(svgEl("line", { x1: -17, y1: 17, x2: 17, y2: -17, stroke: "#b3001b", "stroke-width": 3.5, "stroke-linecap": "round" }));
  }
  return svg;
}
