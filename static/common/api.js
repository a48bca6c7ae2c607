// A small client for the JSON API: errors become ApiError with the server's words.

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

/** Call the API: `method` and `url`, an optional JSON `body` and seat `token`. */
export async function api(method, url, body = undefined, token = undefined) {
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = `Bearer ${token}`;
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
