// hashikit web: play Hashiwokakero in the browser. Plain ES modules, an SVG board, the JSON API of app.py.
// Vocabulary: an island is a numbered cell; a link is a pair of islands that may be joined (from the
// server's /api/parse); a link carries a count of bridges, or a "no bridge" mark; a locked island's
// links do not change.  Every move (bridge, mark, lock) goes through one undo stack.
"use strict";

import { api, caps, loadCaps } from "./api.js";
import * as store from "./store.js";
import { createBuilder } from "./build.js";
import { setupPictures } from "./picture.js";

const SVGNS = "http://www.w3.org/2000/svg";
const S = 40;                       // SVG units per cell; the viewBox scales the board to the screen
const R = S * 0.37;                 // island radius
const EXAMPLE = "7x7m2:4d2b1b4a26b3m1c3c3c2d3";
const MAX_FILE = 1000000;
const TOUCH_PX = 44;                // smallest cell on a touch screen (a touch target)
const LONG_PRESS_MS = 500;
const DIRS = { ArrowLeft: [0, -1], ArrowRight: [0, 1], ArrowUp: [-1, 0], ArrowDown: [1, 0] };
const WHERE = { ArrowLeft: "to the left", ArrowRight: "to the right", ArrowUp: "above", ArrowDown: "below" };
const NUMBER_WORDS = ["no", "one", "two", "three", "four", "five", "six", "seven", "eight"];
const COUNT_WORDS = ["No bridge", "A bridge", "Two bridges", "Three bridges", "Four bridges"];
// Okabe-Ito: told apart by colour-blind players too
const GROUP_COLOURS = ["#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00", "#56b4e9", "#8c6d1f", "#7a5195"];

const $ = (id) => document.getElementById(id);
const board = $("board");

const game = {
  mode: "play",
  puzzle: null,        // as /api/parse returns it
  level: "custom",     // the generator's grade, when the puzzle came from it
  islands: [],         // {r, c, n}
  at: new Map(),       // "r,c" -> island index
  links: [],           // {a, b, h, cap, cross: [link indices]}
  linkOf: new Map(),   // "a,b" (a < b) -> link index
  inc: [],             // island -> link indices
  counts: [], marks: [], locked: new Set(),
  undo: [], redo: [],
  selected: null, focus: 0,
  hint: null,          // {islands: Set, links: Set}
  checked: null,       // {islands: Set, links: Set, marks: Set} from the last Check
  solved: false, revealed: false,
  t0: 0, elapsed: 0, timer: null,
  checking: 0, solution: null,
  zoom: 1,
  generating: null,    // the AbortController of a running generation
};

const cellName = (r, c) => `row ${r + 1}, column ${c + 1}`;
const islandName = (i) => { const s = game.islands[i]; return `the ${s.n} at ${cellName(s.r, s.c)}`; };
const maxBridges = () => game.puzzle?.maxbridges || 2;

// ---------------------------------------------------------------- messages
export function say(text, kind = "") {
  const el = $("status");
  el.textContent = "";
  el.className = "status" + (kind ? " " + kind : "");
  if (Array.isArray(text)) {
    const [head, items] = text;
    el.append(head);
    const ul = document.createElement("ul");
    for (const item of items) { const li = document.createElement("li"); li.textContent = item; ul.append(li); }
    el.append(ul);
  } else {
    el.textContent = text;
  }
}

// The tagline and help follow the puzzle's own rules (MAXBRIDGES, no loops).
function rulesText(mb, noLoops) {
  const most = mb === 1 ? "one bridge between a pair" : `at most ${NUMBER_WORDS[mb] || mb} between a pair`;
  return `Join the islands with bridges: each island gets as many bridges as its number, ${most}, ` +
         `none crossing, all islands connected${noLoops ? ", and no closed loop of bridges" : ""}.`;
}

function showRules() {
  const mb = maxBridges(), noLoops = !!game.puzzle?.no_loops;
  $("tagline").textContent = rulesText(mb, noLoops);
  const more = mb === 1 ? "again to remove it" : `again for more (up to ${NUMBER_WORDS[mb] || mb}), once more to remove them`;
  $("help").textContent =
    `Click an island, then another in its row or column (or drag from one to the other) to add a bridge; ${more}. ` +
    `Right-click a link (or right-drag from an island, or long-press on a touch screen) to mark it "no bridge"; ` +
    `Shift+click or long-press an island to lock it. Keyboard: Tab to the board, arrow keys move between islands, ` +
    `Enter or Space picks one, then an arrow key lays a bridge that way; Shift+arrow marks "no bridge"; ` +
    `L locks the island; Esc lets go. Shortcuts: C check, H hint, R reveal, G possible bridges, O groups, ` +
    `E errors, P print, B build, N new puzzle, D dark mode, + - 0 zoom, Ctrl+Z / Ctrl+Y undo and redo.`;
}

// ---------------------------------------------------------------- puzzle structure
function islandIndex(r, c) { return game.at.get(`${r},${c}`); }
function linkBetween(i, j) {
  if (i === undefined || j === undefined) return undefined;
  return game.linkOf.get(i < j ? `${i},${j}` : `${j},${i}`);
}
const linkAt = ([r1, c1, r2, c2]) => linkBetween(islandIndex(r1, c1), islandIndex(r2, c2));

// links and crossings as the server lists them (POST /api/parse); an older server sends none,
// and then the page works them out itself (the same rule: next island in the row or column)
function linksFromServer(links, crossings) {
  const out = [];
  for (const [r1, c1, r2, c2] of links) {
    const i = islandIndex(r1, c1), j = islandIndex(r2, c2);
    if (i === undefined || j === undefined) continue;
    out.push({ a: Math.min(i, j), b: Math.max(i, j), h: r1 === r2, cross: [] });
  }
  for (const [x, y] of crossings || []) {
    if (out[x] && out[y]) { out[x].cross.push(y); out[y].cross.push(x); }
  }
  return out;
}

function linksLocally() {
  const isl = game.islands, links = [];
  for (let i = 0; i + 1 < isl.length; i++) {
    if (isl[i].r === isl[i + 1].r) links.push({ a: i, b: i + 1, h: true, cross: [] });
  }
  const byCol = isl.map((_, i) => i).sort((x, y) => isl[x].c - isl[y].c || isl[x].r - isl[y].r);
  for (let k = 0; k + 1 < byCol.length; k++) {
    const i = byCol[k], j = byCol[k + 1];
    if (isl[i].c === isl[j].c) links.push({ a: Math.min(i, j), b: Math.max(i, j), h: false, cross: [] });
  }
  const hByRow = new Map();
  links.forEach((l, k) => {
    if (!l.h) return;
    const r = isl[l.a].r;
    if (!hByRow.has(r)) hByRow.set(r, []);
    hByRow.get(r).push(k);
  });
  links.forEach((l, v) => {
    if (l.h) return;
    const top = isl[l.a], bot = isl[l.b];
    for (let r = top.r + 1; r < bot.r; r++) {
      for (const h of hByRow.get(r) || []) {
        if (isl[links[h].a].c < top.c && top.c < isl[links[h].b].c) { links[h].cross.push(v); l.cross.push(h); }
      }
    }
  });
  return links;
}

