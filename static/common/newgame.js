// What the new-game pages of every game share: reading the seat rows, and starting the game —
// POST /api/games, keeping the tokens of this browser's seats (common/api.js), then opening my
// seat, or first showing the share links of the seats left open for friends (each leads to the
// join page, templates/join.html; a friend's seat is an invitation, whose secret the link carries
// after `#invite=`, where it never reaches a server's log).
//
// The page has a form #new-game with rows in #seat-rows (#seat-<i>-type: me / friend / bot /
// none, #seat-<i>-name, #seat-<i>-level) and a hidden #created section with #share-links and the
// link #open-seat; strings `<prefix>share_label` ({n}) and `<prefix>copy`. The bot levels a page
// offers come from GET /api/games/kinds (`gameKind`), each with its sentence (`levelList`).

import { api, seatLinks, seatTokens } from "./api.js";
import { h } from "./dom.js";
import { lang, t } from "./i18n.js";

const $ = (id) => document.getElementById(id);

/**
 * A Copy button for the link in `input`: it copies (or, without clipboard access, selects the
 * link for the reader to copy) and says so, on the button and to screen readers, for 2 s.
 */
export function copyButton(input, label, done) {
  const status = h("span", { class: "visually-hidden", role: "status" });
  const button = h("button", { type: "button", class: "secondary small copy", onclick: async () => {
    input.select();
    let ok = true;
    try { await navigator.clipboard.writeText(input.value); } catch (e) { ok = false; }
    button.textContent = ok ? done : label;
    status.textContent = ok ? done : "";
    if (ok) setTimeout(() => { button.textContent = label; status.textContent = ""; }, 2000);
  } }, label);
  return h("span", { class: "copy-box" }, button, status);
}

/**
 * The option `turn_seconds` from the page's #turn-seconds choice (templates/game_controls.html,
 * `turn_field`): `{turn_seconds: n}`, or nothing for no turn clock (or a page without it).
 */
export function turnOption() {
  const box = $("turn-seconds");
  const value = box ? Number(box.value) : 0;
  return value > 0 ? { turn_seconds: value } : {};
}

/** The seats the rows ask for: [{seat (as POST /api/games takes it), local (mine here)}]. */
export function readSeats() {
  const out = [];
  for (let i = 0; i < $("seat-rows").children.length; i++) {
    const type = $(`seat-${i}-type`).value;
    const name = $(`seat-${i}-name`).value.trim() || null;
    if (type === "none") continue;
    if (type === "bot") out.push({ seat: { type: "bot", level: $(`seat-${i}-level`).value }, local: false });
    else {
      // "friend": an invitation by share link only; "anyone": also listed under open games
      const open = type === "friend" || type === "anyone";
      out.push({ seat: { type: "human", name, open, listed: type === "anyone" }, local: type === "me" });
    }
  }
  return out;
}

/**
 * Create a `kind` game with `seats` (from readSeats) and the rest of the request in `body`
 * (options, seed), keep my seats' tokens, then open my first seat — or, with seats open for
 * friends, show their share links first. API errors are thrown for the page to word.
 */
export async function startGame(kind, seats, body, strings) {
  const game = await api("POST", "/api/games", { game: kind, seats: seats.map((s) => s.seat), ...body });
  let first = null;
  game.seats.forEach((s, i) => {
    if (s.token && seats[i].local) {
      seatTokens.set(game.id, i, s.token);
      if (first === null) first = i;
    }
  });
  const url = `/${kind}/games/${game.id}?seat=${first}`;
  const open = game.seats.filter((s) => s.open);
  if (!open.length) { location.assign(url); return; }
  $("new-game").hidden = true;
  $("created").hidden = false;
  $("open-seat").href = url;
  const links = Object.fromEntries(open.map((s) => {
    const invite = s.invite ? `#invite=${encodeURIComponent(s.invite)}` : "";
    return [s.index, `${location.origin}/${kind}/games/${game.id}/join/${s.index}${invite}`];
  }));
  seatLinks.set(game.id, links);
  $("share-links").replaceChildren(...open.map((s) => {
    const link = links[s.index];
    const id = `share-${s.index}`;
    const label = t(`${strings}share_label`, { n: s.index + 1 });
    const input = h("input", { type: "text", readonly: true, value: link, class: "share-url", id, "aria-label": label });
    return h("li", {}, h("label", { for: id }, label), input,
      copyButton(input, t(`${strings}copy`), t("common.copied")));
  }));
  $("open-seat").focus();
}

/** The kind `name` as GET /api/games/kinds describes it (its bot levels, options…). */
export async function gameKind(name) {
  const kinds = await api("GET", "/api/games/kinds");
  return kinds.kinds.find((k) => k.name === name) || null;
}

/**
 * The bot levels the kind `name` offers, their sentences shown in #bot-levels (strings
 * `<label>level_<name>`); `known` when the API does not answer (creating reports the problem).
 */
export async function offeredLevels(name, label, known) {
  try {
    const kind = await gameKind(name);
    if (kind && kind.bots.length) {
      $("bot-levels").replaceChildren(levelList(kind.levels, label));
      return kind.bots;
    }
  } catch (e) { /* keep the known levels */ }
  return known;
}

/**
 * The bot levels of a kind (`kind.levels`) as a list: each level's name (the string
 * `<label>level_<name>`) and its one sentence on how it plays, in the page's language.
 */
export function levelList(levels, label) {
  return h("div", { class: "bot-levels" }, h("p", { class: "hint-text" }, t("common.bot_levels")),
    h("dl", {}, ...levels.flatMap((l) => [
      h("dt", {}, t(`${label}level_${l.name}`)),
      h("dd", {}, lang === "zh" && l.description_zh ? l.description_zh : l.description),
    ])));
}
