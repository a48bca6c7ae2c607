// The table chat of a game (templates/chat.html; the API in web/chat_api.py): every seat writes,
// everyone reads, in the order of the lines' numbers. A game page's client (common/gameclient.js)
// hands it the lines its event stream pushes (`pushed`) or, on the long-poll, the count of lines
// there are (`polled`), and each new snapshot (`update`: who I am, the seats' names, whether the
// game is over); the review shows a finished game's chat read only (`reviewChat`). A line is put
// on the page as text, never as markup.
//
// The viewer can mute any other seat: its lines are hidden (a note counts them), remembered in
// localStorage `tobago.chat.muted.<game id>`. Quick phrases (the catalogue's `chat.phrase_*`, in
// the page's language) are sent with one tap. The chat sits in the first `[data-chat-slot]` the
// page shows (its stylesheet decides which, by the screen's width and what is open), in the order
// of the slots' values: "panel" (Dragon's Gold's negotiation and market panels on a phone, after
// the proposals), "beside" (their neighbour on a screen: the top of the side column), "side" (a
// game's side column); with none shown it stays where the page put it.

import { api } from "./api.js";
import { $, h } from "./dom.js";
import { errorText } from "./errors.js";
import { lang, t } from "./i18n.js";
import { seatName } from "./seats.js";

/** The characters-left line shows once this few are left (the server's limit is 500). */
const LEFT_SHOWN = 100;
const SLOTS = ["panel", "beside", "side"];
const clock = new Intl.DateTimeFormat(lang === "zh" ? "zh-Hant" : "en", { hour: "2-digit", minute: "2-digit" });

function mutedKey(gameId) { return `tobago.chat.muted.${gameId}`; }

function loadMuted(gameId) {
  try { return new Set(JSON.parse(localStorage.getItem(mutedKey(gameId)) || "[]").map(Number)); } catch (e) { return new Set(); }
}

export class TableChat {
  /**
   * root: the #chat section; gameId; token: this browser's seat token (null: a signed-in
   * account's cookie, or nobody); readOnly: the review's (no form, no note).
   */
  constructor(root, { gameId, token = null, readOnly = false }) {
    Object.assign(this, { root, gameId, token, readOnly });
    this.lines = []; // every line the page has, in order
    this.count = 0; // the last line's number (a stream's chat_after)
    this.seats = [];
    this.mySeat = null;
    this.over = false;
    this.canWrite = false;
    this.nameOf = null; // the page's names of seats (else common/seats.js's)
    this.names = ""; // the names the lines were drawn with
    this.muted = loadMuted(gameId);
    this.loading = null; // the reading under way
    this.again = false; // lines were missed while it ran: read on after it
    this.sending = false;
    this.log = $("chat-log");
    this.list = $("chat-lines");
    this.bindForm();
    this.place();
    new MutationObserver(() => this.place()).observe(document.body, { attributes: true, attributeFilter: ["hidden"], subtree: true });
    addEventListener("resize", () => this.place());
    this.loaded = this.fetchMore();
    // the lines there already are were not "said" now: a screen reader hears only the new ones
    this.loaded.finally(() => setTimeout(() => this.log.setAttribute("aria-live", "polite"), 500));
  }

  /** A new snapshot: who this page is (`snap.seat`), the seats' names, whether the game is over. */
  update(snap, nameOf = null) {
    this.seats = snap.seats || [];
    this.mySeat = snap.seat ?? null;
    this.over = !!snap.over;
    this.nameOf = nameOf;
    this.canWrite = !this.readOnly && this.mySeat !== null && !this.over;
    this.renderControls();
    // the lines are drawn again when a seat's name reads otherwise (the page learnt its seats)
    const names = JSON.stringify([this.mySeat, this.seats.map((_, i) => this.who(i))]);
    if (names !== this.names) { this.names = names; this.renderLines(); }
  }

  /** How the chat names seat `s`. */
  who(s) {
    if (this.nameOf) return this.nameOf(s);
    return seatName(this.seats, s, this.mySeat);
  }

  /** A line the event stream pushed (a repeat is ignored; after a gap the missing lines are read). */
  pushed(line) {
    if (line.n <= this.count) return;
    if (line.n > this.count + 1) { this.fetchMore(); return; }
    this.add([line]);
  }

  /** The long-poll's count of lines: read those the page does not have. */
  async polled(count) {
    if (typeof count === "number" && count > this.count) await this.fetchMore();
  }

  /** Read the lines after the last one the page has, page by page (one reading at a time). */
  fetchMore() {
    if (this.loading) { this.again = true; return this.loading; } // read on once this one is done
    this.loading = (async () => {
      try {
        do {
          this.again = false;
          for (;;) {
            const page = await api("GET", `/api/games/${this.gameId}/chat?after=${this.count}`);
            this.add(page.lines);
            if (!page.more || !page.lines.length) break;
          }
        } while (this.again);
      } catch (e) { /* the next push or look reads them */ }
      this.loading = null;
    })();
    return this.loading;
  }

  /** Put `lines` (in order, each the next one's number) on the page. */
  add(lines) {
    const fresh = [];
    for (const x of lines) {
      if (x.n !== this.count + 1) continue;
      fresh.push(x);
      this.count = x.n;
    }
    if (!fresh.length) return;
    const atEnd = this.log.scrollHeight - this.log.scrollTop - this.log.clientHeight < 24;
    this.lines.push(...fresh);
    this.list.append(...fresh.filter((x) => !this.muted.has(x.seat)).map((x) => this.lineItem(x)));
    this.renderNotes();
    if (atEnd) this.log.scrollTop = this.log.scrollHeight;
  }

