// hashikit web: the board on screen: drawing the game in SVG (bridges, marks, errors, previews),
// and its zoom and layout.  Of the game state it changes only the zoom and its own SVG groups.
"use strict";

import { R, S, cx, cy, drawIsland, drawSea, el } from "./draw.js";
import { $, board, canTakeMore, cellName, degree, game, groups, refusal } from "./game.js";

// Okabe-Ito: told apart by colour-blind players too
const GROUP_COLOURS = ["#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00", "#56b4e9", "#8c6d1f", "#7a5195"];

// the size of the constructor's board, for the layout while building (given once by app.js)
let buildingSize = () => null;
export function sizeWhileBuilding(size) { buildingSize = size; }

export function buildBoard() {
  const p = game.puzzle;
  board.classList.remove("building");
  board.removeAttribute("tabindex");
  drawSea(board, p.rows, p.cols);
  game.gHits = el("g", { class: "hits" }, board);
  game.gHint = el("g", { class: "hintlinks" }, board);
  game.gPossible = el("g", { class: "possibles" }, board);
  game.gBridges = el("g", { class: "bridges" }, board);
  game.gMarks = el("g", { class: "marks" }, board);
  game.gPreview = el("g", { class: "previews" }, board);
  const gIsl = el("g", { class: "islands" }, board);
  game.links.forEach((l, k) => {
    const a = game.islands[l.a], b = game.islands[l.b];
    el("line", { x1: cx(a), y1: cy(a), x2: cx(b), y2: cy(b), class: "hit", "data-link": k }, game.gHits);
  });
  for (const [r, c, n] of game.ignored) drawIsland(gIsl, r, c, n, { class: "island ignored" });
  game.islandEls = game.islands.map((s, i) =>
    drawIsland(gIsl, s.r, s.c, s.n, { tabindex: i === 0 ? 0 : -1, role: "button", "data-i": i }));
}

function groupColours() {
  if (!$("groups").checked) return null;
  const root = groups(), size = new Map();
  for (const g of root) size.set(g, (size.get(g) || 0) + 1);
  const colour = new Map();
  for (const g of root) if (size.get(g) > 1 && !colour.has(g)) colour.set(g, GROUP_COLOURS[colour.size % GROUP_COLOURS.length]);
  return { root, colour };
}

function drawBridges(errs) {
  const g = game.gBridges;
  g.textContent = "";
  const gap = S * 0.12, gc = groupColours(), wrong = game.checked?.links || new Set();
  game.links.forEach((l, k) => {
    const n = game.counts[k];
    if (!n) return;
    const a = game.islands[l.a], b = game.islands[l.b];
    let x1 = cx(a), y1 = cy(a), x2 = cx(b), y2 = cy(b);
    if (l.h) { x1 += R; x2 -= R; } else { y1 += R; y2 -= R; }
    const cls = "bridge" + (errs.links.has(k) ? " err" : "") + (wrong.has(k) ? " wrong" : "");
    el("line", { x1, y1, x2, y2, class: "bed", "stroke-width": (n - 1) * gap + S * 0.12 }, g);
    const colour = gc && gc.colour.get(gc.root[l.a]);
    for (let m = 0; m < n; m++) {
      const off = (m - (n - 1) / 2) * gap;
      const dx = l.h ? 0 : off, dy = l.h ? off : 0;
      const line = el("line", { x1: x1 + dx, y1: y1 + dy, x2: x2 + dx, y2: y2 + dy, class: cls, "data-link": k }, g);
      if (colour && !errs.links.has(k) && !wrong.has(k)) line.style.stroke = colour;
    }
  });
  const gm = game.gMarks;
  gm.textContent = "";
  const wrongMarks = game.checked?.marks || new Set();
  game.links.forEach((l, k) => {
    if (!game.marks[k]) return;
    const a = game.islands[l.a], b = game.islands[l.b];
    const mx = (cx(a) + cx(b)) / 2, my = (cy(a) + cy(b)) / 2, d = S * 0.16;
    const m = el("g", { class: "mark" + (wrongMarks.has(k) ? " wrong" : ""), "data-link": k }, gm);
    if (wrongMarks.has(k)) el("circle", { cx: mx, cy: my, r: d * 1.9 }, m);
    el("line", { x1: mx - d, y1: my - d, x2: mx + d, y2: my + d }, m);
    el("line", { x1: mx - d, y1: my + d, x2: mx + d, y2: my - d }, m);
  });
  const gp = game.gPossible;
  gp.textContent = "";
  if ($("possible").checked && !game.solved) {
    game.links.forEach((l, k) => {
      if (!canTakeMore(k)) return;
      const a = game.islands[l.a], b = game.islands[l.b];
      const off = game.counts[k] ? S * 0.22 : 0;
      el("line", { x1: cx(a) + (l.h ? R : off), y1: cy(a) + (l.h ? off : R), x2: cx(b) - (l.h ? R : -off),
                   y2: cy(b) - (l.h ? -off : R), class: "possible", "data-link": k }, gp);
    });
  }
  const gh = game.gHint;
  gh.textContent = "";
  if (game.hint) {
    for (const k of game.hint.links) {
      const l = game.links[k], a = game.islands[l.a], b = game.islands[l.b];
      el("line", { x1: cx(a), y1: cy(a), x2: cx(b), y2: cy(b), class: "hintlink" }, gh);
    }
  }
}

