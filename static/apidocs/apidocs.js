// The API reference page: fetches /openapi.json and renders it, with a "try it" form per
// operation. Plain DOM; every text from the document goes in as textContent. The page's own
// words (headings, labels, buttons) are in the reader's language (`apidocs.*` strings); the
// document is written in English, and its operations' summaries and their parameters' and
// responses' descriptions are shown in the reader's language from the pairs the page carries
// (#apidocs-words: English text → the reader's words, web/docs.py; empty in English).

import { has, t } from "../common/i18n.js";

const root = document.getElementById("apidocs");
const words = JSON.parse(document.getElementById("apidocs-words").textContent || "{}");
/** A text of the document in the reader's language (as the document says it, if not worded). */
const tr = (text) => (text && Object.hasOwn(words, text) ? words[text] : text);

// el("div", {class: "x"}, child, "text", ...) → an element.
/** How an operation is signed: a bearer token (a seat's or an account's), the session cookie, either optional. */
function ways(op) {
  const all = op.security || [];
  return {
    bearer: all.some((s) => "bearerAuth" in s),
    cookie: all.some((s) => "cookieAuth" in s),
    optional: all.some((s) => Object.keys(s).length === 0),
  };
}

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "class") node.className = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined) continue;
    node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return node;
}

function resolve(doc, schema) {
  let s = schema || {};
  const seen = new Set();
  while (s.$ref && !seen.has(s.$ref)) {
    seen.add(s.$ref);
    const name = s.$ref.split("/").pop();
    s = Object.assign({ title: name }, doc.components.schemas[name] || {});
  }
  return s;
}

// A short type label: string, integer[], Seat, string | null, ...
function typeLabel(doc, schema) {
  if (!schema) return "any";
  if (schema.$ref) return schema.$ref.split("/").pop();
  if (schema.anyOf || schema.oneOf) {
    return (schema.anyOf || schema.oneOf).map((s) => typeLabel(doc, s)).join(" | ");
  }
  if (schema.enum) return schema.enum.map((v) => JSON.stringify(v)).join(" | ");
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  if (schema.type === "array") return typeLabel(doc, schema.items) + "[]";
  if (Array.isArray(schema.type)) return schema.type.join(" | ");
  return schema.type || "any";
}

function limits(schema) {
  const out = [];
  for (const k of ["minimum", "maximum", "minLength", "maxLength", "minItems", "maxItems"]) {
    if (schema[k] !== undefined) out.push(`${k} ${schema[k]}`);
  }
  if (schema.default !== undefined) out.push(`default ${JSON.stringify(schema.default)}`);
  return out.length ? ` (${out.join(", ")})` : "";
}

// The object properties (and nested models) of a schema as a nested list, depth-limited.
function schemaTree(doc, schema, depth) {
  const s = resolve(doc, schema);
  const props = s.properties || {};
  const required = new Set(s.required || []);
  const items = [];
  for (const [name, raw] of Object.entries(props)) {
    const sub = raw.anyOf ? raw.anyOf.find((x) => x.type !== "null") || raw : raw;
    const inner = sub.type === "array" ? sub.items : sub;
    const li = el("li", {},
      el("span", { class: "prop" }, name),
      required.has(name) ? el("span", { class: "req" }, "*") : null,
      ": ", el("span", { class: "type" }, typeLabel(doc, raw)), limits(raw),
      raw.description ? el("span", { class: "desc" }, " — " + raw.description) : null);
    if (inner && inner.$ref && depth < 4) li.append(schemaTree(doc, inner, depth + 1));
    items.push(li);
  }
  if (!items.length) {
    return el("div", { class: "schema" }, el("span", { class: "type" }, typeLabel(doc, schema)),
      s.description ? el("span", { class: "desc" }, " — " + s.description) : null);
  }
  return el("div", { class: "schema" }, el("ul", {}, items));
}

function jsonSchemaOf(content) {
  const json = content && content["application/json"];
  return json ? json.schema : null;
}

