// One name for a seat on every page (status, log, panels, end screen, review, chat, lists), the
// same words the server gives the review's chart legend (web/seat_names.py): the player's name;
// a bot the server named after its level ("strong bot") is "Bot 2 (strong)"; a seat without a
// name "Seat 2"; a deleted account's seat "deleted player"; and the viewer's own seat the same
// name with "(you)" after it. Words: common.seat_* and common.bot_level_* (i18n/<lang>/site.json).

import { seatTokens } from "./api.js";
import { has, t } from "./i18n.js";

/** The seat the signed-in account holds in this game, as the server wrote it into the page
 * (`data-account-seat`, web/game_pages.py), or null. */
export function accountSeat() {
  const el = document.querySelector("[data-account-seat]");
  const n = el ? Number(el.dataset.accountSeat) : NaN;
  return el && el.dataset.accountSeat !== "" && Number.isInteger(n) ? n : null;
}
/** Whether `seat` is a bot that carries the server's default name ("<level> bot", or none). */
export function defaultBot(seat) {
  return !!seat && seat.type === "bot" && (!seat.name || seat.name === `${seat.level} bot`);
}

/** A bot level in words ("strong"); a level this page has no word for, as the server spells it. */
export function levelWord(level) {
  return has(`common.bot_level_${level}`) ? t(`common.bot_level_${level}`) : String(level);
}

/** Seat `i` of `seats` (the snapshot's public seats) by name; `mySeat` (the viewer's) adds "(you)". */
export function seatName(seats, i, mySeat = null) {
  const s = (seats && seats[i]) || {};
  const name = s.deleted ? t("common.deleted_player")
    : defaultBot(s) ? t("common.seat_bot", { n: i + 1, level: levelWord(s.level) })
    : s.name || t("common.seat_n", { n: i + 1 });
  return i === mySeat && mySeat !== null ? t("common.seat_you", { name }) : name;
}

/** The seat of game `gameId` this browser plays (the signed-in account's, as the page names it,
 * else the lowest seat it holds a token for), or null: pages that only show a game (the review,
 * the lists of games) say "you" for it too. */
export function viewerSeat(gameId) {
  const account = accountSeat();
  if (account !== null) return account;
  const mine = Object.keys(seatTokens.all(gameId)).map(Number).filter(Number.isInteger).sort((a, b) => a - b);
  return mine.length ? mine[0] : null;
}
