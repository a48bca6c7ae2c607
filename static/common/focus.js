// Keyboard focus kept where play goes on (the Isla Dorada and Dragon's Gold pages; Tobago's page
// does the same with its island). A page redraws its panels from each snapshot, so the control
// that had focus is usually rebuilt, gone or disabled by the time a redraw is done, and focus
// falls to the page's body: the next turn would start from the top again. A page wraps each
// redraw in `begin()` and `settle()`: a rebuilt control gets focus back (by its id); after an
// action sent from the page focus goes to the control the page names as the player's next step
// (`nextStep()`, null when it is someone else's turn), or rests on the status line while others
// play and moves on to the next step when the turn comes back (if it still rests there). A tap or
// a click moves focus without scrolling the page under the finger.

export class FocusKeeper {
  /** root: the game's element; status: the status line; nextStep(): an element or null. */
  constructor(root, status, nextStep) {
    Object.assign(this, { root, status, nextStep });
    this.sent = false; // an action was sent from this page: place focus once it is drawn
    this.parked = false; // focus was put on the status line to wait for the turn
    this.pointer = false; // the last input was a tap or a click
    this.was = null; // the id of the control focused when the redraw began
    document.addEventListener("pointerdown", () => { this.pointer = true; }, true);
    document.addEventListener("keydown", () => { this.pointer = false; }, true);
  }

  /** An action is on its way from this page (call before sending it). */
  sending() {
    const active = document.activeElement;
    this.sent = !active || active === document.body || this.root.contains(active);
  }

  /** Focus `el` the way the last input asks (no scrolling under a finger). */
  focus(el) {
    el.focus({ preventScroll: this.pointer });
  }

  /** A redraw begins (call first). */
  begin() {
    const active = document.activeElement;
    this.was = active && active.id && this.root.contains(active) ? active.id : null;
  }

  /** A redraw is done; `settled`: the latest snapshot is on screen and nothing is on its way. */
  settle(settled) {
    const active = document.activeElement;
    const lost = !active || active === document.body;
    const again = lost && !this.sent && this.was && document.getElementById(this.was);
    if (again && !again.disabled && !again.closest("[hidden]")) {
      again.focus({ preventScroll: true });
      return;
    }
    if (!settled) return;
    const waiting = this.parked && active === this.status;
    if (!(this.sent && lost) && !waiting) {
      if (!lost) this.sent = false;
      this.parked = this.parked && waiting;
      return;
    }
    const next = this.nextStep();
    if (next) {
      this.focus(next);
      this.sent = this.parked = false;
    } else if (this.sent) {
      this.status.setAttribute("tabindex", "-1");
      this.focus(this.status);
      this.sent = false;
      this.parked = true;
    }
  }
}

/** The first enabled control inside `box` (a button, a field, a link), or null. */
export function firstControl(box) {
  if (!box || box.closest("[hidden]")) return null;
  return box.querySelector("button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), a[href]");
}

/**
 * Skip links (templates: `<nav class="skip-links">`): each link's click focuses `targets[id]()`
 * (an element or null), else the section the link points to (made focusable).
 */
export function skipLinks(targets) {
  for (const [id, target] of Object.entries(targets)) {
    const link = document.getElementById(id);
    link.addEventListener("click", (ev) => {
      ev.preventDefault();
      const section = document.querySelector(link.getAttribute("href"));
      const el = target() || section;
      if (!el) return;
      if (el === section && !el.hasAttribute("tabindex")) el.setAttribute("tabindex", "-1");
      el.focus();
    });
  }
}
