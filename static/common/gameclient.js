// The loop every game page runs against the generic game API (web/games_api.py), whatever the
// game: which seat this browser plays (its tokens from the share links, or the seat the
// signed-in account holds, which the session cookie acts for; ?seat= to choose), the
// snapshot on screen and its version, sending one action at a time (a stale version is answered
// by catching up), following everyone else through pushed events (an EventSource on /stream;
// the /events long-poll where a browser has none or the stream keeps failing), and handing each
// batch of new log entries to the page, which replays them at its own pace before the latest
// snapshot is drawn. Bots move after a player's action, as events; while one is due the client
// says so under #status ("… is thinking", or that a bot failed; #table-behind when the table is
// late: its deadline or a bot's move overdue by more than BEHIND_S), and below that what the table
// tells every seat (common/table.js: the host chose the deal; each seat's clock; "I'm back"). The
// table chat (common/chat.js) gets the lines the stream pushes, or the long-poll's count of them.
//
// The page has #status, #error and #speed (milliseconds per replayed move; the choice is kept in
// localStorage as `<kind>.speed`), optionally #seat-switch + #seat-switch-label, and strings
// `<prefix>not_found`; errors are worded by static/common/errors.js (the `error.*` strings).

import { api, ApiError, seatTokens, signedIn } from "./api.js";
import { $, h } from "./dom.js";
import { errorText } from "./errors.js";
import { list, t } from "./i18n.js";
import { accountSeat, seatName } from "./seats.js";
import { showTable } from "./table.js";
import { chatFor } from "./chat.js";
import { signalTurn } from "./yourturn.js";

export const sleep = (ms) => new Promise((res) => setTimeout(res, ms));

export const clone = (v) => JSON.parse(JSON.stringify(v));
/** Refusals or drops of the event stream in a row, without an event between, before the long-poll takes over. */
const STREAM_TRIES = 4;
/** Seconds the table may be late (its deadline, or a due bot's move) before the page says it is
 * behind: web/service/table.py's BEHIND_S. */
const BEHIND_S = 5;

/** The status line `id` under #status (a `<p role="status">` put after `after` the first time, hidden). */
function statusLine(id, className, after) {
  let box = $(id);
  if (!box) {
    box = h("p", { id, class: className, role: "status", hidden: true });
    after.after(box);
  }
  return box;
}

/**
 * The end screen (the page's #end section): `show(latest)` draws it with `draw(section, latest)`
 * when the game is over, shows it and gives it focus once per version (a redraw of the same end
 * leaves focus where the player put it), and hides it while the game runs.
 */
export function endScreen(draw) {
  let shownFor = -1;
  return (latest) => {
    const end = $("end");
    if (!latest || !latest.over) { end.hidden = true; return; }
    draw(end, latest);
    if (shownFor !== latest.version) {
      shownFor = latest.version;
      end.hidden = false;
      end.focus();
    }
  };
}

/** Remember a <select>'s choice in localStorage under `key` (restored now if still an option). */
export function rememberChoice(select, key) {
  try {
    const v = localStorage.getItem(key);
    if (v !== null && [...select.options].some((o) => o.value === v)) select.value = v;
  } catch (e) { /* private mode: the default stands */ }
  select.addEventListener("change", () => { try { localStorage.setItem(key, select.value); } catch (e) { /* ignore */ } });
}

/**
 * A button that shows and hides `panel` (aria-expanded, its label `labels.hide` / `labels.show`),
 * remembered in localStorage under `key`. Returns `set(on)`; the button calls it on click.
 */
export function panelSwitch(button, panel, key, labels) {
  const set = (on) => {
    panel.hidden = !on;
    button.setAttribute("aria-expanded", on ? "true" : "false");
    button.textContent = on ? labels.hide : labels.show;
    try { localStorage.setItem(key, on ? "on" : "off"); } catch (e) { /* ignore */ }
  };
  button.addEventListener("click", () => set(panel.hidden));
  try { if (localStorage.getItem(key) === "off") set(false); } catch (e) { /* ignore */ }
  return set;
}

