// hashikit web: play Hashiwokakero in the browser. Plain ES module, SVG board, the JSON API of app.py.
"use strict";

const SVGNS = "http://www.w3.org/2000/svg";
const S = 40;                       // SVG units per cell; the viewBox scales the board to the screen
const R = S * 0.37;                 // island radius
const EXAMPLE = "7x7m2:4d2b1b4a26b3m1c3c3c2d3";
const MAX_FILE = 1000000;
const DIRS = { ArrowLeft: [0, -1], ArrowRight: [0, 1], ArrowUp: [-1, 0], ArrowDown: [1, 0] };
const WHERE = { ArrowLeft: "to the left", ArrowRight: "to the right", ArrowUp: "above", ArrowDown: "below" };

const $ = (id) => document.getElementById(id);
const board = $("board");

const game = {
  puzzle: null,        // as /api/parse returns it
  islands: [],         // {r, c, n}
  at: new Map(),       // "r,c" -> island index
  links: [],           // {a, b, h, cap, cross: [link indices]}
  linkOf: new Map(),   // "a,b" (a < b) -> link index
  inc: [],             // island -> link indices
  counts: [],
  undo: [], redo: [],
  selected: null, focus: 0,
  hint: null,          // {islands: Set, links: Set}
  solved: false, revealed: false,
  t0: 0, elapsed: 0, timer: null,
  checking: 0,
};

// ---------------------------------------------------------------- API
async function api(path, body) {
  let r;
  try {
    r = await fetch(path, { method: "POST", headers: { "content-type": "application/json" },
                            body: JSON.stringify(body) });
  } catch (e) {
    throw new Error("the server does not answer (is hashikit serve still running?)");
  }
  let data = null;
  try { data = await r.json(); } catch (e) { /* not JSON */ }
  if (!r.ok) throw new Error((data && data.error) || `the server answered ${r.status}`);
  return data;
}

const cellName = (r, c) => `row ${r + 1}, column ${c + 1}`;
const islandName = (i) => { const s = game.islands[i]; return `the ${s.n} at ${cellName(s.r, s.c)}`; };