function setPuzzle(parsed, { bridges = null, progress = null, level = "custom", restore = true } = {}) {
  const puzzle = parsed.puzzle;
  leaveBuild();
  game.puzzle = puzzle;
  game.level = level;
  game.solution = null;
  const ignored = new Set((puzzle.ignore || []).map(([r, c]) => `${r},${c}`));
  document.body.dataset.geometry = Array.isArray(parsed.links) ? "server" : "page";
  game.islands = puzzle.islands.filter(([r, c]) => !ignored.has(`${r},${c}`))
    .map(([r, c, n]) => ({ r, c, n }))
    .sort((x, y) => x.r - y.r || x.c - y.c);
  game.ignored = puzzle.islands.filter(([r, c]) => ignored.has(`${r},${c}`));
  game.at = new Map(game.islands.map((s, i) => [`${s.r},${s.c}`, i]));
  const links = Array.isArray(parsed.links) ? linksFromServer(parsed.links, parsed.crossings) : linksLocally();
  game.geometryFrom = Array.isArray(parsed.links) ? "server" : "page";
  const mb = puzzle.maxbridges || 2;
  for (const ln of links) ln.cap = Math.min(mb, game.islands[ln.a].n, game.islands[ln.b].n);
  game.links = links;
  game.linkOf = new Map(links.map((l, k) => [`${l.a},${l.b}`, k]));
  game.inc = game.islands.map(() => []);
  links.forEach((l, k) => { game.inc[l.a].push(k); game.inc[l.b].push(k); });
  game.counts = links.map(() => 0);
  game.marks = links.map(() => false);
  game.caps = new Map();   // link -> at most this many bridges, from hints (sent back with the marks)
  game.locked = new Set();
  game.elapsed = 0;
  game.solved = false; game.revealed = false;
  const saved = restore ? store.loadProgress(puzzleCode()) : null;
  if (bridges) applyBridgeList(bridges, game.counts);
  const fromLink = progress && progress.length === links.length && /^[0-9]+$/.test(progress);
  if (fromLink) game.counts = [...progress].map((d, k) => Math.min(+d, links[k].cap));
  // the saved game comes back when the link carries no other progress than the saved one
  if (saved && saved.counts?.length === links.length && (!fromLink || saved.counts === progress)) {
    game.counts = [...saved.counts].map((d, k) => Math.min(+d || 0, links[k].cap));
    game.marks = [...(saved.marks || "")].map((d) => d === "1");
    while (game.marks.length < links.length) game.marks.push(false);
    game.locked = new Set((saved.locked || []).filter((i) => i < game.islands.length));
    game.elapsed = +saved.elapsed || 0;
    game.level = saved.level || level;
    game.restored = true;
  } else game.restored = false;
  game.undo = []; game.redo = [];
  game.selected = null; game.focus = 0; game.hint = null; game.checked = null;
  $("banner").hidden = true;
  buildBoard();
  layoutBoard();
  showRules();
  const done = isComplete();
  if (done && saved?.solved) { game.solved = true; stopTimer(); showBanner(); }
  else resumeTimer();
  updateHash();
  $("info").textContent = `${puzzle.cols} × ${puzzle.rows} board, ${game.islands.length} islands` +
    (mb !== 2 ? `, up to ${mb} bridges per pair` : "") + (puzzle.no_loops ? ", no loops" : "") +
    (game.level !== "custom" ? `, ${game.level}` : "") + ".";
  showBest();
  say(game.restored ? "Welcome back: your game is restored." : "Your move: join the islands.");
  afterChange({ save: false });
}

// bridges [[r1, c1, r2, c2, k], ...] into counts; returns how many did not fit a link
function applyBridgeList(list, counts) {
  let misfits = 0;
  for (const [r1, c1, r2, c2, k] of list) {
    const l = linkAt([r1, c1, r2, c2]);
    if (l === undefined) { misfits++; continue; }
    counts[l] = k;
  }
  return misfits;
}

const degree = (i) => game.inc[i].reduce((s, k) => s + game.counts[k], 0);
const isComplete = () => game.islands.length > 0 && game.islands.every((s, i) => degree(i) === s.n);
const ends = (k) => { const l = game.links[k], a = game.islands[l.a], b = game.islands[l.b]; return [a.r, a.c, b.r, b.c]; };

function bridgeList(counts = game.counts) {
  const out = [];
  game.links.forEach((l, k) => { if (counts[k]) out.push([...ends(k), counts[k]]); });
  return out;
}
const markList = () => [...game.links.map((_, k) => k).filter((k) => game.marks[k]).map(ends),
  ...[...(game.caps || new Map())].filter(([k]) => !game.marks[k]).map(([k, most]) => [...ends(k), most])];

