// The game's public events in words (the game log), in the page's language.

import { clueText, has, list, t } from "../common/i18n.js";
import { seatName } from "../common/seats.js";
import { tableText } from "../common/table.js";

/** A seat's name for people: one name on every page (common/seats.js). */
export { seatName };

export const mapName = (colour) => t(`map.${colour}`);

const NEAR = /^(!)?near([12]):(largest:)?([a-z]+)$/;

/** A clue's target in words ("jungle", "the largest jungle", "palm"), null for "in" clues. */
function nearTarget(notation) {
  const m = NEAR.exec(notation);
  if (!m) return null;
  return { negated: !!m[1], d: Number(m[2]), target: m[3] ? t("game.largest_of", { terrain: t(`terrain.${m[4]}`) }) : t(`terrain.${m[4]}`), sea: m[4] === "sea" };
}

/**
 * A clue card's tooltip: its sentence and, for "within N of X", how the rules count X's own
 * spaces (not counted, rules §2, unless the game's near_includes_target option is on).
 */
export function clueTitle(notation, options = {}) {
  const text = clueText(notation);
  const n = nearTarget(notation);
  if (!n || n.sea) return text;
  const key = options.near_includes_target ? "game.note_near_incl" : `game.note_${n.negated ? "not_" : ""}near${n.d}`;
  return `${text} — ${t(key, { target: n.target })}`;
}

/** The helper's "ruled out by" for a space of the clue's own target ("0 away: not counted"). */
export function ownTargetNote(notation) {
  const n = nearTarget(notation);
  return n ? t("helper.why_own", { target: n.target }) : "";
}
const value = (v) => (v === "curse" ? t("ev.curse_card") : t("ev.gold", { n: v }));
let places = null; // "q,r" → a space's short name for players (setPlaceNames)
/** Name spaces in the log as players find them (the helper's `places`: terrain, where, nearest
 *  landmark) instead of by coordinates, which no map shows; "a space" until the names come.
 *  A page that never sets them (the review) keeps the coordinates. */
export function setPlaceNames(names) { places = names; }
const at = (xy) => (!xy ? "" : places ? places.get(`${xy[0]},${xy[1]}`) || t("helper.a_space") : `(${xy[0]}, ${xy[1]})`);

/** Why the game ended, in words, from its `game_over` event (null if the event does not say). */
export function endText(e) {
  // games stored before the event carried `end` gave only the English reason
  const end = e.end || { "the treasure deck is used up": "deck_empty", "no compass marker left to anyone": "no_markers", "every seat passed 2 rounds running": "all_passed" }[e.reason];
  return end ? t(`game.end_${end}`, { count: e.treasure_deck ?? 0 }) : null;
}

