// What I can do now, phase by phase: the setup choice, the bid builder (target from the map or
// the list, cards picked from my hand, Shaman/Ovetos/Sangaia, the value and the gold it will
// cost; quick bids; pass; Juju), the leader's move choices, my treasure plays, the cable news,
// drawing (face-up, deck, buy, done), lightning cards and the hand limit. Every control is a
// button, a checkbox or a select: usable by keyboard and on a phone.
//
// The builder only composes actions; the server checks them (an illegal one comes back as an
// error in the page's words).

import { h } from "../common/dom.js";
import { t } from "../common/i18n.js";
import { across, cardChip, cardText, DATA, goalText, isWater, KINDS, KIND_ORDER, kindName, missionText, pays, placeName, route, routeName, routeText, seatName } from "./cards.js";

const button = (id, label, onclick, cls = "") => h("button", { type: "button", id, class: cls, onclick }, label);

/** The bid the builder holds now (or null when it names no target). */
export function composedBid(v, ui) {
  if (!ui.target) return null;
  const action = { type: "bid", cards: [...ui.picked] };
  if (ui.target.route) action.route = ui.target.route; else action.flight = ui.target.flight;
  if (ui.shaman) action.shaman = ui.shaman;
  if (ui.ovetos) action.ovetos = ui.ovetos;
  if (ui.sangaia) action.sangaia = ui.sangaia;
  return action;
}

/** My cards for bidding: my hand and my standing bid's cards. */
function bidCards(v, me) {
  const p = v.players[me];
  const out = [...(p.hand || [])];
  if (p.bid) {
    out.push(...p.bid.cards);
    for (const k of ["ovetos", "sangaia"]) if (p.bid[k]) out.push(p.bid[k]);
    if (p.bid.shaman) out.push(p.bid.shaman.card);
  }
  return out;
}

function targetType(target) {
  return target && target.route ? route(target.route).type : null;
}

function bidValue(v, ui, me) {
  const cards = Object.fromEntries(bidCards(v, me).map((c) => [c.id, c]));
  let value = 0, gold = 0;
  for (const id of ui.picked) {
    const k = KINDS[cards[id].kind];
    value += k.value;
    gold += k.gold;
  }
  return { value, gold };
}

function quickLabel(a, v) {
  if (a.type === "pass") return t("isla.pass");
  if (a.type === "juju") return null;
  const target = a.flight ? t("isla.flight_to", { place: placeName(a.flight) }) : routeText(a.route, v.expedition);
  const extras = [a.shaman ? t("isla.with_shaman") : null, a.ovetos ? t("isla.with_ovetos") : null, a.sangaia ? t("isla.with_sangaia") : null].filter(Boolean);
  return t("isla.quick_bid", { target, count: a.cards.length, extras: extras.join(" ") });
}

