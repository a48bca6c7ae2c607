// "Your turn" on every game page (static/common/gameclient.js calls `signalTurn` with each
// snapshot it shows): when this browser's seat may act, the page's title starts with a mark and
// the words, and its icon gains a dot; with the player's leave, a short tone plays (WebAudio: no
// sound file) and, while the tab is hidden, the browser shows a notification (the Notification
// API). Both choices are two check boxes this module puts in the page's settings bar
// (.frame-settings), kept in localStorage (`turn.sound`, `turn.notify`); nothing plays or shows
// unless asked. Only a change to "your turn" signals: redrawing the same turn does not.

import { t } from "./i18n.js";

const SOUND = "turn.sound";
const NOTIFY = "turn.notify";
const TURN_ICON = "/static/common/favicon-turn.svg";

let title = null; // the page's own title, before any mark
let icon = null; // the page's own icon's address
let wasMine = false;
let audio = null;

function stored(key) {
  try { return localStorage.getItem(key) === "on"; } catch (e) { return false; }
}

function store(key, on) {
  try { localStorage.setItem(key, on ? "on" : "off"); } catch (e) { /* private mode: not kept */ }
}

/** A short two-note tone (about a third of a second, quiet). */
function tone() {
  try {
    audio = audio || new AudioContext();
    const now = audio.currentTime;
    for (const [i, freq] of [660, 880].entries()) {
      const osc = audio.createOscillator();
      const gain = audio.createGain();
      osc.frequency.value = freq;
      gain.gain.setValueAtTime(0.0001, now + i * 0.15);
      gain.gain.exponentialRampToValueAtTime(0.15, now + i * 0.15 + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, now + i * 0.15 + 0.14);
      osc.connect(gain).connect(audio.destination);
      osc.start(now + i * 0.15);
      osc.stop(now + i * 0.15 + 0.15);
    }
  } catch (e) { /* no audio here */ }
}

function notify(body, tag) {
  if (!document.hidden || typeof Notification !== "function" || Notification.permission !== "granted") return;
  try {
    const note = new Notification(t("common.your_turn"), { body, tag, lang: document.documentElement.lang });
    note.onclick = () => { window.focus(); note.close(); };
  } catch (e) { /* a browser that only notifies from a service worker */ }
}

function setIcon(mine) {
  const link = document.querySelector('link[rel="icon"][type="image/svg+xml"]');
  if (!link) return;
  if (icon === null) icon = link.getAttribute("href");
  link.setAttribute("href", mine ? TURN_ICON : icon);
}

/** A check box in the settings bar: `key` its stored choice, `onOn` what turning it on asks. */
function toggle(id, label, key, onOn = async () => true) {
  const box = document.createElement("input");
  box.type = "checkbox";
  box.id = id;
  box.checked = stored(key);
  const wrap = document.createElement("label");
  wrap.className = "turn-toggle";
  wrap.append(box, " ", label);
  box.addEventListener("change", async () => {
    const on = box.checked && (await onOn());
    box.checked = on;
    store(key, on);
  });
  return wrap;
}

async function askToNotify() {
  if (typeof Notification !== "function") return false;
  if (Notification.permission === "granted") return true;
  try { return (await Notification.requestPermission()) === "granted"; } catch (e) { return false; }
}

/** Put the two check boxes in the page's settings bar (once, on a page with a seat). */
function settings() {
  const bar = document.querySelector(".frame-settings");
  if (!bar || document.getElementById("turn-sound")) return;
  // right after the pace choice: the page's own controls stay next to the table in Tab order
  const boxes = [toggle("turn-sound", t("common.turn_sound"), SOUND, async () => { tone(); return true; })];
  if (typeof Notification === "function") boxes.push(toggle("turn-notify", t("common.turn_notify"), NOTIFY, askToNotify));
  const speed = document.getElementById("speed");
  if (speed && speed.parentElement === bar) speed.after(...boxes);
  else bar.append(...boxes);
}

/**
 * Signal the turn of this browser's seat in snapshot `snap` (`client`: the game client, whose
 * `mySeat` it is); the notification names the game by the page's own title.
 */
export function signalTurn(snap, client) {
  if (client.mySeat === null || !snap) return;
  if (title === null) title = document.title;
  const game = title;
  settings();
  const mine = !snap.over && snap.to_act.includes(client.mySeat) && snap.legal_actions.length > 0;
  document.title = mine ? `● ${t("common.your_turn")} · ${title}` : title;
  setIcon(mine);
  if (mine && !wasMine) {
    if (stored(SOUND)) tone();
    if (stored(NOTIFY)) notify(t("common.your_turn_in", { game }), client.gameId);
  }
  wasMine = mine;
}