// what the "Mark errors" toggle shows: rule breaks, islands that can no longer be finished,
// and finished groups cut off from the other islands
function findErrors() {
  const errs = { islands: new Set(), links: new Set() };
  if (!$("errors").checked) return errs;
  const isl = game.islands, counts = game.counts;
  game.links.forEach((l, k) => {
    if (counts[k] && l.cross.some((o) => counts[o])) errs.links.add(k);
    if (counts[k] > l.cap) errs.links.add(k);
  });
  const deg = isl.map((_, i) => degree(i));
  isl.forEach((s, i) => {
    if (deg[i] > s.n) { errs.islands.add(i); return; }
    let room = 0;
    for (const k of game.inc[i]) {
      const l = game.links[k], o = l.a === i ? l.b : l.a;
      const blocked = game.marks[k] || l.cross.some((x) => counts[x]) || game.locked.has(o) || game.locked.has(i);
      room += blocked ? counts[k] : Math.min(l.cap, counts[k] + Math.max(0, isl[o].n - deg[o]));
    }
    if (room < s.n) errs.islands.add(i);
  });
  const root = groups(), members = new Map();
  root.forEach((g, i) => { if (!members.has(g)) members.set(g, []); members.get(g).push(i); });
  for (const group of members.values()) {
    if (group.length < isl.length && group.every((i) => deg[i] === isl[i].n)) for (const i of group) errs.islands.add(i);
  }
  return errs;
}

export function paint() {
  if (game.mode !== "play" || !game.puzzle) return;
  const errs = findErrors();
  drawBridges(errs);
  const wrongIslands = game.checked?.islands || new Set();
  game.islandEls.forEach((g, i) => {
    const s = game.islands[i], d = degree(i), locked = game.locked.has(i);
    g.classList.toggle("full", d === s.n);
    g.classList.toggle("selected", game.selected === i);
    g.classList.toggle("hint", !!game.hint && game.hint.islands.has(i));
    g.classList.toggle("err", errs.islands.has(i));
    g.classList.toggle("wrong", wrongIslands.has(i));
    g.classList.toggle("locked", locked);
    g.setAttribute("aria-label", `island ${s.n} at ${cellName(s.r, s.c)}, ${d} bridge${d === 1 ? "" : "s"}` +
      (d === s.n ? ", complete" : "") + (locked ? ", locked" : "") +
      (errs.islands.has(i) || wrongIslands.has(i) ? ", marked as an error" : "") +
      (game.selected === i ? ", selected" : ""));
    g.setAttribute("aria-pressed", game.selected === i ? "true" : "false");
  });
  $("undo").disabled = !game.undo.length;
  $("redo").disabled = !game.redo.length;
  drawPreview();
}

// what a move would do, before it is made: while dragging, or hovering over an island after picking
// one, the bridge it would lay (red when refused) and its target island; after the first tap, dotted
// lines to every island the picked one can reach
export function drawPreview() {
  const g = game.gPreview;
  if (!g) return;
  g.textContent = "";
  for (const e of game.islandEls) e.classList.remove("target");
  const i = game.drag?.i ?? game.selected;
  if (i === null || i === undefined || game.solved) return;
  const k = game.drag?.i !== undefined ? game.drag.aim : game.aim;
  const line = (k, cls) => {
    const l = game.links[k], a = game.islands[l.a], b = game.islands[l.b];
    el("line", { x1: cx(a), y1: cy(a), x2: cx(b), y2: cy(b), class: cls, "data-link": k }, g);
    game.islandEls[l.a === i ? l.b : l.a].classList.add("target");
  };
  if (k !== undefined && k !== null && game.inc[i].includes(k)) {
    const cur = game.counts[k], next = cur + 1 > game.links[k].cap ? 0 : cur + 1;
    line(k, "preview" + (game.drag?.right ? " refused" : refusal(k, next) && next > cur ? " refused" : ""));
  } else if (!game.drag || game.drag.i === undefined) {
    for (const o of game.inc[i]) if (canTakeMore(o)) line(o, "preview option");
  }
}

