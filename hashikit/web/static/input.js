// hashikit web: input on the board: picking islands, taps, drags and long presses (mouse, pen and
// touch), the keyboard on islands, and the page's shortcut keys; the constructor takes the board's
// input while building.
"use strict";

import { focusIsland } from "./board.js";
import * as build from "./build.js";
import { $, board } from "./dom.js";
import { S, cx, cy } from "./draw.js";
import { cancelGeneration } from "./load.js";
import { say } from "./messages.js";
import { cycle, redo, toggleLock, toggleMark, undo } from "./moves.js";
import { islandIndex, linkBetween, other } from "./referee.js";
import { busy, set, state } from "./store.js";
import { islandName } from "./words.js";
import { boardFraction, panBy, svgPoint, zoomAround, zoomBy, zoomFit } from "./zoom.js";

const LONG_PRESS_MS = 500;
const TOUCH_SLOP_PX = 10;        // a finger that moves less than this on the screen has not moved
const DIRS = { ArrowLeft: [0, -1], ArrowRight: [0, 1], ArrowUp: [-1, 0], ArrowDown: [1, 0] };
const WHERE = { ArrowLeft: "to the left", ArrowRight: "to the right", ArrowUp: "above", ArrowDown: "below" };

// the press or drag under way on the board: {i (an island) or link, id (the pointer), start, last,
// right, shift, moved, done (a long press acted), timer, aim}; its preview is the store's `drag`
let press = null;
const showPress = () => set({ drag: press && { i: press.i, aim: press.aim, right: press.right } });

// fingers on the board (pointer id -> its screen point); two of them pinch (zoom and pan in one:
// {f, d0, z0}, the board's point under their middle and their spread when the pinch began); one
// finger that moves off an island pans the board (and the page past its edges): {id, x0, y0, x, y, active}
const touches = new Map();
let pinch = null, pan = null;

function dropPress() {
  if (press) clearTimeout(press.timer);
  press = null;
  showPress();
}

function middle() {
  const [a, b] = [...touches.values()];
  return { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2, d: Math.hypot(a.x - b.x, a.y - b.y) };
}

function startPinch() {
  dropPress();
  pan = null;
  if (inBuild()) build.pointerCancel();
  const { x, y, d } = middle();
  pinch = { f: boardFraction(x, y), d0: Math.max(d, 1), z0: state.zoom };
}

// how far a press may move (board units) and still be a tap, at least a finger's slop on the screen
const slop = (units) => Math.max(units, (TOUCH_SLOP_PX / Math.max(1, +board.dataset.cell || S)) * S);

const name = (i) => islandName(state.graph, i);

function tapIsland(i) {
  if (state.solved || busy()) return;
  const sel = state.selected;
  set({ aim: undefined });
  if (sel === null) { set({ selected: i }); say(`Picked ${name(i)}: now pick an island in its row or column.`); }
  else if (sel === i) { set({ selected: null }); say(""); }
  else {
    const k = linkBetween(state.graph, sel, i);
    if (k === undefined) {
      set({ selected: i });
      say(`No bridge can join ${name(sel)} and ${name(i)}; picked ${name(i)} instead.`);
    } else {
      set({ selected: null });
      cycle(k);
    }
  }
}

function linkToward(i, [dr, dc]) {
  const g = state.graph, s = g.islands[i];
  for (const k of g.inc[i]) {
    const o = g.islands[other(g, k, i)];
    if (Math.sign(o.r - s.r) === dr && Math.sign(o.c - s.c) === dc) return k;
  }
  return undefined;
}

function islandToward(i, [dr, dc]) {
  const s = state.graph.islands[i];
  let best = null, bestScore = Infinity;
  state.graph.islands.forEach((o, j) => {
    const along = (o.r - s.r) * dr + (o.c - s.c) * dc;
    const across = Math.abs((o.r - s.r) * dc) + Math.abs((o.c - s.c) * dr);
    if (along <= 0) return;
    const score = along + 2 * across;
    if (score < bestScore) { bestScore = score; best = j; }
  });
  return best;
}

