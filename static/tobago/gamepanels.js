// The game page's panels as DOM: my hand, the four treasure columns, the players, the sharing,
// the end screen and the action bar. Each function rebuilds its panel from the displayed view;
// `ui` carries the page's handlers and choices (see game.js).

import { h, scrollBox } from "../common/dom.js";
import { seatLinks } from "../common/api.js";
import { copyButton } from "../common/newgame.js";
import { clueText, list, t } from "../common/i18n.js";
import { clueIcon, MAP_COLOURS, mapIcon, seatMarker } from "./icons.js";
import { clueTitle, endText, mapName, seatName } from "./logtext.js";

const legalOf = (ui, type) => ui.legal.filter((a) => a.type === type);

/** My hand: each card with its picture, sentence, and one button per map (legal ones enabled). */
export function renderHand(box, view, ui) {
  const me = ui.mySeat !== null ? view.players[ui.mySeat] : null;
  box.replaceChildren();
  renderMyTreasures(document.getElementById("my-treasures"), me);
  if (!me || !me.hand) {
    box.append(h("li", { class: "muted" }, t("game.no_hand")));
    return;
  }
  if (!me.hand.length) box.append(h("li", { class: "muted" }, t("game.empty_hand")));
  const plays = legalOf(ui, "play_clue");
  for (const card of me.hand) {
    const legalMaps = new Set(plays.filter((a) => a.card === card.id).map((a) => a.map));
    const buttons = MAP_COLOURS.map((colour) => {
      const legal = legalMaps.has(colour);
      const hint = ui.hintFor(card.id, colour);
      const why = legal ? null : ui.whyNot(card.id, colour);
      const label = legal ? (hint ? t("game.play_on_n", { map: mapName(colour), n: hint.remaining }) : t("game.play_on", { map: mapName(colour) }))
        : why ? t("game.cannot_play_because", { map: mapName(colour), why }) : t("game.cannot_play_on", { map: mapName(colour) });
      return h("button", {
        type: "button", class: `small play-map map-${colour}${legal ? "" : " illegal"}`,
        "data-card": card.id, "data-map": colour, disabled: !legal || ui.busy, "aria-label": `${clueText(card.clue)} — ${label}`,
        title: label,
        onclick: () => ui.act({ type: "play_clue", card: card.id, map: colour }),
        onmouseenter: () => ui.preview(card.id, colour), onmouseleave: () => ui.preview(null),
        onfocus: () => ui.preview(card.id, colour), onblur: () => ui.preview(null),
      }, mapIcon(colour, 16), h("span", {}, legal && hint ? `${hint.remaining}` : legal ? "✓" : "—"));
    });
    const best = MAP_COLOURS.filter((c) => legalMaps.has(c)).map((c) => ui.hintFor(card.id, c)).filter(Boolean).sort((a, b) => b.score - a.score)[0];
    box.append(h("li", {
      class: `hand-card${legalMaps.size ? " playable" : ""}`, "data-card": card.id,
      onmouseenter: () => best && ui.preview(card.id, best.map), onmouseleave: () => ui.preview(null),
    },
      h("div", { class: "card-face", title: clueTitle(card.clue, view.options) }, clueIcon(card.clue, 44), h("span", { class: "clue-sentence" }, clueText(card.clue))),
      h("div", { class: "card-maps", role: "group", "aria-label": t("game.legal_maps") }, buttons)));
  }
}

/** My treasure cards' values and their total (rules §9: I see mine; others see counts). */
function renderMyTreasures(box, me) {
  if (!box) return;
  const cards = (me && me.treasures) || [];
  box.hidden = !cards.length;
  box.textContent = cards.length ? t("game.my_treasures", { count: cards.length, values: list(cards.map((c) => c.value)), score: me.score ?? 0 }) : "";
}