// ---------------------------------------------------------------- drawing
export function el(name, attrs = {}, parent = null) {
  const e = document.createElementNS(SVGNS, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (parent) parent.append(e);
  return e;
}

const cx = (s) => s.c * S + S / 2;
const cy = (s) => s.r * S + S / 2;

export function drawSea(svg, rows, cols) {
  svg.textContent = "";
  svg.setAttribute("viewBox", `0 0 ${cols * S} ${rows * S}`);
  svg.setAttribute("preserveAspectRatio", "xMidYMid meet");
  const defs = el("defs", {}, svg);
  const id = svg.id ? `dots-${svg.id}` : "dots";
  const pat = el("pattern", { id, width: S, height: S, patternUnits: "userSpaceOnUse" }, defs);
  el("circle", { cx: S / 2, cy: S / 2, r: S * 0.045, class: "dot" }, pat);
  el("rect", { x: 0, y: 0, width: cols * S, height: rows * S, class: "sea" }, svg);
  el("rect", { x: 0, y: 0, width: cols * S, height: rows * S, fill: `url(#${id})`, "pointer-events": "none" }, svg);
}

export function drawIsland(parent, r, c, n, attrs = {}) {
  const x = c * S + S / 2, y = r * S + S / 2;
  const g = el("g", { class: "island", "data-r": r, "data-c": c, ...attrs }, parent);
  el("rect", { x: c * S, y: r * S, width: S, height: S, class: "pad" }, g);   // the whole cell is the target
  el("rect", { x: x - R - 4, y: y - R - 4, width: 2 * R + 8, height: 2 * R + 8, rx: 3, class: "lock" }, g);
  el("circle", { cx: x, cy: y, r: R + S * 0.09, class: "ring" }, g);
  el("circle", { cx: x, cy: y, r: R, class: "disc" }, g);
  el("circle", { cx: x, cy: y, r: R - 4, class: "inner" }, g);
  const t = el("text", { x, y: y + S * 0.015 }, g);
  t.textContent = n;
  if (n >= 10) t.setAttribute("class", "small");
  return g;
}

function buildBoard() {
  const p = game.puzzle;
  board.classList.remove("building");
  board.removeAttribute("tabindex");
  drawSea(board, p.rows, p.cols);
  game.gHits = el("g", { class: "hits" }, board);
  game.gHint = el("g", { class: "hintlinks" }, board);
  game.gPossible = el("g", { class: "possibles" }, board);
  game.gBridges = el("g", { class: "bridges" }, board);
  game.gMarks = el("g", { class: "marks" }, board);
  const gIsl = el("g", { class: "islands" }, board);
  game.links.forEach((l, k) => {
    const a = game.islands[l.a], b = game.islands[l.b];
    el("line", { x1: cx(a), y1: cy(a), x2: cx(b), y2: cy(b), class: "hit", "data-link": k }, game.gHits);
  });
  for (const [r, c, n] of game.ignored) drawIsland(gIsl, r, c, n, { class: "island ignored" });
  game.islandEls = game.islands.map((s, i) =>
    drawIsland(gIsl, s.r, s.c, s.n, { tabindex: i === 0 ? 0 : -1, role: "button", "data-i": i }));
}

// union-find groups of islands joined by bridges: island -> group root
function groups() {
  const parent = game.islands.map((_, i) => i);
  const find = (i) => { while (parent[i] !== i) { parent[i] = parent[parent[i]]; i = parent[i]; } return i; };
  game.links.forEach((l, k) => { if (game.counts[k]) parent[find(l.a)] = find(l.b); });
  return game.islands.map((_, i) => find(i));
}

function groupColours() {
  if (!$("groups").checked) return null;
  const root = groups(), size = new Map();
  for (const g of root) size.set(g, (size.get(g) || 0) + 1);
  const colour = new Map();
  for (const g of root) if (size.get(g) > 1 && !colour.has(g)) colour.set(g, GROUP_COLOURS[colour.size % GROUP_COLOURS.length]);
  return { root, colour };
}

// a link that can still take one more bridge (what Tatham's G key shows)
function canTakeMore(k) {
  const l = game.links[k];
  if (game.marks[k] || game.counts[k] >= l.cap) return false;
  if (game.locked.has(l.a) || game.locked.has(l.b)) return false;
  if (l.cross.some((o) => game.counts[o])) return false;
  return degree(l.a) < game.islands[l.a].n && degree(l.b) < game.islands[l.b].n;
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

function paint() {
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
}

// ---------------------------------------------------------------- zoom and layout
const touchScreen = () => matchMedia("(pointer: coarse)").matches || innerWidth <= 820;

function fitPx() {
  const p = game.mode === "build" ? builder.size() : game.puzzle;
  const wrap = $("board-wrap");
  const w = wrap.clientWidth - 18;
  const top = wrap.getBoundingClientRect().top + scrollY;       // where the board starts on the page
  const h = Math.max(200, innerHeight - top - 22);
  return { p, fit: Math.max(4, Math.min(w / p.cols, h / p.rows)) };
}

// the board's cell size: fits the screen, never under 44 px on a touch screen unless zoomed out
function layoutBoard() {
  if (!game.puzzle && game.mode !== "build") return;
  const { p, fit } = fitPx();
  const base = touchScreen() ? Math.max(TOUCH_PX, fit) : fit;
  const px = base * game.zoom;
  board.style.width = `${Math.round(p.cols * px)}px`;
  board.style.height = `${Math.round(p.rows * px)}px`;
  board.dataset.cell = px.toFixed(1);
}

function zoomBy(f) {
  game.zoom = Math.min(4, Math.max(0.2, game.zoom * f));
  layoutBoard();
}
function zoomFit() {
  const { fit } = fitPx();
  game.zoom = touchScreen() ? fit / Math.max(TOUCH_PX, fit) : 1;
  layoutBoard();
}

// ---------------------------------------------------------------- moves
// a move is a list of changes [kind, index, from, to]; kind "b" bridges on a link, "m" a mark, "l" a lock
function setValue(kind, k, v) {
  if (kind === "b") game.counts[k] = v;
  else if (kind === "m") game.marks[k] = !!v;
  else if (kind === "l") { if (v) game.locked.add(k); else game.locked.delete(k); }
}

function refusal(k, next) {
  const l = game.links[k], cur = game.counts[k];
  if (game.marks[k]) return `The link from ${islandName(l.a)} to ${islandName(l.b)} is marked "no bridge" (right-click it to unmark).`;
  const lockedEnd = [l.a, l.b].find((i) => game.locked.has(i));
  if (lockedEnd !== undefined) return `${islandName(lockedEnd)} is locked (Shift+click or L unlocks it).`.replace(/^t/, "T");
  const crossed = l.cross.find((o) => game.counts[o]);
  if (crossed !== undefined && next > 0) {
    const o = game.links[crossed];
    return `A bridge from ${islandName(l.a)} to ${islandName(l.b)} would cross the bridge from ` +
           `${islandName(o.a)} to ${islandName(o.b)}.`;
  }
  for (const i of [l.a, l.b]) {
    const d = degree(i) - cur + next;
    if (d > game.islands[i].n) {
      return `${next === 1 ? "A bridge" : "A " + ["", "", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth"][next] + " bridge"} there ` +
             `would give ${islandName(i)} ${d} bridges, more than its number.`;
    }
  }
  return null;
}

// cycle link k: none -> 1 -> ... -> cap -> none; a move that would break a rule is refused
function cycle(k) {
  if (game.solved || busy()) return;
  const l = game.links[k], cur = game.counts[k];
  let next = cur + 1 > l.cap ? 0 : cur + 1;
  let note = "";
  if (game.marks[k] || [l.a, l.b].some((i) => game.locked.has(i))) { say(refusal(k, next) + " Move refused.", "warn"); flash(k); return; }
  if (next > cur) {
    const why = refusal(k, next);
    if (why) {
      if (cur === 0) { say(why + " Move refused.", "warn"); flash(k); return; }
      next = 0;
      note = why + " The bridges are removed instead.";
    }
  }
  doMove([["b", k, cur, next]]);
  if (note) say(note, "warn");
}

function toggleMark(k) {
  if (game.solved || busy() || k === undefined) return;
  const l = game.links[k];
  if (game.counts[k]) { say(`Remove the bridges between ${islandName(l.a)} and ${islandName(l.b)} before marking the link "no bridge".`, "warn"); flash(k); return; }
  const lockedEnd = [l.a, l.b].find((i) => game.locked.has(i));
  if (lockedEnd !== undefined) { say(`${islandName(lockedEnd)} is locked.`.replace(/^t/, "T"), "warn"); return; }
  const on = !game.marks[k];
  doMove([["m", k, game.marks[k] ? 1 : 0, on ? 1 : 0]],
         `${on ? "Marked" : "Unmarked"} "no bridge" between ${islandName(l.a)} and ${islandName(l.b)}.`);
}

function toggleLock(i) {
  if (game.solved || busy() || i === undefined || i === null) return;
  const on = !game.locked.has(i);
  doMove([["l", i, on ? 0 : 1, on ? 1 : 0]], `${on ? "Locked" : "Unlocked"} ${islandName(i)}.`);
}

function flash(k) {
  const line = game.gHits.querySelector(`[data-link="${k}"]`);
  if (!line) return;
  line.classList.remove("refused");
  void line.getBoundingClientRect();
  line.classList.add("refused");
}

function doMove(changes, label = "") {
  if (!changes.length) return;
  for (const [kind, k, , to] of changes) setValue(kind, k, to);
  game.undo.push(changes);
  game.redo = [];
  game.hint = null; game.checked = null;
  say(label || moveText(changes));
  afterChange();
}

function moveText(changes) {
  if (changes.length !== 1 || changes[0][0] !== "b") return "";
  const [, k, , to] = changes[0], l = game.links[k];
  return `${COUNT_WORDS[to] || to + " bridges"} between ${islandName(l.a)} and ${islandName(l.b)}.`;
}

function undo() {
  const changes = game.undo.pop();
  if (!changes || busy()) return;
  for (const [kind, k, from] of changes) setValue(kind, k, from);
  game.redo.push(changes);
  game.hint = null; game.checked = null; game.revealed = false;
  unsolve();
  say("Undone.");
  afterChange();
}

function redo() {
  const changes = game.redo.pop();
  if (!changes || busy()) return;
  for (const [kind, k, , to] of changes) setValue(kind, k, to);
  game.undo.push(changes);
  game.hint = null; game.checked = null;
  say("Redone.");
  afterChange();
}

function unsolve() {
  if (game.solved) { game.solved = false; $("banner").hidden = true; resumeTimer(); }
}

function afterChange({ save = true } = {}) {
  paint();
  updateHash();
  if (save) saveGame();
  if (isComplete() && !game.solved) checkBoard(true);
}

// ---------------------------------------------------------------- selection and input
function tapIsland(i) {
  if (game.solved || busy()) return;
  const sel = game.selected;
  if (sel === null) { game.selected = i; say(`Picked ${islandName(i)}: now pick an island in its row or column.`); }
  else if (sel === i) { game.selected = null; say(""); }
  else {
    const k = linkBetween(sel, i);
    if (k === undefined) {
      game.selected = i;
      say(`No bridge can join ${islandName(sel)} and ${islandName(i)}; picked ${islandName(i)} instead.`);
    } else {
      game.selected = null;
      cycle(k);
    }
  }
  paint();
}

function linkToward(i, [dr, dc]) {
  for (const k of game.inc[i]) {
    const l = game.links[k], o = game.islands[l.a === i ? l.b : l.a], s = game.islands[i];
    if (Math.sign(o.r - s.r) === dr && Math.sign(o.c - s.c) === dc) return k;
  }
  return undefined;
}

function islandToward(i, [dr, dc]) {
  const s = game.islands[i];
  let best = null, bestScore = Infinity;
  game.islands.forEach((o, j) => {
    const along = (o.r - s.r) * dr + (o.c - s.c) * dc;
    const across = Math.abs((o.r - s.r) * dc) + Math.abs((o.c - s.c) * dr);
    if (along <= 0) return;
    const score = along + 2 * across;
    if (score < bestScore) { bestScore = score; best = j; }
  });
  return best;
}

function focusIsland(i) {
  game.islandEls[game.focus]?.setAttribute("tabindex", -1);
  game.focus = i;
  const g = game.islandEls[i];
  g.setAttribute("tabindex", 0);
  g.focus({ preventScroll: false });
}

export function svgPoint(ev) {
  const pt = board.createSVGPoint();
  pt.x = ev.clientX; pt.y = ev.clientY;
  const m = board.getScreenCTM();
  return m ? pt.matrixTransform(m.inverse()) : { x: 0, y: 0 };
}

function islandAtPoint(p) {
  const i = islandIndex(Math.floor(p.y / S), Math.floor(p.x / S));
  if (i === undefined) return undefined;
  const s = game.islands[i];
  return Math.hypot(p.x - cx(s), p.y - cy(s)) <= S * 0.62 ? i : undefined;
}

// where a drag from island i ended: the link it means, or undefined
function dragLink(i, start, p) {
  const j = islandAtPoint(p);
  if (j !== undefined && j !== i) return linkBetween(i, j);
  const dx = p.x - start.x, dy = p.y - start.y;
  return linkToward(i, Math.abs(dx) > Math.abs(dy) ? [0, Math.sign(dx)] : [Math.sign(dy), 0]);
}

let drag = null;

function startLongPress(d) {
  d.timer = setTimeout(() => {
    if (drag !== d || d.moved) return;
    d.done = true;
    if (d.link !== undefined) toggleMark(d.link);
    else toggleLock(d.i);
    navigator.vibrate?.(30);
    paint();
  }, LONG_PRESS_MS);
}

board.addEventListener("pointerdown", (ev) => {
  document.body.classList.remove("kbd");
  if (game.mode === "build") { builder.pointerDown(ev); return; }
  if (!game.puzzle || ev.button === 1 || ev.button > 2 || busy()) return;
  const g = ev.target.closest(".island:not(.ignored)");
  const hit = ev.target.closest(".hit");
  const right = ev.button === 2;
  if (g) {
    const i = +g.dataset.i;
    drag = { i, id: ev.pointerId, start: svgPoint(ev), right, shift: ev.shiftKey };
    board.setPointerCapture?.(ev.pointerId);
    focusIsland(i);
    ev.preventDefault();
  } else if (hit) {
    drag = { link: +hit.dataset.link, id: ev.pointerId, start: svgPoint(ev), right };
    ev.preventDefault();
  } else return;
  if (ev.pointerType === "touch") startLongPress(drag);
});

board.addEventListener("pointermove", (ev) => {
  if (!drag || drag.id !== ev.pointerId || drag.moved) return;
  const p = svgPoint(ev);
  if (Math.hypot(p.x - drag.start.x, p.y - drag.start.y) > S * 0.3) drag.moved = true;
});

board.addEventListener("pointerup", (ev) => {
  if (game.mode === "build") { builder.pointerUp(ev); return; }
  if (!drag || drag.id !== ev.pointerId) return;
  const d = drag;
  drag = null;
  clearTimeout(d.timer);
  if (d.done) return;                               // a long press already acted
  const p = svgPoint(ev);
  if (d.link !== undefined) {
    game.selected = null;
    if (d.right) toggleMark(d.link); else cycle(d.link);
    paint();
    return;
  }
  const still = islandAtPoint(p) === d.i || (islandAtPoint(p) === undefined && Math.hypot(p.x - d.start.x, p.y - d.start.y) < S * 0.4);
  if (still) {
    if (d.right || d.shift) { game.selected = null; toggleLock(d.i); paint(); }
    else tapIsland(d.i);
    return;
  }
  const k = dragLink(d.i, d.start, p);
  game.selected = null;
  if (k === undefined) { say("No bridge can go there: bridges run straight to the next island.", "warn"); paint(); return; }
  if (d.right) toggleMark(k); else cycle(k);
  paint();
});

board.addEventListener("pointercancel", () => { if (drag) clearTimeout(drag.timer); drag = null; });
board.addEventListener("contextmenu", (ev) => { if (ev.target.closest(".island, .hit") || game.mode === "build") ev.preventDefault(); });

board.addEventListener("keydown", (ev) => {
  if (game.mode === "build") return;
  const g = ev.target.closest(".island:not(.ignored)");
  if (!g) return;
  const i = +g.dataset.i;
  if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); tapIsland(i); return; }
  if (ev.key === "Escape") { game.selected = null; say(""); paint(); return; }
  if (ev.key.toLowerCase() === "l" && !ev.ctrlKey && !ev.metaKey) { ev.preventDefault(); ev.stopPropagation(); toggleLock(i); paint(); return; }
  const dir = DIRS[ev.key];
  if (!dir) return;
  ev.preventDefault();
  if (ev.shiftKey) {
    const k = linkToward(i, dir);
    if (k === undefined) { say(`No island ${WHERE[ev.key]} can take a bridge from ${islandName(i)}.`, "warn"); return; }
    toggleMark(k); paint();
    return;
  }
  if (game.selected === i) {
    const k = linkToward(i, dir);
    if (k === undefined) { say(`No island ${WHERE[ev.key]} can take a bridge from ${islandName(i)}.`, "warn"); return; }
    cycle(k);
    game.selected = i;   // keep it picked: more bridges from the same island
    paint();
    return;
  }
  const k = linkToward(i, dir);
  const j = k !== undefined ? (game.links[k].a === i ? game.links[k].b : game.links[k].a) : islandToward(i, dir);
  if (j !== null && j !== undefined) focusIsland(j);
});

