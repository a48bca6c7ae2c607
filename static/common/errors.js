// API errors in the reader's words. The server answers {"error": {"code", "reason", "params",
// "message", "field"}} (errors/__init__.py): `reason` is a stable cause and `params` the things it
// names. The page words it from the catalogue key `error.<reason>` with the params named as the
// page names them (a clue by its sentence, a map by its colour's name, a space as (q, r), a seat
// by its player's name), falling back to the category's sentence (`error.<code>`) and then to a
// generic one: always in the page's language, never the server's English on a Chinese page.

import { clueText, has, lang, t } from "./i18n.js";

/** How the page names the things error params carry; `seat` may be replaced by the page's. */
export function nameParams(params, names = {}) {
  const out = {};
  for (const [k, v] of Object.entries(params || {})) {
    if (k === "clue" && typeof v === "string") out[k] = clueText(v);
    else if (k === "map" && typeof v === "string") out[k] = has(`map.${v}`) ? t(`map.${v}`) : v;
    else if (k === "space" && Array.isArray(v)) out[k] = `(${v[0]}, ${v[1]})`;
    else if ((k === "seat" || k === "to_move") && typeof v === "number") out[k] = names.seat ? names.seat(v) : t("error.seat_n", { n: v + 1 });
    // an error that wraps another's (a record's refused action): the inner reason's sentence
    else if (k === "cause" && typeof v === "string") out.why = errorText({ reason: v, code: v, params: params.cause_params }, names);
    else out[k] = v;
  }
  return out;
}

/**
 * The sentence for an ApiError `e` (or any error with code/reason/params). `names.seat(i)` names a
 * seat; with `detail` (English pages only) an error without a catalogued reason keeps the
 * server's own message, for pages whose input the server checks in detail (the playground).
 */
export function errorText(e, names = {}, { detail = false } = {}) {
  const reason = e.reason || e.code;
  if (reason && has(`error.${reason}`)) return t(`error.${reason}`, nameParams(e.params, names));
  if (detail && lang === "en" && e.message) return t("error.refused", { message: e.message });
  if (e.code && has(`error.${e.code}`)) return t(`error.${e.code}`, nameParams(e.params, names));
  return t("error.generic");
}