/** The four treasure columns: header with count and a show toggle, then the clue cards. */
export function renderColumns(box, view, ui) {
  box.replaceChildren();
  const extras = legalOf(ui, "extra_marker");
  for (const m of view.maps) {
    const located = m.count === 1;
    const count = m.clues.length === 0 ? t("game.column_empty", { count: m.count ?? "?" }) : located ? t("game.located") : t("game.candidates_n", { count: m.count ?? "?" });
    const items = m.clues.map((c, i) => {
      const extra = extras.find((a) => a.map === m.colour && a.clue === i);
      return h("li", { class: "column-clue", title: clueTitle(c.clue, view.options) },
        clueIcon(c.clue, 34),
        h("span", { class: "clue-sentence" }, clueText(c.clue)),
        h("span", { class: "markers" }, Array.from({ length: c.markers }, () => seatMarker(c.seat, 18, seatName(ui.seats, c.seat, ui.mySeat)))),
        extra ? h("button", { type: "button", class: "small extra-marker", id: `extra-${m.colour}-${i}`, disabled: ui.busy, onclick: () => ui.act(extra) }, t("game.extra_here")) : null);
    });
    if (m.raiser !== null && m.raiser !== undefined) {
      items.push(h("li", { class: "column-raiser" }, t("game.raised_by"), seatMarker(m.raiser, 18, seatName(ui.seats, m.raiser, ui.mySeat)), seatName(ui.seats, m.raiser, ui.mySeat)));
    }
    box.append(h("section", { class: `column column-${m.colour}${located ? " is-located" : ""}`, "data-map": m.colour, "aria-label": mapName(m.colour) },
      h("header", {},
        h("span", { class: "column-title" }, mapIcon(m.colour, 18), h("strong", {}, mapName(m.colour))),
        h("span", { class: "count" }, count)),
      h("ol", { class: "column-clues" }, items)));
  }
}

/** A seat's marker and name for the players table: the name may wrap, but never between the
 *  marker and its first word (so the table fits a narrow panel without orphaned markers). */
function playerName(i, ui) {
  const name = seatName(ui.seats, i, ui.mySeat);
  const cut = name.indexOf(" ");
  const first = cut < 0 ? name : name.slice(0, cut);
  return [h("span", { class: "player-lead" }, seatMarker(i, 20, name), " ", first), cut < 0 ? "" : name.slice(cut)];
}

/** Players: marker, name, amulets, compass markers, cards, treasures. As rules §9 says, the
 *  table shows counts only while the game runs (each total at the end); my own cards' values
 *  are listed under my hand (renderHand). */
export function renderPlayers(box, view, ui) {
  const rows = view.players.map((p, i) => h("tr", { class: `${view.to_act.includes(i) ? "to-act" : ""}${i === ui.mySeat ? " me" : ""}` },
    h("th", { scope: "row" }, playerName(i, ui), view.to_act.includes(i) ? h("span", { class: "badge" }, t("game.to_act")) : null),
    h("td", {}, String(p.amulets)),
    h("td", {}, String(p.markers_left)),
    h("td", {}, String(p.hand_size)),
    h("td", {}, String(p.treasure_count), view.phase === "over" && p.score !== undefined ? h("span", { class: "gold" }, t("game.score_gold", { score: p.score })) : null)));
  box.replaceChildren(scrollBox(t("game.players"), h("table", { class: "players-table" },
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("game.player")), h("th", { scope: "col" }, t("game.amulets")), h("th", { scope: "col" }, t("game.markers")), h("th", { scope: "col" }, t("game.cards")), h("th", { scope: "col" }, t("game.treasures")))),
    h("tbody", {}, rows))),
  h("p", { class: "hint-text" }, t("game.decks", { clues: view.clue_deck, treasures: view.treasure_deck, amulets: view.amulet_supply })),
  // rules §8: two whole rounds without a clue, a marker or a raised treasure end the game
  ...(view.stall && view.stall.turns && view.phase !== "over"
    ? [h("p", { class: "hint-text", id: "stall" }, t("game.stall", { count: view.stall.turns, limit: view.stall.limit }))] : []),
  // a listed seat's link is the game's and the seat's; an invitation's, the one this browser made
  ...(view.phase === "over" ? [] : ui.seats.filter((s) => s.open && (s.listed || seatLinks.all(ui.gameId)[s.index])).map((s) => {
    const link = seatLinks.all(ui.gameId)[s.index] || `${location.origin}/tobago/games/${ui.gameId}/join/${s.index}`;
    const input = h("input", { type: "text", readonly: true, id: `invite-${s.index}`, class: "share-url", value: link, onfocus: (ev) => ev.target.select() });
    return h("p", { class: "invite" }, h("label", { for: `invite-${s.index}` }, t("game.invite", { n: s.index + 1 })), " ",
      input, " ", copyButton(input, t("game.copy"), t("common.copied")));
  })));
}

