// hashikit web: the puzzle's solution, asked of the server once per puzzle and kept in the store
// (Check, Reveal, Print and the hints' conflicts use it), and the mistakes it shows on the board.
"use strict";

import * as server from "./server.js";
import { applyBridgeList, capacityProblems, mistakes } from "./referee.js";
import { set, setSolution, state } from "./store.js";
import { capacityText } from "./words.js";

let asked = null, askedFor = null;      // the request under way or answered, and its puzzle

// the puzzle's numbers its links cannot carry, in words, or null: it has no solution, and the page
// says so without asking the server (which refuses such a puzzle as bad input)
export const impossible = () => capacityText(state.graph, capacityProblems(state.graph));

// the solution: {status ("solved", "infeasible", "unknown", or "bad": numbers no links can carry),
// unique, counts (bridges per link), reason, message}
export function solution() {
  const puzzle = state.puzzle;
  if (!asked || askedFor !== puzzle) {
    const g = state.graph, why = impossible();
    const asking = why ? Promise.resolve({ status: "bad", reason: why, bridges: [] }) : server.solve(puzzle);
    const request = asking.then((out) => {
      if (state.puzzle !== puzzle) throw new Error("the puzzle changed");
      const counts = g.links.map(() => 0);
      if (out.status === "solved") applyBridgeList(g, out.bridges, counts);
      const sol = { status: out.status, unique: out.unique, counts, reason: out.reason, message: out.message };
      setSolution(sol);
      return sol;
    });
    request.catch(() => { if (asked === request) asked = null; });
    asked = request;
    askedFor = puzzle;
  }
  return asked;
}

// the board's bridges and marks that the (unique) solution contradicts, as Check shows them
export function mistakesOf(sol) {
  return mistakes(state.graph, state.position, sol.counts);
}

// after a conflict: the bridges and marks that do not belong to the (unique) solution, on the board
export async function highlightMistakes() {
  let sol = null;
  try { sol = await solution(); } catch (e) { return; }
  const wrong = sol && sol.status === "solved" && sol.unique ? mistakesOf(sol) : null;
  if (wrong && (wrong.links.size || wrong.marks.size)) set({ checked: wrong });
}
