// hashikit web: loading a puzzle (pasted, from a file, a link or the generator) and starting its
// game, with the progress saved in the browser when there is some; each new puzzle a browser
// history entry of its own (Back returns to the one before, its game as left); and the generator's
// form, built from the server's limits.
"use strict";

import { $ } from "./dom.js";
import { say } from "./messages.js";
import { saveGame } from "./saved.js";
import * as server from "./server.js";
import { puzzleCode, unb64url } from "./share.js";
import * as storage from "./storage.js";
import * as store from "./store.js";
import { showBoard } from "./zoom.js";

const { state } = store;

let generation = null;     // the AbortController of the generation under way

// the generator's form, from the limits document (GET /api/limits); off when it could not be read
function buildForm() {
  const g = state.limits?.generate;
  $("generate").disabled = !g;
  if (!g) {
    $("gen-note").textContent = "This server's limits could not be read, so the generator is off: reload the page to try again.";
    return;
  }
  for (const id of ["gen-rows", "gen-cols"]) {
    Object.assign($(id), { min: g.min_side, max: g.max_side });
    if (!$(id).value) $(id).value = g.default_side;
  }
  const sel = $("gen-difficulty"), current = sel.value;
  sel.textContent = "";
  for (const level of g.levels) {
    const o = document.createElement("option");
    o.value = o.textContent = level;
    sel.append(o);
  }
  sel.value = g.levels.includes(current) ? current : g.default_level;
  const [mbLo, mbHi] = g.maxbridges;
  Object.assign($("gen-mb"), { min: mbLo, max: mbHi });
  if (!$("gen-mb").value) $("gen-mb").value = g.default_maxbridges;
  Object.assign($("gen-density"), { min: g.min_density, max: g.max_density, placeholder: `auto (${g.default_density})` });
  document.querySelector(".opt-noloops").hidden = !g.no_loops;
  document.querySelector(".opt-adjacent").hidden = !g.allow_adjacent;
  $("gen-note").textContent = `Sides ${g.min_side} to ${g.max_side}; a generation may take up to ${g.time_limit} s.` +
    (state.limits.server === false ? " Larger boards and the hardest level need a hashikit server; this page runs without one." : "");
}

// the highest seed the form takes: the server's, or the largest whole number the page's numbers hold exactly
const highestSeed = (g) => Math.min(g.seeds[1], Number.MAX_SAFE_INTEGER);

// the generate request from the form, or an error message naming the field
function generateRequest() {
  const g = state.limits.generate, lo = g.min_side, hi = g.max_side;
  const body = { difficulty: $("gen-difficulty").value };
  for (const [key, id, name] of [["rows", "gen-rows", "Rows"], ["cols", "gen-cols", "Columns"]]) {
    const v = Number($(id).value);
    if (!Number.isInteger(v) || v < lo || v > hi) return `${name} must be a whole number from ${lo} to ${hi}.`;
    body[key] = v;
  }
  const seed = $("gen-seed").value.trim();
  if (seed) {
    const v = Number(seed), [first, last] = [g.seeds[0], highestSeed(g)];
    if (!/^[0-9]+$/.test(seed) || v < first || v > last) {
      return `The seed must be a whole number from ${first} to ${last}, or empty for a random one.`;
    }
    body.seed = v;
  }
  const mb = Number($("gen-mb").value), [a, b] = g.maxbridges;
  if (!Number.isInteger(mb) || mb < a || mb > b) return `Bridges per pair must run from ${a} to ${b}.`;
  body.maxbridges = mb;
  if ($("gen-density").value.trim()) {
    const d = Number($("gen-density").value);
    if (!(d > g.min_density && d <= g.max_density)) {
      return `Density must be above ${g.min_density} and at most ${g.max_density}, or be left empty.`;
    }
    body.density = d;
  }
  if (g.no_loops && $("gen-noloops").checked) body.no_loops = true;
  if (g.allow_adjacent && $("gen-adjacent").checked) body.allow_adjacent = true;
  return body;
}

function showBusy(text) {
  const started = Date.now(), most = state.limits.generate.time_limit;
  $("busy").hidden = false;
  $("busy-bar").max = most;
  const update = () => {
    const s = (Date.now() - started) / 1000;
    $("busy-text").textContent = `${text} ${s.toFixed(1)} s`;
    $("busy-bar").value = Math.min(s, most);
  };
  update();
  const id = setInterval(update, 200);
  return () => { clearInterval(id); $("busy").hidden = true; };
}

