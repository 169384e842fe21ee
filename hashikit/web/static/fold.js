// hashikit web: the game's toolbar in one row on any screen: what does not fit goes into the More
// menu, the tools that matter least first (data-fold: a higher number folds sooner, 0 never; one
// number, one group: a trial's Keep and Drop fold together, and in a trial Hint folds first).  The
// tools are moved, not copied: their ids, listeners and shortcut keys stay theirs.
"use strict";

import { $ } from "./dom.js";
import { subscribe } from "./store.js";

const bar = $("tools"), menu = $("menu"), button = $("menu-button");
const items = [...bar.querySelectorAll(":scope > [data-fold]")];     // in the toolbar's order

const shown = () => [...bar.children].filter((e) => e !== menu && !e.hidden);

// one row: no tool sits below the tallest one's line
function fits() {
  const tools = shown();
  if (!tools.length) return true;
  const tallest = Math.max(...tools.map((e) => e.offsetHeight));
  return bar.scrollHeight <= tallest + 4;
}

export function openMenu(open = true) {
  menu.hidden = !open;
  button.setAttribute("aria-expanded", open ? "true" : "false");
}

// the tools not folded in the row, in the toolbar's order, and the folded ones in the menu, in it
function arrange(folded) {
  for (const e of items) (folded.has(e) ? menu : bar).insertBefore(e, folded.has(e) ? null : button);
}

// tools with the same number fold together (Keep and Drop): the groups, those that fold sooner first
const groups = [...new Set(items.map((e) => +e.dataset.fold).filter((n) => n > 0))].sort((a, b) => b - a)
  .map((n) => items.filter((e) => +e.dataset.fold === n));

export function fold() {
  openMenu(false);
  const folded = new Set();
  arrange(folded);
  button.hidden = true;
  if (fits()) return;
  button.hidden = false;
  for (const group of groups) {
    if (fits()) break;
    group.forEach((e) => folded.add(e));
    arrange(folded);
  }
  // a group folded for room that a later, larger one made after all comes back (Hint, when a
  // trial's Keep and Drop had to go too)
  for (const group of [...groups].reverse().filter((g) => folded.has(g[0]) && g.some((e) => !e.hidden))) {
    group.forEach((e) => folded.delete(e));
    arrange(folded);
    if (!fits()) { group.forEach((e) => folded.add(e)); arrange(folded); }
  }
  button.hidden = ![...folded].some((e) => !e.hidden);
}

let pending = 0;
export function foldSoon() {
  cancelAnimationFrame(pending);
  pending = requestAnimationFrame(fold);
}

button.addEventListener("click", () => {
  openMenu(menu.hidden);
  if (!menu.hidden) menu.querySelector("button:not(:disabled), input")?.focus({ preventScroll: true });
});
menu.addEventListener("click", (ev) => { if (ev.target.closest("button")) openMenu(false); });
document.addEventListener("pointerdown", (ev) => {
  if (!menu.hidden && !ev.target.closest("#menu, #menu-button")) openMenu(false);
});
menu.addEventListener("keydown", (ev) => {
  if (ev.key === "Escape") { ev.stopPropagation(); openMenu(false); button.focus(); }
});
let width = 0;
new ResizeObserver(([entry]) => {
  if (Math.round(entry.contentRect.width) !== width) { width = Math.round(entry.contentRect.width); foldSoon(); }
}).observe($("play"));
subscribe((changed) => { if (changed.has("mode") || changed.has("trials")) foldSoon(); });
