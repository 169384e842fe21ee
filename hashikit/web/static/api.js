// hashikit web: the JSON API of app.py, and what this server offers (read once from /api/limits,
// so the page never hard-codes a limit or a level list).
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

// What this server offers, read from its limits document (GET /api/limits): fields, never prose.
// The values below stand until the document arrives (and when it cannot be read: caps.read is false).
export const caps = {
  read: false,
  levels: ["easy", "medium", "hard", "expert"],
  generate: { rows: [2, 25], maxbridges: [1, 4], density: [0, 0.5], no_loops: true, atOnce: 2 },
  generateSeconds: 20, solveSeconds: 10, maxSide: 60, maxMaxbridges: 8,
  formats: [],        // [{name, title, needs_solution, no_loops, maxbridges: [...]}]
};

export async function loadCaps() {
  let doc = null;
  try {
    const r = await fetch("/api/limits");
    if (r.ok) doc = await r.json();
  } catch (e) { /* the defaults stand */ }
  if (!doc || typeof doc !== "object" || !doc.generate) return caps;
  const g = doc.generate;
  caps.read = true;
  caps.levels = g.levels;
  caps.generate = { rows: [g.min_side, g.max_side], maxbridges: g.maxbridges, density: [0, g.max_density],
                    no_loops: g.no_loops, atOnce: g.at_once };
  caps.generateSeconds = g.time_limit;
  caps.solveSeconds = doc.time_limit;
  caps.maxSide = doc.max_side;
  caps.maxMaxbridges = doc.max_maxbridges;
  caps.formats = doc.formats || [];
  return caps;
}
