// The join page of every game (templates/join.html): claim a free seat from a share link
// (POST /api/games/<id>/seats/<i>/claim, with the invitation's secret the link carries after
// `#invite=` for a friend's seat), keep its token in localStorage and open the game's page for
// that seat. A signed-in player's account holds the seat it claims, so no token is kept (any of
// their devices plays it), and one whose account holds a seat of the game already
// (data-account-seat) goes straight to it. The page names the game kind (data-kind, also the URL
// segment of its pages) and the key prefix of its strings (data-strings: "join." → join.title,
// join.invite …).

import { api, seatTokens, signedIn } from "./api.js";
import { t } from "./i18n.js";
import { errorText } from "./errors.js";
import { $ } from "./dom.js";

const box = $("join");
const { game: gameId, kind, strings } = box.dataset;
const seat = Number(box.dataset.seat);
const watchUrl = `/${kind}/games/${gameId}`;
const gameUrl = `${watchUrl}?seat=${seat}`;
const tr = (name, params) => t(strings + name, params);
/** The invitation's secret in the link (`#invite=…`), if any: the fragment never leaves the browser. */
const invite = new URLSearchParams(location.hash.slice(1)).get("invite");

async function init() {
  if (seatTokens.all(gameId)[seat]) { location.replace(gameUrl); return; }
  if (box.dataset.accountSeat !== undefined) { location.replace(watchUrl); return; }
  let game;
  try {
    game = await api("GET", `/api/games/${gameId}`);
  } catch (e) {
    $("join-status").textContent = e.status === 404 ? tr("no_game") : errorText(e);
    return;
  }
  const s = game.seats[seat];
  if (game.game !== kind || !s || !s.open || game.over) {
    const a = document.createElement("a");
    a.href = watchUrl;
    a.textContent = tr("watch");
    $("join-status").replaceChildren(tr("taken"), " ", a);
    return;
  }
  if (!s.listed && !invite) { // a friend's seat from a link cut short: only the whole link takes it
    $("join-status").textContent = errorText({ reason: "invite_required", code: "forbidden" });
    return;
  }
  // who invites: the first seat a person holds, by the name they chose for it
  const host = game.seats.find((x, i) => i !== seat && x.type === "human" && !x.open && x.name);
  $("join-status").textContent = host ? tr("invite_by", { n: seat + 1, host: host.name }) : tr("invite", { n: seat + 1 });
  // the name the host chose for this seat, ready to keep or change
  if (s.name) $("join-name").value = s.name;
  $("join-form").hidden = false;
  $("join-name").focus();
  $("join-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    $("join-claim").disabled = true;
    try {
      const name = $("join-name").value.trim();
      const body = { ...(name ? { name } : {}), ...(invite ? { invite } : {}) };
      const out = await api("POST", `/api/games/${gameId}/seats/${seat}/claim`, body);
      // signed in, the account holds the seat: the game answers this browser as that seat
      const held = signedIn() && (await api("GET", `/api/games/${gameId}`).catch(() => ({}))).seat === seat;
      if (held) { location.assign(watchUrl); return; }
      seatTokens.set(gameId, seat, out.token);
      location.assign(gameUrl);
    } catch (e) {
      $("join-error").textContent = tr("err", { message: errorText(e) });
      $("join-error").hidden = false;
      $("join-claim").disabled = false;
    }
  });
}

init();
