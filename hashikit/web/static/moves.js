// hashikit web: moves and the one undo stack.  A move is a list of changes [kind, index, from, to]
// (kind "b" bridges on a link, "m" a mark, "l" a lock); the rules it must keep are in game.js.
"use strict";

import { busy, game, isComplete, islandName, refusal, setValue } from "./game.js";
import { hideBanner, say } from "./messages.js";
import { flash, paint } from "./board.js";
import { resumeTimer, saveGame, updateHash } from "./saved.js";
import { checkBoard } from "./check.js";

const COUNT_WORDS = ["No bridge", "A bridge", "Two bridges", "Three bridges", "Four bridges"];

// cycle link k: none -> 1 -> ... -> cap -> none; a move that would break a rule is refused
export function cycle(k) {
  if (game.solved || busy()) return;
  const l = game.links[k], cur = game.counts[k];
  let next = cur + 1 > l.cap ? 0 : cur + 1;
  let note = "";
  if (game.marks[k] || [l.a, l.b].some((i) => game.locked.has(i))) { say(refusal(k, next) + " Move refused.", "warn"); flash(k); return; }
  if (next > cur) {
    const why = refusal(k, next);
    if (why) {
      if (cur === 0) { say(why + " Move refused.", "warn"); flash(k); return; }
      next = 0;
      note = why + " The bridges are removed instead.";
    }
  }
  doMove([["b", k, cur, next]]);
  if (note) say(note, "warn");
}

export function toggleMark(k) {
  if (game.solved || busy() || k === undefined) return;
  const l = game.links[k];
  if (game.counts[k]) { say(`Remove the bridges between ${islandName(l.a)} and ${islandName(l.b)} before marking the link "no bridge".`, "warn"); flash(k); return; }
  const lockedEnd = [l.a, l.b].find((i) => game.locked.has(i));
  if (lockedEnd !== undefined) { say(`${islandName(lockedEnd)} is locked.`.replace(/^t/, "T"), "warn"); return; }
  const on = !game.marks[k];
  doMove([["m", k, game.marks[k] ? 1 : 0, on ? 1 : 0]],
         `${on ? "Marked" : "Unmarked"} "no bridge" between ${islandName(l.a)} and ${islandName(l.b)}.`);
}

export function toggleLock(i) {
  if (game.solved || busy() || i === undefined || i === null) return;
  const on = !game.locked.has(i);
  doMove([["l", i, on ? 0 : 1, on ? 1 : 0]], `${on ? "Locked" : "Unlocked"} ${islandName(i)}.`);
}

export function doMove(changes, label = "") {
  if (!changes.length) return;
  for (const [kind, k, , to] of changes) setValue(kind, k, to);
  game.undo.push(changes);
  game.redo = [];
  game.hint = null; game.checked = null; game.pendingHint = null;
  say(label || moveText(changes));
  afterChange();
}

function moveText(changes) {
  if (changes.length !== 1 || changes[0][0] !== "b") return "";
  const [, k, , to] = changes[0], l = game.links[k];
  return `${COUNT_WORDS[to] || to + " bridges"} between ${islandName(l.a)} and ${islandName(l.b)}.`;
}

export function undo() {
  const changes = game.undo.pop();
  if (!changes || busy()) return;
  for (const [kind, k, from] of changes) setValue(kind, k, from);
  game.redo.push(changes);
  game.hint = null; game.checked = null; game.pendingHint = null; game.revealed = false;
  unsolve();
  say("Undone.");
  afterChange();
}

export function redo() {
  const changes = game.redo.pop();
  if (!changes || busy()) return;
  for (const [kind, k, , to] of changes) setValue(kind, k, to);
  game.undo.push(changes);
  game.hint = null; game.checked = null; game.pendingHint = null;
  say("Redone.");
  afterChange();
}

export function unsolve() {
  if (game.solved) { game.solved = false; hideBanner(); resumeTimer(); }
}

export function afterChange({ save = true } = {}) {
  paint();
  updateHash();
  if (save) saveGame();
  if (isComplete() && !game.solved) checkBoard(true);
}