// one key for every button (aria-keyshortcuts on each says which)
const SHORTCUTS = {
  c: () => $("check").click(), h: () => $("hint").click(), r: () => $("reveal").click(),
  p: () => $("print").click(), b: () => $("mode").click(), n: () => $("gen-form").requestSubmit(),
  d: () => $("theme").click(), e: () => $("errors").click(), g: () => $("possible").click(),
  o: () => $("groups").click(), "+": () => zoomBy(1.25), "=": () => zoomBy(1.25), "-": () => zoomBy(0.8),
  0: () => zoomFit(), Delete: () => $("restart").click(),
};

document.addEventListener("keydown", (ev) => {
  if (ev.key === "Tab" || ev.key in DIRS) document.body.classList.add("kbd");
  if (ev.key === "Escape" && game.generating) { ev.preventDefault(); game.generating.abort(); return; }
  if (ev.target.closest && ev.target.closest("textarea, input:not([type=checkbox]), select")) return;
  const mod = ev.ctrlKey || ev.metaKey;
  if (mod && ev.key.toLowerCase() === "z" && !ev.shiftKey) { ev.preventDefault(); game.mode === "build" ? builder.undo() : undo(); return; }
  if (mod && (ev.key.toLowerCase() === "y" || (ev.key.toLowerCase() === "z" && ev.shiftKey))) { ev.preventDefault(); redo(); return; }
  if (mod || ev.altKey) return;
  if (game.mode === "build" && builder.key(ev)) return;
  const action = SHORTCUTS[ev.key] || SHORTCUTS[ev.key.toLowerCase()];
  if (action && !(ev.key === "Delete" && game.mode === "build")) { ev.preventDefault(); action(); }
});

