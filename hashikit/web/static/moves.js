// hashikit web: the player's moves on the board (a bridge more, a "no bridge" mark, a lock), undo
// and redo, and trials (a layer of moves kept or dropped): each move is checked by the rules
// (referee.js), made in the store and said.
"use strict";

import { flash } from "./board.js";
import { say, toolAction } from "./messages.js";
import { refusal } from "./referee.js";
import * as store from "./store.js";
import { COUNT_WORDS, ORDINALS, capital, islandName } from "./words.js";

const { state } = store;
const blocked = () => state.solved || store.busy();

// a refusal (referee.js) in words
function refusalText(k, next, why) {
  const g = state.graph, l = g.links[k], name = (i) => islandName(g, i);
  if (why.rule === "marked") return `The link from ${name(l.a)} to ${name(l.b)} is marked "no bridge" (right-click it to unmark).`;
  if (why.rule === "locked") return capital(`${name(why.island)} is locked (Shift+click or L unlocks it).`);
  if (why.rule === "crossing") {
    const o = g.links[why.link];
    return `A bridge from ${name(l.a)} to ${name(l.b)} would cross the bridge from ${name(o.a)} to ${name(o.b)}.`;
  }
  return `${next === 1 ? "A bridge" : "A " + ORDINALS[next] + " bridge"} there ` +
         `would give ${name(why.island)} ${why.degree} bridges, more than its number.`;
}

// cycle link k: none -> 1 -> ... -> cap -> none; a move that would break a rule is refused
export function cycle(k) {
  if (blocked()) return;
  const g = state.graph, pos = state.position, l = g.links[k], cur = pos.counts[k];
  let next = cur + 1 > l.cap ? 0 : cur + 1;
  let note = "";
  const why = refusal(g, pos, k, next);
  if (why && (why.rule === "marked" || why.rule === "locked")) {
    say(refusalText(k, next, why) + " Move refused.", "warn"); flash(k); return;
  }
  if (next > cur && why) {
    if (cur === 0) { say(refusalText(k, next, why) + " Move refused.", "warn"); flash(k); return; }
    note = refusalText(k, next, why) + " The bridges are removed instead.";
    next = 0;
  }
  move([["b", k, cur, next]]);
  if (note) say(note, "warn");
}

export function toggleMark(k) {
  if (blocked() || k === undefined) return;
  const g = state.graph, pos = state.position, l = g.links[k];
  if (pos.counts[k]) {
    say(`Remove the bridges between ${islandName(g, l.a)} and ${islandName(g, l.b)} before marking the link "no bridge".`, "warn");
    flash(k);
    return;
  }
  const lockedEnd = [l.a, l.b].find((i) => pos.locked.has(i));
  if (lockedEnd !== undefined) { say(capital(`${islandName(g, lockedEnd)} is locked.`), "warn"); return; }
  const on = !pos.marks[k];
  move([["m", k, on ? 0 : 1, on ? 1 : 0]],
       `${on ? "Marked" : "Unmarked"} "no bridge" between ${islandName(g, l.a)} and ${islandName(g, l.b)}.`);
}

export function toggleLock(i) {
  if (blocked() || i === undefined || i === null) return;
  const on = !state.position.locked.has(i);
  move([["l", i, on ? 0 : 1, on ? 1 : 0]], `${on ? "Locked" : "Unlocked"} ${islandName(state.graph, i)}.`);
}

// a move made and said (by `label`, or by what it does to one link)
export function move(changes, label = "") {
  if (!changes.length) return;
  store.move(changes);
  say(label || moveText(changes));
}

function moveText(changes) {
  if (changes.length !== 1 || changes[0][0] !== "b") return "";
  const [, k, , to] = changes[0], g = state.graph, l = g.links[k];
  return `${COUNT_WORDS[to] || to + " bridges"} between ${islandName(g, l.a)} and ${islandName(g, l.b)}.`;
}

export function undo() {
  if (store.busy()) return;
  if (store.undo()) { say("Undone."); return; }
  if (state.trials.length) say("Undo stops where the trial began: Drop takes the whole trial back.", "", TRIAL_ACTIONS);
}

export function redo() {
  if (store.busy() || !store.redo()) return;
  say("Redone.");
}

// ------------------------------------------------------------------ trials
// the buttons a message about a trial names, in the message itself
const TRIAL_ACTIONS = [toolAction("trial-keep", "Keep"), toolAction("trial-drop", "Drop")];

const trialName = (depth) => (depth > 1 ? `Trial ${depth} (inside trial ${depth - 1})` : "A trial");
const TRIAL_LOOK = ["purple", "orange"];
export const trialLook = (depth) => `${TRIAL_LOOK[(depth - 1) % 2]}, with long dashes`;

export function startTrial() {
  if (!state.puzzle || blocked()) return;
  store.startTrial();
  const depth = state.trials.length;
  say(`${trialName(depth)} has begun: your moves now go on a layer of their own (${trialLook(depth)}). ` +
      `Keep merges them into the ${depth > 1 ? "trial below" : "game"}; Drop takes them all back in one step.`, "", TRIAL_ACTIONS);
}

export function keepTrial() {
  if (store.busy() || !state.trials.length) return;
  store.keepTrial();
  const depth = state.trials.length;
  say(depth ? `Trial kept: its moves are now part of trial ${depth}.` : "Trial kept: its moves are now part of the game (Undo still takes them back one by one).", "ok");
}

export function dropTrial() {
  if (store.busy() || !state.trials.length) return;
  store.dropTrial();
  const depth = state.trials.length;
  say(`Trial dropped: the board is back where it began${depth ? `, in trial ${depth}` : ""}.`);
}
