// hashikit web: constructor mode. Place islands on a blank board and type their numbers; after every
// edit (debounced) the server's /api/analyze says whether the puzzle has no solution (and why),
// exactly one (its grade and score) or several (the links where two solutions differ), and the page
// offers a change that makes it unique, proved by a second analyze before it is offered.  The
// constructor's puzzle and analysis are the store's (state.build); its timers and requests are its own.
"use strict";

import { $, board } from "./dom.js";
import { S, drawIsland, drawSea, el } from "./draw.js";
import { say, saidCount } from "./messages.js";
import * as server from "./server.js";
import { puzzleLink } from "./share.js";
import { capacityProblems, graphOf, linksOf } from "./referee.js";
import { builtPuzzle, flush, setBuild, state, subscribe } from "./store.js";
import { capacityText, cellName } from "./words.js";
import { layoutBoard, showBoard, svgPoint } from "./zoom.js";

const DEBOUNCE_MS = 350;
const MAX_SUGGESTION_TRIES = 4;
const NUMBER_JOIN_MS = 800;          // two digits typed this quickly make one number (10..16)
const MAX_EDITS_KEPT = 200;

// the constructor's machinery: the island whose number picker is open ([r, c]), the pending
// analysis (its timer and ticket: an answer to an older ticket is dropped), the last digit typed,
// the cell a press began on
const ui = { picking: null, timer: null, ticket: 0, saidAt: 0, lastDigit: null, down: null, active: false, edited: false };

const b = state.build;
const key = (r, c) => `${r},${c}`;
const puzzle = (cells) => builtPuzzle(cells);

function showHistory() {
  $("undo").disabled = !b.history.length;
  $("redo").disabled = !b.future.length;
}

// ------------------------------------------------------------ drawing
function draw() {
  if (!ui.active) return;
  drawSea(board, b.rows, b.cols);
  board.classList.add("building");
  board.setAttribute("tabindex", "0");
  board.setAttribute("aria-label", `Puzzle under construction, ${b.cols} × ${b.rows}: arrow keys move the ` +
    `cursor, a digit sets the number there, Delete removes the island`);
  const gDiff = el("g", { class: "difflinks" }, board);
  for (const [r1, c1, r2, c2] of (b.analysis?.status === "several" ? b.analysis.differ || [] : [])) {
    el("line", { x1: c1 * S + S / 2, y1: r1 * S + S / 2, x2: c2 * S + S / 2, y2: r2 * S + S / 2,
                 class: "difflink", "data-differ": `${r1},${c1},${r2},${c2}` }, gDiff);
  }
  const gIsl = el("g", { class: "islands" }, board);
  for (const [k, n] of b.cells) {
    const [r, c] = k.split(",").map(Number);
    const g = drawIsland(gIsl, r, c, n);
    if (r === b.cursor[0] && c === b.cursor[1]) g.classList.add("cursor");
  }
  if (b.suggestion) {
    const { r, c, n } = b.suggestion;
    const g = drawIsland(gIsl, r, c, n, { class: "island suggested hint" });
    g.setAttribute("aria-label", `suggested island ${n} at ${cellName(r, c)}`);
  }
  const [r, c] = b.cursor;
  el("rect", { x: c * S + 2, y: r * S + 2, width: S - 4, height: S - 4, rx: 4, class: "cell-cursor" }, board);
}

// ------------------------------------------------------------ editing
// new cells, as one edit (undone in one step)
function edit(cells, message) {
  setBuild({ history: [...b.history, b.cells].slice(-MAX_EDITS_KEPT), future: [], cells });
  edited(message);
}

function edited(message) {
  ui.edited = true;
  setBuild({ suggestion: null });
  draw();
  showHistory();
  say(message);
  updateExport();
  analyzeSoon();
}

function setNumber(r, c, n) {
  const most = 4 * b.mb;
  if (n < 1 || n > most) { say(`An island's number runs from 1 to ${most} when up to ${b.mb} bridges join a pair.`, "warn"); return; }
  edit(new Map(b.cells).set(key(r, c), n), `The ${n} at ${cellName(r, c)}.`);
}

function removeIsland(r, c) {
  if (!b.cells.has(key(r, c))) return;
  const cells = new Map(b.cells);
  cells.delete(key(r, c));
  edit(cells, `Removed the island at ${cellName(r, c)}.`);
}