/** The sharing in progress: the face-up card, who is asked, my own draw, accept/decline. */
export function renderSharing(box, view, ui) {
  const sh = view.sharing;
  if (!sh) { box.hidden = true; box.replaceChildren(); return; }
  box.hidden = false;
  const value = sh.offer === null ? null : sh.offer === "curse" ? t("ev.curse_card") : t("ev.gold", { n: sh.offer });
  const mine = (view.memory || []).find((r) => r.sharing === sh.number);
  const asked = sh.asked;
  const canAnswer = ui.legal.some((a) => a.type === "accept");
  const taken = ui.sharingLog();
  box.replaceChildren(...[
    h("h2", { id: "sharing-h" }, t("game.sharing_title", { map: mapName(sh.map), who: seatName(ui.seats, sh.raiser, ui.mySeat) })),
    value ? h("p", { class: "offer" }, h("span", { class: "treasure-card" }, value), " ", asked !== null ? t("game.offered_to", { who: seatName(ui.seats, asked, ui.mySeat) }) : "") : null,
    h("p", {}, `${t("game.sharing_left", { count: sh.cards_left })} · ${t("game.sharing_markers", { count: sh.markers.length })}`),
    sh.declined.length ? h("p", {}, t("game.declined_by", { who: list(sh.declined.map((s) => seatName(ui.seats, s, ui.mySeat))) })) : null,
    mine ? h("p", { class: "memory" }, t("game.you_drew", { values: list(mine.values.map((v) => (v === "curse" ? t("ev.curse_card") : v))) })) : null,
    taken.length ? h("ul", { class: "taken" }, taken.map((line) => h("li", {}, line))) : null,
    canAnswer ? h("p", { class: "sharing-buttons" },
      h("button", { type: "button", id: "accept", disabled: ui.busy, onclick: () => ui.act({ type: "accept" }) }, t("game.accept", { value })),
      h("button", { type: "button", id: "decline", class: "secondary", disabled: ui.busy, onclick: () => ui.act({ type: "decline" }) }, t("game.decline"))) : null,
  ].filter(Boolean));
}

/** The end screen: scores, winners, every player's treasures, the record link. */
export function renderEnd(box, snap, ui) {
  if (!snap || !snap.over) { box.hidden = true; box.replaceChildren(); return; }
  box.hidden = false;
  const v = snap.view;
  const scores = snap.scores || v.scores || [];
  const order = scores.map((s, i) => i).sort((a, b) => scores[b] - scores[a]);
  const over = ui.endEvent();
  const why = over ? endText(over) : null;
  box.replaceChildren(...[
    h("h2", { id: "end-h" }, t("game.over")),
    why ? h("p", { class: "end-why", id: "end-why" }, why) : null,
    h("p", { class: "winners" }, t("game.winners", { count: snap.winners.length, who: list(snap.winners.map((s) => seatName(ui.seats, s, ui.mySeat))) })),
    h("ol", { class: "scores" }, order.map((i) => h("li", {}, seatMarker(i, 20), " ", seatName(ui.seats, i, ui.mySeat), t("common.colon"),
      h("strong", {}, t("game.points", { n: scores[i] })),
      h("span", { class: "muted" }, " ", (v.players[i].treasures || []).map((c) => c.value).join(" + "))))),
    h("p", {}, h("a", { href: `/tobago/games/${snap.id}/review`, id: "review-link" }, t("game.review_link")), " · ",
      h("a", { href: `/api/games/${snap.id}/record`, id: "record-link" }, t("game.record")), " · ", h("a", { href: "/tobago/new" }, t("game.new_game"))),
  ].filter(Boolean));
}

