// hashikit web: the page's wording, said once: times, cells and islands by name, numbers in words,
// the rules of a puzzle in a sentence, and the verdicts more than one module says.
"use strict";

export const NUMBER_WORDS = ["no", "one", "two", "three", "four", "five", "six", "seven", "eight"];
export const ORDINALS = ["", "", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth"];
export const COUNT_WORDS = ["No bridge", "A bridge", "Two bridges", "Three bridges", "Four bridges"];

export const NO_SOLUTION = "no way of laying the bridges keeps every rule.";

export function fmtTime(ms) {
  const t = Math.floor(ms / 1000), h = Math.floor(t / 3600), m = Math.floor(t / 60) % 60, s = t % 60;
  return (h ? `${h}:${String(m).padStart(2, "0")}` : `${m}`) + `:${String(s).padStart(2, "0")}`;
}

export const cellName = (r, c) => `row ${r + 1}, column ${c + 1}`;
// an island of a graph (referee.js) by its number and place: "the 3 at row 2, column 5"
export const islandName = (g, i) => { const s = g.islands[i]; return `the ${s.n} at ${cellName(s.r, s.c)}`; };
export const capital = (text) => text.replace(/^t/, "T");
export const plural = (n, word) => (n === 1 ? word : word + "s");

// the puzzle's own rules (MAXBRIDGES, no loops) in one sentence
export function rulesText(mb, noLoops) {
  const most = mb === 1 ? "one bridge between a pair" : `at most ${NUMBER_WORDS[mb] || mb} between a pair`;
  return `Join the islands with bridges: each island gets as many bridges as its number, ${most}, ` +
         `none crossing, all islands connected${noLoops ? ", and no closed loop of bridges" : ""}.`;
}

// the referee's capacity problems (referee.js) in the words the server refuses them with: the
// first one, and how many more
export function capacityText(g, problems) {
  if (!problems.length) return null;
  const { island, need, neighbours, most } = problems[0];
  const where = islandName(g, island);
  const first = !neighbours ? `${where} cannot reach any island`
    : `${where} needs ${need} bridges, but its ${neighbours === 1 ? "one neighbour" : `${neighbours} neighbours`} can take ` +
      `at most ${most} bridge${most !== 1 ? "s" : ""} (up to ${g.maxbridges} between a pair, and no more than a neighbour's number)`;
  return first + (problems.length > 1 ? ` (and ${problems.length - 1} more)` : "");
}

// what Reveal says: the solution, or one of several
export const revealText = (solution) => (solution?.unique === false
  ? "This puzzle has more than one solution; this is one of them." : "Here is the solution.");