function islandAtPoint(p) {
  const i = islandIndex(state.graph, Math.floor(p.y / S), Math.floor(p.x / S));
  if (i === undefined) return undefined;
  const s = state.graph.islands[i];
  return Math.hypot(p.x - cx(s), p.y - cy(s)) <= S * 0.62 ? i : undefined;
}

// where a drag from island i ended: the link it means, or undefined
function dragLink(i, start, p) {
  const j = islandAtPoint(p);
  if (j !== undefined && j !== i) return linkBetween(state.graph, i, j);
  const dx = p.x - start.x, dy = p.y - start.y;
  return linkToward(i, Math.abs(dx) > Math.abs(dy) ? [0, Math.sign(dx)] : [Math.sign(dy), 0]);
}

function startLongPress(d) {
  d.timer = setTimeout(() => {
    if (press !== d || d.moved) return;
    d.done = true;
    if (d.link !== undefined) toggleMark(linkMeant(d, d.last || d.start));
    else toggleLock(d.i);
    navigator.vibrate?.(30);
  }, LONG_PRESS_MS);
}

// how far point p is from link k's line
function distance(k, p) {
  const g = state.graph, l = g.links[k], a = g.islands[l.a], b = g.islands[l.b];
  const x = Math.max(Math.min(cx(a), cx(b)), Math.min(Math.max(cx(a), cx(b)), p.x));
  const y = Math.max(Math.min(cy(a), cy(b)), Math.min(Math.max(cy(a), cy(b)), p.y));
  return Math.hypot(p.x - x, p.y - y);
}

// the link whose line runs nearest to point p (within reach), and the runner-up's distance
function nearestLink(p) {
  let best = undefined, dBest = Infinity, dNext = Infinity;
  state.graph.links.forEach((_, k) => {
    const d = distance(k, p);
    if (d < dBest) { dNext = dBest; dBest = d; best = k; } else if (d < dNext) dNext = d;
  });
  return dBest <= S * 0.45 ? { k: best, d: dBest, next: dNext } : null;
}

// at a crossing (two links about as near), the one along the way the finger moved
function linkMeant(d, p) {
  const near = nearestLink(p);
  if (!near) return d.link;
  if (near.next - near.d > S * 0.08) return near.k;
  const dx = p.x - d.start.x, dy = p.y - d.start.y;
  if (Math.hypot(dx, dy) < 0.5) return near.k;
  const horizontal = Math.abs(dx) > Math.abs(dy);
  const links = state.graph.links;
  const both = links.map((_, k) => k).filter((k) => distance(k, p) <= near.d + S * 0.08);
  return both.find((k) => links[k].h === horizontal) ?? near.k;
}

const inBuild = () => state.mode === "build";

// the board takes the keyboard: the island last focused, or the constructor's cursor
export function focusBoard() {
  if (inBuild()) board.focus();
  else if (state.puzzle) focusIsland(state.focus);
  document.body.classList.add("kbd");
}

// one key for every button (aria-keyshortcuts on each says which)
const SHORTCUTS = {
  c: () => $("check").click(), h: () => $("hint").click(), r: () => $("reveal").click(),
  p: () => $("print").click(), b: () => $("mode").click(), n: () => $("gen-form").requestSubmit(),
  d: () => $("theme").click(), e: () => $("errors").click(), g: () => $("possible").click(),
  o: () => $("groups").click(), "+": () => zoomBy(1.25), "=": () => zoomBy(1.25), "-": () => zoomBy(0.8),
  0: () => zoomFit(), Delete: () => $("restart").click(), t: () => $("trial").click(),
  k: () => $("trial-keep").click(), x: () => $("trial-drop").click(), m: () => $("menu-button").click(),
};

