// hashikit web: the page's state, owned here and nowhere else.  Every field is named below; the
// other modules read them through `state` (read-only: writing a field, or adding one, throws) and
// change them through this module's functions, which tell the subscribers which fields changed
// (once per task, or at `flush()`).  No DOM node, timer or request is kept here.
//
// A move is a list of changes [kind, index, from, to] (kind "b" bridges on a link, "m" a "no
// bridge" mark, "l" a lock); every move goes through `move`, `undo` and `redo`, one undo stack.
// A trial is a layer of moves on top of the game: `startTrial` keeps the position and the undo
// stacks it began from, `keepTrial` merges its moves into the layer below, `dropTrial` goes back to
// where it began in one step; trials nest.
"use strict";

import { applyBridgeList, bridgeList, emptyPosition, graphOf, isComplete, markList, setValue,
         validMoves } from "./referee.js";

export const MAX_SAVED_MOVES = 300;        // undo and redo steps kept with a saved game

const fields = Object.seal({
  limits: null,        // the server's limits document (GET /api/limits); null until read, false when unreadable
  mode: "play",        // "play", or "build" (the constructor)
  theme: "light",      // the colour theme, "light" or "dark"
  show: Object.freeze({ errors: true, possible: false, groups: false }),   // the board's toggles
  puzzle: null,        // as /api/parse returns it
  graph: null,         // its islands and links (referee.js graphOf)
  level: "custom",     // the generator's grade, when the puzzle came from it
  daily: null,         // the date (YYYY-MM-DD) when the puzzle is a site's puzzle of that day
  position: null,      // {counts, marks, locked, atMost} (referee.js)
  undo: [], redo: [],  // moves (in the innermost trial: its own)
  trials: [],          // the trials under way, outermost first: {base (the position it began from), undo, redo (the stacks below)}
  selected: null,      // the island picked for a bridge
  focus: 0,            // the island that takes the keyboard focus on the board
  aim: undefined,      // the link the pointer aims at, hovering after a pick
  drag: null,          // the press or drag under way on the board, as its preview shows it: {i, aim, right}
  hint: null,          // what a hint highlights: {islands: Set, links: Set}
  pendingHint: null,   // a hint shown as "look here" or in words, not yet laid: {h, islands, links, stage}
  hints: 0,            // hint steps asked for in this game (a record with hints is kept apart)
  checked: null,       // what Check found wrong: {islands: Set, links: Set, marks: Set}
  solved: false,
  revealed: false,     // the solution was shown (Reveal)
  elapsed: 0,          // the clock: ms played before `since`
  since: null,         // when the clock last started (Date.now()), null while it is stopped
  solution: null,      // the server's solution, once asked: {status, unique, counts, reason, message}
  zoom: 1,             // the board's zoom, 1 at fit
  generating: false,   // a puzzle is being generated: the board takes no moves
  build: Object.seal({ // the constructor's puzzle and its analysis
    rows: 7, cols: 7, mb: 2, noLoops: false,
    cells: new Map(),  // "r,c" -> the island's number
    cursor: [0, 0],
    history: [], future: [],   // the cells before each edit, and those undone
    analysis: null,    // /api/analyze's answer for the cells
    suggestion: null,  // a change proved to make the puzzle unique: {r, c, n, grade}
  }),
});

// ------------------------------------------------------------------ reading
const views = new WeakMap();
function readOnly(obj) {
  if (!obj || typeof obj !== "object" || Object.getPrototypeOf(obj) !== Object.prototype) return obj;
  if (!views.has(obj)) {
    const refuse = (_, prop) => {
      throw new TypeError(`the page's state is changed through store.js, not by setting ${String(prop)}`);
    };
    views.set(obj, new Proxy(obj, {
      get: (target, prop) => readOnly(target[prop]), set: refuse, defineProperty: refuse, deleteProperty: refuse,
    }));
  }
  return views.get(obj);
}

export const state = readOnly(fields);

export const busy = () => fields.generating;
export const playing = () => fields.mode === "play" && !!fields.puzzle;

// the board as /api/check and /api/hint take it
export const boardRequest = () => ({
  puzzle: fields.puzzle, bridges: bridgeList(fields.graph, fields.position.counts),
  marks: markList(fields.graph, fields.position),
});

