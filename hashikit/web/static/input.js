// hashikit web: selection and input on the board: taps, drags and long presses (mouse, pen and
// touch), the keyboard on islands, and the page's shortcut keys.
"use strict";

import { S, cx, cy } from "./draw.js";
import { $, board, busy, game, islandIndex, islandName, linkBetween } from "./game.js";
import { say } from "./messages.js";
import { drawPreview, paint, svgPoint, zoomBy, zoomFit } from "./board.js";
import { cycle, redo, toggleLock, toggleMark, undo } from "./moves.js";

const LONG_PRESS_MS = 500;
const DIRS = { ArrowLeft: [0, -1], ArrowRight: [0, 1], ArrowUp: [-1, 0], ArrowDown: [1, 0] };
const WHERE = { ArrowLeft: "to the left", ArrowRight: "to the right", ArrowUp: "above", ArrowDown: "below" };

function tapIsland(i) {
  if (game.solved || busy()) return;
  const sel = game.selected;
  game.aim = undefined;
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

function startLongPress(d) {
  d.timer = setTimeout(() => {
    if (game.drag !== d || d.moved) return;
    d.done = true;
    if (d.link !== undefined) toggleMark(linkMeant(d, d.last || d.start));
    else toggleLock(d.i);
    navigator.vibrate?.(30);
    paint();
  }, LONG_PRESS_MS);
}

// the link whose line runs nearest to point p (within reach), and the runner-up's distance
function nearestLink(p) {
  let best = undefined, dBest = Infinity, dNext = Infinity;
  game.links.forEach((l, k) => {
    const a = game.islands[l.a], b = game.islands[l.b];
    const x = Math.max(Math.min(cx(a), cx(b)), Math.min(Math.max(cx(a), cx(b)), p.x));
    const y = Math.max(Math.min(cy(a), cy(b)), Math.min(Math.max(cy(a), cy(b)), p.y));
    const d = Math.hypot(p.x - x, p.y - y);
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
  const both = game.links.map((_, k) => k).filter((k) => {
    const l = game.links[k], a = game.islands[l.a], b = game.islands[l.b];
    const x = Math.max(Math.min(cx(a), cx(b)), Math.min(Math.max(cx(a), cx(b)), p.x));
    const y = Math.max(Math.min(cy(a), cy(b)), Math.min(Math.max(cy(a), cy(b)), p.y));
    return Math.hypot(p.x - x, p.y - y) <= near.d + S * 0.08;
  });
  return both.find((k) => game.links[k].h === horizontal) ?? near.k;
}

// one key for every button (aria-keyshortcuts on each says which)
const SHORTCUTS = {
  c: () => $("check").click(), h: () => $("hint").click(), r: () => $("reveal").click(),
  p: () => $("print").click(), b: () => $("mode").click(), n: () => $("gen-form").requestSubmit(),
  d: () => $("theme").click(), e: () => $("errors").click(), g: () => $("possible").click(),
  o: () => $("groups").click(), "+": () => zoomBy(1.25), "=": () => zoomBy(1.25), "-": () => zoomBy(0.8),
  0: () => zoomFit(), Delete: () => $("restart").click(),
};

// the board's pointer and key listeners, and the page's shortcut keys; the builder takes them in build mode
export function setupInput({ builder }) {
  board.addEventListener("pointerdown", (ev) => {
    document.body.classList.remove("kbd");
    if (game.mode === "build") { builder.pointerDown(ev); return; }
    if (!game.puzzle || ev.button === 1 || ev.button > 2 || busy()) return;
    const g = ev.target.closest(".island:not(.ignored)");
    const hit = ev.target.closest(".hit");
    const right = ev.button === 2;
    if (g) {
      const i = +g.dataset.i;
      game.drag = { i, id: ev.pointerId, start: svgPoint(ev), right, shift: ev.shiftKey };
      board.setPointerCapture?.(ev.pointerId);
      focusIsland(i);
      ev.preventDefault();
    } else if (hit) {
      const start = svgPoint(ev);
      game.drag = { link: nearestLink(start)?.k ?? +hit.dataset.link, id: ev.pointerId, start, last: start, right };
      ev.preventDefault();
    } else return;
    if (ev.pointerType === "touch") startLongPress(game.drag);
  });

  board.addEventListener("pointermove", (ev) => {
    if (game.mode !== "play" || !game.puzzle) return;
    const p = svgPoint(ev);
    if (!game.drag) {                              // hovering after a pick: aim at the island under the pointer
      if (game.selected === null || ev.pointerType === "touch") return;
      const j = islandAtPoint(p);
      const k = j !== undefined && j !== game.selected ? linkBetween(game.selected, j) : undefined;
      if (k !== game.aim) { game.aim = k; drawPreview(); }
      return;
    }
    if (game.drag.id !== ev.pointerId) return;
    game.drag.last = p;
    if (!game.drag.moved && Math.hypot(p.x - game.drag.start.x, p.y - game.drag.start.y) > S * 0.3) game.drag.moved = true;
    if (game.drag.i !== undefined && game.drag.moved) {
      const k = islandAtPoint(p) === game.drag.i ? undefined : dragLink(game.drag.i, game.drag.start, p);
      if (k !== game.drag.aim) { game.drag.aim = k; drawPreview(); }
    }
  });

  board.addEventListener("pointerup", (ev) => {
    if (game.mode === "build") { builder.pointerUp(ev); return; }
    if (!game.drag || game.drag.id !== ev.pointerId) return;
    const d = game.drag;
    game.drag = null;
    clearTimeout(d.timer);
    drawPreview();
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

  board.addEventListener("pointercancel", () => { if (game.drag) clearTimeout(game.drag.timer); game.drag = null; drawPreview(); });
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

  document.addEventListener("keydown", (ev) => {
    if (ev.key === "Tab" || ev.key in DIRS) document.body.classList.add("kbd");
    if (ev.key === "Escape" && game.generating) { ev.preventDefault(); game.generating.abort(); return; }
    if (ev.target.closest && ev.target.closest("textarea, input:not([type=checkbox]), select")) return;
    const mod = ev.ctrlKey || ev.metaKey;
    if (mod && ev.key.toLowerCase() === "z" && !ev.shiftKey) { ev.preventDefault(); game.mode === "build" ? builder.undo() : undo(); return; }
    if (mod && (ev.key.toLowerCase() === "y" || (ev.key.toLowerCase() === "z" && ev.shiftKey))) { ev.preventDefault(); game.mode === "build" ? builder.redo() : redo(); return; }
    if (mod || ev.altKey) return;
    if (game.mode === "build" && builder.key(ev)) return;
    const action = SHORTCUTS[ev.key] || SHORTCUTS[ev.key.toLowerCase()];
    if (action && !(ev.key === "Delete" && game.mode === "build")) { ev.preventDefault(); action(); }
  });
}