board.addEventListener("pointerdown", (ev) => {
  document.body.classList.remove("kbd");
  const touch = ev.pointerType === "touch";
  if (touch) {
    touches.set(ev.pointerId, { x: ev.clientX, y: ev.clientY });
    if (touches.size > 1) {
      if (touches.size === 2) startPinch();
      ev.preventDefault();
      return;
    }
    pan = { id: ev.pointerId, x0: ev.clientX, y0: ev.clientY, x: ev.clientX, y: ev.clientY, active: false };
  }
  if (inBuild()) { build.pointerDown(ev); return; }
  if (!state.puzzle || ev.button === 1 || ev.button > 2 || busy()) return;
  const g = ev.target.closest(".island:not(.ignored)");
  const hit = ev.target.closest(".hit");
  const right = ev.button === 2;
  if (g) {
    const i = +g.dataset.i;
    pan = null;                              // a finger on an island lays bridges, it does not pan
    press = { i, id: ev.pointerId, start: svgPoint(ev), right, shift: ev.shiftKey };
    board.setPointerCapture?.(ev.pointerId);
    focusIsland(i, false);
    ev.preventDefault();
  } else if (hit) {
    const start = svgPoint(ev);
    press = { link: nearestLink(start)?.k ?? +hit.dataset.link, id: ev.pointerId, start, last: start, right };
    ev.preventDefault();
  } else return;
  showPress();
  if (touch) startLongPress(press);
});

// a finger's move: the pinch, or the pan (once it has moved past the slop: a press on a link or
// a cell of the constructor is then no longer a tap); true when the move was the gesture's
function touchMove(ev) {
  if (!touches.has(ev.pointerId)) return false;
  touches.set(ev.pointerId, { x: ev.clientX, y: ev.clientY });
  if (pinch) {
    if (touches.size === 2) { const { x, y, d } = middle(); zoomAround(pinch.z0 * d / pinch.d0, pinch.f, x, y); }
    return true;
  }
  if (!pan || pan.id !== ev.pointerId) return false;
  if (!pan.active && Math.hypot(ev.clientX - pan.x0, ev.clientY - pan.y0) > TOUCH_SLOP_PX) {
    Object.assign(pan, { active: true, x: pan.x0, y: pan.y0 });    // the board follows the finger from where it began
    dropPress();
    if (inBuild()) build.pointerCancel();
  }
  if (pan.active) panBy(ev.clientX - pan.x, ev.clientY - pan.y);
  pan.x = ev.clientX; pan.y = ev.clientY;
  return true;
}

// a finger lifted: the end of a pinch (a finger still down pans on), or of a pan; true when the
// lift ends a gesture rather than a tap or a drag
function touchUp(ev) {
  touches.delete(ev.pointerId);
  if (pinch) {
    if (touches.size < 2) {
      pinch = null;
      const [id, p] = [...touches][0] || [];
      pan = id === undefined ? null : { id, x0: p.x, y0: p.y, x: p.x, y: p.y, active: true };
    }
    return true;
  }
  if (pan && pan.id === ev.pointerId) {
    const panned = pan.active;
    pan = null;
    return panned;
  }
  return false;
}

board.addEventListener("pointermove", (ev) => {
  if (ev.pointerType === "touch" && touchMove(ev)) {
    if (!press || press.id !== ev.pointerId) return;
  }
  if (state.mode !== "play" || !state.puzzle) return;
  const p = svgPoint(ev);
  if (!press) {                              // hovering after a pick: aim at the island under the pointer
    if (state.selected === null || ev.pointerType === "touch") return;
    const j = islandAtPoint(p);
    set({ aim: j !== undefined && j !== state.selected ? linkBetween(state.graph, state.selected, j) : undefined });
    return;
  }
  if (press.id !== ev.pointerId) return;
  press.last = p;
  if (!press.moved && Math.hypot(p.x - press.start.x, p.y - press.start.y) > slop(S * 0.3)) press.moved = true;
  if (press.i !== undefined && press.moved) {
    const k = islandAtPoint(p) === press.i ? undefined : dragLink(press.i, press.start, p);
    if (k !== press.aim) { press.aim = k; showPress(); }
  }
});

