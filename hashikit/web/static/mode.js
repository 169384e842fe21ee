// hashikit web: switching between playing and the constructor (build.js): the Build/Play button,
// the buttons that only play (the trial's among them), and playing the constructor's puzzle.
"use strict";

import * as build from "./build.js";
import { $ } from "./dom.js";
import { loadPuzzle } from "./load.js";
import { say } from "./messages.js";
import { saveGame } from "./saved.js";
import * as store from "./store.js";

const { state } = store;
const PLAY_ONLY = ["check", "hint", "reveal", "restart", "print", "trial", "trial-keep", "trial-drop"];

// the constructor, on the puzzle played (fromPuzzle) or on the board it holds
export function enterBuild(fromPuzzle = true) {
  if (state.mode === "build") return;
  saveGame();
  store.setMode("build");
  build.start(fromPuzzle && state.puzzle ? state.puzzle : null);
}

async function playBuilt() {
  const p = store.builtPuzzle();
  if (!p.islands.length) { say("Place islands first.", "warn"); return; }
  try { await loadPuzzle(p, { restore: false }); } catch (e) { say(e.message, "error"); }
}

export async function toggleMode() {
  if (store.busy()) return;
  if (state.mode === "play") { enterBuild(true); return; }
  const p = store.builtPuzzle();
  if (p.islands.length) {
    try { await loadPuzzle(p, { restore: true }); } catch (e) { say(e.message, "error"); }
    return;
  }
  store.setMode("play");
  if (state.puzzle) say("Back to your game.");
}

function showMode() {
  const building = state.mode === "build";
  $("mode").setAttribute("aria-pressed", building ? "true" : "false");
  $("mode").textContent = building ? "Play" : "Build";
  $("mode").title = building ? "Back to playing (B)" : "Build your own puzzle (B)";
  $("build-card").hidden = !building;
  for (const id of PLAY_ONLY) $(id).disabled = building;
}

// Keep and Drop show while a trial is under way; the board's frame says how deep
function showTrial() {
  const depth = state.mode === "play" ? state.trials.length : 0;
  $("trial-keep").hidden = $("trial-drop").hidden = !depth;
  $("trial").textContent = depth ? "Try inside" : "Try";
  $("trial").title = depth ? `Start a trial inside trial ${depth} (T)` : "Try a guess on a layer of its own (T)";
  if (depth) document.body.dataset.trial = depth; else delete document.body.dataset.trial;
}

$("build-play").addEventListener("click", playBuilt);
store.subscribe((changed) => {
  if (changed.has("mode")) showMode();
  if (changed.has("mode") || changed.has("trials")) showTrial();
});