// ---------------------------------------------------------------- messages
function say(text, kind = "") {
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

// ---------------------------------------------------------------- puzzle structure
function setPuzzle(puzzle, bridges = null, progress = null) {
  game.puzzle = puzzle;
  const ignored = new Set((puzzle.ignore || []).map(([r, c]) => `${r},${c}`));
  game.islands = puzzle.islands.filter(([r, c]) => !ignored.has(`${r},${c}`))
    .map(([r, c, n]) => ({ r, c, n }))
    .sort((x, y) => x.r - y.r || x.c - y.c);
  game.ignored = puzzle.islands.filter(([r, c]) => ignored.has(`${r},${c}`));
  game.at = new Map(game.islands.map((s, i) => [`${s.r},${s.c}`, i]));
  const isl = game.islands, links = [];
  for (let i = 0; i + 1 < isl.length; i++) {
    if (isl[i].r === isl[i + 1].r) links.push({ a: i, b: i + 1, h: true });
  }
  const byCol = isl.map((_, i) => i).sort((x, y) => isl[x].c - isl[y].c || isl[x].r - isl[y].r);
  for (let k = 0; k + 1 < byCol.length; k++) {
    const i = byCol[k], j = byCol[k + 1];
    if (isl[i].c === isl[j].c) links.push({ a: i, b: j, h: false });
  }
  const mb = puzzle.maxbridges || 2;
  for (const ln of links) { ln.cap = Math.min(mb, isl[ln.a].n, isl[ln.b].n); ln.cross = []; }
  // crossings: a horizontal and a vertical link whose interiors meet
  const hs = links.map((l, k) => k).filter((k) => links[k].h);
  const vs = links.map((l, k) => k).filter((k) => !links[k].h);
  const hByRow = new Map();
  for (const k of hs) { const r = isl[links[k].a].r; if (!hByRow.has(r)) hByRow.set(r, []); hByRow.get(r).push(k); }
  for (const v of vs) {
    const top = isl[links[v].a], bot = isl[links[v].b], c = top.c;
    for (let r = top.r + 1; r < bot.r; r++) {
      for (const h of hByRow.get(r) || []) {
        if (isl[links[h].a].c < c && c < isl[links[h].b].c) { links[h].cross.push(v); links[v].cross.push(h); }
      }
    }
  }
  game.links = links;
  game.linkOf = new Map(links.map((l, k) => [`${l.a},${l.b}`, k]));
  game.inc = isl.map(() => []);
  links.forEach((l, k) => { game.inc[l.a].push(k); game.inc[l.b].push(k); });
  game.counts = links.map(() => 0);
  if (bridges) applyBridgeList(bridges, game.counts);
  if (progress && progress.length === links.length && /^[0-9]+$/.test(progress)) {
    game.counts = [...progress].map((d, k) => Math.min(+d, links[k].cap));
  }
  game.undo = []; game.redo = [];
  game.selected = null; game.focus = 0; game.hint = null;
  game.solved = false; game.revealed = false;
  $("banner").hidden = true;
  buildBoard();
  startTimer();
  updateHash();
  const p = puzzle;
  $("info").textContent = `${p.cols} × ${p.rows} board, ${game.islands.length} islands` +
    (mb !== 2 ? `, up to ${mb} bridges per pair` : "") + ".";
  say("Your move: join the islands.");
  afterChange();
}

// bridges [[r1, c1, r2, c2, k], ...] into counts; returns how many did not fit a link
function applyBridgeList(list, counts) {
  let misfits = 0;
  for (const [r1, c1, r2, c2, k] of list) {
    const i = game.at.get(`${r1},${c1}`), j = game.at.get(`${r2},${c2}`);
    const key = i < j ? `${i},${j}` : `${j},${i}`;
    const l = game.linkOf.get(key);
    if (i === undefined || j === undefined || l === undefined) { misfits++; continue; }
    counts[l] = k;
  }
  return misfits;
}

const degree = (i) => game.inc[i].reduce((s, k) => s + game.counts[k], 0);

function bridgeList(counts = game.counts) {
  const out = [];
  game.links.forEach((l, k) => {
    if (counts[k]) {
      const a = game.islands[l.a], b = game.islands[l.b];
      out.push([a.r, a.c, b.r, b.c, counts[k]]);
    }
  });
  return out;
}

// ---------------------------------------------------------------- drawing
function el(name, attrs = {}, parent = null) {
  const e = document.createElementNS(SVGNS, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (parent) parent.append(e);
  return e;
}

const cx = (s) => s.c * S + S / 2;
const cy = (s) => s.r * S + S / 2;

function buildBoard() {
  const p = game.puzzle;
  board.textContent = "";
  board.setAttribute("viewBox", `0 0 ${p.cols * S} ${p.rows * S}`);
  board.setAttribute("preserveAspectRatio", "xMidYMid meet");
  const defs = el("defs", {}, board);
  const pat = el("pattern", { id: "dots", width: S, height: S, patternUnits: "userSpaceOnUse" }, defs);
  el("circle", { cx: S / 2, cy: S / 2, r: S * 0.045, class: "dot" }, pat);
  el("rect", { x: 0, y: 0, width: p.cols * S, height: p.rows * S, class: "sea", fill: "url(#dots)" }, board);
  game.gHits = el("g", { class: "hits" }, board);
  game.gHint = el("g", { class: "hintlinks" }, board);
  game.gBridges = el("g", { class: "bridges" }, board);
  const gIsl = el("g", { class: "islands" }, board);
  game.links.forEach((l, k) => {
    const a = game.islands[l.a], b = game.islands[l.b];
    el("line", { x1: cx(a), y1: cy(a), x2: cx(b), y2: cy(b), class: "hit", "data-link": k }, game.gHits);
  });
  for (const [r, c, n] of game.ignored) {
    const g = el("g", { class: "island ignored" }, gIsl);
    el("circle", { cx: c * S + S / 2, cy: r * S + S / 2, r: R }, g);
    el("text", { x: c * S + S / 2, y: r * S + S / 2 }, g).textContent = n;
  }
  game.islandEls = game.islands.map((s, i) => {
    const g = el("g", { class: "island", tabindex: i === 0 ? 0 : -1, role: "button",
                        "data-i": i, "data-r": s.r, "data-c": s.c }, gIsl);
    el("circle", { cx: cx(s), cy: cy(s), r: R + S * 0.09, class: "ring" }, g);
    el("circle", { cx: cx(s), cy: cy(s), r: R, class: "disc" }, g);
    const t = el("text", { x: cx(s), y: cy(s) + S * 0.015 }, g);
    t.textContent = s.n;
    if (s.n >= 10) t.setAttribute("class", "small");
    return g;
  });
}

function drawBridges(errs) {
  const g = game.gBridges;
  g.textContent = "";
  const gap = S * 0.12;
  game.links.forEach((l, k) => {
    const n = game.counts[k];
    if (!n) return;
    const a = game.islands[l.a], b = game.islands[l.b];
    let x1 = cx(a), y1 = cy(a), x2 = cx(b), y2 = cy(b);
    if (l.h) { x1 += R; x2 -= R; } else { y1 += R; y2 -= R; }
    const cls = "bridge" + (errs.links.has(k) ? " err" : "");
    el("line", { x1, y1, x2, y2, class: "bed", "stroke-width": (n - 1) * gap + S * 0.12 }, g);
    for (let m = 0; m < n; m++) {
      const off = (m - (n - 1) / 2) * gap;
      const dx = l.h ? 0 : off, dy = l.h ? off : 0;
      el("line", { x1: x1 + dx, y1: y1 + dy, x2: x2 + dx, y2: y2 + dy, class: cls }, g);
    }
  });
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
      const blocked = game.links[k].cross.some((x) => counts[x]);
      room += blocked ? counts[k] : Math.min(l.cap, counts[k] + Math.max(0, isl[o].n - deg[o]));
    }
    if (room < s.n) errs.islands.add(i);
  });
  // a group whose islands are all full but that does not hold every island is cut off
  const seen = new Array(isl.length).fill(false);
  for (let s0 = 0; s0 < isl.length; s0++) {
    if (seen[s0]) continue;
    const group = [s0]; seen[s0] = true;
    for (let q = 0; q < group.length; q++) {
      for (const k of game.inc[group[q]]) {
        if (!counts[k]) continue;
        const l = game.links[k], o = l.a === group[q] ? l.b : l.a;
        if (!seen[o]) { seen[o] = true; group.push(o); }
      }
    }
    if (group.length < isl.length && group.every((i) => deg[i] === isl[i].n)) {
      for (const i of group) errs.islands.add(i);
    }
  }
  return errs;
}

