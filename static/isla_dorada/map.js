// The island as SVG: routes drawn by type (rivers with arrows downstream), places with their
// names, the crash site, exploration markers, the expedition, Bigfoot and the Leviathan, and the
// treasures and curses played at each place. Routes and places the player may choose now are
// buttons (click, or Tab to them and press Enter or Space).

import { t } from "../common/i18n.js";
import { DATA, placeName, routeName, typeName } from "./cards.js";

const NS = "http://www.w3.org/2000/svg";
export const ROUTE_STYLE = {
  mountain: { colour: "#8a5a2b", dash: "", width: 5 },
  desert: { colour: "#d39b1f", dash: "10 5", width: 5 },
  jungle: { colour: "#2f8a3c", dash: "", width: 5 },
  river: { colour: "#2f7de0", dash: "", width: 4 },
  lake: { colour: "#3cb6d6", dash: "3 5", width: 4 },
  sea: { colour: "#17408f", dash: "12 6", width: 4 },
};

function el(tag, attrs = {}, ...children) {
  const node = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== null && v !== undefined && v !== false) node.setAttribute(k, v);
  for (const c of children) if (c) node.append(c);
  return node;
}

function title(text) {
  const node = el("title");
  node.textContent = text;
  return node;
}

function button(node, label, onPick) {
  node.setAttribute("tabindex", "0");
  node.setAttribute("role", "button");
  node.setAttribute("aria-label", label);
  node.classList.add("pickable");
  node.addEventListener("click", onPick);
  node.addEventListener("keydown", (ev) => {
    if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); onPick(); }
  });
}

/**
 * Draw `view`'s map into `box`. opts: routes {id: label} the player may pick (onRoute(id)),
 * places {id: label} (onPlace(id)), selected: a route or place id, path: place ids travelled now.
 */
