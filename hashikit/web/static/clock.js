// hashikit web: the game's clock: it runs while a puzzle is played, not solved and no puzzle is
// being generated, and shows the time played.  The time itself is the store's.
"use strict";

import { $ } from "./dom.js";
import { elapsedNow, startClock, state, stopClock, subscribe } from "./store.js";
import { fmtTime } from "./words.js";

let ticking = null;

const show = () => { $("timer").textContent = fmtTime(elapsedNow()); };

subscribe((changed) => {
  if (!["puzzle", "mode", "solved", "generating", "since", "elapsed"].some((f) => changed.has(f))) return;
  const run = state.mode === "play" && !!state.puzzle && !state.solved && !state.generating;
  if (run) startClock(); else stopClock();
  if (run && !ticking) ticking = setInterval(show, 500);
  if (!run && ticking) { clearInterval(ticking); ticking = null; }
  show();
});