function cellAt(ev) {
  const p = svgPoint(ev);
  const r = Math.floor(p.y / S), c = Math.floor(p.x / S);
  return r >= 0 && r < b.rows && c >= 0 && c < b.cols ? [r, c] : null;
}

export function pointerDown(ev) {
  if (ev.button > 0) return;
  ui.down = cellAt(ev);
  board.focus({ preventScroll: true });
}

// a press that turned into a pan or a pinch is no tap
export function pointerCancel() { ui.down = null; }

// a tap places a 1 and opens the number picker beside it; a tap on an island opens its picker
// (a second tap on the same cell closes it); typing a digit works as well
export function pointerUp(ev) {
  const cell = cellAt(ev);
  if (!cell || !ui.down || cell[0] !== ui.down[0] || cell[1] !== ui.down[1]) { ui.down = null; return; }
  ui.down = null;
  const [r, c] = cell;
  const open = ui.picking && ui.picking[0] === r && ui.picking[1] === c;
  setBuild({ cursor: [r, c] });
  ui.lastDigit = null;
  if (open) { closePicker(); draw(); return; }
  if (b.cells.has(key(r, c))) {
    draw();
    say(`The ${b.cells.get(key(r, c))} at ${cellName(r, c)}: pick its number, or Remove.`);
  } else {
    setNumber(r, c, 1);
    say(`A 1 at ${cellName(r, c)}: pick its number (or type it).`);
  }
  openPicker(r, c);
}

// ------------------------------------------------------------ the number picker
function openPicker(r, c) {
  const pk = $("picker");
  pk.textContent = "";
  const current = b.cells.get(key(r, c));
  for (let n = 1; n <= 4 * b.mb; n++) {
    const btn = document.createElement("button");
    btn.type = "button";
    btn.textContent = n;
    btn.dataset.n = n;
    btn.setAttribute("aria-pressed", n === current ? "true" : "false");
    btn.setAttribute("aria-label", `number ${n}`);
    pk.append(btn);
  }
  const rm = document.createElement("button");
  rm.type = "button";
  rm.className = "remove";
  rm.dataset.n = "0";
  rm.textContent = "Remove";
  pk.append(rm);
  pk.setAttribute("aria-label", `Number of the island at ${cellName(r, c)}`);
  pk.hidden = false;
  ui.picking = [r, c];
  placePicker(r, c);
}

// beside the island: below it when there is room in the frame, else above; never over the cell
function placePicker(r, c) {
  const pk = $("picker"), frame = $("board-frame").getBoundingClientRect(), bd = board.getBoundingClientRect();
  const cw = bd.width / b.cols, chh = bd.height / b.rows;
  const cell = { left: bd.left + c * cw, top: bd.top + r * chh, right: bd.left + (c + 1) * cw, bottom: bd.top + (r + 1) * chh };
  const w = pk.offsetWidth, h = pk.offsetHeight;
  let left = (cell.left + cell.right) / 2 - w / 2 - frame.left;
  left = Math.max(0, Math.min(frame.width - w, left));
  const below = cell.bottom - frame.top + 4, above = cell.top - frame.top - h - 4;
  const fitsBelow = cell.bottom + 4 + h <= Math.min(innerHeight, frame.bottom + h);
  pk.style.left = `${left}px`;
  pk.style.top = `${fitsBelow || above < 0 ? below : above}px`;
}

function closePicker() {
  ui.picking = null;
  $("picker").hidden = true;
}

function pick(ev) {
  const btn = ev.target.closest("button");
  if (!btn || !ui.picking) return;
  const [r, c] = ui.picking, n = +btn.dataset.n;
  closePicker();
  if (n === 0) removeIsland(r, c); else setNumber(r, c, n);
  board.focus({ preventScroll: true });
}

const MOVES = { ArrowLeft: [0, -1], ArrowRight: [0, 1], ArrowUp: [-1, 0], ArrowDown: [1, 0] };