// the constructor's puzzle ({rows, cols, maxbridges, islands, no_loops?}); of other cells when given
export function builtPuzzle(cells = fields.build.cells) {
  const b = fields.build;
  const islands = [...cells].map(([k, n]) => { const [r, c] = k.split(",").map(Number); return [r, c, n]; })
    .sort((x, y) => x[0] - y[0] || x[1] - y[1]);
  const p = { rows: b.rows, cols: b.cols, maxbridges: b.mb, islands };
  if (b.noLoops) p.no_loops = true;
  return p;
}

export const elapsedNow = (now = Date.now()) => fields.elapsed + (fields.since === null ? 0 : now - fields.since);

// ------------------------------------------------------------------ subscribing
const listeners = [];
let pending = null, flushing = false;

// fn(changed: Set of field names), after every task that changed the state
export function subscribe(fn) { listeners.push(fn); }

function changed(...names) {
  if (!pending) { pending = new Set(); queueMicrotask(flush); }
  for (const n of names) pending.add(n);
}

// tell the subscribers now (a module that must see the page drawn before it goes on)
export function flush() {
  if (flushing) return;
  flushing = true;
  try {
    while (pending) {
      const names = pending;
      pending = null;
      for (const fn of listeners) {
        try { fn(names); } catch (e) { queueMicrotask(() => { throw e; }); }
      }
    }
  } finally { flushing = false; }
}

// ------------------------------------------------------------------ changing
const SETTABLE = new Set(["limits", "theme", "show", "selected", "focus", "aim", "drag", "hint", "pendingHint",
                          "checked", "revealed", "zoom", "generating"]);

// named fields that change alone (the others through the functions below)
export function set(patch) {
  for (const [name, value] of Object.entries(patch)) {
    if (!SETTABLE.has(name)) throw new TypeError(`store.set cannot change ${name}`);
    if (fields[name] === value) continue;
    fields[name] = name === "show" ? Object.freeze({ ...fields.show, ...value }) : value;
    changed(name);
  }
}

export function setMode(mode) {
  if (fields.mode === mode) return;
  fields.mode = mode;
  changed("mode");
}

// a new game of a parsed puzzle: its bridges (from the puzzle's file), its progress (a link's
// counts, one digit a link), and the game saved in the browser, restored when the link carries
// no other progress.  Returns whether the saved game was restored.
export function setPuzzle(parsed, { bridges = null, progress = null, level = "custom", saved = null, daily = null } = {}) {
  const puzzle = parsed.puzzle, g = graphOf(parsed), links = g.links;
  if (!fields.puzzle || fields.puzzle.rows !== puzzle.rows || fields.puzzle.cols !== puzzle.cols) fields.zoom = 1;
  let pos = emptyPosition(g);
  Object.assign(fields, {
    mode: "play", puzzle, graph: g, level, daily, solution: null, elapsed: 0, since: null, solved: false, revealed: false,
    hints: 0, undo: [], redo: [], selected: null, focus: 0, aim: undefined, drag: null, hint: null,
    pendingHint: null, checked: null,
  });
  if (bridges) applyBridgeList(g, bridges, pos.counts);
  const fromLink = progress && progress.length === links.length && /^[0-9]+$/.test(progress);
  if (fromLink) pos.counts = [...progress].map((d, k) => Math.min(+d, links[k].cap));
  const restored = !!saved && saved.counts?.length === links.length && (!fromLink || saved.counts === progress);
  fields.trials = [];
  if (restored) {
    pos = savedPosition(g, saved);
    Object.assign(fields, {
      elapsed: +saved.elapsed || 0, level: saved.level || level, hints: +saved.hints || 0,
      revealed: !!saved.revealed, undo: validMoves(g, saved.undo, MAX_SAVED_MOVES),
      redo: validMoves(g, saved.redo, MAX_SAVED_MOVES),
      trials: (Array.isArray(saved.trials) ? saved.trials : []).filter((t) => t?.base?.counts?.length === links.length)
        .map((t) => ({ base: savedPosition(g, t.base), undo: validMoves(g, t.undo, MAX_SAVED_MOVES),
                       redo: validMoves(g, t.redo, MAX_SAVED_MOVES) })),
    });
  }
  fields.position = pos;
  fields.solved = isComplete(g, pos) && !!saved?.solved;
  changed("puzzle", "mode", "zoom", "trials");
  return restored;
}

