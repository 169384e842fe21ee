// hashikit web: the board's frame: the size the board is drawn at (fit to the screen, times the
// zoom), the cue when part of it is out of view, bringing it into view, and screen points in board
// units.  The game and the constructor are laid out alike.
"use strict";

import { $, board } from "./dom.js";
import { set, state, subscribe } from "./store.js";

// the size of the board on screen: the constructor's while building
const boardSize = () => (state.mode === "build" ? state.build : state.puzzle);

// the cell size at which the whole board fits the screen: across its frame, and down from where it
// starts on the page (so it is wholly in view with the page at the top, and after showBoard)
function fitPx() {
  const p = boardSize();
  const wrap = $("board-wrap");
  const pad = wrap.offsetWidth - wrap.clientWidth + 16;
  const w = wrap.clientWidth - 16;
  const top = wrap.getBoundingClientRect().top + scrollY;
  const h = Math.max(140, innerHeight - top - pad - 8);
  return { p, h, fit: Math.max(4, Math.min(w / p.cols, h / p.rows)) };
}

// the board opens at fit on every screen; zoom (+ and -, or pinch) goes from there
export function layoutBoard() {
  if (!state.puzzle && state.mode !== "build") return;
  const { p, h, fit } = fitPx();
  const px = fit * state.zoom;
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
  set({ zoom: Math.min(6, Math.max(0.3, state.zoom * f)) });
  layoutBoard();
  wrap.scrollLeft = cx0 * wrap.scrollWidth - wrap.clientWidth / 2;   // keep the middle in the middle
  wrap.scrollTop = cy0 * wrap.scrollHeight - wrap.clientHeight / 2;
  showCue();
}

export function zoomFit() {
  set({ zoom: 1 });
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

// a pointer event's place in board units (S a cell)
export function svgPoint(ev) {
  const pt = board.createSVGPoint();
  pt.x = ev.clientX; pt.y = ev.clientY;
  const m = board.getScreenCTM();
  return m ? pt.matrixTransform(m.inverse()) : { x: 0, y: 0 };
}

let laidOut = "";
subscribe((changed) => {
  if (!["puzzle", "mode", "zoom", "build"].some((f) => changed.has(f))) return;
  const p = boardSize();
  const now = p ? `${state.mode} ${p.rows}x${p.cols} ${state.zoom}` : "";
  if (changed.has("puzzle") || changed.has("mode") || now !== laidOut) layoutBoard();
  laidOut = now;
});