// keys in constructor mode; true when the key was used here
export function onKey(ev) {
  const [r, c] = b.cursor;
  if (ev.target.closest && ev.target.closest("#picker")) {
    if (ev.key === "Escape") { closePicker(); board.focus({ preventScroll: true }); return true; }
    if (ev.key === "Enter" || ev.key === " ") return true;   // the focused number's own click
  }
  if (ev.key === "Escape" && ui.picking) { closePicker(); return true; }
  if (MOVES[ev.key] || /^[0-9]$/.test(ev.key) || ev.key === "Delete" || ev.key === "Backspace") closePicker();
  if (MOVES[ev.key]) {
    ev.preventDefault();
    const [dr, dc] = MOVES[ev.key];
    setBuild({ cursor: [Math.min(b.rows - 1, Math.max(0, r + dr)), Math.min(b.cols - 1, Math.max(0, c + dc))] });
    ui.lastDigit = null;
    draw();
    const n = b.cells.get(key(...b.cursor));
    say(`${cellName(...b.cursor)}: ${n ? "the " + n : "empty"}.`);
    return true;
  }
  if (/^[0-9]$/.test(ev.key)) {
    ev.preventDefault();
    let n = +ev.key;
    const now = Date.now();
    if (ui.lastDigit && ui.lastDigit.cell === key(r, c) && now - ui.lastDigit.at < NUMBER_JOIN_MS &&
        ui.lastDigit.n * 10 + n <= 4 * b.mb) {
      n = ui.lastDigit.n * 10 + n;
      setBuild({ history: b.history.slice(0, -1) });    // one edit, not two
    }
    ui.lastDigit = { cell: key(r, c), n, at: now };
    if (n === 0) removeIsland(r, c); else setNumber(r, c, n);
    return true;
  }
  if (ev.key === "Delete" || ev.key === "Backspace") { ev.preventDefault(); removeIsland(r, c); return true; }
  if (ev.key === "Enter" || ev.key === " ") {
    ev.preventDefault();
    if (b.cells.has(key(r, c))) removeIsland(r, c); else setNumber(r, c, 1);
    return true;
  }
  return false;
}

// undo: the board before the last edit (the current one goes onto the redo stack); redo: back
export function undo() {
  if (!b.history.length) return;
  setBuild({ cells: b.history.at(-1), history: b.history.slice(0, -1), future: [...b.future, b.cells] });
  closePicker();
  edited("Undone.");
}

export function redo() {
  if (!b.future.length) return;
  setBuild({ cells: b.future.at(-1), future: b.future.slice(0, -1), history: [...b.history, b.cells] });
  closePicker();
  edited("Redone.");
}

// ------------------------------------------------------------ analysis
// an island whose number its links cannot carry is a verdict the page gives itself (the server
// refuses such a puzzle as bad input, as the command line does)
function analyzeSoon() {
  clearTimeout(ui.timer);
  const ticket = ++ui.ticket;
  if (!b.cells.size) { setBuild({ analysis: null }); verdict("Place islands: click an empty cell.", ""); return; }
  const p = puzzle(), g = graphOf({ puzzle: p, links: linksOf(p) });
  const why = capacityText(g, capacityProblems(g));
  if (why) {
    setBuild({ analysis: { status: "infeasible", reason: why } });
    draw();
    fillFormats();
    verdict(`No solution: ${why}.`, "infeasible");
    return;
  }
  verdict("Checking…", "pending");
  ui.saidAt = saidCount();
  ui.timer = setTimeout(() => runAnalysis(ticket), DEBOUNCE_MS);
}

async function runAnalysis(ticket) {
  let out;
  try { out = await server.analyze(puzzle()); }
  catch (e) {
    if (ticket !== ui.ticket) return;
    setBuild({ analysis: null });
    draw();
    fillFormats();
    verdict(e.status === 400 ? `No solution: ${e.message}.` : `No answer: ${e.message}`, "infeasible", [], true);
    return;
  }
  if (ticket !== ui.ticket) return;
  setBuild({ analysis: out });
  draw();
  fillFormats();
  if (out.status === "infeasible") verdict("No solution: no way of laying the bridges keeps every rule.", "infeasible", [], true);
  else if (out.status === "unique") {
    const grade = out.grade ? `, graded ${out.grade}${out.score !== undefined && out.score !== null ? ` (score ${out.score})` : ""}` : "";
    verdict(`Exactly one solution${grade}.`, "unique", [], true);
  } else if (out.status === "several") {
    const n = (out.differ || []).length;
    verdict(`Several solutions: the ${n} dashed link${n === 1 ? "" : "s"} differ between two of them. Looking for a change that makes it unique…`, "several", [], true);
    suggest(ticket, out);
  } else verdict(`No answer within ${state.limits.time_limit} s: the puzzle may be too big to judge here.`, "unknown", [], true);
}

