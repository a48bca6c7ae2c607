// The review page: step through a finished game, from everyone's view or one seat's, with the
// helper at every step and the game's analysis. The controls (first / back / forward / last, the
// slider, the arrow keys, the move list) choose a step; the URL names the game, the step and the
// seat (?step=k&seat=i), so a position can be shared. Positions come from
// GET /api/games/<id>/positions/<step>?seat=i (built on the server by replay, cached there and
// here); what a position looks like is the game's renderer (static/review/<kind>.js, or
// generic.js), loaded by the address the page names.

import { errorText } from "../common/errors.js";
import { api } from "../common/api.js";
import { $, h } from "../common/dom.js";
import { has, lang, t } from "../common/i18n.js";
import { reviewChat } from "../common/chat.js";
import { seatName, viewerSeat } from "../common/seats.js";

const root = $("review");
const gameId = root.dataset.game;
const kind = root.dataset.kind;
const LOCALE = lang === "zh" ? "zh-Hant" : "en";
const num = new Intl.NumberFormat(LOCALE, { maximumFractionDigits: 2 });
const pct = new Intl.NumberFormat(LOCALE, { style: "percent", maximumFractionDigits: 0 });
const MARK_ICON = { best: "✓", good: "○", inaccuracy: "?", mistake: "✗" };

const state = {
  steps: 0,
  step: 0,
  seat: null,
  seats: [],
  entries: [], // [{version, seat, events}]
  decisions: new Map(), // move → decision
  analysis: null,
  renderer: null,
  cache: new Map(),
  asked: 0,
  shown: null,
};

function showError(text) {
  const box = $("error");
  box.hidden = !text;
  box.textContent = text || "";
}

/** The seat this browser played in the game (its token, or the signed-in account's): "you". */
const viewer = viewerSeat(gameId);

/** One name for a seat, the same as the game page's (common/seats.js) and the chart legend's. */
function seatLabel(i) {
  return seatName(state.seats, i, viewer);
}

// --- loading ------------------------------------------------------------------------------------

async function loadEvents() {
  const out = [];
  let after = 0;
  for (;;) {
    const page = await api("GET", `/api/games/${gameId}/events?after=${after}`);
    out.push(...page.events);
    if (!page.more || !page.events.length) break;
    after = page.events[page.events.length - 1].version;
  }
  return out;
}

function positionUrl(step, seat) {
  const q = new URLSearchParams({ lang });
  if (seat !== null) q.set("seat", String(seat));
  return `/api/games/${gameId}/positions/${step}?${q}`;
}

function fetchPosition(step, seat) {
  const k = `${step}|${seat}`;
  if (!state.cache.has(k)) {
    const p = api("GET", positionUrl(step, seat));
    p.catch(() => state.cache.delete(k));
    state.cache.set(k, p);
    if (state.cache.size > 400) state.cache.delete(state.cache.keys().next().value);
  }
  return state.cache.get(k);
}

// --- stepping -----------------------------------------------------------------------------------

function readUrl() {
  const q = new URLSearchParams(location.search);
  const step = Number.parseInt(q.get("step") || "0", 10);
  const seat = q.get("seat");
  state.step = Number.isFinite(step) ? Math.max(0, Math.min(state.steps, step)) : 0;
  const s = seat === null || seat === "" ? null : Number.parseInt(seat, 10);
  state.seat = Number.isInteger(s) && s >= 0 && s < state.seats.length ? s : null;
}

function writeUrl() {
  const url = new URL(location.href);
  url.searchParams.set("step", String(state.step));
  if (state.seat === null) url.searchParams.delete("seat");
  else url.searchParams.set("seat", String(state.seat));
  history.replaceState(null, "", url);
}

function decisionText(d) {
  if (!d) return "";
  const r = state.renderer;
  const mark = t(`review.mark_${d.mark}`);
  const loss = d.mark === "best" ? "" : ` ${t("review.loss", { loss: num.format(d.loss), unit: t(`review.unit_${state.analysis.unit}`) })}`;
  const best = d.mark === "best" ? "" : ` ${t("review.best_was", { move: r.bestText(d) })}`;
  return `${t("review.mark_sentence", { mark })}${loss}${best}`;
}

/** A move in words: its public events, or who acted when they say nothing (a secret choice). */
function moveWords(entry) {
  const said = state.renderer.moveText(entry, viewer);
  if (said) return said;
  return entry.seat === null ? t("review.table_move") : t("review.secret_move", { who: seatLabel(entry.seat) });
}

function renderNow(pos) {
  const entry = state.entries[state.step - 1];
  const who = state.seat === null ? t("review.everyone_short") : seatLabel(state.seat);
  $("position-who").textContent = `· ${who}`;
  let text;
  if (state.step === 0) text = t("review.at_start", { n: state.steps });
  else {
    text = t("review.after_move", { k: state.step, n: state.steps, move: entry ? moveWords(entry) : "" });
    const d = state.decisions.get(state.step);
    if (d) text += ` — ${decisionText(d)}`;
  }
  if (pos.steps === pos.step) text += ` ${t("review.game_end")}`;
  $("now").textContent = text;
  const helperFor = pos.helper_seat === null || pos.helper_seat === undefined ? "" : `· ${t("review.helper_for", { who: seatLabel(pos.helper_seat) })}`;
  $("helper-who").textContent = helperFor;
}

