// hashikit web: the game on screen: the board drawn in SVG from the store (bridges, marks, errors,
// hints, the preview of a move), redrawn when the store changes.  Its SVG elements are its own.
"use strict";

import { R, S, cx, cy, drawIsland, drawSea, el } from "./draw.js";
import { $, board } from "./dom.js";
import { canTakeMore, degree, groups, judge, other, refusal } from "./referee.js";
import { set, state, subscribe } from "./store.js";
import { cellName, plural } from "./words.js";

// Okabe-Ito: told apart by colour-blind players too
const GROUP_COLOURS = ["#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00", "#56b4e9", "#8c6d1f", "#7a5195"];

const layer = {};          // the board's SVG groups: hits, hint, possible, bridges, trial, marks, preview
let islandEls = [];        // island -> its SVG group

export const islandElement = (i) => islandEls[i];

function buildBoard() {
  const g = state.graph;
  board.classList.remove("building");
  board.removeAttribute("tabindex");
  drawSea(board, g.rows, g.cols);
  for (const name of ["hits", "hint", "possible", "bridges", "trial", "marks", "preview"]) {
    layer[name] = el("g", { class: { hint: "hintlinks", possible: "possibles", preview: "previews" }[name] || name }, board);
  }
  const gIsl = el("g", { class: "islands" }, board);
  g.links.forEach((l, k) => {
    const a = g.islands[l.a], b = g.islands[l.b];
    el("line", { x1: cx(a), y1: cy(a), x2: cx(b), y2: cy(b), class: "hit", "data-link": k }, layer.hits);
  });
  for (const [r, c, n] of g.ignored) drawIsland(gIsl, r, c, n, { class: "island ignored" });
  islandEls = g.islands.map((s, i) =>
    drawIsland(gIsl, s.r, s.c, s.n, { tabindex: i === state.focus ? 0 : -1, role: "button", "data-i": i }));
}

function groupColours() {
  if (!state.show.groups) return null;
  const root = groups(state.graph, state.position), size = new Map();
  for (const g of root) size.set(g, (size.get(g) || 0) + 1);
  const colour = new Map();
  for (const g of root) if (size.get(g) > 1 && !colour.has(g)) colour.set(g, GROUP_COLOURS[colour.size % GROUP_COLOURS.length]);
  return { root, colour };
}

// the trial that last changed each link (1 the outermost), 0 for the game's own: the innermost
// trial whose starting position differs from the board there
function trialDepths() {
  const trials = state.trials, pos = state.position;
  return state.graph.links.map((_, k) => {
    for (let d = trials.length; d >= 1; d--) {
      const base = trials[d - 1].base;
      if (base.counts[k] !== pos.counts[k] || base.marks[k] !== pos.marks[k]) return d;
    }
    return 0;
  });
}

const trialClass = (d) => (d ? ` trial trial-${(d - 1) % 2 + 1}` : "");

function drawBridges(errs) {
  const g = state.graph, pos = state.position;
  layer.bridges.textContent = "";
  layer.trial.textContent = "";
  const gap = S * 0.12, gc = groupColours(), wrong = state.checked?.links || new Set(), depth = trialDepths();
  g.links.forEach((l, k) => {
    const n = pos.counts[k];
    if (!n) return;
    const gb = depth[k] ? layer.trial : layer.bridges;
    const a = g.islands[l.a], b = g.islands[l.b];
    let x1 = cx(a), y1 = cy(a), x2 = cx(b), y2 = cy(b);
    if (l.h) { x1 += R; x2 -= R; } else { y1 += R; y2 -= R; }
    const cls = "bridge" + trialClass(depth[k]) + (errs.links.has(k) ? " err" : "") + (wrong.has(k) ? " wrong" : "");
    el("line", { x1, y1, x2, y2, class: "bed", "stroke-width": (n - 1) * gap + S * 0.12 }, gb);
    const colour = !depth[k] && gc && gc.colour.get(gc.root[l.a]);
    for (let m = 0; m < n; m++) {
      const off = (m - (n - 1) / 2) * gap;
      const dx = l.h ? 0 : off, dy = l.h ? off : 0;
      const line = el("line", { x1: x1 + dx, y1: y1 + dy, x2: x2 + dx, y2: y2 + dy, class: cls, "data-link": k }, gb);
      if (colour && !errs.links.has(k) && !wrong.has(k)) line.style.stroke = colour;
    }
  });
  const gm = layer.marks;
  gm.textContent = "";
  const wrongMarks = state.checked?.marks || new Set();
  g.links.forEach((l, k) => {
    if (!pos.marks[k]) return;
    const a = g.islands[l.a], b = g.islands[l.b];
    const mx = (cx(a) + cx(b)) / 2, my = (cy(a) + cy(b)) / 2, d = S * 0.16;
    const m = el("g", { class: "mark" + trialClass(depth[k]) + (wrongMarks.has(k) ? " wrong" : ""), "data-link": k }, gm);
    if (wrongMarks.has(k)) el("circle", { cx: mx, cy: my, r: d * 1.9 }, m);
    el("line", { x1: mx - d, y1: my - d, x2: mx + d, y2: my + d }, m);
    el("line", { x1: mx - d, y1: my + d, x2: mx + d, y2: my - d }, m);
  });
  const gp = layer.possible;
  gp.textContent = "";
  if (state.show.possible && !state.solved) {
    g.links.forEach((l, k) => {
      if (!canTakeMore(g, pos, k)) return;
      const a = g.islands[l.a], b = g.islands[l.b];
      const off = pos.counts[k] ? S * 0.22 : 0;
      el("line", { x1: cx(a) + (l.h ? R : off), y1: cy(a) + (l.h ? off : R), x2: cx(b) - (l.h ? R : -off),
                   y2: cy(b) - (l.h ? -off : R), class: "possible", "data-link": k }, gp);
    });
  }
  const gh = layer.hint;
  gh.textContent = "";
  if (state.hint) {
    for (const k of state.hint.links) {
      const l = g.links[k], a = g.islands[l.a], b = g.islands[l.b];
      el("line", { x1: cx(a), y1: cy(a), x2: cx(b), y2: cy(b), class: "hintlink" }, gh);
    }
  }
}

