// Tobago's piece of the review page: a position drawn with the game page's own modules (the
// island, the columns, the players, the sharing), every hand the chosen view shows, and the
// deduction helper as the position answer gives it (for the chosen seat, or the seat to act):
// why a clicked space is out of each map, each ATV's drive cost to each map, the ranked plays of
// that seat's hand (hover or focus one to see what it would leave). Spaces are named as players
// find them (the helper's `places`, asked once for the island: terrain, where, region, nearest
// landmark), never by coordinates, in the log, the hexes' labels and the explanation; the space
// an explanation names, and the spaces the shown move names, are marked on the island.

import { api } from "../common/api.js";
import { $, h } from "../common/dom.js";
import { HexBoard, key } from "../common/hexboard.js";
import { clueText, lang, list, t } from "../common/i18n.js";
import { drawPosition } from "../tobago/gameboard.js";
import { renderColumns, renderPlayers, renderSharing } from "../tobago/gamepanels.js";
import { clueIcon, MAP_COLOURS, mapIcon, seatMarker } from "../tobago/icons.js";
import { eventText, mapName, seatName, setPlaceNames } from "../tobago/logtext.js";

function specOf(ref) {
  if (ref.custom) return ref.custom;
  const m = /^generated-(\d+)$/.exec(ref.spec);
  return m ? { generated: Number(m[1]), landmarks_seed: ref.landmarks_seed } : { name: ref.spec, landmarks_seed: ref.landmarks_seed };
}