function renderControls() {
  const { step, steps } = state;
  $("step").max = String(steps);
  $("step").value = String(step);
  $("step").setAttribute("aria-valuetext", t("review.step_of", { k: step, n: steps }));
  $("step-out").textContent = t("review.step_of", { k: step, n: steps });
  $("first").disabled = $("back").disabled = step === 0;
  $("last").disabled = $("forward").disabled = step === steps;
  $("seat").value = state.seat === null ? "" : String(state.seat);
  const list = $("moves");
  const old = list.querySelector("[aria-current]");
  if (old) old.removeAttribute("aria-current");
  const cur = list.querySelector(`li[data-step="${step}"]`);
  if (cur) {
    cur.setAttribute("aria-current", "step");
    const top = cur.offsetTop; // the list is the items' offset parent
    if (top < list.scrollTop || top > list.scrollTop + list.clientHeight - cur.offsetHeight) list.scrollTop = Math.max(0, top - list.clientHeight / 2);
  }
  const cursor = document.getElementById("chart-cursor");
  const plot = cursor && cursor.closest(".plot");
  if (plot) {
    const x = Number(plot.dataset.x0) + step * Number(plot.dataset.dx);
    cursor.setAttribute("x1", x.toFixed(1));
    cursor.setAttribute("x2", x.toFixed(1));
  }
}

async function go(step, seat = state.seat) {
  state.step = Math.max(0, Math.min(state.steps, step));
  state.seat = seat;
  writeUrl();
  renderControls();
  const asked = ++state.asked;
  try {
    const pos = await fetchPosition(state.step, state.seat);
    if (asked !== state.asked) return;
    showError("");
    await state.renderer.render(pos, state.entries[pos.step - 1] || null); // the move's entry: what it names
    if (asked !== state.asked) return;
    renderNow(pos);
    state.shown = `${pos.step}|${pos.seat}`;
    if (state.step < state.steps) fetchPosition(state.step + 1, state.seat); // the next click is instant
  } catch (e) {
    if (asked === state.asked) showError(errorText(e));
  }
}

function buildMoves() {
  const items = [h("li", { "data-step": "0" }, h("button", { type: "button", class: "link-like", onclick: () => go(0) }, t("review.start_item")))];
  for (const entry of state.entries) {
    const k = entry.version;
    const d = state.decisions.get(k);
    items.push(h("li", { "data-step": String(k), class: d ? `mark-${d.mark}` : "" },
      h("button", { type: "button", class: "link-like", onclick: () => go(k) },
        h("span", { class: "move-no" }, `${k}.`), " ", moveWords(entry),
        d ? h("span", { class: `mark mark-${d.mark}`, title: t(`review.mark_${d.mark}`) }, h("span", { "aria-hidden": "true" }, MARK_ICON[d.mark]), h("span", { class: "visually-hidden" }, ` ${t(`review.mark_${d.mark}`)}`)) : null)));
  }
  $("moves").replaceChildren(...items);
}

function onKey(ev) {
  if (ev.defaultPrevented || ev.altKey || ev.ctrlKey || ev.metaKey) return;
  const target = ev.target;
  if (target && (target.tagName === "SELECT" || target.tagName === "TEXTAREA" || (target.tagName === "INPUT" && target.type !== "range"))) return;
  if (target && target.tagName === "INPUT" && target.type === "range") return; // the slider moves itself
  if (target && target.closest && target.closest("svg.hexboard")) return; // the island's own arrow keys
  const moves = { ArrowLeft: -1, ArrowRight: 1, PageUp: -10, PageDown: 10 };
  if (ev.key in moves) { ev.preventDefault(); go(state.step + moves[ev.key]); }
  else if (ev.key === "Home") { ev.preventDefault(); go(0); }
  else if (ev.key === "End") { ev.preventDefault(); go(state.steps); }
}

// --- the analysis -------------------------------------------------------------------------------

function renderSummary(a) {
  const marks = ["best", "good", "inaccuracy", "mistake"];
  const unit = t(`review.unit_${a.unit}`);
  $("analysis-summary").replaceChildren(h("div", { class: "table-wrap", tabindex: "0", role: "region", "aria-labelledby": "summary-caption" }, h("table", { class: "review-summary", id: "summary-table" },
    h("caption", { id: "summary-caption" }, t("review.summary_caption", { unit })),
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("review.player")), h("th", { scope: "col" }, t("review.rated")),
      marks.map((m) => h("th", { scope: "col", class: `mark-${m}` }, t(`review.mark_${m}`))),
      h("th", { scope: "col" }, t("review.best_share")), h("th", { scope: "col" }, t("review.average_loss")),
      h("th", { scope: "col" }, t("review.final_score")))),
    h("tbody", {}, a.summary.map((s) => h("tr", {},
      h("th", { scope: "row" }, seatLabel(s.seat)),
      h("td", {}, t("review.rated_of", { rated: s.rated, decisions: s.decisions })),
      marks.map((m) => h("td", {}, String(s.marks[m]))),
      h("td", {}, s.best_share === null ? "—" : pct.format(s.best_share)),
      h("td", {}, s.average_loss === null ? "—" : num.format(s.average_loss)),
      h("td", {}, a.scores ? num.format(a.scores[s.seat]) : "—")))))));
  const th = a.thresholds;
  $("thresholds").replaceChildren(
    h("p", {}, t(has(`review.engine_${kind}`) ? `review.engine_${kind}` : "review.engine_other")),
    h("ul", {},
      h("li", {}, t("review.th_best", { b: num.format(th.best), unit })),
      h("li", {}, t("review.th_good", { x: num.format(th.good), unit })),
      h("li", {}, t("review.th_inaccuracy", { x: num.format(th.good), y: num.format(th.inaccuracy), unit })),
      h("li", {}, t("review.th_mistake", { y: num.format(th.inaccuracy), unit }))));
}