export class GameClient {
  /**
   * kind: the game kind (also the URL segment of its pages, and the localStorage prefix);
   * strings: the key prefix of the page's messages ("game.", "dao.");
   * replay(entries, next): async — show the new log entries (versions after the one on screen, up
   *   to `next.version`); the page paces them (`pace()`, `skipping`);
   * settle(next): the latest snapshot `next` is the page's now (`snap`, `shownVersion` set): draw it;
   * render(): redraw (sending began, or failed);
   * seatName(i): how the page names seat i (in error sentences);
   * spaceName(q, r): how it names a space (in error sentences; default: coordinates).
   */
  constructor({ kind, gameId, strings, replay, settle, render, seatName = null, spaceName = null }) {
    Object.assign(this, { kind, gameId, strings, seatName, spaceName, hooks: { replay, settle, render } });
    this.base = `/api/games/${gameId}`;
    this.tokens = seatTokens.all(gameId);
    this.accountSeat = accountSeat();
    const wanted = new URL(location.href).searchParams.get("seat");
    const mine = Object.keys(this.tokens).map(Number).sort((a, b) => a - b);
    // the asked seat by its token, or the account's; else the account's seat, else my first token's
    if (wanted !== null && this.tokens[wanted]) this.mySeat = Number(wanted);
    else if (this.accountSeat !== null) this.mySeat = this.accountSeat;
    else this.mySeat = mine.length ? mine[0] : null;
    // no token: the session cookie acts for the account's seat (web/accounts/credentials.py)
    this.token = this.mySeat !== null ? this.tokens[this.mySeat] || null : null;
    this.snap = null; // the latest snapshot from the server
    this.shownVersion = -1; // the version on screen (behind snap.version while a replay runs)
    this.busy = false; // an action is on its way
    this.skipping = false; // the rest of this replay without pauses
    this.queue = Promise.resolve();
    this.latest = -1; // the newest version the events told of
    this.catching = false; // a catch-up to `latest` is queued or running
    rememberChoice($("speed"), `${kind}.speed`);
    this.chat = chatFor(this); // the table chat (common/chat.js): its lines come with the events
  }

  /** Whether the page shows the latest snapshot. */
  get current() { return !!this.snap && this.snap.version === this.shownVersion; }

  /** Pause between replayed moves (ms; 0: instant). */
  pace() { return Number($("speed").value); }

  /** Wait `ms` unless the replay is being skipped. */
  async wait(ms) { if (!this.skipping) await sleep(ms); }

  skip() { this.skipping = true; }

  /** The message of an API error in the page's words (static/common/errors.js). */
  errorText(e) {
    const names = {};
    if (this.seatName) names.seat = this.seatName;
    if (this.spaceName) names.space = this.spaceName;
    return errorText(e, names);
  }

  /** Show an API error in #error (null: clear it). */
  showError(e) {
    const box = $("error");
    box.hidden = !e;
    box.textContent = e ? this.errorText(e) : "";
  }

  /**
   * Load the seat's snapshot (now the one on screen) and the log up to it, which is returned; on
   * failure #status says why and the result is null.
   */
  async open() {
    try {
      const snap = await api("GET", this.base, undefined, this.token);
      if (snap.game !== this.kind) throw new ApiError(404, null);
      const history = await this.history(snap.version);
      this.snap = snap;
      this.shownVersion = snap.version;
      this.showBots(snap);
      return history;
    } catch (e) {
      $("status").textContent = e.status === 404 ? t(`${this.strings}not_found`) : this.errorText(e);
      return null;
    }
  }

  /** The public log entries up to `version`, page by page (the server pages /events). */
  async history(version) {
    const entries = [];
    for (let after = 0; after < version;) {
      const page = await api("GET", `${this.base}/events?after=${after}`);
      entries.push(...page.events.filter((x) => x.version <= version));
      if (!page.more || !page.events.length) break;
      after = page.events[page.events.length - 1].version;
    }
    return entries;
  }

  /** Bring the page up to the server's latest version (`fresh`: a snapshot already in hand; a
   * move's answer carries the entries it appended, so when they follow what the page shows and
   * no bot is still to answer, the page asks nothing more; while a bot thinks, the events are
   * asked as before, so its reply, if it came meanwhile, is replayed with the move). */
  async catchUp(fresh = null) {
    const own = fresh && fresh.bot !== "thinking" && fresh.appended;
    if (own && own.length && own[0].version === this.shownVersion + 1 && own[own.length - 1].version === fresh.version) {
      return this.show(own, fresh);
    }
    const events = await api("GET", `${this.base}/events?after=${Math.max(this.shownVersion, 0)}`);
    const next = fresh && fresh.version >= events.version ? fresh : await api("GET", this.base, undefined, this.token);
    return this.show(events.events, next);
  }

