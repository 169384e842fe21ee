// hashikit site: the page's questions answered in the browser, in place of the served page's
// server.js (the same functions, the same answers).  hashikit's own Python answers them in a Web
// Worker (worker.js runs hashikit.web.local under Pyodide); a hashikit server, when one answers
// this page, takes what needs one (a picture, a larger board, a harder level: remote.js is the
// served page's server.js).  The board of a puzzle read before comes back at once, before Python
// is ready: the answers to "parse" are kept in the browser (also under the puzzle's name in the
// page's address, which a reload or a saved game reads).  This module also starts the service
// worker that keeps the site for visits without a network, before Python (which then loads from it).
"use strict";

import * as remote from "./remote.js";
import { ServerError } from "./remote.js";
import { tathamId } from "./share.js";

export { ServerError };

const KEPT = "hashikit-site:answers";    // localStorage: the latest answers to "parse" and "solve"
const KEEP = 40;                         // how many
const KEEP_BYTES = 20000;                // kept for requests up to this long
const SERVER_SEEN = "hashikit-site:server";   // localStorage: whether a hashikit server answered the last visit
const SERVER_WAIT_MS = 3000;             // how long the page waits for it to answer (half on a first visit)
const IDLE_MS = 3000;                    // the longest wait for an idle moment (Python's start, writing answers)

let worker = null, next = 1, ready = false;
const readyWaiters = [];
const waiting = new Map();               // call id -> {resolve, reject}
let serverAnswers = null;                // the limits document of a hashikit server behind this page, or null
let build = "";                          // this build of the site (answers kept by another are not read)

function startWorker() {
  worker = new Worker(new URL("worker.js", import.meta.url), { type: "module" });
  worker.onmessage = (ev) => {
    const { id, text, error, loaded } = ev.data;
    if (loaded) {
      ready = true;
      readyWaiters.splice(0).forEach((f) => f());
      return;
    }
    const call = waiting.get(id);
    if (!call) return;
    waiting.delete(id);
    if (error) { call.reject(new ServerError(`Python in this page failed: ${error}`, 500)); return; }
    const out = JSON.parse(text);
    if ("ok" in out) call.resolve(out.ok);
    else call.reject(Object.assign(new ServerError(out.error, out.code), { kind: out.status }));
  };
  worker.onerror = (ev) => {
    for (const call of waiting.values()) call.reject(new ServerError(`Python in this page failed: ${ev.message}`, 500));
    waiting.clear();
  };
}

// whether Python is ready in this page, and a promise of that moment
export const pythonReady = () => ready;
export const whenReady = () => (ready ? Promise.resolve() : new Promise((f) => readyWaiters.push(f)));

// one call to the page's Python: its answer, or a ServerError as the server would give it
function local(name, body, signal = undefined) {
  const id = next++;
  return new Promise((resolve, reject) => {
    waiting.set(id, { resolve, reject });
    signal?.addEventListener("abort", () => {      // the work goes on; its answer is dropped
      if (waiting.delete(id)) reject(new DOMException("cancelled", "AbortError"));
    });
    start();
    python.then(() => worker.postMessage({ id, name, body: JSON.stringify(body) }));
  });
}

// a call to the page's Python, else (what needs a server) to the hashikit server behind the page
async function ask(name, body, viaServer, signal = undefined) {
  try {
    return await local(name, body, signal);
  } catch (e) {
    if (e.kind !== "needs-server" || !serverAnswers) throw e;
    return viaServer();
  }
}

// answers kept in the browser, by call and body, for this build of the site: [[key, answer], ...],
// read once, written back when the page is idle (or hidden)
let keptList = null, writing = false;

function kept() {
  if (!keptList) {
    try { keptList = JSON.parse(localStorage.getItem(KEPT)) || []; } catch (e) { keptList = []; }
  }
  return keptList;
}

function writeKept() {
  writing = false;
  try { localStorage.setItem(KEPT, JSON.stringify(kept())); } catch (e) { /* storage full or off: asked again */ }
}

const keyOf = (name, body) => `${build} ${name} ${JSON.stringify(body)}`;
const found = (key) => kept().find(([k]) => k === key);

function keep(name, body, answer) {
  const key = keyOf(name, body);
  if (key.length > KEEP_BYTES) return;
  keptList = [[key, answer], ...kept().filter(([k]) => k !== key)].slice(0, KEEP);
  if (writing) return;
  writing = true;
  if ("requestIdleCallback" in window) requestIdleCallback(writeKept, { timeout: IDLE_MS });
  else setTimeout(writeKept, 0);
}

addEventListener("visibilitychange", () => { if (document.hidden && writing) writeKept(); });

// the answer kept for a call, or Python's (then kept)
async function keptOr(name, body, viaServer) {
  const known = found(keyOf(name, body));
  if (known) return known[1];
  const answer = await ask(name, body, viaServer);
  keep(name, body, answer);
  return answer;
}