// a position as a saved game keeps it ({counts: "0120...", marks: "0010...", locked: [islands]})
function savedPosition(g, saved) {
  const links = g.links;
  return {
    counts: [...saved.counts].map((d, k) => Math.min(+d || 0, links[k].cap)),
    marks: links.map((_, k) => (saved.marks || "")[k] === "1"),
    locked: new Set((saved.locked || []).filter((i) => Number.isInteger(i) && i >= 0 && i < g.islands.length)),
    atMost: new Map(),
  };
}

const copyPosition = (pos) => ({ counts: [...pos.counts], marks: [...pos.marks], locked: new Set(pos.locked),
                                 atMost: new Map(pos.atMost) });

// a trial begins: moves from now on are its own (undo stops where it began)
export function startTrial() {
  fields.trials.push({ base: copyPosition(fields.position), undo: fields.undo, redo: fields.redo });
  fields.undo = []; fields.redo = [];
  fields.hint = null; fields.checked = null; fields.pendingHint = null;
  changed("trials", "undo", "redo", "hint", "checked", "pendingHint");
}

// the innermost trial kept: its moves join the layer below, each still undone one by one
export function keepTrial() {
  const t = fields.trials.pop();
  if (!t) return false;
  fields.undo = [...t.undo, ...fields.undo];
  fields.redo = [];
  changed("trials", "undo", "redo");
  return true;
}

// the innermost trial dropped: the position and the undo stacks as they were when it began
export function dropTrial() {
  const t = fields.trials.pop();
  if (!t) return false;
  Object.assign(fields, { position: t.base, undo: t.undo, redo: t.redo, hint: null, checked: null, pendingHint: null,
                          solved: false, revealed: false });
  changed("trials", "position", "undo", "redo", "hint", "checked", "pendingHint", "solved", "revealed");
  return true;
}

// a move: its changes made, onto the undo stack; what a hint or Check showed is cleared
export function move(changes) {
  if (!changes.length) return;
  for (const [kind, k, , to] of changes) setValue(fields.position, kind, k, to);
  fields.undo.push(changes);
  fields.redo = [];
  fields.hint = null; fields.checked = null; fields.pendingHint = null;
  changed("position", "undo", "redo", "hint", "checked", "pendingHint");
}

// the last move taken back (the board is no longer solved, nor revealed); false when there is none
export function undo() {
  if (!fields.undo.length) return false;
  const changes = fields.undo.pop();
  for (const [kind, k, from] of changes) setValue(fields.position, kind, k, from);
  fields.redo.push(changes);
  fields.hint = null; fields.checked = null; fields.pendingHint = null;
  fields.revealed = false; fields.solved = false;
  changed("position", "undo", "redo", "hint", "checked", "pendingHint", "revealed", "solved");
  return true;
}

export function redo() {
  if (!fields.redo.length) return false;
  const changes = fields.redo.pop();
  for (const [kind, k, , to] of changes) setValue(fields.position, kind, k, to);
  fields.undo.push(changes);
  fields.hint = null; fields.checked = null; fields.pendingHint = null;
  changed("position", "undo", "redo", "hint", "checked", "pendingHint");
  return true;
}

// a hint's limits: link k carries at most `most` bridges (sent back with the marks)
export function limitLinks(pairs) {
  for (const [k, most] of pairs) fields.position.atMost.set(k, Math.min(most, fields.position.atMost.get(k) ?? most));
  if (pairs.length) changed("position");
}

export function countHint() { fields.hints += 1; changed("hints"); }

// solved, or no longer: the clock stops at once (its time is the game's), the pick is let go
export function setSolved(solved) {
  if (fields.solved === solved) return;
  if (solved) { stopClock(); fields.selected = null; changed("selected"); }
  fields.solved = solved;
  changed("solved");
}

export function setSolution(solution) { fields.solution = solution; changed("solution"); }

export function startClock(now = Date.now()) {
  if (fields.since !== null) return;
  fields.since = now;
  changed("since");
}

export function stopClock(now = Date.now()) {
  if (fields.since === null) return;
  fields.elapsed += now - fields.since;
  fields.since = null;
  changed("elapsed", "since");
}

// the constructor's fields (rows, cols, mb, noLoops, cells, cursor, history, future, analysis, suggestion)
export function setBuild(patch) {
  for (const name of Object.keys(patch)) if (!(name in fields.build)) throw new TypeError(`no constructor field ${name}`);
  Object.assign(fields.build, patch);
  changed("build");
}
