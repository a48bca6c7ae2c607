// The new-game pages' clock (templates/game_controls.html `turn_field`, games/turns.py): no clock;
// real time, a bank per player (#time-bank) with seconds added after each move (#time-increment);
// or turn-based, a time per move (#turn-seconds). The chosen mode's fields show (wired when this
// module loads, on any page that has the fieldset); `timeOptions` reads the choice as options.

import { $ } from "./dom.js";

/** The mode chosen in #time-control: "none", "bank" or "turn" (none on a page without it). */
function mode() {
  const picked = document.querySelector('#time-control input[name="time_mode"]:checked');
  return picked ? picked.value : "none";
}

/** Show the fields of the chosen mode, hide the others'. */
function showMode() {
  const chosen = mode();
  for (const fields of document.querySelectorAll("#time-control [data-mode]")) fields.hidden = fields.dataset.mode !== chosen;
}

/**
 * The clock options of the choice: `{time_bank_s, increment_s}` (real time; no increment: left
 * out), `{turn_seconds}` (turn-based), or nothing (no clock, or a page without the choice).
 */
export function timeOptions() {
  const chosen = mode();
  if (chosen === "bank") {
    const increment = Number($("time-increment").value);
    return { time_bank_s: Number($("time-bank").value), ...(increment > 0 ? { increment_s: increment } : {}) };
  }
  if (chosen === "turn") return { turn_seconds: Number($("turn-seconds").value) };
  return {};
}

const box = $("time-control");
if (box) {
  box.addEventListener("change", showMode);
  showMode(); // a mode the browser kept from before (the back button) shows its fields
}