// ---------------------------------------------------------------- timer and saved games
function fmtTime(ms) {
  const t = Math.floor(ms / 1000), h = Math.floor(t / 3600), m = Math.floor(t / 60) % 60, s = t % 60;
  return (h ? `${h}:${String(m).padStart(2, "0")}` : `${m}`) + `:${String(s).padStart(2, "0")}`;
}
const elapsedNow = () => game.elapsed + (game.timer ? Date.now() - game.t0 : 0);
function tick() {
  $("timer").textContent = fmtTime(elapsedNow());
  if (game.timer && Math.floor(elapsedNow() / 1000) % 5 === 0) saveGame();
}
function resumeTimer() {
  if (!game.timer && game.mode === "play" && !game.solved) { game.t0 = Date.now(); game.timer = setInterval(tick, 500); }
  tick();
}
function stopTimer() {
  if (game.timer) { clearInterval(game.timer); game.elapsed += Date.now() - game.t0; game.timer = null; }
  tick();
}

function saveGame() {
  if (!game.puzzle || game.mode !== "play") return;
  store.saveProgress(puzzleCode(), {
    counts: game.counts.join(""), marks: game.marks.map((m) => (m ? 1 : 0)).join(""),
    locked: [...game.locked], elapsed: elapsedNow(), solved: game.solved, level: game.level,
  });
  store.setLastGame(location.hash);
}

const bestKey = () => { const p = game.puzzle; return `${p.cols}x${p.rows} ${game.level} m${maxBridges()}${p.no_loops ? " noloops" : ""}`; };

function showBest() {
  if (!game.puzzle) return;
  const best = store.bestTimes()[bestKey()];
  const p = game.puzzle;
  $("best").textContent = best === undefined ? "" :
    `Best time for ${p.cols} × ${p.rows} ${game.level === "custom" ? "puzzles" : game.level}: ${fmtTime(best)}.`;
}

// ---------------------------------------------------------------- buttons
// the solution, asked once per puzzle (Check compares with it only when it is unique)
async function solution() {
  if (!game.solution) {
    const out = await api("/api/solve", { puzzle: game.puzzle });
    const counts = game.links.map(() => 0);
    if (out.status === "solved") applyBridgeList(out.bridges, counts);
    game.solution = { status: out.status, unique: out.unique, counts, reason: out.reason, message: out.message };
  }
  return game.solution;
}

// the offending islands and links of the checker's violations (by their cells)
function violationTargets(violations) {
  const islands = new Set(), links = new Set();
  for (const v of violations) {
    const cells = (v.cells || []).map(([r, c]) => islandIndex(r, c)).filter((i) => i !== undefined);
    cells.forEach((i) => islands.add(i));
    for (const i of cells) for (const j of cells) { const k = linkBetween(i, j); if (k !== undefined && game.counts[k]) links.add(k); }
  }
  return { islands, links, marks: new Set() };
}

