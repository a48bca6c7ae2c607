// Claim a free seat from a share link: POST /api/games/<id>/seats/<i>/claim, keep the token.

import { api, seatTokens } from "../common/api.js";
import { t } from "../common/i18n.js";

const $ = (id) => document.getElementById(id);
const box = $("join");
const gameId = box.dataset.game;
const seat = Number(box.dataset.seat);
const gameUrl = `/tobago/games/${gameId}?seat=${seat}`;

async function init() {
  if (seatTokens.all(gameId)[seat]) { location.replace(gameUrl); return; }
  let game;
  try {
    game = await api("GET", `/api/games/${gameId}`);
  } catch (e) {
    $("join-status").textContent = e.status === 404 ? t("join.no_game") : e.message;
    return;
  }
  const s = game.seats[seat];
  if (!s || !s.open || game.over) {
    $("join-status").textContent = t("join.taken");
    const a = document.createElement("a");
    a.href = `/tobago/games/${gameId}`;
    a.textContent = t("join.watch");
    $("join-status").append(" ", a);
    return;
  }
  $("join-status").textContent = t("join.invite", { n: seat + 1 });
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
      $("join-error").textContent = t("join.err", { message: e.message });
      $("join-error").hidden = false;
      $("join-claim").disabled = false;
    }
  });
}

init();
