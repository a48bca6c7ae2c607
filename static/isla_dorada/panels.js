// Isla Dorada's panels: the round track with the red markers, the players (gold, cards, played
// treasures and curses), the face-up cards, my hand grouped by kind with my goal cards, the
// auction, and the end screen with the score breakdown.

import { h, scrollBox } from "../common/dom.js";
import { list, t } from "../common/i18n.js";
import { cardChip, goalChip, goalText, KIND_ORDER, kindName, missionText, placeName, routeText, seatName } from "./cards.js";

export function renderTrack(box, v) {
  const placed = v.markers.placed;
  box.setAttribute("aria-label", t("isla.track_label", { placed, total: v.markers.total, round: v.round }));
  box.replaceChildren(
    h("span", { class: "isla-round" }, t("isla.round", { n: v.round })),
    h("ol", { class: "isla-track-row", "aria-hidden": "true" },
      Array.from({ length: v.markers.total }, (_, i) => h("li", {
        class: `isla-slot${v.markers.red.includes(i + 1) ? " red" : ""}${i < placed ? " used" : ""}`,
        title: v.markers.red.includes(i + 1) ? t("isla.red_marker", { n: i + 1 }) : String(i + 1),
      }, String(i + 1)))),
    h("span", { class: "muted" }, t("isla.markers_left", { count: v.markers_left })));
}

export function renderPlayers(box, v, ui, winners) {
  box.replaceChildren(...v.players.map((p, i) => {
    const acting = !v.over && v.to_act.includes(i);
    const tags = [];
    if (i === v.leader) tags.push(h("span", { class: "badge leader" }, t("isla.leader")));
    if (acting) tags.push(h("span", { class: "badge" }, t("isla.to_play")));
    if (p.passed) tags.push(h("span", { class: "badge muted" }, t("isla.passed")));
    if (p.barred) tags.push(h("span", { class: "badge bad" }, t("isla.barred")));
    if (winners.includes(i)) tags.push(h("span", { class: "badge win" }, "★"));
    const played = [...p.played.treasures.map((x) => h("li", { class: "gain" }, goalText(x.card) + (x.bonus ? ` + ${t("isla.bonus_points", { n: x.bonus.points })}` : ""))),
      ...p.played.curses.map((c) => h("li", { class: "loss" }, goalText(c)))];
    return h("li", { class: `isla-player${i === ui.mySeat ? " me" : ""}${acting ? " acting" : ""}`, id: `player-${i}` },
      h("div", { class: "isla-player-head" },
        h("span", { class: "isla-seat-no", "aria-hidden": "true" }, String(i + 1)),
        h("strong", {}, seatName(ui.seats, i, ui.mySeat)), ...tags),
      h("div", { class: "isla-player-facts" },
        h("span", { class: "gold" }, t("isla.gold", { n: p.gold })),
        h("span", {}, t("isla.cards_n", { count: p.hand_size })),
        h("span", {}, t("isla.goals_n", { count: p.goal_cards })),
        h("span", {}, t("isla.wins_n", { n: p.wins }))),
      played.length ? h("ul", { class: "isla-played-list", "aria-label": t("isla.played_by", { who: seatName(ui.seats, i, ui.mySeat) }) }, played) : null);
  }));
}

export function renderHand(box, countBox, goalsBox, v, me) {
  if (me === null) { box.replaceChildren(); goalsBox.replaceChildren(); return; }
  const p = v.players[me];
  const hand = p.hand || [];
  countBox.textContent = t("isla.hand_count", { count: hand.length });
  const groups = {};
  for (const c of hand) (groups[c.kind] ||= []).push(c);
  const rows = KIND_ORDER.filter((k) => groups[k]).map((k) => h("div", { class: "isla-group" },
    h("span", { class: "isla-group-name" }, `${kindName(k)} × ${groups[k].length}`),
    h("span", { class: "isla-group-cards" }, groups[k].map((c) => cardChip(c)))));
  box.replaceChildren(...(rows.length ? rows : [h("p", { class: "muted" }, t("isla.hand_empty"))]));
  const mission = v.mine && v.mine.mission;
  goalsBox.replaceChildren(
    h("h3", {}, t("isla.my_goals")),
    h("ul", { class: "isla-goal-list" },
      (p.treasures || []).map((g) => h("li", {}, goalChip(g))),
      (p.curses || []).map((g) => h("li", {}, goalChip(g))),
      p.destiny ? h("li", {}, goalChip(p.destiny), mission ? h("span", { class: "muted" }, ` ${t("isla.progress", { done: mission.done, needed: mission.needed })}`) : null) : null));
}