function bidPanel(snap, ui, me, act, redraw) {
  const v = snap.view;
  const legal = snap.legal_actions;
  const cards = bidCards(v, me);
  const a = v.auction;
  const type = targetType(ui.target);
  const wild = cards.filter((c) => KINDS[c.kind].wild);
  // target
  const targets = [h("option", { value: "" }, t("isla.choose_target"))];
  for (const r of a.open_routes) targets.push(h("option", { value: `r:${r}`, selected: ui.target && ui.target.route === r }, routeText(r, v.expedition)));
  if (wild.length) {
    for (const l of v.map.locations) if (l.id !== v.expedition) targets.push(h("option", { value: `f:${l.id}`, selected: ui.target && ui.target.flight === l.id }, t("isla.flight_to", { place: placeName(l.id) })));
  }
  const select = h("select", { id: "bid-target", onchange: () => {
    const val = select.value;
    ui.target = !val ? null : val.startsWith("r:") ? { route: val.slice(2) } : { flight: val.slice(2) };
    ui.picked = new Set([...ui.picked].filter((id) => usable(cards.find((c) => c.id === id))));
    redraw();
  } }, targets);
  const usable = (c) => !!c && (ui.target && (ui.target.flight ? KINDS[c.kind].wild
    : pays(c.kind, type) || (ui.shaman && c.kind === ui.shaman.from)));
  const payers = cards.filter((c) => (KINDS[c.kind].value > 0) && (!ui.target || usable(c)));
  const pick = payers.map((c) => {
    const box = h("input", { type: "checkbox", id: `pick-${c.id}`, checked: ui.picked.has(c.id), disabled: !ui.target || !usable(c),
      onchange: () => { if (box.checked) ui.picked.add(c.id); else ui.picked.delete(c.id); redraw(); } });
    return h("label", { class: "isla-pick", for: `pick-${c.id}` }, box, cardChip(c, "small"));
  });
  const specials = [];
  const shaman = cards.find((c) => c.kind === "shaman");
  if (shaman && type && !isWater(type)) {
    const into = Object.entries(KINDS).find(([, k]) => k.pays.length === 1 && k.pays[0] === type)[0];
    const from = h("select", { id: "shaman-from", onchange: () => { ui.shaman = from.value ? { card: shaman.id, from: from.value, to: into } : null; redraw(); } },
      h("option", { value: "" }, t("isla.no_shaman")),
      DATA.shaman_kinds.filter((k) => k !== into).map((k) => h("option", { value: k, selected: ui.shaman && ui.shaman.from === k }, t("isla.shaman_convert", { from: kindName(k), to: kindName(into) }))));
    specials.push(h("label", { for: "shaman-from" }, kindName("shaman"), " "), from);
  }
  for (const kind of ["ovetos", "sangaia"]) {
    const card = cards.find((c) => c.kind === kind);
    if (!card) continue;
    const box = h("input", { type: "checkbox", id: `use-${kind}`, checked: !!ui[kind],
      onchange: () => { ui[kind] = box.checked ? card.id : null; redraw(); } });
    specials.push(h("label", { for: `use-${kind}`, class: "isla-pick" }, box, ` ${t(`isla.use_${kind}`)}`));
  }
  const { value, gold } = bidValue(v, ui, me);
  const canBid = !!ui.target && value >= a.minimum && gold <= v.players[me].gold;
  const quick = legal.filter((x) => x.type === "bid" && !x.flight).slice(0, 8);
  const jujus = legal.filter((x) => x.type === "juju");
  return [
    h("p", { class: "hint-text" }, t("isla.bid_help", { min: a.minimum })),
    h("p", {}, h("label", { for: "bid-target" }, t("isla.target")), " ", select),
    h("fieldset", { class: "isla-picks" }, h("legend", {}, t("isla.pay_with")),
      pick.length ? pick : h("span", { class: "muted" }, t("isla.no_cards_for"))),
    specials.length ? h("p", { class: "isla-specials" }, specials) : null,
    h("p", { id: "bid-sum", class: "isla-sum", "aria-live": "polite" }, t("isla.bid_sum", { value, min: a.minimum, gold })),
    h("p", { class: "isla-buttons" },
      button("bid-send", t("isla.bid"), () => act(composedBid(v, ui)), canBid ? "" : "secondary"),
      button("pass", t("isla.pass"), () => act({ type: "pass" }), "secondary")),
    quick.length ? h("div", { class: "isla-quick" }, h("h3", {}, t("isla.quick")),
      h("ul", {}, quick.map((x, i) => h("li", {}, button(`quick-${i}`, quickLabel(x, v), () => act(x), "secondary small"))))) : null,
    jujus.length ? h("p", { class: "isla-juju" }, kindName("juju"), ": ",
      jujus.map((x) => button(`juju-${x.target}`, t("isla.juju_on", { who: seatName(ui.seats, x.target, me) }), () => act(x), "secondary small"))) : null,
  ];
}

function setupPanel(snap, ui, act) {
  const offer = snap.view.mine.offer;
  const starts = offer.filter((g) => g.kind === "treasure");
  const destinies = offer.filter((g) => g.kind === "destiny");
  ui.dropT = ui.dropT && starts.some((g) => g.id === ui.dropT) ? ui.dropT : starts[0].id;
  ui.dropD = ui.dropD && destinies.some((g) => g.id === ui.dropD) ? ui.dropD : destinies[0].id;
  const radios = (name, cards, key, text) => h("fieldset", {}, h("legend", {}, t(`isla.setup_${name}`)),
    cards.map((g) => {
      const r = h("input", { type: "radio", name, id: `${name}-${g.id}`, value: g.id, checked: ui[key] === g.id, onchange: () => { ui[key] = g.id; } });
      return h("label", { class: "isla-radio", for: `${name}-${g.id}` }, r, ` ${text(g)}`);
    }));
  return [
    h("p", { class: "hint-text" }, t("isla.setup_help")),
    radios("drop_treasure", starts, "dropT", goalText),
    radios("drop_destiny", destinies, "dropD", missionText),
    h("p", {}, button("setup-send", t("isla.setup_send"), () => act({ type: "setup", discard_treasure: ui.dropT, discard_destiny: ui.dropD }), "isla-go")),
  ];
}