// the documents every visit reads, asked for as this module is first evaluated (before the page's
// other modules run: draw.js waits for the style, app.js for the limits), each once
const ownLimits = () => fetch("limits.json").then((r) => (r.ok ? r.json() : null)).catch(() => null);
async function readStyle() {
  const r = await fetch("style.json");
  if (!r.ok) throw new ServerError(`the board's sizes could not be read (style.json: ${r.status})`, r.status);
  return (await r.json()).page;
}
const early = { behind: remote.limits(), own: ownLimits(), style: readStyle() };
early.style.catch(() => { /* said when style() is called */ });
const once = (name, ask) => {
  const got = early[name];
  early[name] = null;
  return got || ask();
};

// the site's limits document (limits.json), with `server` true when a hashikit server answers this
// page (its levels and sides are then offered too); null when it cannot be read
export async function limits() {
  const behind = once("behind", () => remote.limits()).then((doc) => {
    serverAnswers = doc;
    try { localStorage.setItem(SERVER_SEEN, doc ? "yes" : "no"); } catch (e) { /* not kept */ }
    return doc;
  });
  const own = await once("own", ownLimits);
  if (!own) return null;
  build = own.site?.build || "";
  // where no server answered the last visit, the board does not wait for the question (what needs
  // a server still finds one that answers later)
  let seen = null;
  try { seen = localStorage.getItem(SERVER_SEEN); } catch (e) { seen = null; }
  const wait = seen === "no" ? 0 : seen === "yes" ? SERVER_WAIT_MS : SERVER_WAIT_MS / 2;
  const doc = await Promise.race([behind, new Promise((f) => setTimeout(() => f(null), wait))]);
  if (!doc) return own;
  return { ...doc, server: true, site: own.site };
}

// the drawing's sizes (the style table the server answers at /api/style, written with the site)
export const style = () => once("style", readStyle);

export async function parse(text, format = undefined) {
  const body = format ? { text, format } : { text };
  const known = found(keyOf("parse", body));
  if (known) return known[1];
  const answer = await keptOr("parse", body, () => remote.parse(text, format));
  // the page's address names the puzzle by its Tatham ID, or as JSON (share.js): kept under those too
  const { bridges, ...board } = answer, id = tathamId(board.puzzle);
  keep("parse", id ? { text: id, format: "tatham" } : { text: JSON.stringify(board.puzzle), format: "json" }, board);
  return answer;
}

// the solution (kept too: a saved game comes back without a call to Python)
export const solve = (puzzle) => keptOr("solve", { puzzle }, () => remote.solve(puzzle));


const boardBody = ({ puzzle, bridges, marks }) => ({ puzzle, bridges, marks });
export const check = (board) => ask("check", boardBody(board), () => remote.check(board));
export const hint = (board) => ask("hint", boardBody(board), () => remote.hint(board));
export const analyze = (puzzle, signal) => ask("analyze", { puzzle }, () => remote.analyze(puzzle, signal), signal);
export const convert = (puzzle, format, bridges = undefined) =>
  ask("convert", bridges ? { puzzle, format, bridges } : { puzzle, format }, () => remote.convert(puzzle, format, bridges));
export const generate = (request, signal) => ask("generate", request, () => remote.generate(request, signal), signal);

export function readPicture(image) {
  if (serverAnswers) return remote.readPicture(image);
  return Promise.reject(new ServerError("Reading a picture needs a hashikit server (hashikit serve); " +
                                        "this page runs without one.", 0));
}

// print sheets are made by a hashikit server (the limits document has "sheets" only when one answers)
export function sheets(request) {
  if (serverAnswers) return remote.sheets(request);
  return Promise.reject(new ServerError("Print sheets need a hashikit server (hashikit serve); " +
                                        "this page runs without one.", 0));
}

// Python starts once the service worker keeps the site's files (at once on a later visit; on the
// first, once it has fetched them all: Pyodide's files then come from its copy, fetched once), and
// on a later visit only when a question needs it or the page has shown its board (the board comes
// first: a saved game's answers are kept)
const CONTROL_WAIT_MS = 120000;
let started = null, startNow;
const python = new Promise((resolve) => { startNow = resolve; }).then(() => started);

async function startPython() {
  const sw = navigator.serviceWorker;
  if (sw && location.protocol !== "file:") {
    const controlled = sw.controller ? Promise.resolve() : new Promise((resolve) => {
      sw.addEventListener("controllerchange", resolve, { once: true });
      setTimeout(resolve, CONTROL_WAIT_MS);
    });
    try {
      await sw.register(new URL("../sw.js", import.meta.url));
      await controlled;
    } catch (e) { /* no offline copy: Python starts all the same */ }
  }
  startWorker();
}

function start() {
  if (!started) { started = startPython(); startNow(); }
}

if (!navigator.serviceWorker?.controller) start();      // a first visit: nothing is kept yet
else if ("requestIdleCallback" in window) requestIdleCallback(start, { timeout: IDLE_MS });
else setTimeout(start, IDLE_MS);