export function renderDisplay(box, v) {
  box.replaceChildren(h("div", { class: "isla-display-row" }, v.display.map((c) => cardChip(c, "big"))),
    h("p", { class: "muted" }, t("isla.deck_sizes", { deck: v.deck, discard: v.discard })));
}

export function renderAuction(box, v, ui) {
  if (v.phase !== "bid") {
    const last = [...v.history].reverse().find((x) => x.path);
    box.replaceChildren(h("p", { class: "muted" }, last ? t("isla.last_move", { path: last.path.map(placeName).join(" → ") }) : t("isla.no_auction")));
    return;
  }
  const a = v.auction;
  const high = a.high !== null ? v.players[a.high].bid : null;
  const rows = v.players.map((p, i) => h("li", { class: p.barred ? "barred" : p.passed ? "passed" : "" },
    h("strong", {}, seatName(ui.seats, i, ui.mySeat)), " ",
    p.bid ? h("span", {}, t("isla.bid_value", { value: p.bid.value }), " ",
      [p.bid.shaman && p.bid.shaman.card, p.bid.ovetos, p.bid.sangaia].filter(Boolean).map((c) => cardChip(c, "small"))) : null,
    p.barred ? t("isla.barred") : p.passed ? t("isla.passed") : ""));
  box.replaceChildren(
    h("p", { id: "high-bid", class: "isla-high" }, high
      ? t("isla.high_bid", { who: seatName(ui.seats, a.high, ui.mySeat), value: a.value,
        target: high.flight ? t("isla.flight_to", { place: placeName(high.to) }) : routeText(high.route, v.expedition) })
      : t("isla.no_bid", { min: a.minimum })),
    h("ul", { class: "isla-bidders" }, rows));
}

export function renderEnd(box, snap, ui) {
  const v = snap.view;
  const rows = v.score_breakdown.map((r, i) => h("tr", { class: v.winners.includes(i) ? "win" : "" },
    h("th", { scope: "row" }, seatName(ui.seats, i, ui.mySeat), v.winners.includes(i) ? " ★" : ""),
    // the total right after the player (as Dragon's Gold's end screen): read on a phone without scrolling sideways
    h("td", { class: "total" }, String(r.total)),
    ...["gold", "treasures", "bonuses", "destiny"].map((k) => h("td", {}, String(r[k]))),
    h("td", {}, r.curses ? `−${r.curses}` : "0")));
  const destinies = v.players.map((p, i) => p.destiny ? h("li", {},
    i === ui.mySeat ? missionText(p.destiny, "isla.your_destiny") : missionText(p.destiny, "isla.destiny_of", seatName(ui.seats, i, ui.mySeat)), " — ",
    t(p.mission && p.mission.achieved ? "isla.achieved" : "isla.missed", { done: p.mission ? p.mission.done : 0, needed: p.mission ? p.mission.needed : 0 })) : null);
  box.replaceChildren(
    h("h2", { id: "end-h" }, t(v.end === "stalled" ? "isla.end_stalled" : "isla.end_title")),
    h("p", { class: "isla-winner" }, t("isla.winner", { who: list(v.winners.map((s) => seatName(ui.seats, s, ui.mySeat))) })),
    scrollBox(t("isla.breakdown"), h("table", { class: "isla-scores", id: "score-table" },
      h("caption", {}, t("isla.breakdown")),
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("isla.player")),
        ...["total", "gold", "treasures", "bonuses", "destiny", "curses"].map((k) => h("th", { scope: "col", class: k === "total" ? "total" : null }, t(`isla.col_${k}`))))),
      h("tbody", {}, rows))),
    h("ul", { class: "isla-destinies" }, destinies),
    h("p", {}, h("a", { class: "button", href: "/isla_dorada/new" }, t("isla.again")), " ",
      h("a", { class: "button secondary", href: `/isla_dorada/games/${snap.id}/review`, id: "review-link" }, t("isla.review_link"))));
}