function paint() {
  const errs = findErrors();
  drawBridges(errs);
  game.islandEls.forEach((g, i) => {
    const s = game.islands[i], d = degree(i);
    g.classList.toggle("full", d === s.n);
    g.classList.toggle("selected", game.selected === i);
    g.classList.toggle("hint", !!game.hint && game.hint.islands.has(i));
    g.classList.toggle("err", errs.islands.has(i));
    g.setAttribute("aria-label", `island ${s.n} at ${cellName(s.r, s.c)}, ${d} bridge${d === 1 ? "" : "s"}` +
      (d === s.n ? ", complete" : "") + (game.selected === i ? ", selected" : ""));
    g.setAttribute("aria-pressed", game.selected === i ? "true" : "false");
  });
  $("undo").disabled = !game.undo.length;
  $("redo").disabled = !game.redo.length;
}

// ---------------------------------------------------------------- moves
function refusal(k, next) {
  const l = game.links[k], cur = game.counts[k];
  const crossed = l.cross.find((o) => game.counts[o]);
  if (crossed !== undefined) {
    const o = game.links[crossed];
    return `A bridge from ${islandName(l.a)} to ${islandName(l.b)} would cross the bridge from ` +
           `${islandName(o.a)} to ${islandName(o.b)}.`;
  }
  for (const i of [l.a, l.b]) {
    const d = degree(i) - cur + next;
    if (d > game.islands[i].n) {
      return `${next === 1 ? "A bridge" : "A " + ["", "", "second", "third", "fourth"][next] + " bridge"} there ` +
             `would give ${islandName(i)} ${d} bridges, more than its number.`;
    }
  }
  return null;
}

