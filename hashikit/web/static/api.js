// hashikit web: the JSON API of app.py, and what this server offers (read once from its OpenAPI
// description, so the page never hard-codes a limit, a level list or an endpoint it may lack).
"use strict";

export class ApiError extends Error {
  constructor(message, status) { super(message); this.status = status; }
}

export async function api(path, body, signal = undefined) {
  let r;
  try {
    r = await fetch(path, { method: "POST", headers: { "content-type": "application/json" },
                            body: JSON.stringify(body), signal });
  } catch (e) {
    if (e.name === "AbortError") throw e;
    throw new ApiError("the server does not answer (is hashikit serve still running?)", 0);
  }
  let data = null;
  try { data = await r.json(); } catch (e) { /* not JSON */ }
  if (!r.ok) {
    const detail = data && (data.error || (Array.isArray(data.detail) ? data.detail.map((d) => d.msg).join("; ")
                                                                      : data.detail));
    throw new ApiError(detail || `the server answered ${r.status}`, r.status);
  }
  return data;
}

// What the server can do: endpoints, generate options and their ranges, levels, time limits.
export const caps = {
  paths: new Set(), levels: ["easy", "medium", "hard", "expert"],
  generate: { rows: [3, 25], maxbridges: null, density: null, no_loops: false },
  generateSeconds: 20, maxSide: 60, convertFormats: [], puzzleNoLoops: false,
};

function range(schema, fallback) {
  if (!schema) return null;
  return [schema.minimum ?? fallback[0], schema.maximum ?? fallback[1]];
}

function resolve(doc, schema) {
  let s = schema || {};
  for (let hops = 0; s.$ref && hops < 5; hops++) {
    s = s.$ref.split("/").slice(1).reduce((o, k) => (o ? o[k] : undefined), doc) || {};
  }
  if (s.anyOf) s = s.anyOf.find((x) => x.type !== "null") || s;
  return s;
}

function requestProps(doc, path) {
  const op = doc.paths?.[path]?.post;
  const schema = resolve(doc, op?.requestBody?.content?.["application/json"]?.schema);
  const props = {};
  for (const [k, v] of Object.entries(schema.properties || {})) props[k] = resolve(doc, v);
  return props;
}

export async function loadCaps() {
  let doc = null;
  for (const url of ["/api/openapi.json", "/openapi.json"]) {
    try {
      const r = await fetch(url);
      if (r.ok) { doc = await r.json(); break; }
    } catch (e) { /* try the next place */ }
  }
  if (!doc || typeof doc !== "object") return caps;
  caps.paths = new Set(Object.keys(doc.paths || {}));
  const g = requestProps(doc, "/api/generate");
  caps.generate.rows = range(g.rows, [3, 25]) || caps.generate.rows;
  caps.generate.maxbridges = range(g.maxbridges, [1, 4]);
  caps.generate.density = range(g.density, [0.05, 0.6]);
  caps.generate.no_loops = "no_loops" in g;
  const levels = g.difficulty?.enum;
  if (Array.isArray(levels) && levels.length) caps.levels = levels;
  const words = JSON.stringify(doc.info?.description || "") + JSON.stringify(doc.paths?.["/api/generate"] || {});
  const secs = /generate[^0-9]{0,40}?(\d+(?:\.\d+)?) ?s/.exec(words);
  if (secs) caps.generateSeconds = +secs[1];
  const side = /(\d+)x\1\b/.exec(words);
  if (side) caps.maxSide = +side[1];
  // a puzzle may say "no_loops" only where the server's puzzle schema has the field
  caps.puzzleNoLoops = Object.entries(doc.components?.schemas || {})
    .some(([name, schema]) => /^Puzzle/.test(name) && "no_loops" in (schema.properties || {}));
  const conv = requestProps(doc, "/api/convert");
  caps.convertFormats = conv.format?.enum || conv.to?.enum || [];
  return caps;
}
