// One game page's life, the same in every game: a game's static/<kind>/game.js declares its
// renderer and its actions' UI, and `gamePage` does the rest. Under it, static/common/gameclient.js
// is the loop against the game API (which seat this browser plays, the snapshot, the stream or
// the long-poll, sending an action and wording its refusal, the bots' and the table's lines, the
// clocks, "your turn"). Here, around that loop: the view on screen (`shown`: the latest
// snapshot's, or a step of a replay), the log (its lines, newest first), the replay of new log
// entries at the chosen pace (each entry's events applied to a copy of the view, told in the log
// and to screen readers in #announce, drawn, then a pause after another seat's move), the hand-off
// to the latest snapshot, the start (the history's lines, the watcher's notice, the seat switch)
// and the handle the browser tests read (`window.<handle>`: snap, shownVersion, busy, skip()).
//
// The interface, `gamePage(game)`; `game` declares:
//   kind, strings, root   the game kind, its words' prefix ("game."), the page's element (data-game)
//   handle                the window property for tests ("<name>Game"); `handleExtra`: more getters
//   draw(...args)         redraw the page from `page.shown` (the renderer); `page.render(...args)`
//                         calls it, then redraws the log
//   note(entry, e, view)  the log's line for event `e` of log entry `entry`: a string (its class
//                         "mine" for this seat's moves), `{text, kind}` (kind: the line's class) or
//                         null for none; `view` is the replayed view with `e` applied, or null for
//                         the history the page opened with (so a note may keep what only a live
//                         move shows: a flash or a notice of what just happened)
//   log: {keep, empty}    how many lines the log shows, newest first (`newestLast: true`: in order),
//                         the key of its line when empty (null: none)
//   watching              the key of the notice a watcher reads (null: only the invitation to play)
// and optionally:
//   apply(view, e, entry) event `e` applied to the replayed view (default: the view waits for the
//                         latest snapshot: the status names who moves, the log tells what)
//   first(view, entry)    async, paced replays only: a step shown before the entry (a card turned,
//                         then what it did to the table)
//   pause(entry, entries) whether the replay waits the pace after another seat's `entry` (default yes)
//   over(view, entry)     whether `entry` ended the game (the replayed view with it applied): the
//                         replay stops there, the end shown with that move (default `view.over`)
//   settled(next)         the game's own state from the latest snapshot `next`, before its redraw
//   opened()              async, once the first snapshot is in, before the history is logged and
//                         the page drawn (learn the map's names, load the island, hide a watcher's hand)
//   heard                 how many lines #announce says at a time, the latest (default all)
//   hearOwn               whether #announce says this seat's own moves (default yes)
//   seatName(s), spaceName(q, r)  how the page names a seat (default common/seats.js's name, the
//                         seat switch's without "(you)") and a space (in refusals)
// The page's state and helpers the game reads: `client` (its GameClient: send, busy, snap, pace),
// `mySeat`, `shown`, `seats`, `replaying`, `actor` (the seat whose move a replay shows),
// `current()`, `myTurn()`, `who(s)`, `render()`, `lines` (the log's), `reword(fn)`.

import { $, h } from "./dom.js";
import { clone, GameClient } from "./gameclient.js";
import { t } from "./i18n.js";
import { seatName } from "./seats.js";


/** Say `text` to screen readers (the page's #announce live region, where it has one). */
function announce(text) {
  const box = $("announce");
  if (box && text) box.textContent = text;
}

export class GamePage {
  /** `game`: the declaration above. */
  constructor(game) {
    this.game = game;
    this.shown = null; // the view on screen: the latest snapshot's, or a step of a replay
    this.seats = []; // the seats as the page names them (the snapshot on screen's)
    this.replaying = false;
    this.actor = null; // the seat whose move the replay shows (null: the table's)
    this.ready = false; // the first draw is done
    this.lines = []; // the log: {text, kind, entry, e}
    this.client = new GameClient({
      kind: game.kind,
      gameId: game.root.dataset.game,
      strings: game.strings,
      replay: (entries) => this.replay(entries),
      settle: (next) => this.settle(next),
      render: () => this.render(),
      seatName: game.seatName || ((s) => seatName(this.client.snap ? this.client.snap.seats : this.seats, s, this.mySeat)),
      spaceName: game.spaceName || null,
    });
    this.mySeat = this.client.mySeat;
  }

  /** The latest snapshot, when it is the one on screen (no replay running). */
  current() {
    return !this.replaying && this.client.current ? this.client.snap : null;
  }

  /** Whether this seat may act on the latest snapshot, now on screen. */
  myTurn() {
    return !!this.current() && !this.client.snap.over && this.mySeat !== null && this.client.snap.legal_actions.length > 0;
  }

  /** Seat `s` as the page names it ("(you)" for this browser's). */
  who(s) {
    return this.game.seatName ? this.game.seatName(s) : seatName(this.seats, s, this.mySeat);
  }