// cycle link k: none -> single -> double -> none; a move that would break a rule is refused
function cycle(k) {
  if (game.solved) return;
  const l = game.links[k], cur = game.counts[k];
  let next = cur + 1 > l.cap ? 0 : cur + 1;
  let note = "";
  if (next > cur) {
    const why = refusal(k, next);
    if (why) {
      if (cur === 0) { say(why + " Move refused.", "warn"); flash(k); return; }
      next = 0;
      note = why + " The bridge is removed instead.";
    }
  }
  doMove([[k, cur, next]]);
  if (note) say(note, "warn");
}

function flash(k) {
  const line = game.gHits.querySelector(`[data-link="${k}"]`);
  if (!line) return;
  line.classList.remove("refused");
  void line.getBoundingClientRect();
  line.classList.add("refused");
}

function doMove(changes, label = "") {
  for (const [k, , to] of changes) game.counts[k] = to;
  game.undo.push(changes);
  game.redo = [];
  game.hint = null;
  say(label || moveText(changes));
  afterChange();
}

function moveText(changes) {
  if (changes.length !== 1) return "";
  const [k, , to] = changes[0], l = game.links[k];
  return `${["No bridge", "A bridge", "Two bridges", "Three bridges", "Four bridges"][to] || to + " bridges"} ` +
         `between ${islandName(l.a)} and ${islandName(l.b)}.`;
}

function undo() {
  const changes = game.undo.pop();
  if (!changes) return;
  for (const [k, from] of changes) game.counts[k] = from;
  game.redo.push(changes);
  game.hint = null; game.revealed = false;
  unsolve();
  say("Undone.");
  afterChange();
}

function redo() {
  const changes = game.redo.pop();
  if (!changes) return;
  for (const [k, , to] of changes) game.counts[k] = to;
  game.undo.push(changes);
  game.hint = null;
  say("Redone.");
  afterChange();
}

function unsolve() {
  if (game.solved) { game.solved = false; $("banner").hidden = true; resumeTimer(); }
}

function afterChange() {
  paint();
  updateHash();
  const done = game.islands.every((s, i) => degree(i) === s.n);
  if (done && !game.solved) checkBoard(true);
}

