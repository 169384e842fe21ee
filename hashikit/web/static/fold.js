// hashikit web: the game's toolbar in one row on any screen: what does not fit goes into the More
// menu, the tools that matter least first (data-fold: a higher number folds sooner, 0 never).  The
// tools are moved, not copied: their ids, listeners and shortcut keys stay theirs.
"use strict";

import { $ } from "./dom.js";
import { subscribe } from "./store.js";

const bar = $("tools"), menu = $("menu"), button = $("menu-button");
const items = [...bar.querySelectorAll(":scope > [data-fold]")];     // in the toolbar's order
const place = new Map(items.map((e, k) => [e, k]));

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

export function fold() {
  openMenu(false);
  for (const e of items) bar.insertBefore(e, button);
  button.hidden = true;
  if (fits()) return;
  button.hidden = false;
  const folded = [];
  for (const e of items.filter((x) => +x.dataset.fold > 0).sort((a, b) => b.dataset.fold - a.dataset.fold)) {
    if (fits()) break;
    folded.push(e);
    menu.append(e);
  }
  for (const e of folded.sort((a, b) => place.get(a) - place.get(b))) menu.append(e);
  button.hidden = !folded.some((e) => !e.hidden);
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
