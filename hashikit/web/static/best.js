// hashikit web: best times, per board size, level and rules; games solved with hints are kept
// under a key of their own.  The line under the board shows them for the puzzle played.
"use strict";

import { $ } from "./dom.js";
import * as storage from "./storage.js";
import { state, subscribe } from "./store.js";
import { fmtTime } from "./words.js";

const bestKey = (hinted) => {
  const g = state.graph;
  return `${g.cols}x${g.rows} ${state.level} m${g.maxbridges}${g.noLoops ? " noloops" : ""}${hinted ? " hints" : ""}`;
};

// the game's time, kept when it beats the best: {best, isNew}
export const recordTime = () => storage.recordTime(bestKey(state.hints > 0), state.elapsed);

function showBest() {
  if (!state.puzzle) return;
  const times = storage.bestTimes(), best = times[bestKey(false)], helped = times[bestKey(true)];
  const g = state.graph;
  const what = `${g.cols} × ${g.rows} ${state.level === "custom" ? "puzzles" : state.level}`;
  $("best").textContent = (best === undefined ? "" : `Best time for ${what}: ${fmtTime(best)}.`) +
    (helped === undefined ? "" : `${best === undefined ? `For ${what}` : ""} with hints: ${fmtTime(helped)}.`);
}

subscribe((changed) => {
  if (["puzzle", "level", "solved"].some((f) => changed.has(f))) showBest();
});