async function renderChart() {
  try {
    const you = viewer === null ? "" : `&you=${viewer}`; // the legend names my seat "(you)" too
    const resp = await fetch(`/${kind}/games/${gameId}/review/chart.svg?lang=${lang}${you}`);
    if (!resp.ok) return;
    const doc = new DOMParser().parseFromString(await resp.text(), "image/svg+xml");
    const svg = doc.documentElement;
    if (svg.nodeName !== "svg") return;
    $("chart").replaceChildren(document.importNode(svg, true));
    renderControls();
  } catch (e) { /* the summary table says it in words */ }
}

async function followAnalysis() {
  const status = $("analysis-status");
  const bar = $("analysis-progress");
  for (let tries = 0; tries < 2400; tries++) {
    let a;
    try { a = await api("GET", `/api/games/${gameId}/analysis`); } catch (e) { status.textContent = errorText(e); return; }
    if (a.status === "done") {
      bar.hidden = true;
      state.analysis = a.analysis;
      state.decisions = new Map(a.analysis.decisions.map((d) => [d.move, d]));
      status.textContent = t("review.analysis_done", { n: a.analysis.decisions.length });
      renderSummary(a.analysis);
      buildMoves();
      renderControls();
      await renderChart();
      const pos = await fetchPosition(state.step, state.seat);
      renderNow(pos);
      return;
    }
    if (a.status !== "running") {
      bar.hidden = true;
      status.textContent = t(`review.analysis_${a.status}`);
      return;
    }
    const p = a.progress || { done: 0, total: 1 };
    bar.hidden = false;
    bar.max = Math.max(1, p.total);
    bar.value = p.done;
    status.textContent = t("review.analysis_running", { done: p.done, total: p.total });
    await new Promise((res) => setTimeout(res, 400));
  }
}

// --- start --------------------------------------------------------------------------------------

/** Nothing to review (no such game, or it is still being played): say why, and leave no step
 * buttons, slider, seat choice or empty panels behind. */
function refuse(text) {
  showError(text);
  for (const el of root.querySelectorAll(".review-bar, .review-seat-row, .review-now, .review-grid, .review-analysis")) el.hidden = true;
}

async function start() {
  let snap;
  try {
    snap = await api("GET", `/api/games/${gameId}`);
  } catch (e) {
    refuse(e.status === 404 ? t("review.no_game") : errorText(e));
    return;
  }
  if (snap.game !== kind) { refuse(t("review.no_game")); return; }
  if (!snap.over) { refuse(t("review.not_over")); return; }
  state.seats = snap.seats;
  state.steps = snap.version;
  const module = await import(root.dataset.renderer);
  state.renderer = await module.createRenderer({ root: $("position"), helperBox: $("helper"), seats: snap.seats, gameId, kind, view: snap.view, viewer });
  state.entries = await loadEvents();
  reviewChat(gameId, snap.seats, seatLabel); // what the table said, read only
  $("seat").replaceChildren(h("option", { value: "" }, t("review.everyone")),
    ...snap.seats.map((s, i) => h("option", { value: String(i) }, t("review.as_seat", { who: seatLabel(i) }))));
  readUrl();
  buildMoves();
  $("first").addEventListener("click", () => go(0));
  $("back").addEventListener("click", () => go(state.step - 1));
  $("forward").addEventListener("click", () => go(state.step + 1));
  $("last").addEventListener("click", () => go(state.steps));
  $("step").addEventListener("input", () => go(Number($("step").value)));
  $("seat").addEventListener("change", () => go(state.step, $("seat").value === "" ? null : Number($("seat").value)));
  $("copy-link").addEventListener("click", async () => {
    try { await navigator.clipboard.writeText(location.href); $("copied").textContent = t("review.copied"); } catch (e) { $("copied").textContent = location.href; }
  });
  document.addEventListener("keydown", onKey);
  await go(state.step, state.seat);
  followAnalysis();
}

// For tests: `shown` is "step|seat" of the position on screen once it is drawn.
window.tobagoReview = { get step() { return state.step; }, get seat() { return state.seat; }, get shown() { return state.shown; }, get ready() { return !!state.shown; }, go };
start();