function treasurePanel(snap, ui, me, act) {
  const v = snap.view;
  const p = v.players[me];
  const here = v.expedition;
  const near = new Set(v.map.routes.filter((r) => r.a === here || r.b === here).map((r) => across(r.id, here)));
  const hand = p.hand || [];
  const bongos = hand.filter((c) => c.kind === "bongo");
  const fam = Object.fromEntries(v.map.locations.map((l) => [l.id, l.family]));
  const playable = (p.treasures || []).filter((g) => g.location === here || (bongos.length && near.has(g.location)));
  if (!ui.plays) ui.plays = Object.fromEntries(playable.filter((g) => g.location === here).map((g) => [g.id, { bonus: "" }]));
  const rows = playable.map((g) => {
    const on = !!ui.plays[g.id];
    const box = h("input", { type: "checkbox", id: `play-${g.id}`, checked: on, onchange: () => {
      if (box.checked) ui.plays[g.id] = { bonus: "" }; else delete ui.plays[g.id];
    } });
    const fits = hand.filter((c) => c.kind === "bonus" && c.family === fam[g.location]);
    const bonus = fits.length ? h("select", { id: `bonus-${g.id}`, "aria-label": t("isla.bonus_for", { card: goalText(g) }),
      onchange: () => { (ui.plays[g.id] ||= { bonus: "" }).bonus = bonus.value; box.checked = true; } },
      h("option", { value: "" }, t("isla.no_bonus")), fits.map((c) => h("option", { value: c.id, selected: on && ui.plays[g.id].bonus === c.id }, cardText(c)))) : null;
    return h("li", {}, h("label", { for: `play-${g.id}` }, box, ` ${goalText(g)}`, g.location !== here ? ` (${kindName("bongo")})` : ""), bonus ? " " : null, bonus);
  });
  const send = () => {
    const free = [...bongos];
    const plays = [];
    for (const g of playable) {
      const sel = ui.plays[g.id];
      if (!sel) continue;
      const play = { card: g.id };
      if (sel.bonus) play.bonus = sel.bonus;
      if (g.location !== here) { if (!free.length) continue; play.bongo = free.pop().id; }
      plays.push(play);
    }
    act({ type: "treasures", plays });
  };
  return [
    h("p", { class: "hint-text" }, t(playable.length ? "isla.treasure_help" : "isla.treasure_none", { place: placeName(here) })),
    rows.length ? h("ul", { class: "isla-plays" }, rows) : null,
    h("p", {}, button("treasures-send", t(playable.length ? "isla.treasures_send" : "isla.treasures_none"), send, "isla-go")),
  ];
}

function newsPanel(snap, ui, act) {
  const offer = snap.view.mine.offer;
  const keep = snap.legal_actions[0].keep.length;
  if (!ui.keep) ui.keep = new Set(offer.slice(0, keep).map((g) => g.id));
  const rows = offer.map((g) => {
    const box = h("input", { type: "checkbox", id: `keep-${g.id}`, checked: ui.keep.has(g.id), onchange: () => { if (box.checked) ui.keep.add(g.id); else ui.keep.delete(g.id); } });
    return h("li", {}, h("label", { for: `keep-${g.id}` }, box, ` ${goalText(g)}`));
  });
  return [h("p", { class: "hint-text" }, t("isla.news_help", { keep, draw: offer.length })), h("ul", { class: "isla-plays" }, rows),
    h("p", {}, button("news-send", t("isla.news_send"), () => act({ type: "news", keep: [...ui.keep] }), "isla-go"))];
}

function drawPanel(snap, act) {
  const v = snap.view;
  const legal = snap.legal_actions;
  const step = v.draw.step;
  const out = [h("p", { class: "hint-text" }, t(step === "buy" ? "isla.buy_help" : "isla.take_help"))];
  const cards = Object.fromEntries(v.display.map((c) => [c.id, c]));
  out.push(h("p", { class: "isla-buttons isla-take" }, legal.map((a, i) => {
    if (a.type === "done") return button("done", t("isla.done"), () => act(a), "secondary isla-go");
    if (a.deck) return button(`${step}-deck`, t(`isla.${step}_deck`), () => act(a), i === 0 ? "isla-go" : "");
    // named by what it shows ("Take Yak 1"): the words around the card are for screen readers
    const [before, after] = t(`isla.${step}_card`, { card: "\u0001" }).split("\u0001");
    const unseen = (words) => (words.trim() ? h("span", { class: "visually-hidden" }, words) : null);
    return h("button", { type: "button", id: `${step}-${a.card}`, class: "isla-take-card", onclick: () => act(a) },
      unseen(before), cardChip(cards[a.card], "big"), unseen(after));
  })));
  return out;
}

