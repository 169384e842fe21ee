// hashikit web: puzzles in page addresses: a Tatham game ID (p=...) or base64url JSON (j=...).
"use strict";

export const b64url = (s) => btoa(unescape(encodeURIComponent(s))).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
export const unb64url = (s) => decodeURIComponent(escape(atob(s.replace(/-/g, "+").replace(/_/g, "/"))));

// the Tatham game ID of a puzzle ({rows, cols, maxbridges, islands, no_loops?}); JSON when it has no ID
export function tathamId(p) {
  const mb = p.maxbridges || 2;
  if ((p.ignore && p.ignore.length) || p.islands.some(([, , n]) => n > 16 || n < 1) || mb > 4) return null;
  const grid = new Map(p.islands.map(([r, c, n]) => [r * p.cols + c, n]));
  let desc = "", run = 0;
  for (let cell = 0; cell < p.rows * p.cols; cell++) {
    const n = grid.get(cell);
    if (n === undefined) { run++; if (run === 26) { desc += "z"; run = 0; } continue; }
    if (run) { desc += String.fromCharCode(96 + run); run = 0; }
    desc += n < 10 ? String(n) : String.fromCharCode(55 + n);
  }
  if (run) desc += String.fromCharCode(96 + run);
  return `${p.cols}x${p.rows}m${mb}${p.no_loops ? "L" : ""}:${desc}`;
}

// the puzzle's part of a page address: p=<Tatham game ID>, or j=<base64url JSON>
export function puzzleCode(p) {
  const id = tathamId(p);
  return id ? "p=" + id : "j=" + b64url(JSON.stringify(p));
}

export const puzzleLink = (p, extra = "") => location.href.split("#")[0] + "#" + puzzleCode(p) + extra;