// the verdict in the card, and in the status line once the player has edited (till then the status
// line keeps the constructor's welcome, with its button).  An `answer` (the server's, arriving
// later) leaves the status line to anything the player was told after the question was asked (a
// refused number, say), unless it brings a button to press.
function verdict(text, status, actions = [], answer = false) {
  const v = $("verdict");
  v.textContent = text;
  v.dataset.status = status;
  if (answer && !actions.length && saidCount() !== ui.saidAt) return;
  if (ui.active && ui.edited) {
    say(text, status === "infeasible" ? "error" : status === "unique" ? "ok" : status === "several" ? "warn" : "", actions);
    ui.saidAt = saidCount();
  }
}

// candidate changes: an island in the middle of a differing link, numbered so that one of the two
// solutions still fits (twice its bridges there); each is proved unique by another analyze
function candidates(out) {
  const found = [], seen = new Set();
  const countIn = (sol, [r1, c1, r2, c2]) => {
    for (const [a, bb, c, d, k] of (Array.isArray(sol) ? sol : sol?.bridges) || []) {
      if ((a === r1 && bb === c1 && c === r2 && d === c2) || (a === r2 && bb === c2 && c === r1 && d === c1)) return k;
    }
    return 0;
  };
  for (const link of out.differ || []) {
    const [r1, c1, r2, c2] = link;
    const len = Math.abs(r2 - r1) + Math.abs(c2 - c1);
    if (len < 2) continue;
    const r = Math.round((r1 + r2) / 2), c = Math.round((c1 + c2) / 2);
    if ((r === r1 && c === c1) || (r === r2 && c === c2) || b.cells.has(key(r, c))) continue;
    for (const sol of out.solutions || []) {
      const k = countIn(sol, link);
      if (k > 0 && !seen.has(`${r},${c},${2 * k}`)) { seen.add(`${r},${c},${2 * k}`); found.push({ r, c, n: 2 * k }); }
    }
  }
  return found.slice(0, MAX_SUGGESTION_TRIES);
}

async function suggest(ticket, out) {
  for (const cand of candidates(out)) {
    const cells = new Map(b.cells);
    cells.set(key(cand.r, cand.c), cand.n);
    const p = puzzle(cells), g = graphOf({ puzzle: p, links: linksOf(p) });
    if (capacityProblems(g).length) continue;
    let res;
    try { res = await server.analyze(puzzle(cells)); } catch (e) { return; }
    if (ticket !== ui.ticket) return;
    if (res.status === "unique") {
      setBuild({ suggestion: { ...cand, grade: res.grade } });
      draw();
      verdict(`Several solutions (the dashed links differ). Adding a ${cand.n} at ${cellName(cand.r, cand.c)} ` +
              `makes it unique${res.grade ? ` (${res.grade})` : ""}: checked, press "Apply the suggested change".`, "several",
              [{ label: "Apply the suggested change", id: "suggest-apply", run: applySuggestion }], true);
      return;
    }
  }
  if (ticket === ui.ticket) {
    verdict(`Several solutions: the dashed links differ between two of them. Change a number at the end of one, ` +
            `or add an island on it.`, "several", [], true);
  }
}

function applySuggestion() {
  const s = b.suggestion;
  if (!s) return;
  setBuild({ cursor: [s.r, s.c] });
  setNumber(s.r, s.c, s.n);
}

// ------------------------------------------------------------ export
// the formats that can hold this puzzle now (its MAXBRIDGES, no loops; a solution only once the
// puzzle is proved unique), by the server's plain names, and two links made here
const LINKS = { link: "link to play it", "build-link": "link to this constructor" };
const FIRST = ["tatham", "link", "build-link", "puzzlink", "grid", "json"];
const formats = () => state.limits?.formats || [];

function exportable() {
  const unique = b.analysis?.status === "unique";
  const out = formats().filter((f) => f.maxbridges.includes(b.mb) && (!b.noLoops || f.no_loops) &&
                                      (!f.needs_solution || unique)).map((f) => [f.name, f.title]);
  out.push(...Object.entries(LINKS));
  const rank = (name) => (FIRST.includes(name) ? FIRST.indexOf(name) : FIRST.length);
  return out.sort((x, y) => rank(x[0]) - rank(y[0]) || x[1].localeCompare(y[1]));
}

function fillFormats() {
  const sel = $("export-format");
  const current = sel.value;
  sel.textContent = "";
  const names = [];
  for (const [name, title] of exportable()) {
    const o = document.createElement("option");
    o.value = name;
    o.textContent = title;
    sel.append(o);
    names.push(name);
  }
  sel.value = names.includes(current) ? current : names[0];
  if (current && sel.value !== current) updateExport();
}