  /** Replay the `entries` the page has not shown yet, then show the snapshot `next`. */
  async show(entries, next) {
    entries = entries.filter((e) => e.version > this.shownVersion && e.version <= next.version);
    this.skipping = false;
    await this.hooks.replay(entries, next);
    this.snap = next;
    this.shownVersion = next.version;
    this.hooks.settle(next);
    this.showBots(next);
  }

  /** How the page names seat `s` of `snap` (its own seatName, else common/seats.js's). */
  nameOf(snap, s) {
    return this.seatName ? this.seatName(s) : seatName(snap.seats, s, this.mySeat);
  }

  /** Under #status: which bots are thinking (the table plays them), or that a bot failed; then the
   * table's facts for every seat (common/table.js). */
  showBots(snap) {
    const box = statusLine("bot-status", "bot-status", $("status"));
    const bots = snap.bot === "thinking" ? snap.to_act.filter((s) => snap.seats[s].type === "bot") : [];
    const names = bots.map((s) => this.nameOf(snap, s));
    box.textContent = snap.bot === "failed" ? t("common.bot_failed") : names.length ? t("common.bot_thinking", { names: list(names), count: names.length }) : "";
    box.hidden = !box.textContent;
    this.watchTable(snap);
    showTable(snap, (s) => this.nameOf(snap, s), this);
    signalTurn(snap, this);
    if (this.chat) this.chat.update(snap);
  }

  /** Follow how late the table is by `snap` (its `behind`, or its `table_due` on the server's
   * clock, counted on from `snap.now` by this browser's clock, so a page that hears nothing
   * more still notices), looking again every second. */
  watchTable(snap) {
    this.table = { due: snap.over ? null : snap.table_due, behind: snap.over ? null : snap.behind, now: snap.now, at: performance.now() };
    this.showBehind();
    if (!this.tableTimer) this.tableTimer = setInterval(() => this.showBehind(), 1000);
  }

  /** Under #status while the table is more than `BEHIND_S` late: that it is behind (a hung or
   * restarting table process; the server plays on when it catches up). Touched only when that
   * changes, so a screen reader hears it once. */
  showBehind() {
    const seen = this.table;
    const since = (performance.now() - seen.at) / 1000;
    const late = seen.behind != null || (seen.due != null && seen.now + since - seen.due > BEHIND_S);
    const box = statusLine("table-behind", "bot-status table-behind", $("bot-status") || $("status"));
    if (box.hidden !== late) return;
    box.textContent = late ? t("common.table_behind") : "";
    box.hidden = !late;
  }

  /** Run `fn` after whatever catch-up or send is under way (one at a time). */
  exclusive(fn) {
    this.queue = this.queue.then(fn, fn);
    return this.queue;
  }

  /**
   * Send `action` at the snapshot's version, then catch up with the answer. `accepted()` runs
   * once the server took it (before the redraw). Ignored while another action is on its way.
   */
  async send(action, accepted = () => {}) {
    if (this.busy || !this.snap) return;
    this.busy = true;
    this.hooks.render();
    await this.exclusive(async () => {
      try {
        const resp = await api("POST", `${this.base}/actions`, { version: this.snap.version, action }, this.token);
        this.showError(null);
        accepted();
        this.busy = false;
        await this.catchUp(resp);
      } catch (e) {
        this.showError(e);
        this.busy = false;
        if (e.code === "stale_version") await this.catchUp().catch(() => {});
        else this.hooks.render();
      }
    });
  }

  /**
   * Follow the game until it is over (runs for the page's life): pushed events, or the events
   * long-poll where the browser has no EventSource or the stream cannot be had (`STREAM_TRIES`
   * refusals or drops in a row, each tried again after 3 to 6 s, like the stream's own retry).
   */
  async follow() {
    if (typeof EventSource === "function") {
      for (let tries = 0; tries < STREAM_TRIES; tries++) {
        const outcome = await this.stream();
        if (outcome === "over") return;
        if (outcome === "worked") tries = -1; // it worked a while: start counting again
        await sleep(3000 + Math.random() * 3000);
      }
    }
    await this.longPoll();
  }