board.addEventListener("pointerup", (ev) => {
  if (ev.pointerType === "touch" && touchUp(ev)) return;
  if (inBuild()) { build.pointerUp(ev); return; }
  if (!press || press.id !== ev.pointerId) return;
  const d = press;
  press = null;
  showPress();
  clearTimeout(d.timer);
  if (d.done) return;                               // a long press already acted
  const p = svgPoint(ev);
  if (d.link !== undefined) {
    set({ selected: null });
    const k = linkMeant(d, p);
    if (d.right) toggleMark(k); else cycle(k);
    return;
  }
  const still = islandAtPoint(p) === d.i || (islandAtPoint(p) === undefined && Math.hypot(p.x - d.start.x, p.y - d.start.y) < slop(S * 0.4));
  if (still) {
    if (d.right || d.shift) { set({ selected: null }); toggleLock(d.i); }
    else tapIsland(d.i);
    return;
  }
  const k = dragLink(d.i, d.start, p);
  set({ selected: null });
  if (k === undefined) { say("No bridge can go there: bridges run straight to the next island.", "warn"); return; }
  if (d.right) toggleMark(k); else cycle(k);
});

board.addEventListener("pointercancel", (ev) => {
  touches.delete(ev.pointerId);
  if (!touches.size) { pinch = null; pan = null; }
  if (inBuild()) build.pointerCancel();
  dropPress();
});
// Ctrl+wheel (a trackpad's pinch) zooms around the pointer
$("board-wrap").addEventListener("wheel", (ev) => {
  if (!ev.ctrlKey || (!state.puzzle && !inBuild())) return;
  ev.preventDefault();
  zoomAround(state.zoom * Math.exp(-ev.deltaY / 300), boardFraction(ev.clientX, ev.clientY), ev.clientX, ev.clientY);
}, { passive: false });
board.addEventListener("contextmenu", (ev) => { if (ev.target.closest(".island, .hit") || inBuild()) ev.preventDefault(); });

board.addEventListener("keydown", (ev) => {
  if (inBuild()) return;
  const el = ev.target.closest(".island:not(.ignored)");
  if (!el) return;
  const i = +el.dataset.i;
  if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); tapIsland(i); return; }
  if (ev.key === "Escape") { set({ selected: null }); say(""); return; }
  if (ev.key.toLowerCase() === "l" && !ev.ctrlKey && !ev.metaKey) { ev.preventDefault(); ev.stopPropagation(); toggleLock(i); return; }
  const dir = DIRS[ev.key];
  if (!dir) return;
  ev.preventDefault();
  if (ev.shiftKey) {
    const k = linkToward(i, dir);
    if (k === undefined) { say(`No island ${WHERE[ev.key]} can take a bridge from ${name(i)}.`, "warn"); return; }
    toggleMark(k);
    return;
  }
  if (state.selected === i) {
    const k = linkToward(i, dir);
    if (k === undefined) { say(`No island ${WHERE[ev.key]} can take a bridge from ${name(i)}.`, "warn"); return; }
    cycle(k);
    if (!state.solved) set({ selected: i });   // keep it picked: more bridges from the same island
    return;
  }
  const k = linkToward(i, dir);
  const j = k !== undefined ? other(state.graph, k, i) : islandToward(i, dir);
  if (j !== null && j !== undefined) focusIsland(j);
});

document.addEventListener("keydown", (ev) => {
  if (ev.key === "Tab" || ev.key in DIRS) document.body.classList.add("kbd");
  if (ev.key === "Escape" && state.generating) { ev.preventDefault(); cancelGeneration(); return; }
  if (ev.target.closest && ev.target.closest("textarea, input:not([type=checkbox]), select")) return;
  const mod = ev.ctrlKey || ev.metaKey;
  if (mod && ev.key.toLowerCase() === "z" && !ev.shiftKey) { ev.preventDefault(); inBuild() ? build.undo() : undo(); return; }
  if (mod && (ev.key.toLowerCase() === "y" || (ev.key.toLowerCase() === "z" && ev.shiftKey))) { ev.preventDefault(); inBuild() ? build.redo() : redo(); return; }
  if (mod || ev.altKey) return;
  if (inBuild() && build.onKey(ev)) return;
  const action = SHORTCUTS[ev.key] || SHORTCUTS[ev.key.toLowerCase()];
  if (action && !(ev.key === "Delete" && inBuild())) { ev.preventDefault(); action(); }
});
