// hashikit web: switching between playing and constructor mode (the builder itself is build.js).
"use strict";

import { $, busy, game } from "./game.js";
import { hideBanner, say, showRules } from "./messages.js";
import { buildBoard, layoutBoard, paint } from "./board.js";
import { resumeTimer, saveGame, stopTimer } from "./saved.js";

// builder from build.js; loadPuzzle(puzzle, opts) from load.js
export function createModes({ builder, loadPuzzle }) {
  function enterBuild(fromPuzzle = true) {
    if (game.mode === "build") return;
    stopTimer();
    saveGame();
    game.mode = "build";
    $("mode").setAttribute("aria-pressed", "true");
    $("mode").textContent = "Play";
    $("mode").title = "Back to playing (B)";
    $("build-card").hidden = false;
    hideBanner();
    for (const id of ["check", "hint", "reveal", "restart", "print"]) $(id).disabled = true;
    builder.start(fromPuzzle && game.puzzle ? game.puzzle : null);
    showRules();
    layoutBoard();
  }

  function leaveBuild() {
    if (game.mode !== "build") return;
    game.mode = "play";
    builder.stop();
    $("mode").setAttribute("aria-pressed", "false");
    $("mode").textContent = "Build";
    $("mode").title = "Build your own puzzle (B)";
    $("build-card").hidden = true;
    for (const id of ["check", "hint", "reveal", "restart", "print"]) $(id).disabled = false;
    showRules();
  }

  async function toggleMode() {
    if (busy()) return;
    if (game.mode === "play") { enterBuild(true); return; }
    const p = builder.puzzle();
    if (p.islands.length) {
      try { await loadPuzzle(p, { restore: true }); return; } catch (e) { say(e.message, "error"); return; }
    }
    leaveBuild();
    if (game.puzzle) { buildBoard(); layoutBoard(); resumeTimer(); paint(); say("Back to your game."); }
  }

  return { enterBuild, leaveBuild, toggleMode };
}