// Check: rule breaks, then (for a unique puzzle) bridges and marks the solution lacks.
// It highlights them and never says how many bridges the solution has (Reveal does).
async function checkBoard(auto = false) {
  if (!game.puzzle || busy()) return;
  const ticket = ++game.checking;
  let out;
  try {
    out = await api("/api/check", { puzzle: game.puzzle, bridges: bridgeList(), marks: markList() });
  } catch (e) { say(e.message, "error"); return; }
  if (ticket !== game.checking) return;     // the board changed meanwhile
  if (out.complete) { solvedNow(); return; }
  if (!out.valid) {
    game.checked = violationTargets(out.violations);
    say(["The board breaks a rule (highlighted):", out.violations.map((v) => v.message)], "error");
    paint();
    return;
  }
  if (auto) { say("Every island has its bridges, but the islands are not all connected.", "warn"); return; }
  let sol;
  try { sol = await solution(); } catch (e) { sol = null; }
  if (ticket !== game.checking) return;
  if (sol && sol.status === "solved" && sol.unique) {
    const links = new Set(), marks = new Set(), islands = new Set();
    game.links.forEach((l, k) => {
      if (game.counts[k] > sol.counts[k]) { links.add(k); islands.add(l.a); islands.add(l.b); }
      if (game.marks[k] && sol.counts[k] > 0) marks.add(k);
    });
    if (links.size || marks.size) {
      game.checked = { islands, links, marks };
      const parts = [];
      if (links.size) parts.push(`${links.size} bridge${links.size === 1 ? "" : "s"}`);
      if (marks.size) parts.push(`${marks.size} "no bridge" mark${marks.size === 1 ? "" : "s"}`);
      say(`Not quite: ${parts.join(" and ")} do${links.size + marks.size === 1 ? "es" : ""} not belong to the solution ` +
          `(highlighted with dashes and circles). Undo them, or press Reveal to see the solution.`, "error");
      paint();
      return;
    }
  }
  const left = game.islands.filter((s, i) => degree(i) !== s.n).length;
  const several = sol && sol.unique === false ? " (this puzzle has several solutions, so only the rules are checked)" : "";
  say(`No mistakes so far${several}; ${left} island${left === 1 ? "" : "s"} still need${left === 1 ? "s" : ""} bridges.`, "ok");
}

function showBanner() {
  const b = $("banner");
  b.hidden = false;
  b.textContent = game.revealed ? "Solved by the computer." : `Solved! in ${fmtTime(game.elapsed)}`;
  b.className = "banner" + (game.revealed ? " revealed" : "");
}

function solvedNow() {
  game.solved = true;
  game.selected = null;
  stopTimer();
  showBanner();
  let best = "";
  if (!game.revealed) {
    const rec = store.recordTime(bestKey(), game.elapsed);
    best = rec.isNew ? " A new best time!" : ` Your best: ${fmtTime(rec.best)}.`;
  }
  say(game.revealed ? "Here is the solution." : `Solved! Every rule holds.${best}`, "ok");
  board.classList.add("solved-anim");
  setTimeout(() => board.classList.remove("solved-anim"), 900);
  showBest();
  saveGame();
  paint();
}

// what a hint settles, as one undoable move: links it brings down to no bridge become marks
// (its "marks" when the server lists them), links it raises get their certain bridges
function hintChanges(h) {
  const out = [];
  const marks = h.marks || (h.changes || []).filter((ch) => ch.length >= 6 && ch[5] === 0).map((ch) => ch.slice(0, 4));
  for (const m of marks) {
    const k = linkAt(m);
    if (k !== undefined && m[4] > 0) game.caps.set(k, Math.min(m[4], game.caps.get(k) ?? m[4]));
    else if (k !== undefined && !game.marks[k] && !game.counts[k]) out.push(["m", k, 0, 1]);
  }
  for (const ch of h.changes || []) {
    const k = linkAt(ch.slice(0, 4)), lo = ch[4];
    if (k !== undefined && lo > game.counts[k] && !game.marks[k] && lo <= game.links[k].cap) out.push(["b", k, game.counts[k], lo]);
  }
  return out;
}

async function askHint() {
  if (!game.puzzle || busy() || game.solved) return;
  $("hint").disabled = true;
  try {
    const h = await api("/api/hint", { puzzle: game.puzzle, bridges: bridgeList(), marks: markList() });
    const isl = new Set((h.islands || []).map(([r, c]) => islandIndex(r, c)).filter((i) => i !== undefined));
    const lk = new Set((h.links || []).map(linkAt).filter((k) => k !== undefined));
    const changes = h.status === "hint" ? hintChanges(h) : [];
    const text = (h.level ? `Hint (${h.level}): ` : "") + h.sentence;
    if (changes.length) doMove(changes, text);
    game.hint = { islands: isl, links: lk };
    const nMarks = changes.filter(([kind]) => kind === "m").length;
    const done = changes.length ? ` Done for you${nMarks ? ` (× marks "no bridge")` : ""}; Undo takes it back.`
      : h.status === "hint" ? " (Nothing on the board changes with this step.)" : "";
    if (h.status === "conflict") say(["Your board has a problem:", h.problems], "error");
    else if (!game.solved) say(text + done, h.status === "hint" ? "hinted" : "");
    paint();
  } catch (e) { say(e.message, "error"); }
  finally { $("hint").disabled = false; }
}

async function reveal() {
  if (!game.puzzle || busy()) return;
  $("reveal").disabled = true;
  say("Solving…");
  try {
    const sol = await solution();
    if (sol.status !== "solved") {
      say(sol.status === "infeasible" ? `This puzzle has no solution${sol.reason ? ": " + sol.reason : "."}`
                                      : sol.message || "No answer in time.", "error");
      return;
    }
    const changes = [];
    sol.counts.forEach((to, k) => { if (to !== game.counts[k]) changes.push(["b", k, game.counts[k], to]); });
    game.marks.forEach((m, k) => { if (m && sol.counts[k]) changes.push(["m", k, 1, 0]); });
    game.locked.forEach((i) => changes.push(["l", i, 1, 0]));
    game.revealed = true;
    if (changes.length) doMove(changes, sol.unique === false ? "This puzzle has more than one solution; here is one."
                                                             : "Here is the solution.");
  } catch (e) { say(e.message, "error"); }
  finally { $("reveal").disabled = false; }
}

function clearBoard() {
  if (busy()) return;
  const changes = [];
  game.counts.forEach((n, k) => { if (n) changes.push(["b", k, n, 0]); });
  game.marks.forEach((m, k) => { if (m) changes.push(["m", k, 1, 0]); });
  game.locked.forEach((i) => changes.push(["l", i, 1, 0]));
  if (!changes.length) return;
  unsolve();
  game.revealed = false;
  doMove(changes, "Board cleared (Undo brings it back).");
}

// a plain black-on-white drawing for paper: the puzzle, or the puzzle with the given bridges
function paperBoard(title, counts = null) {
  const wrap = document.createElement("section");
  const h = document.createElement("h2");
  h.textContent = title;
  const svg = document.createElementNS(SVGNS, "svg");
  const p = game.puzzle;
  svg.setAttribute("viewBox", `0 0 ${p.cols * S} ${p.rows * S}`);
  if (counts) {
    game.links.forEach((l, k) => {
      const n = counts[k], a = game.islands[l.a], b = game.islands[l.b];
      for (let m = 0; m < n; m++) {
        const off = (m - (n - 1) / 2) * S * 0.12;
        el("line", { x1: cx(a) + (l.h ? 0 : off), y1: cy(a) + (l.h ? off : 0), x2: cx(b) + (l.h ? 0 : off),
                     y2: cy(b) + (l.h ? off : 0), stroke: "#000", "stroke-width": 2.4 }, svg);
      }
    });
  }
  for (const s of game.islands) {
    el("circle", { cx: cx(s), cy: cy(s), r: R, fill: "#fff", stroke: "#000", "stroke-width": 2 }, svg);
    const t = el("text", { x: cx(s), y: cy(s) + 1, "text-anchor": "middle", "dominant-baseline": "central",
                           "font-size": s.n >= 10 ? 15 : 19, "font-family": "sans-serif", "font-weight": 600 }, svg);
    t.textContent = s.n;
  }
  wrap.append(h, svg);
  return wrap;
}

