// hashikit web: what is kept of a game: its progress in the browser's storage (after every move,
// and every few seconds of play), and the page address that names the puzzle and the bridges laid.
"use strict";

import { $ } from "./dom.js";
import * as storage from "./storage.js";
import { puzzleCode } from "./share.js";
import { MAX_SAVED_MOVES, elapsedNow, state, subscribe } from "./store.js";

const SAVE_EVERY_MS = 5000;

// a position as it is saved: counts and marks a digit a link, the locked islands
const positionSaved = (pos) => ({ counts: pos.counts.join(""), marks: pos.marks.map((m) => (m ? 1 : 0)).join(""),
                                  locked: [...pos.locked] });

export function saveGame() {
  if (!state.puzzle || state.mode !== "play") return;
  storage.saveProgress(puzzleCode(state.puzzle), {
    ...positionSaved(state.position), elapsed: elapsedNow(), solved: state.solved, level: state.level, at: Date.now(),
    undo: state.undo.slice(-MAX_SAVED_MOVES), redo: state.redo.slice(-MAX_SAVED_MOVES), hints: state.hints,
    revealed: state.revealed,
    trials: state.trials.map((t) => ({ base: positionSaved(t.base), undo: t.undo.slice(-MAX_SAVED_MOVES),
                                       redo: t.redo.slice(-MAX_SAVED_MOVES) })),
  });
  storage.setLastGame(location.hash);
}

// the page's address for this game: the puzzle, its level, and (withProgress) the bridges laid
export function shareUrl(withProgress) {
  let hash = puzzleCode(state.puzzle);
  if (state.level !== "custom") hash += "&l=" + encodeURIComponent(state.level);
  if (state.daily) hash += "&d=" + state.daily;
  if (withProgress && state.position.counts.some((n) => n)) hash += "&b=" + state.position.counts.join("");
  return location.href.split("#")[0] + "#" + hash;
}

export function updateHash() {
  if (!state.puzzle || state.mode !== "play") return;
  history.replaceState(null, "", shareUrl(true));
  $("share-url").value = shareUrl($("share-progress").checked);
}

setInterval(() => { if (state.since !== null) saveGame(); }, SAVE_EVERY_MS);

subscribe((changed) => {
  if (changed.has("puzzle") || changed.has("position") || changed.has("level")) updateHash();
  if (changed.has("puzzle")) return;       // a game just loaded is saved at its first change
  if (["position", "hints", "solved", "revealed", "trials"].some((f) => changed.has(f))) saveGame();
});
