// hashikit web: what is kept of a game: its clock, its progress in the browser's storage, best
// times, and the page address that names the puzzle (and the bridges laid).
"use strict";

import * as store from "./store.js";
import { b64url, tathamId } from "./share.js";
import { $, MAX_SAVED_MOVES, game, maxBridges } from "./game.js";

export function fmtTime(ms) {
  const t = Math.floor(ms / 1000), h = Math.floor(t / 3600), m = Math.floor(t / 60) % 60, s = t % 60;
  return (h ? `${h}:${String(m).padStart(2, "0")}` : `${m}`) + `:${String(s).padStart(2, "0")}`;
}
const elapsedNow = () => game.elapsed + (game.timer ? Date.now() - game.t0 : 0);
function tick() {
  $("timer").textContent = fmtTime(elapsedNow());
  if (game.timer && Math.floor(elapsedNow() / 1000) % 5 === 0) saveGame();
}
export function resumeTimer() {
  if (!game.timer && game.mode === "play" && !game.solved) { game.t0 = Date.now(); game.timer = setInterval(tick, 500); }
  tick();
}
export function stopTimer() {
  if (game.timer) { clearInterval(game.timer); game.elapsed += Date.now() - game.t0; game.timer = null; }
  tick();
}

export function saveGame() {
  if (!game.puzzle || game.mode !== "play") return;
  store.saveProgress(puzzleCode(), {
    counts: game.counts.join(""), marks: game.marks.map((m) => (m ? 1 : 0)).join(""),
    locked: [...game.locked], elapsed: elapsedNow(), solved: game.solved, level: game.level,
    undo: game.undo.slice(-MAX_SAVED_MOVES), redo: game.redo.slice(-MAX_SAVED_MOVES), hints: game.hints,
    revealed: game.revealed,
  });
  store.setLastGame(location.hash);
}

// best times per size, level and rules; games solved with hints are kept under a key of their own
export const bestKey = (hinted = game.hints > 0) => {
  const p = game.puzzle;
  return `${p.cols}x${p.rows} ${game.level} m${maxBridges()}${p.no_loops ? " noloops" : ""}${hinted ? " hints" : ""}`;
};

export function showBest() {
  if (!game.puzzle) return;
  const times = store.bestTimes(), best = times[bestKey(false)], helped = times[bestKey(true)];
  const p = game.puzzle;
  const what = `${p.cols} × ${p.rows} ${game.level === "custom" ? "puzzles" : game.level}`;
  $("best").textContent = (best === undefined ? "" : `Best time for ${what}: ${fmtTime(best)}.`) +
    (helped === undefined ? "" : `${best === undefined ? `For ${what}` : ""} with hints: ${fmtTime(helped)}.`);
}

export function puzzleCode() {
  const p = game.puzzle;
  const id = tathamId(p);
  return id ? "p=" + id : "j=" + b64url(JSON.stringify(p));
}

export function shareUrl(withProgress) {
  let hash = puzzleCode();
  if (game.level !== "custom") hash += "&l=" + encodeURIComponent(game.level);
  if (withProgress && game.counts.some((n) => n)) hash += "&b=" + game.counts.join("");
  return location.href.split("#")[0] + "#" + hash;
}

export function updateHash() {
  if (!game.puzzle || game.mode !== "play") return;
  history.replaceState(null, "", shareUrl(true));
  $("share-url").value = shareUrl($("share-progress").checked);
}