  /** Catch up (one batch at a time) until the page shows `version` or the game is over. */
  announce(version) {
    this.latest = Math.max(this.latest, version);
    if (this.catching) return; // the catch-up under way goes on to the latest
    this.catching = true;
    this.exclusive(async () => {
      try {
        while (this.latest > this.shownVersion && !(this.snap && this.snap.over)) await this.catchUp();
      } catch (e) { /* the next event, or the next look, tries again */ }
      this.catching = false;
    });
  }

  /**
   * The /stream of the game (Server-Sent Events, web/streams.py): each entry announces its
   * version, a `bot` event a change of what the table's bots do, `end` the game's end. Resolves
   * "over" once the game is over, "worked" when a stream that delivered events was lost, and
   * "failed" when it could not be had (an error answer, or drops in a row without an event).
   */
  stream() {
    return new Promise((resolve) => {
      const chatAfter = this.chat ? `&chat_after=${this.chat.count}` : "";
      const source = new EventSource(`${this.base}/stream?after=${Math.max(this.shownVersion, 0)}${chatAfter}`);
      let drops = 0;
      let worked = false;
      const stop = (outcome) => { source.close(); resolve(outcome); };
      const refresh = () => this.exclusive(() => this.catchUp()).catch(() => {});
      source.onopen = () => { if (drops) refresh(); }; // back after a drop: the bots may have changed
      source.onmessage = (m) => { drops = 0; worked = true; this.announce(JSON.parse(m.data).version); };
      source.addEventListener("bot", () => { drops = 0; worked = true; refresh(); });
      if (this.chat) source.addEventListener("chat", (m) => { drops = 0; worked = true; this.chat.pushed(JSON.parse(m.data)); });
      source.addEventListener("end", (m) => { this.announce(JSON.parse(m.data).version); stop("over"); });
      source.onerror = () => {
        drops += 1;
        if (this.snap && this.snap.over) stop("over");
        else if (source.readyState === EventSource.CLOSED || drops >= STREAM_TRIES) stop(worked ? "worked" : "failed");
      };
    });
  }

  /** Follow the game through the events long-poll until it is over. */
  async longPoll() {
    for (;;) {
      if (this.snap && this.snap.over) return;
      try {
        const chatAfter = this.chat ? `&chat_after=${this.chat.count}` : "";
        const shown = (this.snap && this.snap.bot) || null; // what #bot-status says (web: `bot`)
        const ev = await api("GET", `${this.base}/events?after=${Math.max(this.shownVersion, 0)}&wait=20${chatAfter}&bot=${shown || "none"}`);
        if (this.chat) await this.chat.polled(ev.chat);
        // a new entry, or a change of what the bots do (one began or stopped thinking, or failed)
        if (ev.version > this.shownVersion || (ev.bot || null) !== shown) await this.exclusive(() => this.catchUp());
      } catch (e) {
        await sleep(3000);
      }
    }
  }

  /**
   * While this browser only watches (it holds no seat here): `text` in #error as a notice and,
   * when nobody is signed in and the game runs, an invitation to sign in and play a seat held by
   * an account from here.
   */
  watching(text) {
    if (this.mySeat !== null) return;
    const box = $("error");
    const invite = !signedIn() && this.snap && !this.snap.over;
    if (!text && !invite) return;
    box.className = "notice";
    box.replaceChildren(...(text ? [text] : []));
    if (invite) {
      const next = location.pathname + location.search;
      const link = document.createElement("a");
      link.href = `/signin?next=${encodeURIComponent(next)}`;
      link.textContent = t("common.sign_in_to_play");
      box.append(...(text ? [" "] : []), link);
    }
    box.hidden = false;
  }

  /**
   * With several seats of this game (tokens this browser holds, the account's seat):
   * #seat-switch reopens the page as another seat.
   */
  seatSwitch(nameOf) {
    const held = Object.keys(this.tokens).map(Number);
    if (this.accountSeat !== null) held.push(this.accountSeat);
    const seats = [...new Set(held)].sort((a, b) => a - b);
    if (seats.length < 2) return;
    const sel = $("seat-switch");
    sel.replaceChildren(...seats.map((s) => new Option(nameOf(s), String(s), s === this.mySeat, s === this.mySeat)));
    sel.hidden = false;
    $("seat-switch-label").hidden = false;
    sel.addEventListener("change", () => location.assign(`/${this.kind}/games/${this.gameId}?seat=${sel.value}`));
  }
}