function movePanel(snap, act) {
  const v = snap.view;
  if (v.move.kind === "river") {
    const next = v.move.options[0];
    return [h("p", { class: "hint-text" }, t("isla.river_help", { place: placeName(next.to) })),
      h("p", { class: "isla-buttons" }, button("continue", t("isla.continue", { place: placeName(next.to) }), () => act({ type: "continue" }), "isla-go"),
        button("stop", t("isla.stop", { place: placeName(v.expedition) }), () => act({ type: "stop" }), "secondary"))];
  }
  return [h("p", { class: "hint-text" }, t("isla.detour_help")),
    h("p", { class: "isla-buttons" }, v.move.options.map((o, i) => button(`detour-${o.route}`, routeText(o.route, v.expedition), () => act({ type: "detour", route: o.route }), i === 0 ? "isla-go" : "secondary")))];
}

function lightningPanel(snap, ui, me, act) {
  const v = snap.view;
  const legal = snap.legal_actions;
  const kind = v.lightning.card.kind;
  const head = h("p", { class: "hint-text" }, cardChip(v.lightning.card), " ", t(`isla.lightning_${kind}`));
  if (kind === "bigfoot" || kind === "leviathan") {
    const sel = h("select", { id: "figure-route", "aria-label": t("isla.figure_route") },
      legal.map((a) => h("option", { value: a.route, selected: ui.figure === a.route }, routeName(a.route))));
    return [head, h("p", {}, sel), h("p", {}, button("figure-send", t("isla.figure_send"), () => act({ type: kind, route: ui.figure || sel.value }), "isla-go"))];
  }
  return [head, h("p", { class: "isla-buttons" }, legal.map((a, i) => button(`target-${a.target}`, seatName(ui.seats, a.target, me), () => act(a), i === 0 ? "isla-go" : "secondary")))];
}

function limitPanel(snap, ui, me, act) {
  const v = snap.view;
  const hand = v.players[me].hand;
  const k = hand.length - DATA.hand_limit;
  if (!ui.drop) ui.drop = new Set();
  const rows = KIND_ORDER.flatMap((kind) => hand.filter((c) => c.kind === kind)).map((c) => {
    const box = h("input", { type: "checkbox", id: `drop-${c.id}`, checked: ui.drop.has(c.id), onchange: () => { if (box.checked) ui.drop.add(c.id); else ui.drop.delete(c.id); } });
    return h("label", { class: "isla-pick", for: `drop-${c.id}` }, box, cardChip(c, "small"));
  });
  return [h("p", { class: "hint-text" }, t("isla.limit_help", { count: k, limit: DATA.hand_limit })), h("div", { class: "isla-picks" }, rows),
    h("p", {}, button("discard-send", t("isla.discard_send", { count: k }), () => act({ type: "discard", cards: [...ui.drop] }), "isla-go"))];
}

/** The action panel's content for my seat now (an empty list: nothing to do). */
export function actionPanel(snap, ui, me, act, redraw) {
  const v = snap.view;
  if (me === null || v.over || !snap.legal_actions.length) return [];
  switch (v.phase) {
    case "setup": return setupPanel(snap, ui, act);
    case "bid": return bidPanel(snap, ui, me, act, redraw);
    case "treasure": return treasurePanel(snap, ui, me, act);
    case "news": return newsPanel(snap, ui, act);
    case "draw": return drawPanel(snap, act);
    case "move": return movePanel(snap, act);
    case "lightning": return lightningPanel(snap, ui, me, act);
    case "limit": return limitPanel(snap, ui, me, act);
    default: return [];
  }
}

/** Map choices for my seat now: {routes, places, onRoute, onPlace} for drawMap. */
export function mapChoices(snap, ui, me, redraw) {
  const v = snap.view;
  if (me === null || v.over || !snap.legal_actions.length) return {};
  if (v.phase === "bid") {
    const cards = bidCards(v, me);
    const routes = Object.fromEntries(v.auction.open_routes.map((r) => [r, t("isla.pick_route", { route: routeText(r, v.expedition) })]));
    const places = cards.some((c) => KINDS[c.kind].wild)
      ? Object.fromEntries(v.map.locations.filter((l) => l.id !== v.expedition).map((l) => [l.id, t("isla.pick_flight", { place: placeName(l.id) })])) : null;
    return {
      routes, places,
      selected: ui.target ? ui.target.route || ui.target.flight : null,
      onRoute: (r) => { ui.target = { route: r }; ui.picked = new Set(); redraw(true); },
      onPlace: (l) => { ui.target = { flight: l }; ui.picked = new Set(); redraw(true); },
    };
  }
  if (v.phase === "lightning" && ["bigfoot", "leviathan"].includes(v.lightning.card.kind)) {
    const routes = Object.fromEntries(snap.legal_actions.map((a) => [a.route, t("isla.pick_figure", { route: routeName(a.route) })]));
    return { routes, selected: ui.figure, onRoute: (r) => { ui.figure = r; redraw(true); } };
  }
  return {};
}