  /** Redraw the page from the view on screen, then its log. */
  render(...args) {
    if (!this.shown) return;
    this.game.draw(...args);
    this.drawLog();
  }

  /** The log's latest `log.keep` lines, newest first (`log.newestLast`: in order, scrolled to the
   * end), or its empty line. */
  drawLog() {
    const { keep, empty, newestLast } = this.game.log;
    const lines = this.lines.slice(-keep);
    const items = (newestLast ? lines : lines.reverse()).map((l) => h("li", { class: l.kind }, l.text));
    if (!items.length && empty) items.push(h("li", { class: "muted" }, t(empty)));
    const box = $("log");
    box.replaceChildren(...items);
    if (newestLast) box.scrollTop = box.scrollHeight;
  }

  /** Log event `e` of `entry` (`view`: the replayed view, null in the history); its text or null. */
  note(entry, e, view) {
    const said = this.game.note(entry, e, view);
    if (!said) return null;
    const line = typeof said === "string" ? { text: said, kind: entry.seat === this.mySeat ? "mine" : "" } : said;
    this.lines.push({ ...line, kind: line.kind || "", entry, e });
    return line.text;
  }

  /** Word every line of the log again with `fn(e, entry)` (a line it gives no words keeps its own). */
  reword(fn) {
    for (const l of this.lines) l.text = fn(l.e, l.entry) || l.text;
  }

  /**
   * New log entries (GameClient.catchUp): each applied to a copy of the view on screen and logged;
   * at a pace above 0 each is drawn as it comes, with a pause after another seat's move (skipped
   * by `client.skip()`); instantly, or when they are all this seat's own, only the latest
   * snapshot is drawn, after them. #announce says
   * the lines before each pause, and the rest at the end (at most `heard` lines at a time).
   */
  async replay(entries) {
    const { client, game } = this;
    // drawn step by step at a pace above 0 when another seat moved (or the game shows a first step)
    const moved = !!game.first || entries.some((x) => x.seat !== this.mySeat);
    const animate = moved && client.pace() > 0 && client.shownVersion >= 0;
    const paced = () => animate && !client.skipping;
    const over = game.over || ((v) => !!v.over);
    let unsaid = [];
    const say = () => {
      if (unsaid.length) announce(unsaid.slice(-(game.heard || unsaid.length)).join(" "));
      unsaid = [];
    };
    this.replaying = entries.length > 0;
    const view = clone(this.shown);
    for (const entry of entries) {
      this.actor = entry.seat;
      if (game.first && paced()) await game.first(view, entry);
      const said = [];
      for (const e of entry.events) {
        if (game.apply) game.apply(view, e, entry);
        const text = this.note(entry, e, view);
        if (text) said.push(text);
      }
      if (game.hearOwn !== false || entry.seat !== this.mySeat) unsaid.push(...said);
      if (paced()) {
        this.shown = clone(view);
        this.render();
      }
      if (over(view, entry)) break;
      if (paced() && entry.seat !== this.mySeat && (!game.pause || game.pause(entry, entries))) {
        say();
        await client.wait(client.pace());
      }
    }
    say();
    this.replaying = false;
    this.actor = null;
  }

  /** The latest snapshot `next` is the page's now: draw it. */
  settle(next) {
    this.seats = next.seats;
    this.shown = clone(next.view);
    if (this.game.settled) this.game.settled(next);
    this.render();
  }

  /** Open the page: the seat's snapshot and the log up to it, drawn; then follow the game. */
  async start() {
    const { client, game } = this;
    const history = await client.open();
    if (!history) return;
    this.seats = client.snap.seats;
    this.shown = clone(client.snap.view);
    if (game.opened) await game.opened();
    for (const entry of history) for (const e of entry.events) this.note(entry, e, null);
    client.watching(game.watching ? t(game.watching) : null);
    client.seatSwitch(game.seatName || ((s) => seatName(this.seats, s, null)));
    if (game.settled) game.settled(client.snap);
    this.render();
    this.ready = true;
    client.follow();
  }

  /** `window[game.handle]`: what the browser tests read (the snapshot, and whether the page is busy with it). */
  expose() {
    const page = this;
    const handle = {
      get snap() { return page.client.snap; },
      get shownVersion() { return page.client.shownVersion; },
      get busy() { return page.client.busy || page.replaying || !page.current() || !page.ready; },
      skip() { page.client.skip(); },
    };
    Object.defineProperties(handle, Object.getOwnPropertyDescriptors(this.game.handleExtra || {}));
    window[this.game.handle] = handle;
  }
}

/** The page of `game` (the declaration at the top), its test handle set; `page.start()` opens it. */
export function gamePage(game) {
  const page = new GamePage(game);
  page.expose();
  return page;
}
