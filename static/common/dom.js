// Building DOM in page scripts without a framework.

import { t } from "./i18n.js";

/** The page's element with this id (null when there is none). */
export const $ = (id) => document.getElementById(id);

/**
 * Create an element: h("button", {class: "x", onclick: fn}, "text", child...).
 * Attributes: `on<event>` adds a listener, `class`, `style` (CSS text), `dataset` (an object);
 * true sets an empty attribute, null / undefined / false leave it out. Children may be nested
 * arrays; null, undefined and false children are skipped.
 */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else if (k === "class") el.className = v;
    else if (k === "style") el.style.cssText = v;
    else if (k === "dataset") Object.assign(el.dataset, v);
    else el.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat(Infinity)) if (c !== null && c !== undefined && c !== false) el.append(c);
  return el;
}

/**
 * A box that scrolls sideways when its content (a table) is wider than the screen: keyboard users
 * can focus it to scroll (tabindex 0, a named region) and its edges shade where more is hidden
 * (the `.table-wrap` style). Every such box on the pages is made here.
 */
export function scrollBox(label, ...children) {
  return h("div", { class: "table-wrap", tabindex: "0", role: "region", "aria-label": t("common.scroll_label", { what: label }) }, ...children);
}