export function flash(k) {
  const line = game.gHits.querySelector(`[data-link="${k}"]`);
  if (!line) return;
  line.classList.remove("refused");
  void line.getBoundingClientRect();
  line.classList.add("refused");
}

// the cell size at which the whole board fits the screen: across its frame, and down from where it
// starts on the page (so it is wholly in view with the page at the top, and after showBoard)
function fitPx() {
  const p = game.mode === "build" ? buildingSize() : game.puzzle;
  const wrap = $("board-wrap");
  const pad = wrap.offsetWidth - wrap.clientWidth + 16;
  const w = wrap.clientWidth - 16;
  const top = wrap.getBoundingClientRect().top + scrollY;
  const h = Math.max(140, innerHeight - top - pad - 8);
  return { p, h, fit: Math.max(4, Math.min(w / p.cols, h / p.rows)) };
}

// the board opens at fit on every screen; zoom (+ and -, or pinch) goes from there
export function layoutBoard() {
  if (!game.puzzle && game.mode !== "build") return;
  const { p, h, fit } = fitPx();
  const px = fit * game.zoom;
  board.style.width = `${Math.round(p.cols * px)}px`;
  board.style.height = `${Math.round(p.rows * px)}px`;
  board.dataset.cell = px.toFixed(1);
  $("board-wrap").style.maxHeight = `${Math.round(h + 18)}px`;
  showCue();
}

export function zoomBy(f) {
  const wrap = $("board-wrap");
  const cx0 = (wrap.scrollLeft + wrap.clientWidth / 2) / Math.max(1, wrap.scrollWidth);
  const cy0 = (wrap.scrollTop + wrap.clientHeight / 2) / Math.max(1, wrap.scrollHeight);
  game.zoom = Math.min(6, Math.max(0.3, game.zoom * f));
  layoutBoard();
  wrap.scrollLeft = cx0 * wrap.scrollWidth - wrap.clientWidth / 2;   // keep the middle in the middle
  wrap.scrollTop = cy0 * wrap.scrollHeight - wrap.clientHeight / 2;
  showCue();
}
export function zoomFit() {
  game.zoom = 1;
  layoutBoard();
}

// a cue whenever part of the board is outside its frame: which side, and a Fit button
export function showCue() {
  const wrap = $("board-wrap"), frame = $("board-frame");
  const sides = [];
  if (wrap.scrollLeft > 2) sides.push("left");
  if (wrap.scrollLeft + wrap.clientWidth < wrap.scrollWidth - 2) sides.push("right");
  if (wrap.scrollTop > 2) sides.push("above");
  if (wrap.scrollTop + wrap.clientHeight < wrap.scrollHeight - 2) sides.push("below");
  frame.dataset.more = sides.join(" ");
  const box = frame.getBoundingClientRect();
  $("more").hidden = !sides.length || box.bottom < 60 || box.top > innerHeight - 60;
  if (sides.length) {
    const words = sides.length > 1 ? `${sides.slice(0, -1).join(", ")} and ${sides.at(-1)}` : sides[0];
    $("more-text").textContent = `More board ${["left", "right"].includes(sides[0]) ? "to the " : ""}${words}: swipe to see it.`;
  }
}

// the board section at the top of the screen when any of it is out of view (after a new puzzle)
export function showBoard() {
  const top = $("play").getBoundingClientRect().top, bottom = $("board-frame").getBoundingClientRect().bottom;
  if (top < 0 || bottom > innerHeight) window.scrollTo({ top: Math.max(0, scrollY + top - 4), behavior: "instant" });
}

export function svgPoint(ev) {
  const pt = board.createSVGPoint();
  pt.x = ev.clientX; pt.y = ev.clientY;
  const m = board.getScreenCTM();
  return m ? pt.matrixTransform(m.inverse()) : { x: 0, y: 0 };
}