// Print: the puzzle alone on the first page (the board as played is hidden), the solution on the next
async function printPuzzle() {
  if (!game.puzzle || busy()) return;
  const area = $("print-solution");
  area.textContent = "";
  let sol = null;
  try { sol = await solution(); } catch (e) { /* print the puzzle alone */ }
  const puzzlePage = paperBoard(`Hashi ${game.puzzle.cols} × ${game.puzzle.rows} — ${rulesText(maxBridges(), !!game.puzzle.no_loops)}`);
  puzzlePage.className = "print-puzzle";
  area.append(puzzlePage);
  if (sol && sol.status === "solved") {
    const page = paperBoard("Solution", sol.counts);
    page.className = "print-page";
    area.append(page);
  }
  document.body.classList.add("printing");
  say("Printing: the puzzle, and the solution on its own page.");
  window.print();
}

// ---------------------------------------------------------------- loading and sharing
async function loadText(text, format = undefined, opts = {}) {
  const body = format ? { text, format } : { text };
  const out = await api("/api/parse", body);
  setPuzzle(out, { bridges: out.bridges || null, ...opts });
}

// a puzzle object (from the generator or the constructor) through /api/parse, for its links
async function loadPuzzle(puzzle, opts = {}) {
  await loadText(JSON.stringify(puzzle), "json", opts);
}

const b64url = (s) => btoa(unescape(encodeURIComponent(s))).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
const unb64url = (s) => decodeURIComponent(escape(atob(s.replace(/-/g, "+").replace(/_/g, "/"))));

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

export function puzzleLink(p, extra = "") {
  const id = tathamId(p);
  return location.href.split("#")[0] + "#" + (id ? `p=${id}` : "j=" + b64url(JSON.stringify(p))) + extra;
}

function puzzleCode() {
  const p = game.puzzle;
  const id = tathamId(p);
  return id ? "p=" + id : "j=" + b64url(JSON.stringify(p));
}

function shareUrl(withProgress) {
  let hash = puzzleCode();
  if (game.level !== "custom") hash += "&l=" + encodeURIComponent(game.level);
  if (withProgress && game.counts.some((n) => n)) hash += "&b=" + game.counts.join("");
  return location.href.split("#")[0] + "#" + hash;
}

function updateHash() {
  if (!game.puzzle || game.mode !== "play") return;
  history.replaceState(null, "", shareUrl(true));
  $("share-url").value = shareUrl($("share-progress").checked);
}

async function loadFromHash(hash = location.hash) {
  const params = new URLSearchParams(hash.slice(1));
  const progress = params.get("b");
  const level = params.get("l") || "custom";
  try {
    if (params.get("p")) await loadText(params.get("p"), "tatham", { progress, level });
    else if (params.get("j")) await loadText(unb64url(params.get("j")), "json", { progress, level });
    else return false;
    if (params.get("build")) enterBuild(true);
    return true;
  } catch (e) {
    say(`The link's puzzle cannot be read: ${e.message}`, "error");
  }
  return false;
}

// ---------------------------------------------------------------- choosing a puzzle
const busy = () => !!game.generating;

function setupChoices() {
  const [lo, hi] = caps.generate.rows;
  for (const id of ["gen-rows", "gen-cols"]) { $(id).min = lo; $(id).max = hi; }
  for (const id of ["blank-rows", "blank-cols"]) $(id).max = caps.maxSide;
  const sel = $("gen-difficulty"), current = sel.value;
  sel.textContent = "";
  for (const level of caps.levels) {
    const o = document.createElement("option");
    o.value = o.textContent = level;
    sel.append(o);
  }
  sel.value = caps.levels.includes(current) ? current : caps.levels[Math.min(1, caps.levels.length - 1)];
  const mb = caps.generate.maxbridges, dens = caps.generate.density;
  document.querySelector(".opt-mb").hidden = !mb;
  if (mb) { $("gen-mb").min = mb[0]; $("gen-mb").max = Math.min(4, mb[1]); }
  document.querySelector(".opt-density").hidden = !dens;
  if (dens) { $("gen-density").min = dens[0]; $("gen-density").max = dens[1]; }
  document.querySelector(".opt-noloops").hidden = !caps.generate.no_loops;
  const missing = [!mb && "bridges per pair", !dens && "density", !caps.generate.no_loops && "no loops"].filter(Boolean);
  $("gen-note").textContent = `Sides ${lo} to ${hi}; a generation may take up to ${caps.generateSeconds} s.` +
    (missing.length ? ` This server's generator has no ${missing.join(", ")} option yet.` : "");
}

// the generate request from the form, or an error message naming the field
function generateRequest() {
  const [lo, hi] = caps.generate.rows;
  const body = { difficulty: $("gen-difficulty").value };
  for (const [key, id, name] of [["rows", "gen-rows", "Rows"], ["cols", "gen-cols", "Columns"]]) {
    const v = Number($(id).value);
    if (!Number.isInteger(v) || v < lo || v > hi) return `${name} must be a whole number from ${lo} to ${hi}.`;
    body[key] = v;
  }
  const seed = $("gen-seed").value.trim();
  if (seed) {
    if (!/^[0-9]{1,18}$/.test(seed)) return "The seed must be a whole number (up to 18 digits), or empty for a random one.";
    body.seed = Number(seed);
  }
  if (caps.generate.maxbridges) {
    const mb = Number($("gen-mb").value), [a, b] = caps.generate.maxbridges;
    if (!Number.isInteger(mb) || mb < a || mb > Math.min(4, b)) return `Bridges per pair must run from ${a} to ${Math.min(4, b)}.`;
    body.maxbridges = mb;
  }
  if (caps.generate.density && $("gen-density").value.trim()) {
    const d = Number($("gen-density").value), [a, b] = caps.generate.density;
    if (!(d >= a && d <= b)) return `Density must run from ${a} to ${b}, or be left empty.`;
    body.density = d;
  }
  if (caps.generate.no_loops && $("gen-noloops").checked) body.no_loops = true;
  return body;
}

function showBusy(text) {
  const started = Date.now();
  $("busy").hidden = false;
  $("busy-bar").max = caps.generateSeconds;
  const update = () => {
    const s = (Date.now() - started) / 1000;
    $("busy-text").textContent = `${text} ${s.toFixed(1)} s`;
    $("busy-bar").value = Math.min(s, caps.generateSeconds);
  };
  update();
  const id = setInterval(update, 200);
  return () => { clearInterval(id); $("busy").hidden = true; };
}