// ---------------------------------------------------------------- selection and input
function tapIsland(i) {
  if (game.solved) return;
  const sel = game.selected;
  if (sel === null) { game.selected = i; say(`Picked ${islandName(i)}: now pick an island in its row or column.`); }
  else if (sel === i) { game.selected = null; say(""); }
  else {
    const key = sel < i ? `${sel},${i}` : `${i},${sel}`;
    const k = game.linkOf.get(key);
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
  g.focus();
}

function svgPoint(ev) {
  const pt = board.createSVGPoint();
  pt.x = ev.clientX; pt.y = ev.clientY;
  const m = board.getScreenCTM();
  return m ? pt.matrixTransform(m.inverse()) : { x: 0, y: 0 };
}

function islandAtPoint(p) {
  const r = Math.floor(p.y / S), c = Math.floor(p.x / S);
  const i = game.at.get(`${r},${c}`);
  if (i === undefined) return undefined;
  const s = game.islands[i];
  return Math.hypot(p.x - cx(s), p.y - cy(s)) <= S * 0.55 ? i : undefined;
}

let drag = null;

board.addEventListener("pointerdown", (ev) => {
  document.body.classList.remove("kbd");
  if (!game.puzzle || ev.button > 0) return;
  const g = ev.target.closest(".island:not(.ignored)");
  const hit = ev.target.closest(".hit");
  if (g) {
    const i = +g.dataset.i;
    drag = { i, id: ev.pointerId, start: svgPoint(ev) };
    board.setPointerCapture?.(ev.pointerId);
    focusIsland(i);
    ev.preventDefault();
  } else if (hit) {
    drag = { link: +hit.dataset.link, id: ev.pointerId };
    ev.preventDefault();
  }
});

board.addEventListener("pointerup", (ev) => {
  if (!drag || drag.id !== ev.pointerId) return;
  const d = drag;
  drag = null;
  if (d.link !== undefined) { game.selected = null; cycle(d.link); paint(); return; }
  const p = svgPoint(ev);
  const j = islandAtPoint(p);
  if (j === d.i || (j === undefined && Math.hypot(p.x - d.start.x, p.y - d.start.y) < S * 0.4)) {
    tapIsland(d.i);
    return;
  }
  // a drag: to another island, or far enough in one direction
  let k;
  if (j !== undefined) {
    k = game.linkOf.get(d.i < j ? `${d.i},${j}` : `${j},${d.i}`);
  } else {
    const dx = p.x - d.start.x, dy = p.y - d.start.y;
    k = linkToward(d.i, Math.abs(dx) > Math.abs(dy) ? [0, Math.sign(dx)] : [Math.sign(dy), 0]);
  }
  game.selected = null;
  if (k === undefined) { say("No bridge can go there: bridges run straight to the next island.", "warn"); paint(); }
  else { cycle(k); paint(); }
});

board.addEventListener("pointercancel", () => { drag = null; });
board.addEventListener("contextmenu", (ev) => { if (ev.target.closest(".island, .hit")) ev.preventDefault(); });

board.addEventListener("keydown", (ev) => {
  const g = ev.target.closest(".island:not(.ignored)");
  if (!g) return;
  const i = +g.dataset.i;
  if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); tapIsland(i); return; }
  if (ev.key === "Escape") { game.selected = null; say(""); paint(); return; }
  const dir = DIRS[ev.key];
  if (!dir) return;
  ev.preventDefault();
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

document.addEventListener("keydown", (ev) => {
  if (ev.key === "Tab" || ev.key in DIRS) document.body.classList.add("kbd");
  if (ev.target.closest && ev.target.closest("textarea, input, select")) return;
  const mod = ev.ctrlKey || ev.metaKey;
  if (mod && ev.key.toLowerCase() === "z" && !ev.shiftKey) { ev.preventDefault(); undo(); }
  else if (mod && (ev.key.toLowerCase() === "y" || (ev.key.toLowerCase() === "z" && ev.shiftKey))) {
    ev.preventDefault(); redo();
  }
});

// ---------------------------------------------------------------- timer
function fmtTime(ms) {
  const t = Math.floor(ms / 1000), h = Math.floor(t / 3600), m = Math.floor(t / 60) % 60, s = t % 60;
  return (h ? `${h}:${String(m).padStart(2, "0")}` : `${m}`) + `:${String(s).padStart(2, "0")}`;
}
function tick() { $("timer").textContent = fmtTime(game.elapsed + (game.timer ? Date.now() - game.t0 : 0)); }
function startTimer() { stopTimer(); game.elapsed = 0; resumeTimer(); }
function resumeTimer() { if (!game.timer) { game.t0 = Date.now(); game.timer = setInterval(tick, 500); } tick(); }
function stopTimer() {
  if (game.timer) { clearInterval(game.timer); game.elapsed += Date.now() - game.t0; game.timer = null; }
  tick();
}

// ---------------------------------------------------------------- buttons
async function checkBoard(auto = false) {
  if (!game.puzzle) return;
  const ticket = ++game.checking;
  let out;
  try {
    out = await api("/api/check", { puzzle: game.puzzle, bridges: bridgeList() });
  } catch (e) { say(e.message, "error"); return; }
  if (ticket !== game.checking) return;     // the board changed meanwhile
  if (out.complete) { solvedNow(); return; }
  if (!out.valid) {
    say(["The board breaks a rule:", out.violations.map((v) => v.message)], "error");
    return;
  }
  if (auto) {
    say("Every island has its bridges, but the islands are not all connected.", "warn");
    return;
  }
  // no rule broken yet: is every bridge part of the solution?
  try {
    const h = await api("/api/hint", { puzzle: game.puzzle, bridges: bridgeList() });
    if (ticket !== game.checking) return;
    if (h.status === "conflict") { say(["Not quite:", h.problems], "error"); return; }
  } catch (e) { /* the check above stands */ }
  const left = game.islands.filter((s, i) => degree(i) !== s.n).length;
  say(`No mistakes so far; ${left} island${left === 1 ? "" : "s"} still need${left === 1 ? "s" : ""} bridges.`, "ok");
}

function solvedNow() {
  game.solved = true;
  game.selected = null;
  stopTimer();
  const b = $("banner");
  b.hidden = false;
  b.textContent = game.revealed ? "Solved by the computer." : `Solved! in ${fmtTime(game.elapsed)}`;
  b.className = "banner" + (game.revealed ? " revealed" : "");
  say(game.revealed ? "Here is the solution." : "Solved! Every rule holds.", "ok");
  paint();
}

async function askHint() {
  if (!game.puzzle) return;
  $("hint").disabled = true;
  try {
    const h = await api("/api/hint", { puzzle: game.puzzle, bridges: bridgeList() });
    const isl = new Set(h.islands.map(([r, c]) => game.at.get(`${r},${c}`)).filter((i) => i !== undefined));
    const lk = new Set(h.links.map(([r1, c1, r2, c2]) => {
      const i = game.at.get(`${r1},${c1}`), j = game.at.get(`${r2},${c2}`);
      return game.linkOf.get(i < j ? `${i},${j}` : `${j},${i}`);
    }).filter((k) => k !== undefined));
    game.hint = { islands: isl, links: lk };
    if (h.status === "conflict") say(["Your board has a problem:", h.problems], "error");
    else say((h.level ? `Hint (${h.level}): ` : "") + h.sentence, h.status === "hint" ? "hinted" : "");
    paint();
  } catch (e) { say(e.message, "error"); }
  finally { $("hint").disabled = false; }
}

async function showSolution() {
  if (!game.puzzle) return;
  $("solve").disabled = true;
  say("Solving…");
  try {
    const out = await api("/api/solve", { puzzle: game.puzzle });
    if (out.status !== "solved") {
      say(out.status === "infeasible" ? `This puzzle has no solution${out.reason ? ": " + out.reason : "."}`
                                      : out.message || "No answer in time.", "error");
      return;
    }
    const next = game.links.map(() => 0);
    applyBridgeList(out.bridges, next);
    const changes = [];
    next.forEach((to, k) => { if (to !== game.counts[k]) changes.push([k, game.counts[k], to]); });
    game.revealed = true;
    doMove(changes, out.unique === false ? "This puzzle has more than one solution; here is one."
                                         : "Here is the solution.");
  } catch (e) { say(e.message, "error"); }
  finally { $("solve").disabled = false; }
}

function clearBoard() {
  const changes = [];
  game.counts.forEach((n, k) => { if (n) changes.push([k, n, 0]); });
  if (!changes.length) return;
  unsolve();
  game.revealed = false;
  doMove(changes, "Board cleared (Undo brings it back).");
}

// ---------------------------------------------------------------- loading and sharing
async function loadText(text, format = undefined, progress = null) {
  const body = format ? { text, format } : { text };
  const out = await api("/api/parse", body);
  setPuzzle(out.puzzle, out.bridges || null, progress);
}

const b64url = (s) => btoa(unescape(encodeURIComponent(s))).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
const unb64url = (s) => decodeURIComponent(escape(atob(s.replace(/-/g, "+").replace(/_/g, "/"))));

function puzzleCode() {
  const p = game.puzzle, mb = p.maxbridges || 2;
  const simple = !(p.ignore && p.ignore.length) && game.islands.every((s) => s.n <= 16);
  if (!simple) return "j=" + b64url(JSON.stringify(p));
  const grid = new Map(game.islands.map((s) => [s.r * p.cols + s.c, s.n]));
  let desc = "", run = 0;
  for (let cell = 0; cell < p.rows * p.cols; cell++) {
    const n = grid.get(cell);
    if (n === undefined) { run++; if (run === 26) { desc += "z"; run = 0; } continue; }
    if (run) { desc += String.fromCharCode(96 + run); run = 0; }
    desc += n < 10 ? String(n) : String.fromCharCode(55 + n);
  }
  if (run) desc += String.fromCharCode(96 + run);
  return `p=${p.cols}x${p.rows}m${mb}:${desc}`;
}

function shareUrl(withProgress) {
  let hash = puzzleCode();
  if (withProgress && game.counts.some((n) => n)) hash += "&b=" + game.counts.join("");
  return location.href.split("#")[0] + "#" + hash;
}

function updateHash() {
  if (!game.puzzle) return;
  const url = shareUrl(true);
  history.replaceState(null, "", url);
  $("share-url").value = shareUrl($("share-progress").checked);
}

async function loadFromHash() {
  const params = new URLSearchParams(location.hash.slice(1));
  const progress = params.get("b");
  try {
    if (params.get("p")) { await loadText(params.get("p"), "tatham", progress); return true; }
    if (params.get("j")) { await loadText(unb64url(params.get("j")), "json", progress); return true; }
  } catch (e) {
    say(`The link's puzzle cannot be read: ${e.message}`, "error");
  }
  return false;
}

// ---------------------------------------------------------------- wiring
$("undo").addEventListener("click", undo);
$("redo").addEventListener("click", redo);
$("check").addEventListener("click", () => checkBoard(false));
$("hint").addEventListener("click", askHint);
$("solve").addEventListener("click", showSolution);
$("restart").addEventListener("click", clearBoard);
$("errors").addEventListener("change", () => {
  document.body.classList.toggle("marking", $("errors").checked);
  paint();
  say($("errors").checked ? "Error marking is on." : "Error marking is off.");
});
$("share-progress").addEventListener("change", updateHash);
$("share").addEventListener("click", async () => {
  const url = $("share-url").value;
  try { await navigator.clipboard.writeText(url); say("Link copied.", "ok"); }
  catch (e) { $("share-url").select(); say("Select the link and copy it.", ""); }
});

$("gen-form").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const size = +$("gen-size").value, difficulty = $("gen-difficulty").value;
  const btn = $("generate");
  btn.disabled = true;
  say(`Generating a ${difficulty} ${size} × ${size} puzzle…`);
  try {
    const out = await api("/api/generate", { rows: size, cols: size, difficulty });
    setPuzzle(out.puzzle);
    say(`A new ${out.grade} puzzle (seed ${out.seed}). Good luck!`);
  } catch (e) { say(e.message, "error"); }
  finally { btn.disabled = false; }
});

$("load-form").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const text = $("text").value;
  if (!text.trim()) { say("Paste a puzzle first.", "warn"); return; }
  try { await loadText(text); } catch (e) { say(e.message, "error"); }
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
  if (location.href !== shareUrl(true)) loadFromHash();
});

(async () => {
  document.body.classList.toggle("marking", $("errors").checked);
  if (!(await loadFromHash())) {
    try { await loadText(EXAMPLE, "tatham"); } catch (e) { say(e.message, "error"); }
  }
  document.body.dataset.ready = "true";
})();
