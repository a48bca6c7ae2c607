// UI strings for page scripts, and the remembered language switch.
// The page carries <script type="application/json" id="i18n-data"> (web/i18n.py) with its strings
// and every clue sentence in the page's language, and maybe `script.i18n-more` elements with the
// strings of a part of it (the table chat), merged in. The choice of language is kept in the `lang`
// cookie (read by the server) and in localStorage (which restores a lost cookie).

const KEY = "tobago.lang";
const node = document.getElementById("i18n-data");
const data = node ? JSON.parse(node.textContent) : { lang: document.documentElement.lang.startsWith("zh") ? "zh" : "en", strings: {}, clues: {} };
// a part of the page that brings its own words (templates/chat.html: `i18n_more` in web/i18n.py)
for (const more of document.querySelectorAll("script.i18n-more")) Object.assign(data.strings, JSON.parse(more.textContent).strings);

export const lang = data.lang;

const plurals = new Intl.PluralRules(lang === "zh" ? "zh-Hant" : "en");

/**
 * The message `key` with `{name}` placeholders filled from `params` (the key itself if unknown).
 * A catalogue value may be a plural object `{"one": ..., "other": ...}`: the form is chosen by
 * `params.count` (Intl.PluralRules of the page's language), so no caller builds a plural by
 * concatenation. A key no catalogue defines reads the shared word (`sharedKey`). The one message function of the pages (i18n/__init__.py is its Python twin).
 */
export function t(key, params = {}) {
  let text = data.strings[key] ?? data.strings[sharedKey(key)];
  if (text === undefined) return key;
  if (typeof text === "object") {
    const form = typeof params.count === "number" ? plurals.select(params.count) : "other";
    text = text[form] ?? text.other ?? "";
  }
  return text.replace(/\{(\w+)\}/g, (m, name, at) => (name in params ? spaced(String(params[name]), text[at - 1], text[at + m.length]) : m));
}

/**
 * The shared word a key no catalogue defines stands for: `<ns>.speed_fast` → `page.speed_fast`
 * (i18n/__init__.py's `shared_key`: what every game's pages say alike is said once).
 */
function sharedKey(key) {
  const dot = key.indexOf(".");
  return dot > 0 && !key.startsWith("page.") ? `page.${key.slice(dot + 1)}` : undefined;
}

const CJK = /[\u3400-\u9fff\uf900-\ufaff]/;
const LATIN = /[A-Za-z0-9]/;

/**
 * A filled-in value as it sits between `before` and `after` (the template's characters around its
 * placeholder): in Chinese a Latin name or a number next to a Han character gets a space
 * ("詢問 Alice", "策略電腦 2 失去"), as Chinese typesetting spaces mixed scripts.
 */
function spaced(value, before, after) {
  if (lang !== "zh" || !value) return value;
  let out = value;
  if (before && CJK.test(before) && LATIN.test(out[0])) out = ` ${out}`;
  if (after && CJK.test(after) && LATIN.test(out[out.length - 1])) out = `${out} `;
  return out;
}

/** `items` joined with the language's list separator (", " in English, "、" in Chinese). */
export function list(items) {
  const sep = data.strings["common.list_sep"] ?? (lang === "zh" ? "、" : ", ");
  return items.join(sep);
}

/** Clauses joined with the language's clause separator ("; " in English, "；" in Chinese). */
export function clauses(items) {
  const sep = data.strings["common.clause_sep"] ?? (lang === "zh" ? "；" : "; ");
  return items.join(sep);
}

/** Whether the page has a string for `key`. */
export function has(key) { return key in data.strings || sharedKey(key) in data.strings; }

/** The readable sentence of a clue notation (the notation itself if unknown). */
export function clueText(notation) { return data.clues[notation] || notation; }

function setCookie(code) {
  document.cookie = `lang=${code}; path=/; max-age=${365 * 86400}; samesite=lax`;
}

function cookieLang() {
  const m = document.cookie.match(/(?:^|;\s*)lang=(en|zh)/);
  return m ? m[1] : null;
}

/** Switch the whole site to `code` and reload this page in it (keeping its hash). */
export function switchLanguage(code) {
  try { localStorage.setItem(KEY, code); } catch (e) { /* private mode: the cookie is enough */ }
  setCookie(code);
  const url = new URL(location.href);
  url.searchParams.delete("lang");
  // Same address (a hash may differ only): assigning would not reload the page.
  if (url.pathname + url.search === location.pathname + location.search) location.reload();
  else location.assign(url.toString());
}

function init() {
  const pageLang = document.documentElement.lang.startsWith("zh") ? "zh" : "en";
  let stored = null;
  try { stored = localStorage.getItem(KEY); } catch (e) { /* ignore */ }
  const cookie = cookieLang();
  const explicit = new URL(location.href).searchParams.get("lang");
  if (explicit === "en" || explicit === "zh") {
    try { localStorage.setItem(KEY, explicit); } catch (e) { /* ignore */ }
  } else if (!cookie && (stored === "en" || stored === "zh")) {
    setCookie(stored);
    if (stored !== pageLang) { location.reload(); return; }
  } else if (cookie) {
    try { localStorage.setItem(KEY, cookie); } catch (e) { /* ignore */ }
  }
  for (const a of document.querySelectorAll(".lang-switch a[data-lang]")) {
    a.addEventListener("click", (ev) => {
      ev.preventDefault();
      switchLanguage(a.dataset.lang);
    });
  }
}

init();
