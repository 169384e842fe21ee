// hashikit web: loading a puzzle (pasted, from a file, a link or the generator) and starting its game,
// with the saved progress when there is some; and the generator's form.
"use strict";

import { api, caps } from "./api.js";
import * as store from "./store.js";
import { unb64url } from "./share.js";
import { $, applyBridgeList, busy, game, isComplete, linksFromServer, validMoves } from "./game.js";
import { hideBanner, say, showBanner, showRules } from "./messages.js";
import { buildBoard, layoutBoard, showBoard } from "./board.js";
import { puzzleCode, resumeTimer, showBest, stopTimer, updateHash } from "./saved.js";
import { afterChange } from "./moves.js";
import { tellIfNotPlayable } from "./check.js";

export function setupChoices() {
  const [lo, hi] = caps.generate.rows;
  for (const id of ["gen-rows", "gen-cols"]) { $(id).min = lo; $(id).max = hi; }
  for (const id of ["blank-rows", "blank-cols"]) $(id).max = caps.maxSide;
  const sel = $("gen-difficulty"), current = sel.value;
  sel.textContent = "";
  for (const level of caps.levels) {
    const o = document.createElement("option");
    o.value = o.textContent = level;
    sel.append(o);
  }
  sel.value = caps.levels.includes(current) ? current : caps.levels[Math.min(1, caps.levels.length - 1)];
  const mb = caps.generate.maxbridges, dens = caps.generate.density;
  document.querySelector(".opt-mb").hidden = !mb;
  if (mb) { $("gen-mb").min = mb[0]; $("gen-mb").max = Math.min(4, mb[1]); }
  document.querySelector(".opt-density").hidden = !dens;
  if (dens) { $("gen-density").min = dens[0]; $("gen-density").max = dens[1]; }
  document.querySelector(".opt-noloops").hidden = !caps.generate.no_loops;
  for (const id of ["blank-mb"]) $(id).max = Math.min(4, caps.maxMaxbridges);
  $("gen-note").textContent = `Sides ${lo} to ${hi}; a generation may take up to ${caps.generateSeconds} s.` +
    (caps.read ? "" : " (This server's limits could not be read: these are the usual ones.)");
}

// the generate request from the form, or an error message naming the field
function generateRequest() {
  const [lo, hi] = caps.generate.rows;
  const body = { difficulty: $("gen-difficulty").value };
  for (const [key, id, name] of [["rows", "gen-rows", "Rows"], ["cols", "gen-cols", "Columns"]]) {
    const v = Number($(id).value);
    if (!Number.isInteger(v) || v < lo || v > hi) return `${name} must be a whole number from ${lo} to ${hi}.`;
    body[key] = v;
  }
  const seed = $("gen-seed").value.trim();
  if (seed) {
    if (!/^[0-9]{1,18}$/.test(seed)) return "The seed must be a whole number (up to 18 digits), or empty for a random one.";
    body.seed = Number(seed);
  }
  if (caps.generate.maxbridges) {
    const mb = Number($("gen-mb").value), [a, b] = caps.generate.maxbridges;
    if (!Number.isInteger(mb) || mb < a || mb > Math.min(4, b)) return `Bridges per pair must run from ${a} to ${Math.min(4, b)}.`;
    body.maxbridges = mb;
  }
  if (caps.generate.density && $("gen-density").value.trim()) {
    const d = Number($("gen-density").value), [a, b] = caps.generate.density;
    if (!(d > a && d <= b)) return `Density must be above ${a} and at most ${b}, or be left empty.`;
    body.density = d;
  }
  if (caps.generate.no_loops && $("gen-noloops").checked) body.no_loops = true;
  return body;
}

function showBusy(text) {
  const started = Date.now();
  $("busy").hidden = false;
  $("busy-bar").max = caps.generateSeconds;
  const update = () => {
    const s = (Date.now() - started) / 1000;
    $("busy-text").textContent = `${text} ${s.toFixed(1)} s`;
    $("busy-bar").value = Math.min(s, caps.generateSeconds);
  };
  update();
  const id = setInterval(update, 200);
  return () => { clearInterval(id); $("busy").hidden = true; };
}

