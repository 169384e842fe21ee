// hashikit web: the player's buttons beyond a single move: Hint (in three presses), Reveal, Clear
// and Print (the constructor's puzzle prints while building, so Print is given the builder).
"use strict";

import { api } from "./api.js";
import { paperBoard } from "./draw.js";
import { $, bridgeList, busy, game, islandIndex, linkAt, markList } from "./game.js";
import { rulesText, say, setStatusKind } from "./messages.js";
import { paint } from "./board.js";
import { saveGame } from "./saved.js";
import { doMove, unsolve } from "./moves.js";
import { NO_SOLUTION, highlightMistakes, revealText, solution } from "./check.js";

// what a hint settles, as one undoable move: links it brings down to no bridge become marks
// (its "marks" when the server lists them), links it raises get their certain bridges
function hintChanges(h, apply = true) {
  const out = [];
  const marks = h.marks || (h.changes || []).filter((ch) => ch.length >= 6 && ch[5] === 0).map((ch) => ch.slice(0, 4));
  for (const m of marks) {
    const k = linkAt(m);
    if (k !== undefined && m[4] > 0) { if (apply) game.caps.set(k, Math.min(m[4], game.caps.get(k) ?? m[4])); }
    else if (k !== undefined && !game.marks[k] && !game.counts[k]) out.push(["m", k, 0, 1]);
  }
  for (const ch of h.changes || []) {
    const k = linkAt(ch.slice(0, 4)), lo = ch[4];
    if (k !== undefined && lo > game.counts[k] && !game.marks[k] && lo <= game.links[k].cap) out.push(["b", k, game.counts[k], lo]);
  }
  return out;
}

// Hint, in three presses: "look here" (the islands light up), then the reason in words, then
// "do it" (the step is laid as one undoable move). A board that changes meanwhile starts over.
export async function askHint() {
  if (!game.puzzle || busy() || game.solved) return;
  const pending = game.pendingHint;
  if (pending) { hintStage(pending); return; }
  $("hint").disabled = true;
  try {
    const h = await api("/api/hint", { puzzle: game.puzzle, bridges: bridgeList(), marks: markList() });
    if (h.status === "conflict") {
      say(["Your board has a problem (what does not belong to the solution is highlighted):", h.problems], "error");
      await highlightMistakes();
      return;
    }
    if (h.status !== "hint") { say(h.sentence, ""); return; }
    game.hints += 1;
    const islands = new Set((h.islands || []).map(([r, c]) => islandIndex(r, c)).filter((i) => i !== undefined));
    const links = new Set((h.links || []).map(linkAt).filter((k) => k !== undefined));
    game.pendingHint = { h, islands, links, stage: 0 };
    hintStage(game.pendingHint);
    saveGame();
  } catch (e) { say(e.message, "error"); }
  finally { $("hint").disabled = false; }
}

function hintStage(pending) {
  const { h, islands, links } = pending;
  pending.stage += 1;
  if (pending.stage === 1) {
    game.hint = { islands, links: new Set() };
    const n = islands.size;
    say(`Hint: look at the highlighted island${n === 1 ? "" : "s"}. Press Hint again for the reason.`, "hinted");
  } else if (pending.stage === 2) {
    game.hint = { islands, links };
    const changes = hintChanges(h, false);
    say(`Hint (${h.level}): ${h.sentence}` + (changes.length ? " Press Hint again to do it."
      : " (Nothing on the board changes with this step.)"), "hinted");
    if (!changes.length) { hintChanges(h, true); game.pendingHint = null; }   // its caps still count
  } else {
    const changes = hintChanges(h, true);
    const nMarks = changes.filter(([kind]) => kind === "m").length;
    doMove(changes, `Hint (${h.level}): ${h.sentence} Done for you${nMarks ? ` (× marks "no bridge")` : ""}; ` +
                    "Undo takes it back.");
    if (!game.solved) { game.hint = { islands, links }; setStatusKind("hinted"); }
  }
  paint();
}

export async function reveal() {
  if (!game.puzzle || busy()) return;
  $("reveal").disabled = true;
  say("Solving…");
  try {
    const sol = await solution();
    game.solutionShown = sol;
    if (sol.status !== "solved") {
      say(sol.status === "infeasible" ? `This puzzle has no solution: ${NO_SOLUTION}`
                                      : sol.message || "No answer in time.", "error");
      return;
    }
    const changes = [];
    sol.counts.forEach((to, k) => { if (to !== game.counts[k]) changes.push(["b", k, game.counts[k], to]); });
    game.marks.forEach((m, k) => { if (m && sol.counts[k]) changes.push(["m", k, 1, 0]); });
    game.locked.forEach((i) => changes.push(["l", i, 1, 0]));
    game.revealed = true;
    if (changes.length) doMove(changes, revealText());
  } catch (e) { say(e.message, "error"); }
  finally { $("reveal").disabled = false; }
}

export function clearBoard() {
  if (busy()) return;
  const changes = [];
  game.counts.forEach((n, k) => { if (n) changes.push(["b", k, n, 0]); });
  game.marks.forEach((m, k) => { if (m) changes.push(["m", k, 1, 0]); });
  game.locked.forEach((i) => changes.push(["l", i, 1, 0]));
  if (!changes.length) return;
  unsolve();
  game.revealed = false;
  doMove(changes, "Board cleared (Undo brings it back).");
}

// Print: the puzzle alone on the first page (the board as played is hidden), the solution on the next
export async function printPuzzle(builder) {
  if (!game.puzzle || busy()) return;
  let sol = null;
  try { sol = await solution(); } catch (e) { /* print the puzzle alone */ }
  fillPrint(builder, sol);
  document.body.classList.add("printing");
  say("Printing: the puzzle, and the solution on its own page.");
  window.print();
}

// the pages to print: the puzzle, and the solution (when known) on its own page
export function fillPrint(builder, sol = game.solutionKnown) {
  const area = $("print-solution");
  area.textContent = "";
  const p = game.mode === "build" ? builder.puzzle() : game.puzzle;
  if (!p) return;
  const islands = game.mode === "build" ? p.islands.map(([r, c, n]) => ({ r, c, n })) : game.islands;
  const puzzlePage = paperBoard(`Hashi ${p.cols} × ${p.rows} — ${rulesText(p.maxbridges || 2, !!p.no_loops)}`,
                                p, islands);
  puzzlePage.className = "print-puzzle";
  area.append(puzzlePage);
  if (game.mode === "play" && sol && sol.status === "solved") {
    const bridges = game.links.map((l, k) => ({ a: game.islands[l.a], b: game.islands[l.b], h: l.h, n: sol.counts[k] }));
    const page = paperBoard("Solution", p, game.islands, bridges);
    page.className = "print-page";
    area.append(page);
  }
}
