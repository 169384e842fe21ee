// hashikit web: the puzzle's solution (asked of the server once) and Check: rule breaks, bridges
// and marks the solution lacks, and the moment the board is solved.
"use strict";

import { api } from "./api.js";
import * as store from "./store.js";
import { $, applyBridgeList, board, bridgeList, busy, degree, game, islandIndex, linkBetween, markList } from "./game.js";
import { say, showBanner } from "./messages.js";
import { paint } from "./board.js";
import { bestKey, fmtTime, saveGame, showBest, stopTimer } from "./saved.js";

export const NO_SOLUTION = "no way of laying the bridges keeps every rule.";

// the solution, asked once per puzzle (Check compares with it only when it is unique)
export function solution() {
  if (!game.solutionP) {
    const puzzle = game.puzzle;
    const asked = api("/api/solve", { puzzle }).then((out) => {
      if (game.puzzle !== puzzle) throw new Error("the puzzle changed");
      const counts = game.links.map(() => 0);
      if (out.status === "solved") applyBridgeList(out.bridges, counts);
      game.solutionKnown = { status: out.status, unique: out.unique, counts, reason: out.reason, message: out.message };
      return game.solutionKnown;
    });
    asked.catch(() => { if (game.solutionP === asked) game.solutionP = null; });
    game.solutionP = asked;
  }
  return game.solutionP;
}

// an impossible puzzle says so when it is loaded, and one with several solutions says that Check
// then looks at the rules only (the solution is asked for once; Check and Reveal use it too)
export async function tellIfNotPlayable() {
  const puzzle = game.puzzle;
  let sol;
  try { sol = await solution(); } catch (e) { sol = { status: "bad", reason: e.message }; }
  if (game.puzzle !== puzzle || game.mode !== "play") return;
  document.body.dataset.solutions = sol.status === "solved" ? (sol.unique === false ? "several" : "one") : sol.status;
  if (sol.status === "infeasible" || sol.status === "bad") {
    say(`This puzzle has no solution: ${sol.status === "bad" ? sol.reason : NO_SOLUTION}`, "error");
  } else if (sol.status === "solved" && sol.unique === false) {
    $("info").textContent += " It has more than one solution.";
    if (!game.undo.length) say("Note: this puzzle has more than one solution. Check looks at the rules only; Reveal shows one of them.", "warn");
  }
}

// the offending islands and links of the checker's violations (by their cells)
function violationTargets(violations) {
  const islands = new Set(), links = new Set();
  for (const v of violations) {
    const cells = (v.cells || []).map(([r, c]) => islandIndex(r, c)).filter((i) => i !== undefined);
    cells.forEach((i) => islands.add(i));
    for (const i of cells) for (const j of cells) { const k = linkBetween(i, j); if (k !== undefined && game.counts[k]) links.add(k); }
  }
  return { islands, links, marks: new Set() };
}

// Check: rule breaks, then (for a unique puzzle) bridges and marks the solution lacks.
// It highlights them and never says how many bridges the solution has (Reveal does).
export async function checkBoard(auto = false) {
  if (!game.puzzle || busy()) return;
  const ticket = ++game.checking;
  let out;
  try {
    out = await api("/api/check", { puzzle: game.puzzle, bridges: bridgeList(), marks: markList() });
  } catch (e) { say(e.message, "error"); return; }
  if (ticket !== game.checking) return;     // the board changed meanwhile
  if (out.complete) { solvedNow(); return; }
  if (!out.valid) {
    game.checked = violationTargets(out.violations);
    say(["The board breaks a rule (highlighted):", out.violations.map((v) => v.message)], "error");
    paint();
    return;
  }
  if (auto) { say("Every island has its bridges, but the islands are not all connected.", "warn"); return; }
  let sol;
  try { sol = await solution(); } catch (e) { sol = e.status === 400 ? { status: "bad", reason: e.message } : null; }
  if (ticket !== game.checking) return;
  if (sol && sol.status === "bad") { say(`This puzzle has no solution: ${sol.reason}`, "error"); return; }
  if (sol && sol.status === "infeasible") { say(`This puzzle has no solution: ${NO_SOLUTION}`, "error"); return; }
  if (sol && sol.status === "solved" && sol.unique) {
    const { links, marks, islands } = mistakes(sol);
    if (links.size || marks.size) {
      game.checked = { islands, links, marks };
      const parts = [];
      if (links.size) parts.push(`${links.size} bridge${links.size === 1 ? "" : "s"}`);
      if (marks.size) parts.push(`${marks.size} "no bridge" mark${marks.size === 1 ? "" : "s"}`);
      say(`Not quite: ${parts.join(" and ")} do${links.size + marks.size === 1 ? "es" : ""} not belong to the solution ` +
          `(highlighted with dashes and circles). Undo them, or press Reveal to see the solution.`, "error");
      paint();
      return;
    }
  }
  const left = game.islands.filter((s, i) => degree(i) !== s.n).length;
  const several = sol && sol.unique === false ? " (this puzzle has several solutions, so only the rules are checked)" : "";
  say(`No mistakes so far${several}; ${left} island${left === 1 ? "" : "s"} still need${left === 1 ? "s" : ""} bridges.`, "ok");
}

// bridges beyond the solution's and "no bridge" marks on links it uses, with their islands
export function mistakes(sol) {
  const links = new Set(), marks = new Set(), islands = new Set();
  game.links.forEach((l, k) => {
    if (game.counts[k] > sol.counts[k]) { links.add(k); islands.add(l.a); islands.add(l.b); }
    if (game.marks[k] && sol.counts[k] > 0) marks.add(k);
  });
  return { links, marks, islands };
}

export const revealText = () => (game.solutionShown?.unique === false
  ? "This puzzle has more than one solution; this is one of them." : "Here is the solution.");

function solvedNow() {
  game.solved = true;
  game.selected = null;
  stopTimer();
  showBanner();
  let best = "";
  if (!game.revealed) {
    const rec = store.recordTime(bestKey(), game.elapsed);
    const kind = game.hints ? " with hints" : "";
    best = rec.isNew ? ` A new best time${kind}!` : ` Your best${kind}: ${fmtTime(rec.best)}.`;
  }
  const helped = game.hints ? ` You used ${game.hints} hint${game.hints === 1 ? "" : "s"}: this time is kept ` +
    "apart from your clean solves." : "";
  say(game.revealed ? revealText() : `Solved! Every rule holds.${helped}${best}`, "ok");
  board.classList.add("solved-anim");
  setTimeout(() => board.classList.remove("solved-anim"), 900);
  showBest();
  saveGame();
  paint();
}

// after a conflict: the bridges and marks that do not belong to the (unique) solution, on the board
export async function highlightMistakes() {
  let sol = null;
  try { sol = await solution(); } catch (e) { return; }
  const wrong = sol && sol.status === "solved" && sol.unique ? mistakes(sol) : null;
  if (wrong && (wrong.links.size || wrong.marks.size)) { game.checked = wrong; paint(); }
}