/** The action bar: what I may do now (or whom we wait for). */
export function renderActions(box, view, ui) {
  box.replaceChildren();
  const legal = ui.legal;
  if (ui.replaying) { box.append(h("p", { class: "muted" }, t("game.replaying"))); return; }
  if (view.phase === "sharing" && legal.length) {
    box.append(h("p", {}, t("game.answer_offer")));
    return;
  }
  if (!legal.length || view.phase === "sharing") {
    box.append(h("p", {}, ui.waitingText()));
    return;
  }
  const types = new Set(legal.map((a) => a.type));
  const btn = (id, label, action, cls = "") => h("button", { type: "button", id, class: cls, disabled: ui.busy, onclick: action }, label);
  const row = h("div", { class: "action-row" });
  if (types.has("place_atv")) {
    box.append(h("p", {}, t("game.place_atv")));
    return;
  }
  if (types.has("first_clue")) {
    box.append(h("p", {}, t("game.first_clue", { clue: clueText(view.drawn.clue) })),
      h("div", { class: "drawn" }, clueIcon(view.drawn.clue, 44), h("span", {}, clueText(view.drawn.clue))),
      h("div", { class: "action-row" }, legal.map((a) => h("button", {
        type: "button", class: `first-map map-${a.map}`, "data-map": a.map, disabled: ui.busy, onclick: () => ui.act(a),
      }, mapIcon(a.map, 16), t("game.put_on", { map: mapName(a.map) })))));
    return;
  }
  const turn = view.turn || {};
  if (turn.mode === "clues") box.append(h("p", {}, types.has("extra_marker") ? t("game.extra_marker_help") : t("game.more_clues_help")));
  else if (turn.mode === "drive") box.append(h("p", {}, t("game.points_left", { n: turn.points + turn.bonus, bonus: turn.bonus })));
  else box.append(h("p", {}, t("game.choose_action")));
  if (types.has("play_clue") && turn.mode === null) row.append(h("span", { class: "muted action-note" }, t("game.play_from_hand")));
  if (types.has("drive") || turn.mode === "drive") {
    row.append(btn("drive-mode", ui.mode === "drive" ? t("game.driving") : t("game.drive"), () => ui.setMode(ui.mode === "drive" ? null : "drive"), ui.mode === "drive" ? "" : "secondary"));
    if (ui.mode === "drive") row.lastChild.setAttribute("aria-pressed", "true");
  }
  if (types.has("pick_amulet")) row.append(btn("pick-amulet", t("game.pick_amulet"), () => ui.act({ type: "pick_amulet" })));
  for (const a of legal.filter((x) => x.type === "raise")) row.append(btn(`raise-${a.map}`, t("game.raise", { map: mapName(a.map) }), () => ui.act(a), "raise"));
  if (types.has("spend_amulet")) row.append(btn("spend-amulet", t("game.spend_amulet"), () => ui.act({ type: "spend_amulet" }), "secondary"));
  if (types.has("remove_marker")) {
    const maps = [...new Set(legal.filter((x) => x.type === "remove_marker").map((x) => x.map))];
    row.append(h("span", { class: "remove-maps", role: "group", "aria-label": t("game.remove_marker") }, t("game.remove_marker"), " ",
      maps.map((m) => h("button", { type: "button", class: "small secondary remove-map", "data-map": m, "aria-pressed": ui.mode === `remove:${m}` ? "true" : "false", disabled: ui.busy, onclick: () => ui.setMode(ui.mode === `remove:${m}` ? null : `remove:${m}`) }, mapIcon(m, 14), mapName(m)))));
  }
  if (types.has("exchange")) {
    row.append(btn("exchange", ui.confirmExchange ? t("game.exchange_confirm") : t("game.exchange"), () => {
      if (ui.confirmExchange) ui.act({ type: "exchange" });
      else ui.askExchange();
    }, ui.confirmExchange ? "danger" : "secondary"));
  }
  if (types.has("end_turn")) row.append(btn("end-turn", turn.mode === null ? t("game.pass") : t("game.end_turn"), () => ui.act({ type: "end_turn" }), "secondary"));
  box.append(row);
  if (ui.mode && ui.mode.startsWith("remove:")) box.append(h("p", { class: "notice" }, t("game.remove_help", { map: mapName(ui.mode.slice(7)) })));
  if (ui.mode === "drive") box.append(h("p", { class: "notice" }, t("game.drive_help")));
}
