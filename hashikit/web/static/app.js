// hashikit web: play Hashiwokakero in the browser. Plain ES modules, an SVG board, the JSON API of app.py.
// Vocabulary: an island is a numbered cell; a link is a pair of islands that may be joined (from the
// server's /api/parse); a link carries a count of bridges, or a "no bridge" mark; a locked island's
// links do not change.  Every move (bridge, mark, lock) goes through one undo stack.
// This module wires the others together and starts the page: game.js holds the state and the puzzle's
// structure; board.js draws it; moves.js, input.js, check.js and tools.js change and judge it; saved.js
// keeps it; load.js and mode.js load puzzles and switch to the constructor (build.js).
"use strict";

import { api, caps, loadCaps } from "./api.js";
import * as store from "./store.js";
import { createBuilder } from "./build.js";
import { setupPictures } from "./picture.js";
import { $, board, game } from "./game.js";
import { say } from "./messages.js";
import { layoutBoard, paint, showBoard, showCue, sizeWhileBuilding, svgPoint, zoomBy, zoomFit } from "./board.js";
import { redo, undo } from "./moves.js";
import { setupInput } from "./input.js";
import { saveGame, shareUrl, updateHash } from "./saved.js";
import { checkBoard } from "./check.js";
import { askHint, clearBoard, fillPrint, printPuzzle, reveal } from "./tools.js";
import { createLoader, setupChoices } from "./load.js";
import { createModes } from "./mode.js";

const EXAMPLE = "7x7m2:4d2b1b4a26b3m1c3c3c2d3";
const MAX_FILE = 1000000;

// ---------------------------------------------------------------- constructor mode and loading
const builder = createBuilder({
  board, say, svgPoint, caps, api,
  layout: () => layoutBoard(), showBoard: () => showBoard(), $,
  history: (canUndo, canRedo) => { $("undo").disabled = !canUndo; $("redo").disabled = !canRedo; },
  play: async (puzzle) => { await loadPuzzle(puzzle, { restore: false }); },
});
sizeWhileBuilding(() => builder.size());
const { enterBuild, leaveBuild, toggleMode } = createModes({
  builder, loadPuzzle: (puzzle, opts) => loadPuzzle(puzzle, opts),
});
const { loadText, loadPuzzle, loadFromHash, generate } = createLoader({ enterBuild, leaveBuild });
setupInput({ builder });

// ---------------------------------------------------------------- theme
function applyTheme(t) {
  document.documentElement.dataset.theme = t;
  $("theme").textContent = t === "dark" ? "Light mode" : "Dark mode";
  $("theme").setAttribute("aria-pressed", t === "dark" ? "true" : "false");
}

// ---------------------------------------------------------------- wiring
$("undo").addEventListener("click", () => (game.mode === "build" ? builder.undo() : undo()));
$("redo").addEventListener("click", () => (game.mode === "build" ? builder.redo() : redo()));
$("check").addEventListener("click", () => checkBoard(false));
$("hint").addEventListener("click", askHint);
$("reveal").addEventListener("click", reveal);
$("restart").addEventListener("click", clearBoard);
$("print").addEventListener("click", () => printPuzzle(builder));
$("mode").addEventListener("click", toggleMode);
$("zoom-in").addEventListener("click", () => zoomBy(1.25));
$("zoom-out").addEventListener("click", () => zoomBy(0.8));
$("zoom-fit").addEventListener("click", zoomFit);
$("cancel").addEventListener("click", () => game.generating?.abort());
$("theme").addEventListener("click", () => {
  const t = document.documentElement.dataset.theme === "dark" ? "light" : "dark";
  applyTheme(t);
  store.setTheme(t);
});
const TOGGLES = ["errors", "possible", "groups"];
const savePrefs = () => store.setPrefs(Object.fromEntries(TOGGLES.map((id) => [id, $(id).checked])));
for (const id of TOGGLES) $(id).addEventListener("change", savePrefs);
$("errors").addEventListener("change", () => {
  document.body.classList.toggle("marking", $("errors").checked);
  paint();
  say($("errors").checked ? "Error marking is on." : "Error marking is off.");
});
$("possible").addEventListener("change", () => {
  paint();
  say($("possible").checked ? "Dotted lines show every link that can still take a bridge." : "Possible bridges hidden.");
});
$("groups").addEventListener("change", () => {
  paint();
  say($("groups").checked ? "Each connected group of islands has its own bridge colour." : "Group colours off.");
});
$("share-progress").addEventListener("change", updateHash);
$("share").addEventListener("click", async () => {
  const url = $("share-url").value;
  try { await navigator.clipboard.writeText(url); say("Link copied.", "ok"); }
  catch (e) { $("share-url").select(); say("Select the link and copy it.", ""); }
});
$("gen-form").addEventListener("submit", (ev) => { ev.preventDefault(); generate(); });

$("load-form").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const text = $("text").value;
  if (!text.trim()) { say("Paste a puzzle first.", "warn"); return; }
  try { await loadText(text, undefined, { restore: true }); showBoard(); } catch (e) { say(e.message, "error"); }
});

$("file").addEventListener("change", async () => {
  const f = $("file").files[0];
  if (!f) return;
  if (f.size > MAX_FILE) { say(`${f.name} is ${f.size} bytes; the limit is ${MAX_FILE}.`, "error"); return; }
  try {
    const text = await f.text();
    $("text").value = text.length < 20000 ? text : "";
    await loadText(text);
    showBoard();
    say(`Loaded ${f.name}.`);
  } catch (e) { say(`${f.name}: ${e.message}`, "error"); }
  $("file").value = "";
});

window.addEventListener("hashchange", () => {
  if (game.mode === "play" && location.href !== shareUrl(true)) loadFromHash();
});
window.addEventListener("resize", () => layoutBoard());
$("board-wrap").addEventListener("scroll", showCue, { passive: true });
window.addEventListener("scroll", showCue, { passive: true });
$("more-fit").addEventListener("click", zoomFit);
// the browser's own print (Ctrl+P) prints what the Print button prints
window.addEventListener("beforeprint", () => { if (!document.body.classList.contains("printing")) fillPrint(builder); });
window.addEventListener("afterprint", () => { document.body.classList.remove("printing"); $("print-solution").textContent = ""; });
document.addEventListener("visibilitychange", () => { if (document.hidden) saveGame(); });

setupPictures({ loadPuzzle, say });
(async () => {
  applyTheme(store.theme() || (matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light"));
  const prefs = store.prefs();
  for (const id of TOGGLES) if (typeof prefs[id] === "boolean") $(id).checked = prefs[id];
  document.body.classList.toggle("marking", $("errors").checked);
  await loadCaps();
  setupChoices();
  let loaded = await loadFromHash();
  if (!loaded && !location.hash && store.lastGame()) loaded = await loadFromHash(store.lastGame());
  if (!loaded) {
    try { await loadText(EXAMPLE, "tatham"); } catch (e) { say(e.message, "error"); }
  }
  document.body.dataset.ready = "true";
})();