/** One event as a sentence, or null for events not worth a line. */
export function eventText(e, seats, mySeat) {
  const who = (s) => seatName(seats, s, mySeat);
  // a sentence about the reader is said to them ("You end your turn", not "… ends their turn")
  const say = (k, seat, params) => t(seat === mySeat && mySeat !== null && has(`${k}_you`) ? `${k}_you` : k, params);
  const table = tableText(e, who);
  if (table !== undefined) return table;
  switch (e.type) {
    case "setup": return t("ev.setup", { n: e.seats, island: e.island || "" });
    case "atv_placed": return say("ev.atv_placed", e.seat, { who: who(e.seat), at: at(e.at) });
    case "first_clue_drawn": return t("ev.first_clue_drawn", { who: who(e.seat), clue: clueText(e.clue) });
    case "first_clue": return t("ev.first_clue", { who: who(e.seat), clue: clueText(e.clue), map: mapName(e.map) });
    case "clue_discarded": return t("ev.clue_discarded", { clue: clueText(e.clue) });
    case "clue_deck_reshuffled": return t("ev.clue_deck_reshuffled", { count: e.cards });
    case "hand_refilled": return null;
    case "turn": return t("ev.turn", { who: who(e.seat), n: e.number });
    case "clue_played": return t("ev.clue_played", { who: who(e.seat), clue: clueText(e.clue), map: mapName(e.map), count: e.candidates });
    case "amulet_spent": return t(`ev.amulet_spent_${e.use}`, { who: who(e.seat) });
    case "extra_marker": return t("ev.extra_marker", { who: who(e.seat), map: mapName(e.map), n: e.clue + 1 });
    case "exchanged": return t("ev.exchanged", { who: who(e.seat), count: e.cards });
    case "drove": return t("ev.drove", { who: who(e.seat), from: at(e.from), to: at(e.to), count: e.cost });
    case "amulet_picked": return t("ev.amulet_picked", { who: who(e.seat), at: at(e.at) });
    case "marker_removed": return t("ev.marker_removed", { who: who(e.seat), map: mapName(e.map), at: at(e.space), count: e.candidates });
    case "raised": return t("ev.raised", { who: who(e.seat), map: mapName(e.map), at: at(e.at) });
    case "sharing_started": return t("ev.sharing_started", { map: mapName(e.map), count: e.cards });
    case "card_turned": return e.to === null || e.to === undefined ? t("ev.card_turned_nobody", { value: value(e.value) }) : t("ev.card_turned", { value: value(e.value), who: who(e.to) });
    case "card_offered": return t("ev.card_offered", { value: value(e.value), who: who(e.to) });
    case "card_accepted": return say("ev.card_accepted", e.seat, { who: who(e.seat), value: value(e.value) });
    case "card_declined": return say("ev.card_declined", e.seat, { who: who(e.seat), value: value(e.value) });
    case "card_discarded": return t("ev.card_discarded", { value: value(e.value) });
    case "curse": {
      const lost = (e.cursed || []).map((c) => say(`ev.cursed_${c.lost}`, c.seat, { who: who(c.seat) })).join(t("ev.sep"));
      return t("ev.curse", { map: mapName(e.map), count: e.discarded, lost: lost || t("ev.nobody") });
    }
    case "sharing_ended": return t("ev.sharing_ended", { map: mapName(e.map) });
    case "map_restarted": return t("ev.map_restarted", { who: who(e.seat), clue: clueText(e.clue), map: mapName(e.map) });
    case "amulet_appeared": return t("ev.amulet_appeared", { at: at(e.at) });
    case "statue_turned": return null;
    case "turn_ended": return say(e.passed ? "ev.passed" : "ev.turn_ended", e.seat, { who: who(e.seat) });
    case "treasure_deck_reshuffled": return t("ev.treasure_deck_reshuffled", { count: e.cards });
    case "game_over": {
      const why = endText(e);
      return t("ev.game_over", { scores: list((e.scores || []).map((s, i) => t("ev.score_of", { who: who(i), n: s }))) }) + (why ? ` ${why}` : "");
    }
    default: return e.type;
  }
}

/** Apply one public event to a displayed view (an approximation used while replaying others'
 *  moves step by step; the next snapshot from the server replaces it). */
export function applyEvent(v, e) {
  const map = (c) => v.maps.find((m) => m.colour === c);
  const p = (s) => v.players[s];
  switch (e.type) {
    case "atv_placed": p(e.seat).atv = e.at; break;
    case "drove": p(e.seat).atv = e.to; break;
    case "first_clue": case "clue_played": case "map_restarted": {
      const m = map(e.map);
      m.clues.push({ card: e.card, clue: e.clue, seat: e.seat, markers: 1 });
      m.candidates = null;
      if (e.candidates !== undefined) m.count = e.candidates;
      break;
    }
    case "extra_marker": { const c = map(e.map).clues[e.clue]; if (c) c.markers = 2; break; }
    case "amulet_picked":
      v.amulets_on_island = v.amulets_on_island.filter((a) => !(a[0] === e.at[0] && a[1] === e.at[1]));
      p(e.seat).amulets += 1; break;
    case "amulet_spent": p(e.seat).amulets = Math.max(0, p(e.seat).amulets - 1); break;
    case "marker_removed": {
      const m = map(e.map);
      if (m.candidates) m.candidates = m.candidates.filter((c) => !(c[0] === e.space[0] && c[1] === e.space[1]));
      m.count = e.candidates; break;
    }
    case "amulet_appeared": v.amulets_on_island.push(e.at); break;
    case "statue_turned": { const s = v.statues.find((x) => x.at[0] === e.statue[0] && x.at[1] === e.statue[1]); if (s) s.facing = e.facing; break; }
    case "raised": map(e.map).raiser = e.seat; break;
    case "sharing_ended": { const m = map(e.map); m.clues = []; m.raiser = null; m.candidates = null; break; }
    case "card_accepted": p(e.seat).treasure_count += 1; break;
    case "turn": v.current = e.seat; v.phase = "turn"; v.turn = { mode: null, plays: 0, start: null, points: 0, bonus: 0 }; break;
    default: break;
  }
}