export async function createRenderer({ root, helperBox, seats, gameId, view, viewer = null }) {
  root.replaceChildren(
    h("p", { class: "rv-board-tools" }, h("button", { type: "button", class: "secondary small", id: "rv-zoom", "aria-pressed": "false", "aria-controls": "rv-board" }, t("game.zoom"))),
    h("div", { id: "rv-board", class: "board" }),
    h("p", { class: "hint-text" }, t("review.tob_board_help")),
    h("section", { id: "rv-sharing", class: "sharing", hidden: true, "aria-labelledby": "sharing-h" }),
    h("h3", {}, t("review.tob_hands")),
    h("div", { id: "rv-hands", class: "rv-hands" }),
    h("h3", {}, t("game.maps")),
    h("div", { id: "rv-columns", class: "columns" }),
    h("h3", {}, t("game.players")),
    h("div", { id: "rv-players", class: "players" }));
  const spec = specOf(view.island);
  // the island, and every space's name for players (once: the island never changes)
  const [solved, named] = await Promise.all([
    api("POST", "/api/tobago/solve", { island: spec, maps: [] }),
    api("POST", "/api/tobago/helper", { island: spec, maps: [], lang, places: true }),
  ]);
  const placeNames = new Map(named.places.map((p) => [key(...p.space), p.name]));
  setPlaceNames(new Map(named.places.map((p) => [key(...p.space), p.short])));
  const terrainOf = new Map(solved.island.spaces.map((s) => [key(s.q, s.r), s.terrain]));
  const board = new HexBoard($("rv-board"), solved.island.spaces, solved.island.landmarks, { size: 24, title: t("game.island_title", { name: view.island.name || "" }) });
  const [, , w, h_] = board.svg.getAttribute("viewBox").split(" ").map(Number);
  // a wide island (the classic ones are 3 pieces side by side) takes the page's whole width
  root.closest(".review-page").classList.toggle("wide-island", w / h_ > 2);
  // on a narrow screen a wide island is drawn larger and scrolls sideways (as on the game page)
  const zoom = (on) => {
    $("rv-board").classList.toggle("zoomed", on);
    $("rv-zoom").setAttribute("aria-pressed", on ? "true" : "false");
  };
  $("rv-zoom").addEventListener("click", () => zoom(!$("rv-board").classList.contains("zoomed")));
  zoom(w / h_ > 2 && window.innerWidth < 700);
  let shown = null;
  let helper = null;
  let preview = null;
  let explained = null; // the space the explanation names: [q, r]
  let moved = []; // the spaces the shown move names ([q, r] each)

  /** A space's name for players (terrain, where, region, landmark). */
  const placeName = (q, r) => placeNames.get(key(q, r)) || t(`terrain.${terrainOf.get(key(q, r))}`);
  // names without "(you)": whoever reviews may not be that player
  const draw = () => {
    drawPosition(board, shown.view, { visible: new Set(MAP_COLOURS), reach: null, preview, targets: null, seats, mySeat: viewer, placeName });
    // what the texts name is marked: the move's spaces, then the explained one over them
    for (const xy of moved) {
      board.overlayHex("labels", ...xy, "moved-outer", 0.86);
      board.overlayHex("labels", ...xy, "moved", 0.86);
    }
    if (explained && $("rv-why")) {
      board.overlayHex("labels", ...explained, "named-outer", 0.93);
      board.overlayHex("labels", ...explained, "named", 0.93);
    }
  };
  const ui = () => ({ seats, mySeat: viewer, legal: [], busy: true, gameId, hintFor: () => null, preview: () => {}, act: () => {}, sharingLog: () => [] });

  function why(q, r) {
    const box = $("rv-why");
    if (!box || !terrainOf.has(key(q, r))) return;
    explained = [q, r];
    const lines = shown.view.maps.map((m, i) => {
      const hm = helper && helper.maps[i];
      const ex = hm ? hm.excluded.find((x) => x.space[0] === q && x.space[1] === r) : null;
      let text;
      if (!hm) text = "—";
      else if (!ex) text = m.count === 1 ? t("helper.the_treasure") : t("helper.is_candidate");
      else if (ex.by === "removed") text = t("helper.why_removed");
      else if (ex.by === "landmark") text = t("helper.why_landmark");
      else text = t("helper.why_clue", { n: ex.by + 1, clue: m.clues[ex.by] ? clueText(m.clues[ex.by].clue) : "?" });
      return h("li", {}, mapIcon(m.colour, 14), " ", h("strong", {}, mapName(m.colour)), ": ", text);
    });
    const name = placeName(q, r);
    box.replaceChildren(h("p", {}, h("strong", { class: "helper-place" }, name.charAt(0).toUpperCase() + name.slice(1))), h("ul", { class: "why-list" }, lines));
  }
  board.onActivate((q, r) => { why(q, r); draw(); });

  function renderHands(v) {
    const rows = v.players.filter((p) => p.hand).map((p) => h("div", { class: "rv-hand", "data-seat": String(p.seat) },
      h("p", { class: "rv-hand-who" }, seatMarker(p.seat, 18), " ", h("strong", {}, seatName(seats, p.seat, viewer)),
        p.treasures ? h("span", { class: "muted" }, " · ", t("review.tob_treasures", { values: p.treasures.map((c) => c.value).join(" + ") || "—", score: p.score ?? 0 })) : null),
      h("ul", { class: "hand rv-hand-cards" }, p.hand.length ? p.hand.map((c) => h("li", { class: "hand-card", "data-card": String(c.id) },
        h("div", { class: "card-face" }, clueIcon(c.clue, 34), h("span", { class: "clue-sentence" }, clueText(c.clue))))) : h("li", { class: "muted" }, t("game.empty_hand")))));
    const memory = (v.memory || []).map((r) => h("li", {}, t("review.tob_memory", { map: mapName(r.map), values: list(r.values.map((x) => (x === "curse" ? t("ev.curse_card") : x))) })));
    $("rv-hands").replaceChildren(...(rows.length ? rows : [h("p", { class: "muted" }, t("review.no_hands"))]),
      memory.length ? h("ul", { class: "rv-memory" }, memory) : "");
  }

  function renderHelper(pos) {
    helper = pos.helper;
    if (!helper) { helperBox.replaceChildren(h("p", { class: "muted" }, t("review.no_helper_now"))); return; }
    const v = shown.view;
    const costRows = helper.cost_seats.map((s, i) => h("tr", { class: s === helper.seat ? "me" : "" },
      h("th", { scope: "row" }, seatMarker(s, 16), " ", seatName(seats, s, viewer)),
      helper.maps.map((m) => h("td", {}, m.costs[i] === null || m.costs[i] === undefined ? "—" : String(m.costs[i])))));
    const hints = helper.hints.slice(0, 8).map((x) => h("li", {},
      h("button", { type: "button", class: "link-like rv-hint", onmouseenter: () => { preview = x.candidates; draw(); }, onmouseleave: () => { preview = null; draw(); },
        onfocus: () => { preview = x.candidates; draw(); }, onblur: () => { preview = null; draw(); } },
        h("strong", {}, x.sentence), " → ", mapIcon(x.map, 14), " ", mapName(x.map)),
      h("div", { class: "reason" }, x.reason)));
    helperBox.replaceChildren(
      h("div", { id: "rv-why", class: "helper-why", "aria-live": "polite" }, h("p", { class: "hint-text" }, t("helper.click_space"))),
      h("h3", {}, t("helper.costs")),
      costRows.length ? h("div", { class: "table-wrap", tabindex: "0", role: "region", "aria-label": t("helper.costs") }, h("table", { class: "costs-table" },
        h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("game.player")), v.maps.map((m) => h("th", { scope: "col", title: mapName(m.colour) }, mapIcon(m.colour, 16), h("span", { class: "visually-hidden" }, mapName(m.colour)))))),
        h("tbody", {}, costRows))) : h("p", { class: "muted" }, t("review.tob_no_atvs")),
      h("h3", {}, t("helper.ranking")),
      h("ol", { class: "helper-hints" }, hints.length ? hints : h("li", { class: "muted" }, helper.seat === null ? t("helper.no_hand") : t("helper.no_plays"))));
  }

  return {
    seatName: (i, me = viewer) => seatName(seats, i, me),
    /** Draw position `pos`; `entry` (the log entry of its move, if any) names spaces to mark. */
    async render(pos, entry = null) {
      shown = pos;
      preview = null;
      moved = entry ? entry.events.flatMap((e) => [e.at, e.from, e.to, e.space]).filter((xy) => Array.isArray(xy) && terrainOf.has(key(...xy))) : [];
      const v = pos.view;
      renderColumns($("rv-columns"), v, ui());
      renderPlayers($("rv-players"), v, ui());
      renderSharing($("rv-sharing"), v, ui());
      renderHands(v);
      renderHelper(pos);
      if (explained) why(...explained);
      draw();
    },
    moveText(entry, seat) {
      return entry.events.map((e) => eventText(e, seats, seat)).filter(Boolean).join(" ");
    },
    bestText(d) {
      const b = d.detail && d.detail.best;
      if (b && (b.type === "play_clue" || b.type === "first_clue") && b.clue) {
        return t("review.tob_best_play", { clue: clueText(b.clue), map: mapName(b.map), n: b.remaining });
      }
      const type = (b && b.type) || d.best_action.type;
      return t(`review.tob_act_${type}`);
    },
  };
}
