// hashikit web: the game state (the one mutable `game` object) and the puzzle's structure: islands,
// links, counts, marks and locks, and the rules a move must keep.  No drawing and no DOM events here.
"use strict";

export const MAX_SAVED_MOVES = 300;        // undo and redo steps kept with a saved game

export const $ = (id) => document.getElementById(id);
export const board = $("board");

export const game = {
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
  checking: 0, solutionP: null,
  hints: 0,            // hint steps asked for in this game (a record with hints is kept apart)
  pendingHint: null,   // {h, stage}: a hint shown as "look here" or in words, not yet laid
  zoom: 1,
  generating: null,    // the AbortController of a running generation
  drag: null,          // the press or drag under way on the board (input.js), shown by its preview
};

export const cellName = (r, c) => `row ${r + 1}, column ${c + 1}`;
export const islandName = (i) => { const s = game.islands[i]; return `the ${s.n} at ${cellName(s.r, s.c)}`; };
export const maxBridges = () => game.puzzle?.maxbridges || 2;

export function islandIndex(r, c) { return game.at.get(`${r},${c}`); }
export function linkBetween(i, j) {
  if (i === undefined || j === undefined) return undefined;
  return game.linkOf.get(i < j ? `${i},${j}` : `${j},${i}`);
}
export const linkAt = ([r1, c1, r2, c2]) => linkBetween(islandIndex(r1, c1), islandIndex(r2, c2));

// links and crossings as the server lists them (POST /api/parse)
export function linksFromServer(links, crossings) {
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

// a saved undo or redo stack, kept only when every change names a link or island of this puzzle
export function validMoves(moves) {
  if (!Array.isArray(moves)) return [];
  const ok = (ch) => Array.isArray(ch) && ch.length === 4 && Number.isInteger(ch[1]) && ch[1] >= 0 &&
    ((ch[0] === "b" && ch[1] < game.links.length && ch.slice(2).every((v) => Number.isInteger(v) && v >= 0 && v <= game.links[ch[1]].cap)) ||
     ((ch[0] === "m" || ch[0] === "l") && ch[1] < (ch[0] === "m" ? game.links.length : game.islands.length) &&
      ch.slice(2).every((v) => v === 0 || v === 1)));
  return moves.filter((m) => Array.isArray(m) && m.length && m.every(ok)).slice(-MAX_SAVED_MOVES);
}

// bridges [[r1, c1, r2, c2, k], ...] into counts; returns how many did not fit a link
export function applyBridgeList(list, counts) {
  let misfits = 0;
  for (const [r1, c1, r2, c2, k] of list) {
    const l = linkAt([r1, c1, r2, c2]);
    if (l === undefined) { misfits++; continue; }
    counts[l] = k;
  }
  return misfits;
}

export const degree = (i) => game.inc[i].reduce((s, k) => s + game.counts[k], 0);
export const isComplete = () => game.islands.length > 0 && game.islands.every((s, i) => degree(i) === s.n);
export const ends = (k) => { const l = game.links[k], a = game.islands[l.a], b = game.islands[l.b]; return [a.r, a.c, b.r, b.c]; };

export function bridgeList(counts = game.counts) {
  const out = [];
  game.links.forEach((l, k) => { if (counts[k]) out.push([...ends(k), counts[k]]); });
  return out;
}
export const markList = () => [...game.links.map((_, k) => k).filter((k) => game.marks[k]).map(ends),
  ...[...(game.caps || new Map())].filter(([k]) => !game.marks[k]).map(([k, most]) => [...ends(k), most])];

// union-find groups of islands joined by bridges: island -> group root
export function groups() {
  const parent = game.islands.map((_, i) => i);
  const find = (i) => { while (parent[i] !== i) { parent[i] = parent[parent[i]]; i = parent[i]; } return i; };
  game.links.forEach((l, k) => { if (game.counts[k]) parent[find(l.a)] = find(l.b); });
  return game.islands.map((_, i) => find(i));
}

// a link that can still take one more bridge (what Tatham's G key shows)
export function canTakeMore(k) {
  const l = game.links[k];
  if (game.marks[k] || game.counts[k] >= l.cap) return false;
  if (game.locked.has(l.a) || game.locked.has(l.b)) return false;
  if (l.cross.some((o) => game.counts[o])) return false;
  return degree(l.a) < game.islands[l.a].n && degree(l.b) < game.islands[l.b].n;
}

// a move is a list of changes [kind, index, from, to]; kind "b" bridges on a link, "m" a mark, "l" a lock
export function setValue(kind, k, v) {
  if (kind === "b") game.counts[k] = v;
  else if (kind === "m") game.marks[k] = !!v;
  else if (kind === "l") { if (v) game.locked.add(k); else game.locked.delete(k); }
}

export function refusal(k, next) {
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

// while a puzzle is being generated, the board takes no moves
export const busy = () => !!game.generating;
