// hashikit web: the player's buttons beyond a single move: Hint (in three presses), Reveal, Clear
// and Print (the constructor's puzzle prints while building).
"use strict";

import { $ } from "./dom.js";
import { paperBoard } from "./draw.js";
import { say, setStatusKind, toolAction } from "./messages.js";
import { islandIndex, linkAt } from "./referee.js";
import * as server from "./server.js";
import { highlightMistakes, impossible, solution } from "./solution.js";
import * as store from "./store.js";
import { NO_SOLUTION, plural, revealText, rulesText } from "./words.js";

const { state } = store;

// what a hint settles, as one undoable move (links it brings down to no bridge become marks, its
// "marks" when the server lists them; links it raises get their certain bridges), and the limits
// it leaves on links it narrows without settling: {changes, limits: [[link, most]]}
function hintChanges(h) {
  const g = state.graph, pos = state.position, changes = [], limits = [];
  const marks = h.marks || (h.changes || []).filter((ch) => ch.length >= 6 && ch[5] === 0).map((ch) => ch.slice(0, 4));
  for (const m of marks) {
    const k = linkAt(g, m);
    if (k !== undefined && m[4] > 0) limits.push([k, m[4]]);
    else if (k !== undefined && !pos.marks[k] && !pos.counts[k]) changes.push(["m", k, 0, 1]);
  }
  for (const ch of h.changes || []) {
    const k = linkAt(g, ch.slice(0, 4)), lo = ch[4];
    if (k !== undefined && lo > pos.counts[k] && !pos.marks[k] && lo <= g.links[k].cap) changes.push(["b", k, pos.counts[k], lo]);
  }
  return { changes, limits };
}

// Hint, in three presses: "look here" (the islands light up), then the reason in words, then
// "do it" (the step is laid as one undoable move). A board that changes meanwhile starts over.
export async function askHint() {
  if (!state.puzzle || store.busy() || state.solved) return;
  if (state.pendingHint) { hintStage(); return; }
  if (impossible()) { say(`This puzzle has no solution: ${impossible()}`, "error"); return; }
  $("hint").disabled = true;
  try {
    const h = await server.hint(store.boardRequest());
    if (h.status === "conflict") {
      if (state.trials.length) {
        say(["The trial is not consistent (what does not belong to the solution is highlighted):", h.problems], "error",
            [toolAction("trial-drop", "Drop")]);
      } else say(["Your board has a problem (what does not belong to the solution is highlighted):", h.problems], "error");
      await highlightMistakes();
      return;
    }
    if (h.status !== "hint") { say(h.sentence, ""); return; }
    store.countHint();
    const g = state.graph;
    const islands = new Set((h.islands || []).map(([r, c]) => islandIndex(g, r, c)).filter((i) => i !== undefined));
    const links = new Set((h.links || []).map((cells) => linkAt(g, cells)).filter((k) => k !== undefined));
    store.set({ pendingHint: { h, islands, links, stage: 0 } });
    hintStage();
  } catch (e) { say(e.message, "error"); }
  finally { $("hint").disabled = false; }
}

function hintStage() {
  const { h, islands, links } = state.pendingHint, stage = state.pendingHint.stage + 1;
  store.set({ pendingHint: { h, islands, links, stage } });
  if (stage === 1) {
    store.set({ hint: { islands, links: new Set() } });
    const trial = state.trials.length ? "The trial is consistent so far. " : "";
    say(`${trial}Hint: look at the highlighted ${plural(islands.size, "island")}. Press Hint again for the reason.`, "hinted");
  } else if (stage === 2) {
    store.set({ hint: { islands, links } });
    const { changes, limits } = hintChanges(h);
    say(`Hint (${h.level}): ${h.sentence}` + (changes.length ? " Press Hint again to do it."
      : " (Nothing on the board changes with this step.)"), "hinted");
    if (!changes.length) { store.limitLinks(limits); store.set({ pendingHint: null }); }   // its limits still count
  } else {
    const { changes, limits } = hintChanges(h);
    store.limitLinks(limits);
    const nMarks = changes.filter(([kind]) => kind === "m").length;
    store.move(changes);
    say(`Hint (${h.level}): ${h.sentence} Done for you${nMarks ? ` (× marks "no bridge")` : ""}; Undo takes it back.`);
    if (!state.solved) { store.set({ hint: { islands, links } }); setStatusKind("hinted"); }
  }
}

export async function reveal() {
  if (!state.puzzle || store.busy()) return;
  $("reveal").disabled = true;
  say("Solving…");
  try {
    const sol = await solution();
    if (sol.status !== "solved") {
      say(sol.status === "infeasible" ? `This puzzle has no solution: ${NO_SOLUTION}`
        : sol.status === "bad" ? `This puzzle has no solution: ${sol.reason}` : sol.message || "No answer in time.", "error");
      return;
    }
    const pos = state.position, changes = [];
    sol.counts.forEach((to, k) => { if (to !== pos.counts[k]) changes.push(["b", k, pos.counts[k], to]); });
    pos.marks.forEach((m, k) => { if (m && sol.counts[k]) changes.push(["m", k, 1, 0]); });
    pos.locked.forEach((i) => changes.push(["l", i, 1, 0]));
    store.set({ revealed: true });
    if (changes.length) { store.move(changes); say(revealText(sol)); }
  } catch (e) { say(e.message, "error"); }
  finally { $("reveal").disabled = false; }
}

export function clearBoard() {
  if (store.busy()) return;
  const pos = state.position, changes = [];
  pos.counts.forEach((n, k) => { if (n) changes.push(["b", k, n, 0]); });
  pos.marks.forEach((m, k) => { if (m) changes.push(["m", k, 1, 0]); });
  pos.locked.forEach((i) => changes.push(["l", i, 1, 0]));
  if (!changes.length) return;
  store.setSolved(false);
  store.set({ revealed: false });
  store.move(changes);
  say("Board cleared (Undo brings it back).");
}

// Print: the puzzle alone on the first page (the board as played is hidden), the solution on the next
export async function printPuzzle() {
  if (!state.puzzle || store.busy()) return;
  let sol = null;
  try { sol = await solution(); } catch (e) { /* print the puzzle alone */ }
  fillPrint(sol);
  document.body.classList.add("printing");
  say("Printing: the puzzle, and the solution on its own page.");
  window.print();
}

// the pages to print: the puzzle, and the solution (when known) on its own page
export function fillPrint(sol = state.solution) {
  const area = $("print-solution");
  area.textContent = "";
  const building = state.mode === "build";
  const p = building ? store.builtPuzzle() : state.puzzle;
  if (!p) return;
  const g = state.graph;
  const islands = building ? p.islands.map(([r, c, n]) => ({ r, c, n })) : g.islands;
  const puzzlePage = paperBoard(`Hashi ${p.cols} × ${p.rows} — ${rulesText(p.maxbridges || 2, !!p.no_loops)}`,
                                p, islands);
  puzzlePage.className = "print-puzzle";
  area.append(puzzlePage);
  if (!building && sol && sol.status === "solved") {
    const bridges = g.links.map((l, k) => ({ a: g.islands[l.a], b: g.islands[l.b], h: l.h, n: sol.counts[k] }));
    const page = paperBoard("Solution", p, g.islands, bridges);
    page.className = "print-page";
    area.append(page);
  }
}
