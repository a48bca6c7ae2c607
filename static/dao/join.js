// Claim a friend's seat from a share link (POST /api/games/<id>/seats/<i>/claim), keep its token
// in localStorage and open the DAO game page for that seat.

import { api, seatTokens } from "../common/api.js";
import { t } from "../common/i18n.js";
import { h } from "./cards.js";

const $ = (id) => document.getElementById(id);
const box = $("join");
const gameId = box.dataset.game;
const seat = Number(box.dataset.seat);
const gameUrl = `/dao/games/${gameId}?seat=${seat}`;

async function init() {
  if (seatTokens.all(gameId)[seat]) { location.replace(gameUrl); return; }
  let game;
  try {
    game = await api("GET", `/api/games/${gameId}`);
  } catch (e) {
    $("join-status").textContent = e.status === 404 ? t("dao.join_no_game") : e.message;
    return;
  }
  const s = game.seats[seat];
  if (game.game !== "dao" || !s || !s.open || game.over) {
    $("join-status").replaceChildren(t("dao.join_taken"), " ", h("a", { href: `/dao/games/${gameId}` }, t("dao.join_watch")));
    return;
  }
  $("join-status").textContent = t("dao.join_invite", { n: seat + 1 });
  $("join-form").hidden = false;
  $("join-name").focus();
  $("join-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    $("join-claim").disabled = true;
    try {
      const name = $("join-name").value.trim();
      const out = await api("POST", `/api/games/${gameId}/seats/${seat}/claim`, name ? { name } : {});
      seatTokens.set(gameId, seat, out.token);
      location.assign(gameUrl);
    } catch (e) {
      $("join-error").textContent = t("dao.join_err", { message: e.message });
      $("join-error").hidden = false;
      $("join-claim").disabled = false;
    }
  });
}

init();
