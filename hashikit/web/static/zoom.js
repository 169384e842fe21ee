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
  const wrap = $("board-wrap"), css = getComputedStyle(wrap);
  const padX = parseFloat(css.paddingLeft) + parseFloat(css.paddingRight);
  const padY = parseFloat(css.paddingTop) + parseFloat(css.paddingBottom);
  const edge = wrap.offsetHeight - wrap.clientHeight;
  const w = wrap.clientWidth - padX;
  const top = wrap.getBoundingClientRect().top + scrollY;
  const h = Math.max(140, innerHeight - top - padY - edge - 8);
  return { p, h, frame: h + padY + edge, fit: Math.max(4, Math.min(w / p.cols, h / p.rows)) };
}

// the board opens at fit on every screen; zoom (+ and -, or pinch) goes from there
export function layoutBoard() {
  if (!state.puzzle && state.mode !== "build") return;
  const { p, frame, fit } = fitPx();
  const px = fit * state.zoom;
  board.style.width = `${Math.round(p.cols * px)}px`;
  board.style.height = `${Math.round(p.rows * px)}px`;
  board.dataset.cell = px.toFixed(1);
  $("board-wrap").style.maxHeight = `${Math.round(frame)}px`;
  showCue();
}

// the zooms the board takes: from a little under fit to cells of MAX_CELL_PX (any board, any screen)
const MAX_CELL_PX = 72;
function zoomRange() {
  const p = boardSize();
  return p ? [0.3, Math.max(6, MAX_CELL_PX / fitPx().fit)] : [0.3, 6];
}

// where a screen point falls on the board, as fractions of its width and height
export function boardFraction(x, y) {
  const r = board.getBoundingClientRect();
  return [(x - r.left) / Math.max(1, r.width), (y - r.top) / Math.max(1, r.height)];
}

// the zoom set to z (within its range), the board's point at fractions [fx, fy] brought under
// the screen point (x, y): a pinch zooms and pans in one, the buttons keep the middle in the middle
export function zoomAround(z, [fx, fy], x, y) {
  const [lo, hi] = zoomRange();
  set({ zoom: Math.min(hi, Math.max(lo, z)) });
  layoutBoard();
  const wrap = $("board-wrap"), r = board.getBoundingClientRect();
  wrap.scrollLeft += r.left + fx * r.width - x;
  wrap.scrollTop += r.top + fy * r.height - y;
  showCue();
}

export function zoomBy(f) {
  const r = $("board-wrap").getBoundingClientRect();
  const x = r.left + r.width / 2, y = r.top + r.height / 2;
  zoomAround(state.zoom * f, boardFraction(x, y), x, y);
}

export function zoomFit() {
  set({ zoom: 1 });
  layoutBoard();
}

// a finger's move on the board pans it; what the frame cannot take scrolls the page
export function panBy(dx, dy) {
  const wrap = $("board-wrap"), x0 = wrap.scrollLeft, y0 = wrap.scrollTop;
  wrap.scrollLeft -= dx;
  wrap.scrollTop -= dy;
  const restX = dx + (wrap.scrollLeft - x0), restY = dy + (wrap.scrollTop - y0);
  if (Math.abs(restX) >= 1 || Math.abs(restY) >= 1) window.scrollBy(-restX, -restY);
  showCue();
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
