// API errors in the reader's words. The server answers {"error": {"code", "reason", "params",
// "message", "field"}} (errors/__init__.py): `reason` is a stable cause and `params` the things it
// names. The page words it from the catalogue key `error.<reason>` with the params named as the
// page names them (a clue by its sentence, a map by its colour's name, a space as players find it
// when the page knows the island's names, a seat by its player's name), falling back to the category's sentence (`error.<code>`) and then to a
// generic one: always in the page's language, never the server's English on a Chinese page.

import { clueText, has, lang, t } from "./i18n.js";

/** How the page names the things error params carry; `names.seat(i)` and `names.space(q, r)`
 * (the page's own: a Tobago page names a space by its terrain, where and nearest landmark)
 * replace the defaults ("Seat 2", and coordinates, which only a page without a map shows). */
export function nameParams(params, names = {}) {
  const out = {};
  for (const [k, v] of Object.entries(params || {})) {
    if (k === "clue" && typeof v === "string") out[k] = clueText(v);
    else if (k === "map" && typeof v === "string") out[k] = has(`map.${v}`) ? t(`map.${v}`) : v;
    else if (k === "space" && Array.isArray(v)) out[k] = names.space ? names.space(v[0], v[1]) : `(${v[0]}, ${v[1]})`;
    else if ((k === "seat" || k === "to_move") && typeof v === "number") out[k] = names.seat ? names.seat(v) : t("error.seat_n", { n: v + 1 });
    // an error that wraps another's (a record's refused action): the inner reason's sentence
    else if (k === "cause" && typeof v === "string") out.why = errorText({ reason: v, code: v, params: params.cause_params }, names);
    else out[k] = v;
  }
  return out;
}

/** `text` opening a sentence: a name put first ("the jungle space …") gets its capital. */
const sentence = (text) => text.charAt(0).toUpperCase() + text.slice(1);

/**
 * The sentence for an ApiError `e` (or any error with code/reason/params). `names.seat(i)` names a
 * seat, `names.space(q, r)` a space; with `detail` (English pages only) an error without a catalogued reason keeps the
 * server's own message, for pages whose input the server checks in detail (the playground).
 */
export function errorText(e, names = {}, { detail = false } = {}) {
  const reason = e.reason || e.code;
  if (reason && has(`error.${reason}`)) return sentence(t(`error.${reason}`, nameParams(e.params, names)));
  if (detail && lang === "en" && e.message) return t("error.refused", { message: e.message });
  if (e.code && has(`error.${e.code}`)) return sentence(t(`error.${e.code}`, nameParams(e.params, names)));
  return t("error.generic");
}
