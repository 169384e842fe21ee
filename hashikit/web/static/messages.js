// hashikit web: the messages under the board (the status line and the "Solved" banner) and the
// tagline and help, which follow the puzzle's own rules.
"use strict";

import { $, game, maxBridges } from "./game.js";
import { fmtTime } from "./saved.js";

const NUMBER_WORDS = ["no", "one", "two", "three", "four", "five", "six", "seven", "eight"];

export function say(text, kind = "") {
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
  fitMessage();
}

// a message longer than its reserved place grows over the board (with a shadow), never moving it
export function fitMessage() {
  const el = $("status");
  el.classList.toggle("with-banner", !$("banner").hidden);
  el.classList.toggle("tall", el.scrollHeight > el.parentElement.clientHeight + 1);
}

// The tagline and help follow the puzzle's own rules (MAXBRIDGES, no loops).
export function rulesText(mb, noLoops) {
  const most = mb === 1 ? "one bridge between a pair" : `at most ${NUMBER_WORDS[mb] || mb} between a pair`;
  return `Join the islands with bridges: each island gets as many bridges as its number, ${most}, ` +
         `none crossing, all islands connected${noLoops ? ", and no closed loop of bridges" : ""}.`;
}

const BUILD_HELP = "Building: tap or click a cell to place an island and pick its number from the buttons " +
  "beside it; tap an island to change its number or remove it. Keyboard: arrow keys move the cursor, a digit sets " +
  "the number, Delete removes the island. Undo and Redo work here too; Play it starts the game.";

export function showRules() {
  if (game.mode === "build") { $("help").textContent = BUILD_HELP; return; }
  const mb = maxBridges(), noLoops = !!game.puzzle?.no_loops;
  $("tagline").textContent = rulesText(mb, noLoops);
  const more = mb === 1 ? "again to remove it" : `again for more (up to ${NUMBER_WORDS[mb] || mb}), once more to remove them`;
  $("help").textContent =
    `Click an island, then another in its row or column (or drag from one to the other) to add a bridge; ${more}. ` +
    `Right-click a link (or right-drag from an island, or long-press on a touch screen) to mark it "no bridge"; ` +
    `Shift+click or long-press an island to lock it. Keyboard: Tab to the board, arrow keys move between islands, ` +
    `Enter or Space picks one, then an arrow key lays a bridge that way; Shift+arrow marks "no bridge"; ` +
    `L locks the island; Esc lets go. Shortcuts: C check, H hint, R reveal, G possible bridges, O groups, ` +
    `E errors, P print, B build, N new puzzle, D dark mode, + - 0 zoom, Ctrl+Z / Ctrl+Y undo and redo.`;
}

export const setStatusKind = (kind) => { $("status").className = `status ${kind}`; fitMessage(); };

export function showBanner() {
  const b = $("banner");
  b.hidden = false;
  b.textContent = game.revealed ? "Solved by the computer" : game.hints ? `Solved with help, ${fmtTime(game.elapsed)}`
    : `Solved! ${fmtTime(game.elapsed)}`;
  b.className = "banner" + (game.revealed ? " revealed" : game.hints ? " helped" : "");
  $("status").style.setProperty("--banner-w", `${b.offsetWidth}px`);
  fitMessage();
}

export function hideBanner() {
  $("banner").hidden = true;
  fitMessage();
}
