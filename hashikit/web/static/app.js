// hashikit web: play Hashiwokakero in the browser. Plain ES modules, an SVG board, the JSON API of app.py.
// Vocabulary: an island is a numbered cell; a link is a pair of islands that may be joined (from the
// server's /api/parse); a link carries a count of bridges, or a "no bridge" mark; a locked island's
// links do not change.  Every move (bridge, mark, lock) goes through one undo stack.
// This module wires the page's buttons to the modules that act, and starts the page.  The modules
// import each other directly, each only those on a floor below its own (ARCHITECTURE.md lists
// them): store.js holds the state, the views redraw from it, the actions change it.
"use strict";

import * as build from "./build.js";
import { checkBoard } from "./check.js";
import "./clock.js";
import { openDaily } from "./daily.js";
import { $ } from "./dom.js";
import { fold } from "./fold.js";
import { focusBoard } from "./input.js";
import { generate, loadFromHash, loadText, cancelGeneration } from "./load.js";
import { say } from "./messages.js";
import { enterBuild, toggleMode } from "./mode.js";
import { dropTrial, keepTrial, redo, startTrial, undo } from "./moves.js";
import "./picture.js";
import "./sheets.js";
import { saveGame, shareUrl, updateHash } from "./saved.js";
import * as server from "./server.js";
import * as storage from "./storage.js";
import * as store from "./store.js";
import { askHint, clearBoard, fillPrint, printPuzzle, reveal } from "./tools.js";
import { layoutBoard, showBoard, showCue, zoomBy, zoomFit } from "./zoom.js";

const { state } = store;
const EXAMPLE = "7x7m2:4d2b1b4a26b3m1c3c3c2d3";

// ---------------------------------------------------------------- theme
function applyTheme(t) {
  store.set({ theme: t });
  document.documentElement.dataset.theme = t;
  $("theme").textContent = t === "dark" ? "Light mode" : "Dark mode";
  $("theme").setAttribute("aria-pressed", t === "dark" ? "true" : "false");
}

// ---------------------------------------------------------------- wiring
const building = () => state.mode === "build";
$("undo").addEventListener("click", () => (building() ? build.undo() : undo()));
$("redo").addEventListener("click", () => (building() ? build.redo() : redo()));
$("check").addEventListener("click", () => checkBoard(false));
$("hint").addEventListener("click", askHint);
$("reveal").addEventListener("click", reveal);
$("trial").addEventListener("click", startTrial);
$("trial-keep").addEventListener("click", keepTrial);
$("trial-drop").addEventListener("click", dropTrial);
$("restart").addEventListener("click", clearBoard);
$("print").addEventListener("click", printPuzzle);
$("mode").addEventListener("click", toggleMode);
$("zoom-in").addEventListener("click", () => zoomBy(1.25));
$("zoom-out").addEventListener("click", () => zoomBy(0.8));
$("zoom-fit").addEventListener("click", zoomFit);
$("cancel").addEventListener("click", cancelGeneration);
$("skip").addEventListener("click", (ev) => { ev.preventDefault(); focusBoard(); });
$("theme").addEventListener("click", () => {
  const t = state.theme === "dark" ? "light" : "dark";
  applyTheme(t);
  storage.setTheme(t);
});
const TOGGLES = ["errors", "possible", "groups"];
const TOGGLE_WORDS = {
  errors: ["Error marking is on.", "Error marking is off."],
  possible: ["Dotted lines show every link that can still take a bridge.", "Possible bridges hidden."],
  groups: ["Each connected group of islands has its own bridge colour.", "Group colours off."],
};
for (const id of TOGGLES) {
  $(id).addEventListener("change", () => {
    store.set({ show: { [id]: $(id).checked } });
    storage.setPrefs(Object.fromEntries(TOGGLES.map((t) => [t, $(t).checked])));
    say(TOGGLE_WORDS[id][$(id).checked ? 0 : 1]);
  });
}
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
  try { await loadText(text, undefined, { restore: true }); store.flush(); showBoard(); } catch (e) { say(e.message, "error"); }
});

$("file").addEventListener("change", async () => {
  const f = $("file").files[0];
  if (!f) return;
  const most = state.limits?.max_input_bytes;
  if (most && f.size > most) { say(`${f.name} is ${f.size} bytes; the limit is ${most}.`, "error"); return; }
  try {
    const text = await f.text();
    $("text").value = text.length < 20000 ? text : "";
    await loadText(text);
    store.flush();
    showBoard();
    say(`Loaded ${f.name}.`);
  } catch (e) { say(`${f.name}: ${e.message}`, "error"); }
  $("file").value = "";
});

// a page address of its own (a link followed, the back button) loads its puzzle
async function openHash(hash = location.hash) {
  const { loaded, build: building } = await loadFromHash(hash);
  if (loaded && building) enterBuild(true);
  return loaded;
}

// Back and Forward (and an address typed): the puzzle of that entry, its game as left
window.addEventListener("popstate", () => {
  if (!(state.mode === "play" && state.puzzle && location.href === shareUrl(true))) openHash();
});
window.addEventListener("resize", () => layoutBoard());
$("board-wrap").addEventListener("scroll", showCue, { passive: true });
window.addEventListener("scroll", showCue, { passive: true });
$("more-fit").addEventListener("click", zoomFit);
// the browser's own print (Ctrl+P) prints what the Print button prints
window.addEventListener("beforeprint", () => { if (!document.body.classList.contains("printing")) fillPrint(); });
window.addEventListener("afterprint", () => {
  document.body.classList.remove("printing", "printing-sheets");
  $("print-solution").textContent = "";
});
document.addEventListener("visibilitychange", () => { if (document.hidden) saveGame(); });

(async () => {
  applyTheme(storage.theme() || (matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light"));
  const prefs = storage.prefs();
  for (const id of TOGGLES) if (typeof prefs[id] === "boolean") $(id).checked = prefs[id];
  store.set({ show: Object.fromEntries(TOGGLES.map((id) => [id, $(id).checked])) });
  store.set({ limits: (await server.limits()) || false });
  let loaded = await openHash();
  if (!loaded && !location.hash && storage.lastGame()) loaded = await openHash(storage.lastGame());
  if (!loaded && !location.hash && state.limits?.site?.daily) loaded = await openDaily();
  if (!loaded) {
    try { await loadText(EXAMPLE, "tatham"); } catch (e) { say(e.message, "error"); }
  }
  store.flush();
  fold();
  document.body.dataset.ready = "true";
})();
