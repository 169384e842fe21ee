// hashikit web: Check (rule breaks from the server's checker, then bridges and marks the unique
// solution lacks), the check made by itself when every island has its bridges, the moment the
// board is solved, and the word on a puzzle with no solution or several when it is loaded.
"use strict";

import { celebrate } from "./board.js";
import { $ } from "./dom.js";
import { recordTime } from "./best.js";
import { say, toolAction } from "./messages.js";
import { degree, isComplete, islandIndex, judge, linkBetween } from "./referee.js";
import * as server from "./server.js";
import { mistakesOf, solution } from "./solution.js";
import * as store from "./store.js";
import { NO_SOLUTION, fmtTime, plural, revealText } from "./words.js";

const { state } = store;
let ticket = 0;            // the latest Check; an older answer is dropped

// an impossible puzzle says so when it is loaded, and one with several solutions says that Check
// then looks at the rules only (the solution is asked for once; Check and Reveal use it too)
async function tellIfNotPlayable() {
  const puzzle = state.puzzle;
  let sol;
  try { sol = await solution(); } catch (e) { sol = { status: "bad", reason: e.message }; }
  if (state.puzzle !== puzzle || state.mode !== "play") return;
  document.body.dataset.solutions = sol.status === "solved" ? (sol.unique === false ? "several" : "one") : sol.status;
  if (sol.status === "infeasible" || sol.status === "bad") {
    say(`This puzzle has no solution: ${sol.status === "bad" ? sol.reason : NO_SOLUTION}`, "error");
  } else if (sol.status === "solved" && sol.unique === false && !state.undo.length) {
    say("Note: this puzzle has more than one solution. Check looks at the rules only; Reveal shows one of them.", "warn");
  }
}

// the offending islands and links of the checker's violations (by their cells)
function violationTargets(violations) {
  const g = state.graph, islands = new Set(), links = new Set();
  for (const v of violations) {
    const cells = (v.cells || []).map(([r, c]) => islandIndex(g, r, c)).filter((i) => i !== undefined);
    cells.forEach((i) => islands.add(i));
    for (const i of cells) {
      for (const j of cells) { const k = linkBetween(g, i, j); if (k !== undefined && state.position.counts[k]) links.add(k); }
    }
  }
  return { islands, links, marks: new Set() };
}

// Check: rule breaks, then (for a unique puzzle) bridges and marks the solution lacks.
// It highlights them and never says how many bridges the solution has (Reveal does).
export async function checkBoard(auto = false) {
  if (!state.puzzle || store.busy()) return;
  const mine = ++ticket;
  let out;
  try {
    out = await server.check(store.boardRequest());
  } catch (e) { say(e.message, "error"); return; }
  if (mine !== ticket) return;     // checked again meanwhile
  if (out.complete) { solvedNow(); return; }
  const trial = state.trials.length > 0, drop = trial ? [toolAction("trial-drop", "Drop")] : [];
  if (!out.valid) {
    store.set({ checked: violationTargets(out.violations) });
    say([trial ? "The trial is not consistent: the board breaks a rule (highlighted):" : "The board breaks a rule (highlighted):",
         out.violations.map((v) => v.message)], "error", drop);
    return;
  }
  if (auto) {
    const loop = judge(state.graph, state.position).violations.some((v) => v.rule === "loop");
    say(loop ? "Every island has its bridges, but they close a loop, which this puzzle's rules forbid."
             : "Every island has its bridges, but the islands are not all connected.", "warn");
    return;
  }
  let sol;
  try { sol = await solution(); } catch (e) { sol = e.status === 400 ? { status: "bad", reason: e.message } : null; }
  if (mine !== ticket) return;
  if (sol && sol.status === "bad") { say(`This puzzle has no solution: ${sol.reason}`, "error"); return; }
  if (sol && sol.status === "infeasible") { say(`This puzzle has no solution: ${NO_SOLUTION}`, "error"); return; }
  if (sol && sol.status === "solved" && sol.unique) {
    const { links, marks, islands } = mistakesOf(sol);
    if (links.size || marks.size) {
      store.set({ checked: { islands, links, marks } });
      const parts = [];
      if (links.size) parts.push(`${links.size} ${plural(links.size, "bridge")}`);
      if (marks.size) parts.push(`${marks.size} "no bridge" ${plural(marks.size, "mark")}`);
      const wrong = `${parts.join(" and ")} do${links.size + marks.size === 1 ? "es" : ""} not belong to the solution ` +
        "(highlighted with dashes and circles)";
      if (trial) say(`The trial is not consistent: ${wrong}. Drop it to go back to where it began.`, "error", drop);
      else say(`Not quite: ${wrong}. Undo them, or press Reveal to see the solution.`, "error", [toolAction("reveal", "Reveal")]);
      return;
    }
  }
  const left = state.graph.islands.filter((s, i) => degree(state.graph, state.position, i) !== s.n).length;
  const several = sol && sol.unique === false ? " (this puzzle has several solutions, so only the rules are checked)" : "";
  const need = `${left} ${plural(left, "island")} still need${left === 1 ? "s" : ""} bridges`;
  say(trial ? `The trial is consistent so far${several}: nothing on the board breaks a rule` +
              `${several ? "" : " or contradicts the solution"}; ${need}.`
            : `No mistakes so far${several}; ${need}.`, "ok", trial ? [toolAction("trial-keep", "Keep")] : []);
}

// solved: a trial that finished the board was right, and is kept
function solvedNow() {
  const trials = state.trials.length;
  while (state.trials.length) store.keepTrial();
  store.setSolved(true);
  let best = "";
  if (!state.revealed) {
    const rec = recordTime();
    const kind = state.hints ? " with hints" : "";
    best = rec.isNew ? ` A new best time${kind}!` : ` Your best${kind}: ${fmtTime(rec.best)}.`;
  }
  const helped = state.hints ? ` You used ${state.hints} ${plural(state.hints, "hint")}: this time is kept ` +
    "apart from your clean solves." : "";
  const kept = trials ? ` The trial was right: its moves are kept.` : "";
  // the next puzzle from the solved moment (the generator's form is far below the board on a phone)
  const next = $("generate") && !$("generate").disabled ? [toolAction("generate", "New puzzle")] : [];
  say(state.revealed ? revealText(state.solution) : `Solved! Every rule holds.${kept}${helped}${best}`, "ok", next);
  celebrate();
}

// a board whose every island has its bridges is checked at once (solved, or not connected)
store.subscribe((changed) => {
  if (changed.has("puzzle") && state.mode === "play") tellIfNotPlayable();
  if ((changed.has("puzzle") || changed.has("position")) && state.puzzle && state.mode === "play" && !state.solved &&
      isComplete(state.graph, state.position)) checkBoard(true);
});