export function drawMap(box, view, opts = {}) {
  const map = view.map;
  const pos = Object.fromEntries(map.locations.map((l) => [l.id, l]));
  const svg = el("svg", { viewBox: `0 0 ${DATA.width} ${DATA.height}`, class: "isla-svg", role: "group",
    "aria-label": t("isla.map_label", { place: placeName(view.expedition) }) });
  const defs = el("defs");
  defs.append(el("marker", { id: "flow", viewBox: "0 0 10 10", refX: "5", refY: "5", markerWidth: "4", markerHeight: "4", orient: "auto" },
    el("path", { d: "M0,0L10,5L0,10z", fill: ROUTE_STYLE.river.colour })));
  svg.append(defs, el("path", { class: "isla-sea", d: `M0,0H${DATA.width}V${DATA.height}H0Z` }));
  svg.append(el("ellipse", { class: "isla-land", cx: DATA.width / 2, cy: DATA.height / 2 + 10, rx: DATA.width / 2 - 40, ry: DATA.height / 2 - 40 }));
  const blocked = { [view.bigfoot]: "bigfoot", [view.leviathan]: "leviathan" };
  const layer = el("g", { class: "isla-routes" });
  const picks = el("g", { class: "isla-picks" });
  for (const r of map.routes) {
    const a = pos[r.a], b = pos[r.b];
    const [mx, my] = r.bend || [(a.x + b.x) / 2, (a.y + b.y) / 2];
    const d = r.bend ? `M${a.x},${a.y} Q${2 * mx - (a.x + b.x) / 2},${2 * my - (a.y + b.y) / 2} ${b.x},${b.y}` : `M${a.x},${a.y} L${mx},${my} L${b.x},${b.y}`;
    const s = ROUTE_STYLE[r.type];
    const line = el("path", { d, class: `isla-route t-${r.type}${blocked[r.id] ? " blocked" : ""}${opts.selected === r.id ? " selected" : ""}`,
      stroke: s.colour, "stroke-width": s.width, "stroke-dasharray": s.dash || null, fill: "none",
      "marker-mid": r.type === "river" ? "url(#flow)" : null, "data-route": r.id });
    line.append(title(`${routeName(r.id)}${blocked[r.id] ? ` — ${t(`isla.blocked_${blocked[r.id]}`)}` : ""}`));
    layer.append(line);
    if (opts.routes && opts.routes[r.id]) {
      const hit = el("path", { d, class: `isla-hit${opts.selected === r.id ? " selected" : ""}`, id: `route-${r.id}`, "data-route": r.id, fill: "none" });
      button(hit, opts.routes[r.id], () => opts.onRoute(r.id));
      picks.append(hit);
    }
    if (blocked[r.id]) {
      const who = blocked[r.id];
      layer.append(el("g", { class: `isla-figure ${who}`, transform: `translate(${mx},${my})`, id: `figure-${who}` },
        el("circle", { r: 13 }), Object.assign(el("text", { y: 5, "text-anchor": "middle" }), { textContent: who === "bigfoot" ? "B" : "L" }),
        title(t(`isla.blocked_${who}`))));
    }
  }
  svg.append(layer, picks);
  const played = playedAt(view);
  const places = el("g", { class: "isla-places" });
  for (const l of map.locations) {
    const crash = l.id === map.crash_site;
    const markers = view.explored[l.id] || 0;
    const g = el("g", { class: `isla-place${crash ? " crash" : ""}${markers ? " explored" : ""}${opts.selected === l.id ? " selected" : ""}${(opts.path || []).includes(l.id) ? " path" : ""}`,
      transform: `translate(${l.x},${l.y})`, id: `place-${l.id}`, "data-place": l.id });
    g.append(crash ? el("path", { d: "M-13,0 L0,-13 L13,0 L0,13 Z", class: "isla-crash" }) : el("circle", { r: 10, class: `fam-${l.family}` }));
    const label = el("text", { class: "isla-name", y: -15, "text-anchor": "middle" });
    label.textContent = placeName(l.id);
    g.append(label);
    if (markers) {
      g.append(el("circle", { class: "isla-marker", cx: 11, cy: 9, r: 7 }));
      g.append(Object.assign(el("text", { class: "isla-marker-n", x: 11, y: 13, "text-anchor": "middle" }), { textContent: String(markers) }));
    }
    const here = played[l.id];
    if (here) {
      const gain = here.treasures.reduce((a, x) => a + x, 0);
      const loss = here.curses.reduce((a, x) => a + x, 0);
      const txt = el("text", { class: "isla-played", y: 25, "text-anchor": "middle" });
      txt.textContent = `${gain ? `+${gain}` : ""}${loss ? ` −${loss}` : ""}`.trim();
      g.append(txt);
    }
    const info = [placeName(l.id), l.family ? t(`isla.family_${l.family}`) : t("isla.crash_site"),
      markers ? t("isla.markers_here", { count: markers }) : null,
      here ? t("isla.played_here", { gain: here.treasures.reduce((a, x) => a + x, 0), loss: here.curses.reduce((a, x) => a + x, 0) }) : null].filter(Boolean).join(" · ");
    g.append(title(info));
    if (opts.places && opts.places[l.id]) button(g, opts.places[l.id], () => opts.onPlace(l.id));
    places.append(g);
  }
  svg.append(places);
  const e = pos[view.expedition];
  svg.append(el("g", { class: "isla-expedition", id: "expedition", transform: `translate(${e.x},${e.y})` },
    el("circle", { r: 17 }), Object.assign(el("text", { y: 6, "text-anchor": "middle" }), { textContent: "★" }),
    title(t("isla.expedition_at", { place: placeName(view.expedition) }))));
  box.replaceChildren(svg);
}

/** Per place: the points of treasure and curse cards played there. */
function playedAt(view) {
  const out = {};
  for (const p of view.players) {
    for (const x of p.played.treasures) (out[x.card.location] ||= { treasures: [], curses: [] }).treasures.push(x.card.points + (x.bonus ? x.bonus.points : 0));
    for (const c of p.played.curses) (out[c.location] ||= { treasures: [], curses: [] }).curses.push(c.points);
  }
  return out;
}

/** The legend: one entry per route type, drawn as on the map. */
export function legendItems() {
  return Object.entries(ROUTE_STYLE).map(([type, s]) => {
    const svg = el("svg", { viewBox: "0 0 40 10", width: 40, height: 10, "aria-hidden": "true" },
      el("path", { d: "M2,5 L20,5 L38,5", stroke: s.colour, "stroke-width": 4, "stroke-dasharray": s.dash || null, "marker-mid": type === "river" ? "url(#flow)" : null }));
    return [svg, typeName(type)];
  });
}