async function exportAs(format) {
  const p = puzzle();
  if (!p.islands.length) return "Place islands first.";
  if (format === "link") return puzzleLink(p);
  if (format === "build-link") return puzzleLink(p, "&build=1");
  const info = formats().find((f) => f.name === format);
  const out = await server.convert(p, format, info?.needs_solution ? b.analysis?.solutions?.[0] || [] : undefined);
  return out.text;
}

async function updateExport() {
  try { $("export-text").value = await exportAs($("export-format").value); }
  catch (e) { $("export-text").value = `Cannot export: ${e.message}`; }
}

// ------------------------------------------------------------ starting and stopping
// the constructor starts on a puzzle (its islands), or on the board it holds
export function start(from) {
  ui.active = true;
  ui.edited = false;
  setBuild({ history: [], future: [], analysis: null, suggestion: null, cursor: [0, 0] });
  if (from) {
    const ignored = new Set((from.ignore || []).map(([r, c]) => key(r, c)));
    setBuild({
      rows: from.rows, cols: from.cols, mb: from.maxbridges || 2, noLoops: !!from.no_loops,
      cells: new Map(from.islands.filter(([r, c]) => !ignored.has(key(r, c))).map(([r, c, n]) => [key(r, c), n])),
    });
  }
  $("blank-rows").value = b.rows; $("blank-cols").value = b.cols; $("blank-mb").value = b.mb;
  $("blank-noloops").checked = b.noLoops;
  closePicker();
  showHistory();
  fillFormats();
  draw();
  updateExport();
  say("Constructor: tap or click a cell to place an island, then pick its number; or start on a new blank board.", "",
      [{ label: "New blank board…", run: toBlankForm }]);
  analyzeSoon();
}

// the blank board's form, from the limits document
function buildForm() {
  const lim = state.limits;
  $("blank").disabled = !lim;
  if (!lim) return;
  for (const id of ["blank-rows", "blank-cols"]) Object.assign($(id), { min: lim.min_side, max: lim.max_side });
  Object.assign($("blank-mb"), { min: lim.min_maxbridges, max: lim.max_maxbridges });
}

function blank() {
  const lim = state.limits;
  if (!lim) return;
  const rows = Number($("blank-rows").value), cols = Number($("blank-cols").value), mb = Number($("blank-mb").value);
  const sides = [lim.min_side, lim.max_side], bridges = [lim.min_maxbridges, lim.max_maxbridges];
  const within = (v, [lo, hi]) => Number.isInteger(v) && v >= lo && v <= hi;
  if (![rows, cols].every((v) => within(v, sides))) { say(`Rows and columns run from ${sides[0]} to ${sides[1]}.`, "warn"); return; }
  if (rows * cols > lim.max_cells) { say(`A board has at most ${lim.max_cells} cells here.`, "warn"); return; }
  if (!within(mb, bridges)) { say(`Bridges per pair run from ${bridges[0]} to ${bridges[1]}.`, "warn"); return; }
  setBuild({ rows, cols, mb, noLoops: $("blank-noloops").checked, cells: new Map() });
  start(null);
  flush();
  layoutBoard();
  showBoard();
}

// the blank board's form brought into view (below the board on a phone), its first field focused
function toBlankForm() {
  $("blank-form").scrollIntoView({ block: "center" });
  $("blank-rows").focus({ preventScroll: true });
}

function stop() {
  ui.active = false;
  closePicker();
  clearTimeout(ui.timer);
  ui.ticket++;
  board.classList.remove("building");
  board.removeAttribute("tabindex");
  board.setAttribute("aria-label", "Hashi board");
}

$("blank-form").addEventListener("submit", (ev) => { ev.preventDefault(); blank(); });
$("picker").addEventListener("click", pick);
$("export-format").addEventListener("change", updateExport);
$("export").addEventListener("click", async () => {
  await updateExport();
  const t = $("export-text");
  if (document.activeElement === $("export")) t.select();   // unless the player has moved on meanwhile
  try { await navigator.clipboard.writeText(t.value); say("Exported and copied.", "ok"); }
  catch (e) { say("Exported: select the text and copy it.", ""); }
});

subscribe((changed) => {
  if (changed.has("limits")) buildForm();
  if (changed.has("mode") && state.mode !== "build" && ui.active) stop();
});
