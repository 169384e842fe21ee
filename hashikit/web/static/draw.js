// hashikit web: drawing the board in SVG (user units: S a cell): the sea, islands, and the plain
// black-on-white board for paper.  No game state here.
"use strict";

import { style } from "./server.js";

export const SVGNS = "http://www.w3.org/2000/svg";
// Every size below is a fraction of a cell from the server's style table (server.style: the one
// table hashikit's pictures and books are drawn with, this page's column)
export const SIZES = await style();
export const S = 40;                // SVG units per cell; the viewBox scales the board to the screen
export const R = S * SIZES.island;  // island radius

export function el(name, attrs = {}, parent = null) {
  const e = document.createElementNS(SVGNS, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (parent) parent.append(e);
  return e;
}

export const cx = (s) => s.c * S + S / 2;
export const cy = (s) => s.r * S + S / 2;

export function drawSea(svg, rows, cols) {
  svg.textContent = "";
  svg.setAttribute("viewBox", `0 0 ${cols * S} ${rows * S}`);
  svg.setAttribute("preserveAspectRatio", "xMidYMid meet");
  const defs = el("defs", {}, svg);
  const id = svg.id ? `dots-${svg.id}` : "dots";
  const pat = el("pattern", { id, width: S, height: S, patternUnits: "userSpaceOnUse" }, defs);
  el("circle", { cx: S / 2, cy: S / 2, r: S * SIZES.dot, class: "dot" }, pat);
  el("rect", { x: 0, y: 0, width: cols * S, height: rows * S, class: "sea" }, svg);
  el("rect", { x: 0, y: 0, width: cols * S, height: rows * S, fill: `url(#${id})`, "pointer-events": "none" }, svg);
}

export function drawIsland(parent, r, c, n, attrs = {}) {
  const x = c * S + S / 2, y = r * S + S / 2;
  const g = el("g", { class: "island", "data-r": r, "data-c": c, ...attrs }, parent);
  el("rect", { x: c * S, y: r * S, width: S, height: S, class: "pad" }, g);   // the whole cell is the target
  el("rect", { x: x - R - 4, y: y - R - 4, width: 2 * R + 8, height: 2 * R + 8, rx: 3, class: "lock" }, g);
  el("circle", { cx: x, cy: y, r: R + S * SIZES.halo, class: "ring" }, g);
  el("circle", { cx: x, cy: y, r: R, class: "disc" }, g);
  el("circle", { cx: x, cy: y, r: R - S * SIZES.inner, class: "inner" }, g);
  const t = el("text", { x, y: y + S * SIZES.lift }, g);
  t.textContent = n;
  if (n >= 10) t.setAttribute("class", "small");
  return g;
}

// a plain black-on-white drawing for paper: the puzzle's islands ({r, c, n}), and bridges
// [{a, b, h, n}] (two islands, horizontal or not, how many) when given
export function paperBoard(title, p, islands, bridges = []) {
  const wrap = document.createElement("section");
  const h = document.createElement("h2");
  h.textContent = title;
  const svg = document.createElementNS(SVGNS, "svg");
  svg.setAttribute("viewBox", `0 0 ${p.cols * S} ${p.rows * S}`);
  for (const { a, b, h: across, n } of bridges) {
    for (let m = 0; m < n; m++) {
      const off = (m - (n - 1) / 2) * S * SIZES.pair;
      el("line", { x1: cx(a) + (across ? 0 : off), y1: cy(a) + (across ? off : 0), x2: cx(b) + (across ? 0 : off),
                   y2: cy(b) + (across ? off : 0), stroke: "#000", "stroke-width": S * SIZES.bridge }, svg);
    }
  }
  for (const s of islands) {
    el("circle", { cx: cx(s), cy: cy(s), r: R, fill: "#fff", stroke: "#000", "stroke-width": S * SIZES.ring }, svg);
    const t = el("text", { x: cx(s), y: cy(s) + 1, "text-anchor": "middle", "dominant-baseline": "central",
                           "font-size": S * (s.n >= 10 ? SIZES.number_wide : SIZES.number), "font-family": "sans-serif",
                           "font-weight": 600 }, svg);
    t.textContent = s.n;
  }
  wrap.append(h, svg);
  return wrap;
}