  lineItem(line) {
    const at = new Date(line.time * 1000);
    return h("li", { class: `chat-line chat-seat-${line.seat % 6}${line.seat === this.mySeat ? " mine" : ""}`, dataset: { n: String(line.n), seat: String(line.seat) } },
      h("span", { class: "chat-who" }, this.who(line.seat), h("span", { class: "visually-hidden" }, ":")), " ",
      h("span", { class: "chat-text" }, line.text), " ",
      h("time", { class: "chat-time", datetime: at.toISOString() }, clock.format(at)));
  }

  renderLines() {
    this.list.replaceChildren(...this.lines.filter((x) => !this.muted.has(x.seat)).map((x) => this.lineItem(x)));
    this.renderNotes();
    this.log.scrollTop = this.log.scrollHeight;
  }

  /** The empty line, and how many lines of muted seats are hidden. */
  renderNotes() {
    const hidden = this.lines.filter((x) => this.muted.has(x.seat)).length;
    $("chat-empty").hidden = this.lines.length > 0;
    $("chat-hidden").hidden = !hidden;
    $("chat-hidden").textContent = hidden ? t("chat.muted_hidden", { count: hidden }) : "";
  }

  /** The form (a seat of a running game), the note (a spectator, or the game is over), the mutes. */
  renderControls() {
    $("chat-form").hidden = !this.canWrite;
    const note = this.readOnly ? "" : this.over ? t("chat.closed") : this.mySeat === null && this.seats.length ? t("chat.spectator") : "";
    $("chat-note").hidden = !note;
    $("chat-note").textContent = note;
    const others = this.seats.map((s, i) => i).filter((i) => i !== this.mySeat && this.seats[i].type !== "bot");
    $("chat-mutes").hidden = !others.length;
    const list = $("chat-mute-list");
    const focused = document.activeElement && list.contains(document.activeElement) ? document.activeElement.id : null;
    list.replaceChildren(...others.map((i) => {
      const box = h("input", { type: "checkbox", id: `chat-mute-${i}`, checked: this.muted.has(i) });
      box.addEventListener("change", () => this.mute(i, box.checked));
      return h("label", { for: `chat-mute-${i}` }, box, t("chat.mute_seat", { name: this.who(i) }));
    }));
    if (focused && $(focused)) $(focused).focus();
  }

  /** Mute (or unmute) seat `s` for this viewer. */
  mute(s, on) {
    if (on) this.muted.add(s); else this.muted.delete(s);
    try { localStorage.setItem(mutedKey(this.gameId), JSON.stringify([...this.muted])); } catch (e) { /* private mode: for this page only */ }
    this.renderLines();
  }

  bindForm() {
    const input = $("chat-text");
    $("chat-form").addEventListener("submit", (e) => {
      e.preventDefault();
      if (input.value.trim()) this.send(input.value, true);
    });
    input.addEventListener("input", () => {
      const left = Number(input.maxLength) - input.value.length;
      $("chat-left").hidden = left > LEFT_SHOWN;
      $("chat-left").textContent = left > LEFT_SHOWN ? "" : t("chat.chars_left", { count: left });
    });
    for (const b of this.root.querySelectorAll("[data-phrase]")) b.addEventListener("click", () => this.send(t(b.dataset.phrase), false));
  }

  /** Say `text` at the table (`typed`: from the box, which is cleared once it is sent). */
  async send(text, typed) {
    if (this.sending || !this.canWrite) return;
    this.sending = true;
    try {
      const line = await api("POST", `/api/games/${this.gameId}/chat`, { text }, this.token);
      this.showError(null);
      if (typed) { $("chat-text").value = ""; $("chat-left").hidden = true; }
      this.pushed(line);
    } catch (e) {
      this.showError(e);
    } finally {
      this.sending = false;
    }
  }

  showError(e) {
    const box = $("chat-error");
    box.hidden = !e;
    box.textContent = e ? errorText(e, { seat: (s) => this.who(s) }) : "";
  }

  /** Into the first visible slot of the page (the module doc), keeping focus where it was. */
  place() {
    const slots = [...document.querySelectorAll("[data-chat-slot]")]
      .filter((s) => s.offsetParent !== null) // shown (hidden, or not displayed on this screen)
      .sort((a, b) => SLOTS.indexOf(a.dataset.chatSlot) - SLOTS.indexOf(b.dataset.chatSlot));
    const slot = slots[0];
    if (!slot || slot === this.root.parentElement) return;
    const focused = this.root.contains(document.activeElement) ? document.activeElement : null;
    slot.append(this.root);
    if (focused) focused.focus({ preventScroll: true });
  }
}

/** The chat of a game page, for its client (`client.gameId`, `client.token`); null without one. */
export function chatFor(client) {
  const root = $("chat");
  return root ? new TableChat(root, { gameId: client.gameId, token: client.token }) : null;
}

/** A finished game's chat on its review page, read only; `nameOf(s)` names the seats. */
export function reviewChat(gameId, seats, nameOf) {
  const root = $("chat");
  if (!root) return null;
  const chat = new TableChat(root, { gameId, readOnly: true });
  chat.update({ seats, seat: null, over: true }, nameOf);
  return chat;
}