// the loaders; leaving and entering build mode come from mode.js (which loads through these)
export function createLoader({ enterBuild, leaveBuild }) {
  function setPuzzle(parsed, { bridges = null, progress = null, level = "custom", restore = true } = {}) {
    const puzzle = parsed.puzzle;
    leaveBuild();
    if (!game.puzzle || game.puzzle.rows !== puzzle.rows || game.puzzle.cols !== puzzle.cols) game.zoom = 1;
    game.puzzle = puzzle;
    game.level = level;
    game.solutionP = null; game.solutionKnown = null;
    const ignored = new Set((puzzle.ignore || []).map(([r, c]) => `${r},${c}`));
    document.body.dataset.geometry = "server";
    game.islands = puzzle.islands.filter(([r, c]) => !ignored.has(`${r},${c}`))
      .map(([r, c, n]) => ({ r, c, n }))
      .sort((x, y) => x.r - y.r || x.c - y.c);
    game.ignored = puzzle.islands.filter(([r, c]) => ignored.has(`${r},${c}`));
    game.at = new Map(game.islands.map((s, i) => [`${s.r},${s.c}`, i]));
    const links = linksFromServer(parsed.links, parsed.crossings);
    const mb = puzzle.maxbridges || 2;
    for (const ln of links) ln.cap = Math.min(mb, game.islands[ln.a].n, game.islands[ln.b].n);
    game.links = links;
    game.linkOf = new Map(links.map((l, k) => [`${l.a},${l.b}`, k]));
    game.inc = game.islands.map(() => []);
    links.forEach((l, k) => { game.inc[l.a].push(k); game.inc[l.b].push(k); });
    game.counts = links.map(() => 0);
    game.marks = links.map(() => false);
    game.caps = new Map();   // link -> at most this many bridges, from hints (sent back with the marks)
    game.locked = new Set();
    game.elapsed = 0;
    game.solved = false; game.revealed = false; game.hints = 0;
    game.undo = []; game.redo = [];
    const saved = restore ? store.loadProgress(puzzleCode()) : null;
    if (bridges) applyBridgeList(bridges, game.counts);
    const fromLink = progress && progress.length === links.length && /^[0-9]+$/.test(progress);
    if (fromLink) game.counts = [...progress].map((d, k) => Math.min(+d, links[k].cap));
    // the saved game comes back when the link carries no other progress than the saved one
    if (saved && saved.counts?.length === links.length && (!fromLink || saved.counts === progress)) {
      game.counts = [...saved.counts].map((d, k) => Math.min(+d || 0, links[k].cap));
      game.marks = [...(saved.marks || "")].map((d) => d === "1");
      while (game.marks.length < links.length) game.marks.push(false);
      game.locked = new Set((saved.locked || []).filter((i) => i < game.islands.length));
      game.elapsed = +saved.elapsed || 0;
      game.level = saved.level || level;
      game.hints = +saved.hints || 0;
      game.revealed = !!saved.revealed;
      game.undo = validMoves(saved.undo);
      game.redo = validMoves(saved.redo);
      game.restored = true;
    } else game.restored = false;
    game.selected = null; game.focus = 0; game.hint = null; game.checked = null;
    hideBanner();
    buildBoard();
    layoutBoard();
    showRules();
    const done = isComplete();
    if (done && saved?.solved) { game.solved = true; stopTimer(); showBanner(); }
    else resumeTimer();
    updateHash();
    $("info").textContent = `${puzzle.cols} × ${puzzle.rows} board, ${game.islands.length} islands` +
      (mb !== 2 ? `, up to ${mb} bridges per pair` : "") + (puzzle.no_loops ? ", no loops" : "") +
      (game.level !== "custom" ? `, ${game.level}` : "") + ".";
    showBest();
    say(game.restored ? "Welcome back: your game is restored." : "Your move: join the islands.");
    afterChange({ save: false });
    tellIfNotPlayable();
  }

  async function loadText(text, format = undefined, opts = {}) {
    const body = format ? { text, format } : { text };
    const out = await api("/api/parse", body);
    setPuzzle(out, { bridges: out.bridges || null, ...opts });
  }

  // a puzzle object (from the generator, the constructor or a picture) through /api/parse, for its
  // links; the board comes into view
  async function loadPuzzle(puzzle, opts = {}) {
    await loadText(JSON.stringify(puzzle), "json", opts);
    showBoard();
  }

  async function loadFromHash(hash = location.hash) {
    const params = new URLSearchParams(hash.slice(1));
    const progress = params.get("b");
    const level = params.get("l") || "custom";
    try {
      if (params.get("p")) await loadText(params.get("p"), "tatham", { progress, level });
      else if (params.get("j")) await loadText(unb64url(params.get("j")), "json", { progress, level });
      else return false;
      if (params.get("build")) enterBuild(true);
      return true;
    } catch (e) {
      say(`The link's puzzle cannot be read: ${e.message}`, "error");
    }
    return false;
  }

  async function generate() {
    if (busy()) return;
    const body = generateRequest();
    if (typeof body === "string") { say(body, "warn"); return; }
    const controller = new AbortController();
    game.generating = controller;
    stopTimer();                           // the old puzzle's clock waits
    $("generate").disabled = true;
    const what = `${/^[aeiou]/i.test(body.difficulty) ? "an" : "a"} ${body.difficulty} ${body.cols} × ${body.rows}`;
    say(`Generating ${what} puzzle… (Esc or Cancel stops)`);
    const hide = showBusy(`Generating ${what} puzzle…`);
    let out = null;
    try {
      out = await api("/api/generate", body, controller.signal);
    } catch (e) {
      say(e.name === "AbortError" ? "Generation cancelled; the old puzzle is still here." : e.message,
          e.name === "AbortError" ? "" : "error");
    } finally {
      hide();
      game.generating = null;
      $("generate").disabled = false;
    }
    if (!out) { if (game.puzzle && game.mode === "play") resumeTimer(); return; }
    try {
      await loadPuzzle(out.puzzle, { level: out.grade || body.difficulty, restore: false });
      $("gen-seed").placeholder = `random (last: ${out.seed})`;
      say(`A new ${out.grade} puzzle (seed ${out.seed}, type it under Seed to play it again). Good luck!`);
    } catch (e) { say(e.message, "error"); }
  }

  return { setPuzzle, loadText, loadPuzzle, loadFromHash, generate };
}
