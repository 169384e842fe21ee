// hashikit web: the words around the board: the status line, the "Solved" banner, the line about
// the puzzle, and the tagline and help, which follow the puzzle's own rules.  The banner, the
// puzzle's line and the rules follow the store; the status line says what it is told.
"use strict";

import { $ } from "./dom.js";
import { state, subscribe } from "./store.js";
import { NUMBER_WORDS, fmtTime, rulesText } from "./words.js";

let said = 0;

// how many messages the status line has shown: a caller that waits for an answer notes it when it
// asks, and knows on the answer whether the player was told something newer meanwhile
export function saidCount() {
  return said;
}

// a message in the status line, above the board; `actions` ([{label, run, id?}]) are the buttons
// it asks the player to press, shown in it, so they are in view whatever the screen folds away
export function say(text, kind = "", actions = []) {
  said += 1;
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
  if (actions.length) {
    const row = document.createElement("span");
    row.className = "actions";
    for (const { label, run, id } of actions) {
      const b = document.createElement("button");
      b.type = "button";
      b.textContent = label;
      if (id) b.id = id;
      b.addEventListener("click", run);
      row.append(b);
    }
    el.append(" ", row);
  }
  fitMessage();
}

// a message's button that presses a tool of the toolbar (folded into the menu or not)
export const toolAction = (id, label) => ({ label, run: () => $(id).click() });

// a message longer than its reserved place grows over the board (with a shadow), never moving it
export function fitMessage() {
  const el = $("status");
  el.classList.toggle("with-banner", !$("banner").hidden);
  el.classList.toggle("tall", el.scrollHeight > el.parentElement.clientHeight + 1);
}

export const setStatusKind = (kind) => {
  const folded = $("status").classList.contains("folded");
  $("status").className = `status ${kind}` + (folded ? " folded" : "");
  fitMessage();
};

// a message grown over the board folds back into its place (scrolling there) when the player
// turns to the board or taps the message, so no island stays under it; the next message is whole
function foldMessage() {
  if ($("status").classList.contains("tall")) $("status").classList.add("folded");
}
$("board-frame").addEventListener("pointerdown", foldMessage, { capture: true });
$("status").addEventListener("click", (ev) => {
  if (!ev.target.closest("button, a, input") && $("status").classList.contains("tall")) {
    $("status").classList.toggle("folded");
  }
});

const BUILD_HELP = "Building: tap or click a cell to place an island and pick its number from the buttons " +
  "beside it; tap an island to change its number or remove it. Keyboard: arrow keys move the cursor, a digit sets " +
  "the number, Delete removes the island. Undo and Redo work here too; Play it starts the game.";

function showRules() {
  if (state.mode === "build") { $("help").textContent = BUILD_HELP; return; }
  const mb = state.graph?.maxbridges || 2, noLoops = !!state.graph?.noLoops;
  $("tagline").textContent = rulesText(mb, noLoops);
  const more = mb === 1 ? "again to remove it" : `again for more (up to ${NUMBER_WORDS[mb] || mb}), once more to remove them`;
  $("help").textContent =
    `Click or tap an island, then another in its row or column (or drag from one to the other) to add a bridge; ${more}. ` +
    `Right-click a link (or right-drag from an island, or long-press on a touch screen) to mark it "no bridge"; ` +
    `Shift+click or long-press an island to lock it. On a touch screen two fingers pinch to zoom and pan the board, ` +
    `and a finger moved off the islands pans it. Try starts a trial: its moves go on a layer of their own, drawn in ` +
    `another colour, until you keep them or drop them all at once; trials nest. ` +
    `Keys on the board (Tab, or the "Skip to the board" link, reaches it): arrow keys move between islands, ` +
    `Enter or Space picks one, then an arrow key lays a bridge that way; Shift+arrow marks "no bridge"; ` +
    `L locks the island; Esc lets go. Shortcuts: C check, H hint, T try, K keep the trial, X drop it, R reveal, ` +
    `G possible bridges, O groups, E errors, P print, B build, N new puzzle, D dark mode, + - 0 zoom, ` +
    `Delete clear, Ctrl+Z / Ctrl+Y undo and redo.`;
}

// the banner shows while a solved game is played
function showBanner() {
  const b = $("banner"), on = state.mode === "play" && state.solved;
  b.hidden = !on;
  if (on) {
    b.textContent = state.revealed ? "Solved by the computer" : state.hints ? `Solved with help, ${fmtTime(state.elapsed)}`
      : `Solved! ${fmtTime(state.elapsed)}`;
    b.className = "banner" + (state.revealed ? " revealed" : state.hints ? " helped" : "");
    $("status").style.setProperty("--banner-w", `${b.offsetWidth}px`);
  }
  fitMessage();
}

// the puzzle in a line: its size, islands, rules and level (and when it has several solutions)
function showInfo() {
  const p = state.puzzle, g = state.graph;
  if (!p) return;
  const several = state.solution?.status === "solved" && state.solution.unique === false;
  $("info").textContent = `${p.cols} × ${p.rows} board, ${g.islands.length} islands` +
    (g.maxbridges !== 2 ? `, up to ${g.maxbridges} bridges per pair` : "") + (g.noLoops ? ", no loops" : "") +
    (state.level !== "custom" ? `, ${state.level}` : "") + "." + (several ? " It has more than one solution." : "");
}

subscribe((changed) => {
  if (changed.has("puzzle") || changed.has("mode")) showRules();
  if (["puzzle", "mode", "solved", "revealed", "hints", "elapsed"].some((f) => changed.has(f))) showBanner();
  if (["puzzle", "level", "solution"].some((f) => changed.has(f))) showInfo();
});
