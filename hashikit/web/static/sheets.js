// hashikit web: print sheets, N puzzles a page and their solutions on the pages after, laid out by the
// server with the engine of `hashikit book`: new puzzles from the generator (a level and a size) or
// the games kept in this browser, as a PDF to download or as pages for the browser's own print.
// The form is built from the limits document's "sheets" field, and hidden when the server has none.
"use strict";

import { $ } from "./dom.js";
import { say } from "./messages.js";
import * as server from "./server.js";
import { unb64url } from "./share.js";
import * as storage from "./storage.js";
import * as store from "./store.js";

const { state } = store;
let working = false;

const note = (text) => { $("sheets-note").textContent = text; };

function option(select, value, text = value) {
  const o = document.createElement("option");
  o.value = value;
  o.textContent = text;
  select.append(o);
}

// the form, from the limits document
function buildForm() {
  const sh = state.limits?.sheets, g = state.limits?.generate;
  $("sheets-card").hidden = !sh;
  if (!sh) return;
  for (const [id, values, chosen] of [["sheets-per-page", sh.per_page, 4], ["sheets-paper", sh.papers, sh.papers[0]]]) {
    const sel = $(id), current = sel.value;
    sel.textContent = "";
    for (const v of values) option(sel, v, id === "sheets-paper" ? v.toUpperCase().replace("LETTER", "Letter") : v);
    sel.value = values.map(String).includes(current) ? current : String(values.includes(chosen) ? chosen : values[0]);
  }
  const level = $("sheets-level");
  level.textContent = "";
  for (const l of g?.levels || []) option(level, l);
  if (g) {
    level.value = g.default_level;
    Object.assign($("sheets-side"), { min: g.min_side, max: g.max_side });
    if (!$("sheets-side").value) $("sheets-side").value = g.default_side;
  }
  $("sheets-source").querySelector("[value=new]").disabled = !g;
  if (!g) $("sheets-source").value = "saved";
  pagesRange();
}

function pagesRange() {
  const sh = state.limits?.sheets;
  if (!sh) return;
  Object.assign($("sheets-pages"), { min: 1, max: Math.max(1, Math.floor(sh.max_puzzles / +$("sheets-per-page").value)) });
}

// the request's puzzle count, or a message naming the field
function wanted() {
  const pages = Number($("sheets-pages").value), most = +$("sheets-pages").max;
  if (!Number.isInteger(pages) || pages < 1 || pages > most) return `Pages run from 1 to ${most} at this many a page.`;
  return pages * +$("sheets-per-page").value;
}

// new puzzles from the generator, one after another, said as they come
async function newPuzzles(count) {
  const g = state.limits.generate, side = Number($("sheets-side").value);
  if (!Number.isInteger(side) || side < g.min_side || side > g.max_side) {
    throw new Error(`The size runs from ${g.min_side} to ${g.max_side}.`);
  }
  const out = [];
  for (let k = 1; k <= count; k++) {
    note(`Generating puzzle ${k} of ${count}…`);
    out.push((await server.generate({ rows: side, cols: side, difficulty: $("sheets-level").value })).puzzle);
  }
  return out;
}

// the games kept in this browser, the last played first
async function savedPuzzles(count) {
  const games = storage.savedGames().slice(0, count);
  if (!games.length) throw new Error("No saved games yet: play a puzzle first, or print new ones.");
  const out = [];
  for (const { code } of games) {
    if (code.startsWith("p=")) out.push((await server.parse(code.slice(2), "tatham")).puzzle);
    else if (code.startsWith("j=")) out.push(JSON.parse(unb64url(code.slice(2))));
  }
  return out;
}

function download(blob) {
  const a = document.createElement("a");
  a.href = URL.createObjectURL(blob);
  a.download = "hashi-sheets.pdf";
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 60000);
}

// the pages in the print area, each on a sheet of its own at the paper's size, then the browser's print
function printPages(pages, paper) {
  const area = $("print-solution");
  area.textContent = "";
  for (const text of pages) {
    const doc = new DOMParser().parseFromString(text, "image/svg+xml");
    const page = document.createElement("div");
    page.className = `sheet ${paper === "letter" ? "letter" : "a4"}`;
    page.append(document.importNode(doc.documentElement, true));
    area.append(page);
  }
  document.body.classList.add("printing", "printing-sheets");
  window.print();
}

async function make(format) {
  if (working || !state.limits?.sheets) return;
  const count = wanted();
  if (typeof count === "string") { note(count); say(count, "warn"); return; }
  working = true;
  for (const id of ["sheets-pdf", "sheets-print"]) $(id).disabled = true;
  try {
    const puzzles = $("sheets-source").value === "new" ? await newPuzzles(count) : await savedPuzzles(count);
    note(`Laying out ${puzzles.length} ${puzzles.length === 1 ? "puzzle" : "puzzles"}, each checked…`);
    const request = { puzzles, per_page: +$("sheets-per-page").value, solutions: $("sheets-solutions").checked,
                      paper: $("sheets-paper").value, format };
    const out = await server.sheets(request);
    const what = `${puzzles.length} ${puzzles.length === 1 ? "puzzle" : "puzzles"}, ${request.per_page} a page` +
      (request.solutions ? ", the solutions after" : "");
    if (format === "svg") { note(`Printing ${what}.`); printPages(out.pages, request.paper); }
    else { download(out); note(`Downloaded hashi-sheets.pdf: ${what}.`); say(`Print sheets ready: ${what}.`, "ok"); }
  } catch (e) {
    note(e.message);
    say(`Print sheets: ${e.message}`, "error");
  } finally {
    working = false;
    for (const id of ["sheets-pdf", "sheets-print"]) $(id).disabled = false;
  }
}

$("sheets-form").addEventListener("submit", (ev) => { ev.preventDefault(); make("pdf"); });
$("sheets-print").addEventListener("click", () => make("svg"));
$("sheets-per-page").addEventListener("change", pagesRange);
$("sheets-source").addEventListener("change", () => { $("sheets-new").hidden = $("sheets-source").value !== "new"; });
store.subscribe((changed) => { if (changed.has("limits")) buildForm(); });
