// The review page's renderer for a game without a piece of its own: the position as a readable
// outline of its view (keys and values, nested), the move list from the public events' types.
// A game adds static/review/<kind>.js (same three functions) to draw itself.

import { h } from "../common/dom.js";
import { t } from "../common/i18n.js";
import { seatName } from "../common/seats.js";
import { tableText } from "../common/table.js";

function outline(value, depth = 0) {
  if (value === null || typeof value !== "object") return h("span", { class: "rv-value" }, JSON.stringify(value));
  const entries = Array.isArray(value) ? value.map((v, i) => [String(i), v]) : Object.entries(value);
  if (!entries.length) return h("span", { class: "rv-value" }, Array.isArray(value) ? "[]" : "{}");
  return h("dl", { class: `rv-outline depth-${Math.min(depth, 4)}` }, entries.map(([k, v]) => [h("dt", {}, k), h("dd", {}, outline(v, depth + 1))]));
}

export async function createRenderer({ root, helperBox, seats, viewer = null }) {
  const name = (i) => seatName(seats, i, viewer);
  return {
    seatName: (i, me = viewer) => seatName(seats, i, me),
    async render(pos) {
      root.replaceChildren(h("div", { class: "rv-generic", tabindex: "0", role: "region", "aria-label": t("review.position") }, outline(pos.view)));
      helperBox.replaceChildren(pos.helper ? outline(pos.helper) : h("p", { class: "muted" }, t("review.no_helper_now")));
    },
    moveText(entry) {
      const who = entry.seat === null ? t("review.table") : name(entry.seat);
      const words = entry.events.map((e) => tableText(e, name) ?? e.type).filter(Boolean);
      return `${who}: ${words.join(", ")}`;
    },
    bestText(d) {
      return JSON.stringify(d.best_action);
    },
  };
}
