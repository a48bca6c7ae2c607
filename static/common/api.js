// A small client for the JSON API: errors become ApiError with the server's words. A signed-in
// browser's session cookie goes with every call by itself; every write (not a GET) also sends
// the session's CSRF token, which the server writes into the page's <meta name="csrf-token">
// (web/accounts_pages.py) and a sign-in's answer gives (setCsrfToken).

export class ApiError extends Error {
  constructor(status, body) {
    const err = (body && body.error) || {};
    super(err.message || `HTTP ${status}`);
    this.status = status;
    this.code = err.code || "http_error";
    this.reason = err.reason || this.code;
    this.params = err.params || {};
    this.field = err.field || null;
    this.version = err.version;
  }
}

const csrfMeta = () => document.querySelector('meta[name="csrf-token"]');

/** Whether this page was shown to a signed-in browser (it carries the session's CSRF token). */
export function signedIn() { return !!csrfMeta(); }

/** The CSRF token of a session this page just began (a sign-in's answer): later writes send it. */
export function setCsrfToken(value) {
  let meta = csrfMeta();
  if (!meta) {
    meta = document.createElement("meta");
    meta.name = "csrf-token";
    document.head.append(meta);
  }
  meta.content = value;
}

/** Call the API: `method` and `url`, an optional JSON `body` and seat `token`. */
export async function api(method, url, body = undefined, token = undefined) {
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = `Bearer ${token}`;
  const csrf = csrfMeta();
  if (csrf && method !== "GET" && method !== "HEAD") headers["X-CSRF-Token"] = csrf.content;
  let resp;
  try {
    resp = await fetch(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch (e) {
    throw new ApiError(0, { error: { code: "network", message: e.message } });
  }
  let data = null;
  try { data = await resp.json(); } catch (e) { data = null; }
  if (!resp.ok) throw new ApiError(resp.status, data);
  return data;
}

/** Seat tokens of this browser, per game: localStorage `tobago.tokens.<game id>` = {seat: token}. */
export const seatTokens = {
  all(gameId) {
    try { return JSON.parse(localStorage.getItem(`tobago.tokens.${gameId}`) || "{}"); } catch (e) { return {}; }
  },
  set(gameId, seat, token) {
    const all = this.all(gameId);
    all[seat] = token;
    localStorage.setItem(`tobago.tokens.${gameId}`, JSON.stringify(all));
    const games = JSON.parse(localStorage.getItem("tobago.myGames") || "[]").filter((g) => g !== gameId);
    games.unshift(gameId);
    localStorage.setItem("tobago.myGames", JSON.stringify(games.slice(0, 30)));
  },
  /** Forget seat `seat` of `gameId` (moved into an account); a game left with none leaves the list. */
  remove(gameId, seat) {
    const all = this.all(gameId);
    delete all[seat];
    if (Object.keys(all).length) {
      localStorage.setItem(`tobago.tokens.${gameId}`, JSON.stringify(all));
      return;
    }
    localStorage.removeItem(`tobago.tokens.${gameId}`);
    localStorage.setItem("tobago.myGames", JSON.stringify(this.myGames().filter((g) => g !== gameId)));
  },
  /** Every seat this browser holds by token, as POST /api/me/seats takes them: [{game, seat, token}]. */
  held() {
    const out = [];
    try {
      for (let i = 0; i < localStorage.length; i++) {
        const key = localStorage.key(i);
        const game = key && key.startsWith("tobago.tokens.") ? key.slice("tobago.tokens.".length) : "";
        if (!/^[A-Za-z0-9_-]{12}$/.test(game)) continue;
        for (const [seat, token] of Object.entries(this.all(game))) {
          const n = Number(seat);
          if (Number.isInteger(n) && n >= 0 && n <= 15 && typeof token === "string" && token && token.length <= 256) out.push({ game, seat: n, token });
        }
      }
    } catch (e) { /* no storage: nothing held */ }
    return out;
  },
  myGames() {
    try { return JSON.parse(localStorage.getItem("tobago.myGames") || "[]"); } catch (e) { return []; }
  },
};

/**
 * The share links of the seats this browser left open, per game: localStorage
 * `tobago.invites.<game id>` = {seat: link} (an invitation's link holds its secret, which the
 * server gives once and keeps only hashed, so the host's game page can offer it again).
 */
export const seatLinks = {
  all(gameId) {
    try { return JSON.parse(localStorage.getItem(`tobago.invites.${gameId}`) || "{}"); } catch (e) { return {}; }
  },
  set(gameId, links) {
    try { localStorage.setItem(`tobago.invites.${gameId}`, JSON.stringify(links)); } catch (e) { /* private mode */ }
  },
};