function tryIt(doc, path, method, op) {
  const params = op.parameters || [];
  const inputs = {};
  const form = el("div", { class: "try" }, el("h3", { class: "op-h" }, t("apidocs.try")));
  for (const p of params) {
    inputs[p.name] = el("input", { type: "text", placeholder: `${p.in} ${p.name}` });
    form.append(el("label", {}, `${p.name} (${p.in})`, inputs[p.name]));
  }
  let token = null;
  if (ways(op).bearer) {
    token = el("input", { type: "text", placeholder: t("apidocs.token_placeholder") });
    form.append(el("label", {}, t("apidocs.token_label"), token));
  }
  let body = null;
  if (op.requestBody) {
    body = el("textarea", { spellcheck: "false" }, "{}");
    form.append(el("label", {}, t("apidocs.body_label"), body));
  }
  const out = el("pre", {}, "");
  const send = async () => {
    let url = path.replace(/{(\w+)}/g, (_, n) => encodeURIComponent(inputs[n].value));
    const query = params.filter((p) => p.in === "query" && inputs[p.name].value !== "")
      .map((p) => `${encodeURIComponent(p.name)}=${encodeURIComponent(inputs[p.name].value)}`);
    if (query.length) url += "?" + query.join("&");
    const headers = {};
    if (token && token.value) headers.Authorization = "Bearer " + token.value.trim();
    // this browser's session signs the request (its cookie goes by itself); a write needs its CSRF token
    const csrf = document.querySelector('meta[name="csrf-token"]');
    if (csrf && method !== "get") headers["X-CSRF-Token"] = csrf.content;
    const init = { method: method.toUpperCase(), headers };
    if (body) {
      headers["Content-Type"] = "application/json";
      init.body = body.value;
    }
    out.textContent = "…";
    try {
      const resp = await fetch(url, init);
      const text = await resp.text();
      let shown = text;
      try { shown = JSON.stringify(JSON.parse(text), null, 2); } catch (e) { /* not JSON */ }
      out.className = resp.ok ? "status-ok" : "status-err";
      out.textContent = `${resp.status} ${resp.statusText}\n${shown}`;
    } catch (e) {
      out.className = "status-err";
      out.textContent = String(e);
    }
  };
  form.append(el("button", { type: "button", onclick: send }, t("apidocs.send")), out);
  return form;
}

function operation(doc, path, method, op) {
  const head = el("summary", {},
    el("span", { class: `method method-${method}` }, method),
    el("span", { class: "path" }, path),
    el("span", { class: "summary" }, tr(op.summary) || ""),
    op.security ? el("span", { class: "lock", title: t("apidocs.reads_token") }, `[${t("apidocs.token_badge")}]`) : null);
  const body = el("div", { class: "op-body" });
  const params = op.parameters || [];
  if (params.length) {
    body.append(el("h3", { class: "op-h" }, t("apidocs.parameters")), el("table", {},
      el("tr", {}, ["name", "in", "type", "about"].map((c) => el("th", { scope: "col" }, t(`apidocs.col_${c}`)))),
      params.map((p) => el("tr", {},
        el("td", {}, p.name + (p.required ? " *" : "")), el("td", {}, p.in),
        el("td", {}, typeLabel(doc, p.schema) + limits(p.schema || {})),
        el("td", {}, tr(p.description) || "")))));
  }
  const how = ways(op);
  if (how.bearer) {
    body.append(el("p", {}, el("code", {}, `Authorization: Bearer <${t("apidocs.seat_token")}>`), " ",
      `(${t(how.optional ? "apidocs.auth_optional" : "apidocs.auth_required")})`));
  }
  if (how.cookie) body.append(el("p", {}, t(how.bearer ? "apidocs.or_session" : "apidocs.session_only", { header: "X-CSRF-Token" })));
  if (op.requestBody) {
    body.append(el("h3", { class: "op-h" }, t(op.requestBody.required ? "apidocs.request_body" : "apidocs.request_body_optional")),
      schemaTree(doc, jsonSchemaOf(op.requestBody.content), 0));
  }
  body.append(el("h3", { class: "op-h" }, t("apidocs.responses")));
  for (const [status, r] of Object.entries(op.responses || {})) {
    const schema = jsonSchemaOf(r.content);
    const other = r.content && Object.keys(r.content).find((t) => t !== "application/json");
    body.append(el("div", {}, el("strong", {}, status), " ", tr(r.description) || "",
      other ? ` (${other})` : null,
      schema && status.startsWith("2") ? schemaTree(doc, schema, 0) : null));
  }
  body.append(tryIt(doc, path, method, op));
  return el("details", { class: "op", id: op.operationId }, head, body);
}

function render(doc) {
  root.textContent = "";
  root.append(el("p", { class: "apidocs-version" }, doc.info.title, " ", el("small", {}, doc.info.version)));
  const byTag = new Map();
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      const tag = (op.tags && op.tags[0]) || "other";
      if (!byTag.has(tag)) byTag.set(tag, []);
      byTag.get(tag).push([path, method, op]);
    }
  }
  const tagName = (tag) => (has(`apidocs.tag_${tag}`) ? t(`apidocs.tag_${tag}`) : tag);
  root.append(el("nav", { "aria-label": t("apidocs.contents") }, el("ul", {}, [...byTag.keys()].map((tag) =>
    el("li", {}, el("a", { href: "#tag-" + tag }, tagName(tag)))))));
  for (const [tag, ops] of byTag) {
    root.append(el("h2", { id: "tag-" + tag }, tagName(tag)));
    for (const [path, method, op] of ops) root.append(operation(doc, path, method, op));
  }
}

fetch("/openapi.json")
  .then((r) => { if (!r.ok) throw new Error(`/openapi.json: ${r.status}`); return r.json(); })
  .then(render)
  .catch((e) => { root.textContent = t("apidocs.load_failed", { message: e.message }); });