// a parsed puzzle's game starts (leaving the constructor): its bridges, the progress in a link,
// and (restore) the game saved in the browser.  A puzzle other than the one played (entry) gets a
// history entry of its own: the game played is saved, and its entry keeps its address; the new
// game's address then replaces the copy pushed (saved.js keeps it as the game goes on)
function start(parsed, { bridges = null, progress = null, level = "custom", restore = true, entry = true,
                         daily = null } = {}) {
  const code = puzzleCode(parsed.puzzle);
  const saved = restore ? storage.loadProgress(code) : null;
  if (entry && state.puzzle && puzzleCode(state.puzzle) !== code) {
    saveGame();
    history.pushState(null, "", location.href);
  }
  document.body.dataset.geometry = "server";
  const restored = store.setPuzzle(parsed, { bridges, progress, level, saved, daily });
  say(restored ? "Welcome back: your game is restored." : "Your move: join the islands.");
}

export async function loadText(text, format = undefined, opts = {}) {
  const out = await server.parse(text, format);
  start(out, { bridges: out.bridges || null, ...opts });
}

// a puzzle object (from the generator, the constructor or a picture) through /api/parse, for its
// links; the board comes into view
export async function loadPuzzle(puzzle, opts = {}) {
  await loadText(JSON.stringify(puzzle), "json", opts);
  store.flush();
  showBoard();
}

// the puzzle a page address names (p=, j=, with b= progress, l= level and d= the day of a daily
// puzzle): {loaded, build}
export async function loadFromHash(hash = location.hash) {
  const params = new URLSearchParams(hash.slice(1));
  const progress = params.get("b");
  const level = params.get("l") || "custom";
  const daily = /^\d{4}-\d{2}-\d{2}$/.test(params.get("d") || "") ? params.get("d") : null;
  try {
    if (params.get("p")) await loadText(params.get("p"), "tatham", { progress, level, daily, entry: false });
    else if (params.get("j")) await loadText(unb64url(params.get("j")), "json", { progress, level, daily, entry: false });
    else return { loaded: false };
    return { loaded: true, build: !!params.get("build") };
  } catch (e) {
    say(`The link's puzzle cannot be read: ${e.message}`, "error");
  }
  return { loaded: false };
}

export function cancelGeneration() { generation?.abort(); }

export async function generate() {
  if (store.busy() || !state.limits) return;
  const body = generateRequest();
  if (typeof body === "string") { say(body, "warn"); return; }
  const what = `${/^[aeiou]/i.test(body.difficulty) ? "an" : "a"} ${body.difficulty} ${body.cols} × ${body.rows} puzzle`;
  const out = await newPuzzle(body, what);
  if (!out) return;
  $("gen-seed").placeholder = `random (last: ${out.seed})`;
  say(`A new ${out.grade} puzzle (seed ${out.seed}, type it under Seed to play it again). Good luck!`);
}

// a generated puzzle (`body` a generate request, `what` names it) loaded to play: the generator's
// answer, or null when it failed or was cancelled (and said so); `daily`: the day it is the puzzle of
export async function newPuzzle(body, what, { daily = null } = {}) {
  if (store.busy() || !state.limits) return null;
  generation = new AbortController();
  store.set({ generating: true });       // the old puzzle's clock waits
  $("generate").disabled = true;
  say(`Generating ${what}… (Esc or Cancel stops)`);
  const hide = showBusy(`Generating ${what}…`);
  let out = null;
  try {
    out = await server.generate(body, generation.signal);
  } catch (e) {
    say(e.name === "AbortError" ? "Generation cancelled; the old puzzle is still here." : e.message,
        e.name === "AbortError" ? "" : "error");
  } finally {
    hide();
    generation = null;
    store.set({ generating: false });
    $("generate").disabled = false;
  }
  if (!out) return null;
  try {
    await loadPuzzle(out.puzzle, { level: out.grade || body.difficulty, restore: !!daily, daily });
  } catch (e) { say(e.message, "error"); return null; }
  return out;
}

store.subscribe((changed) => { if (changed.has("limits")) buildForm(); });