async function generate() {
  if (busy()) return;
  const body = generateRequest();
  if (typeof body === "string") { say(body, "warn"); return; }
  const controller = new AbortController();
  game.generating = controller;
  stopTimer();                           // the old puzzle's clock waits
  $("generate").disabled = true;
  const what = `${/^[aeiou]/i.test(body.difficulty) ? "an" : "a"} ${body.difficulty} ${body.cols} × ${body.rows}`;
  say(`Generating ${what} puzzle… (Esc or Cancel stops)`);
  const hide = showBusy(`Generating ${what} puzzle…`);
  let out = null;
  try {
    out = await api("/api/generate", body, controller.signal);
  } catch (e) {
    say(e.name === "AbortError" ? "Generation cancelled; the old puzzle is still here." : e.message,
        e.name === "AbortError" ? "" : "error");
  } finally {
    hide();
    game.generating = null;
    $("generate").disabled = false;
  }
  if (!out) { if (game.puzzle && game.mode === "play") resumeTimer(); return; }
  try {
    await loadPuzzle(out.puzzle, { level: out.grade || body.difficulty, restore: false });
    $("gen-seed").placeholder = `random (last: ${out.seed})`;
    say(`A new ${out.grade} puzzle (seed ${out.seed}, type it under Seed to play it again). Good luck!`);
  } catch (e) { say(e.message, "error"); }
}

// ---------------------------------------------------------------- constructor mode
const builder = createBuilder({
  board, say, el, drawSea, drawIsland, svgPoint, S, caps, api, tathamId, puzzleLink,
  layout: () => layoutBoard(), $,
  play: async (puzzle) => { await loadPuzzle(puzzle, { restore: false }); },
});

function enterBuild(fromPuzzle = true) {
  if (game.mode === "build") return;
  stopTimer();
  saveGame();
  game.mode = "build";
  $("mode").setAttribute("aria-pressed", "true");
  $("mode").textContent = "Play";
  $("mode").title = "Back to playing (B)";
  $("build-card").hidden = false;
  $("banner").hidden = true;
  for (const id of ["undo", "redo", "check", "hint", "reveal", "restart", "print"]) $(id).disabled = true;
  builder.start(fromPuzzle && game.puzzle ? game.puzzle : null);
  layoutBoard();
}

function leaveBuild() {
  if (game.mode !== "build") return;
  game.mode = "play";
  builder.stop();
  $("mode").setAttribute("aria-pressed", "false");
  $("mode").textContent = "Build";
  $("mode").title = "Build your own puzzle (B)";
  $("build-card").hidden = true;
  for (const id of ["check", "hint", "reveal", "restart", "print"]) $(id).disabled = false;
}

async function toggleMode() {
  if (busy()) return;
  if (game.mode === "play") { enterBuild(true); return; }
  const p = builder.puzzle();
  if (p.islands.length) {
    try { await loadPuzzle(p, { restore: true }); return; } catch (e) { say(e.message, "error"); return; }
  }
  leaveBuild();
  if (game.puzzle) { buildBoard(); layoutBoard(); resumeTimer(); paint(); say("Back to your game."); }
}

// ---------------------------------------------------------------- theme
function applyTheme(t) {
  document.documentElement.dataset.theme = t;
  $("theme").textContent = t === "dark" ? "Light mode" : "Dark mode";
  $("theme").setAttribute("aria-pressed", t === "dark" ? "true" : "false");
}

// ---------------------------------------------------------------- wiring
$("undo").addEventListener("click", undo);
$("redo").addEventListener("click", redo);
$("check").addEventListener("click", () => checkBoard(false));
$("hint").addEventListener("click", askHint);
$("reveal").addEventListener("click", reveal);
$("restart").addEventListener("click", clearBoard);
$("print").addEventListener("click", printPuzzle);
$("mode").addEventListener("click", toggleMode);
$("zoom-in").addEventListener("click", () => zoomBy(1.25));
$("zoom-out").addEventListener("click", () => zoomBy(0.8));
$("zoom-fit").addEventListener("click", zoomFit);
$("cancel").addEventListener("click", () => game.generating?.abort());
$("theme").addEventListener("click", () => {
  const t = document.documentElement.dataset.theme === "dark" ? "light" : "dark";
  applyTheme(t);
  store.setTheme(t);
});
$("errors").addEventListener("change", () => {
  document.body.classList.toggle("marking", $("errors").checked);
  paint();
  say($("errors").checked ? "Error marking is on." : "Error marking is off.");
});
$("possible").addEventListener("change", () => {
  paint();
  say($("possible").checked ? "Dotted lines show every link that can still take a bridge." : "Possible bridges hidden.");
});
$("groups").addEventListener("change", () => {
  paint();
  say($("groups").checked ? "Each connected group of islands has its own bridge colour." : "Group colours off.");
});
$("share-progress").addEventListener("change", updateHash);
$("share").addEventListener("click", async () => {
  const url = $("share-url").value;
  try { await navigator.clipboard.writeText(url); say("Link copied.", "ok"); }
  catch (e) { $("share-url").select(); say("Select the link and copy it.", ""); }
});
$("gen-form").addEventListener("submit", (ev) => { ev.preventDefault(); generate(); });

$("load-form").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const text = $("text").value;
  if (!text.trim()) { say("Paste a puzzle first.", "warn"); return; }
  try { await loadText(text, undefined, { restore: true }); } catch (e) { say(e.message, "error"); }
});

$("file").addEventListener("change", async () => {
  const f = $("file").files[0];
  if (!f) return;
  if (f.size > MAX_FILE) { say(`${f.name} is ${f.size} bytes; the limit is ${MAX_FILE}.`, "error"); return; }
  try {
    const text = await f.text();
    $("text").value = text.length < 20000 ? text : "";
    await loadText(text);
    say(`Loaded ${f.name}.`);
  } catch (e) { say(`${f.name}: ${e.message}`, "error"); }
  $("file").value = "";
});

window.addEventListener("hashchange", () => {
  if (game.mode === "play" && location.href !== shareUrl(true)) loadFromHash();
});
window.addEventListener("resize", () => layoutBoard());
window.addEventListener("afterprint", () => document.body.classList.remove("printing"));
document.addEventListener("visibilitychange", () => { if (document.hidden) saveGame(); });

setupPictures({ loadPuzzle, say });
(async () => {
  applyTheme(store.theme() || (matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light"));
  document.body.classList.toggle("marking", $("errors").checked);
  await loadCaps();
  setupChoices();
  let loaded = await loadFromHash();
  if (!loaded && !location.hash && store.lastGame()) loaded = await loadFromHash(store.lastGame());
  if (!loaded) {
    try { await loadText(EXAMPLE, "tatham"); } catch (e) { say(e.message, "error"); }
  }
  document.body.dataset.ready = "true";
})();