function paint() {
  if (state.mode !== "play" || !state.puzzle) return;
  const g = state.graph, pos = state.position;
  const errs = state.show.errors ? judge(g, pos).errors : { islands: new Set(), links: new Set() };
  drawBridges(errs);
  const wrongIslands = state.checked?.islands || new Set();
  islandEls.forEach((e, i) => {
    const s = g.islands[i], d = degree(g, pos, i), locked = pos.locked.has(i);
    e.classList.toggle("full", d === s.n);
    e.classList.toggle("selected", state.selected === i);
    e.classList.toggle("hint", !!state.hint && state.hint.islands.has(i));
    e.classList.toggle("err", errs.islands.has(i));
    e.classList.toggle("wrong", wrongIslands.has(i));
    e.classList.toggle("locked", locked);
    e.setAttribute("aria-label", `island ${s.n} at ${cellName(s.r, s.c)}, ${d} ${plural(d, "bridge")}` +
      (d === s.n ? ", complete" : "") + (locked ? ", locked" : "") +
      (errs.islands.has(i) || wrongIslands.has(i) ? ", marked as an error" : "") +
      (state.selected === i ? ", selected" : ""));
    e.setAttribute("aria-pressed", state.selected === i ? "true" : "false");
  });
  $("undo").disabled = !state.undo.length;
  $("redo").disabled = !state.redo.length;
  drawPreview();
}

// what a move would do, before it is made: while dragging, or hovering over an island after picking
// one, the bridge it would lay (red when refused) and its target island; after the first tap, dotted
// lines to every island the picked one can reach
function drawPreview() {
  const gp = layer.preview;
  if (!gp || state.mode !== "play") return;
  gp.textContent = "";
  for (const e of islandEls) e.classList.remove("target");
  const g = state.graph, pos = state.position, drag = state.drag;
  const i = drag?.i ?? state.selected;
  if (i === null || i === undefined || state.solved) return;
  const k = drag?.i !== undefined ? drag.aim : state.aim;
  const line = (k, cls) => {
    const l = g.links[k], a = g.islands[l.a], b = g.islands[l.b];
    el("line", { x1: cx(a), y1: cy(a), x2: cx(b), y2: cy(b), class: cls, "data-link": k }, gp);
    islandEls[other(g, k, i)].classList.add("target");
  };
  if (k !== undefined && k !== null && g.inc[i].includes(k)) {
    const cur = pos.counts[k], next = cur + 1 > g.links[k].cap ? 0 : cur + 1;
    line(k, "preview" + (drag?.right ? " refused" : refusal(g, pos, k, next) && next > cur ? " refused" : ""));
  } else if (!drag || drag.i === undefined) {
    for (const o of g.inc[i]) if (canTakeMore(g, pos, o)) line(o, "preview option");
  }
}

// a refused move's link flashes red
export function flash(k) {
  const line = layer.hits?.querySelector(`[data-link="${k}"]`);
  if (!line) return;
  line.classList.remove("refused");
  void line.getBoundingClientRect();
  line.classList.add("refused");
}

// the board's keyboard focus on island i (one island at a time is in the Tab order), scrolled into
// view from the keyboard; a finger or a pointer leaves the board where the player put it
export function focusIsland(i, scroll = true) {
  islandEls[state.focus]?.setAttribute("tabindex", -1);
  const e = islandEls[i];
  e.setAttribute("tabindex", 0);
  set({ focus: i });
  e.focus({ preventScroll: !scroll });
}

// the solved board's islands pop once
export function celebrate() {
  board.classList.add("solved-anim");
  setTimeout(() => board.classList.remove("solved-anim"), 900);
}

const PREVIEW = new Set(["drag", "aim"]);
const GAME = ["position", "undo", "redo", "selected", "hint", "checked", "solved", "show", "trials"];
subscribe((changed) => {
  if (changed.has("show")) document.body.classList.toggle("marking", state.show.errors);
  if (!state.puzzle || state.mode !== "play") return;
  if (changed.has("puzzle") || changed.has("mode")) { buildBoard(); paint(); return; }
  if (GAME.some((f) => changed.has(f))) paint();
  else if ([...changed].some((f) => PREVIEW.has(f))) drawPreview();
});
