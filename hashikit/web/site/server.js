// hashikit site: the page's questions answered in the browser, in place of the served page's
// server.js (the same functions, the same answers).  hashikit's own Python answers them in a Web
// Worker (worker.js runs hashikit.web.local under Pyodide); a hashikit server, when one answers
// this page, takes what needs one (a picture, a larger board, a harder level: remote.js is the
// served page's server.js).  The board of a puzzle read before comes back at once, before Python
// is ready: the answers to "parse" are kept in the browser.  This module also starts the service
// worker that keeps the site for visits without a network.
"use strict";

import * as remote from "./remote.js";
import { ServerError } from "./remote.js";
import { tathamId } from "./share.js";

export { ServerError };

const KEPT = "hashikit-site:parsed";     // localStorage: the latest answers to "parse"
const KEEP = 30;                         // how many
const KEEP_BYTES = 20000;                // kept for puzzle texts up to this long

let worker = null, next = 1, ready = false, readyWaiters = [];
const waiting = new Map();               // call id -> {resolve, reject}
let serverAnswers = null;                // the limits document of a hashikit server behind this page, or null

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
  if (!worker) startWorker();
  const id = next++;
  return new Promise((resolve, reject) => {
    waiting.set(id, { resolve, reject });
    signal?.addEventListener("abort", () => {      // the work goes on; its answer is dropped
      if (waiting.delete(id)) reject(new DOMException("cancelled", "AbortError"));
    });
    worker.postMessage({ id, name, body: JSON.stringify(body) });
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

function keptParses() {
  try { return JSON.parse(localStorage.getItem(KEPT)) || []; } catch (e) { return []; }
}

function keepParse(key, answer) {
  try {
    const kept = keptParses().filter(([k]) => k !== key);
    kept.unshift([key, answer]);
    localStorage.setItem(KEPT, JSON.stringify(kept.slice(0, KEEP)));
  } catch (e) { /* storage full or off: the next visit asks Python again */ }
}

// the site's limits document (limits.json), with `server` true when a hashikit server answers this
// page (its levels and sides are then offered too); null when it cannot be read
export async function limits() {
  let own = null;
  try {
    const r = await fetch("limits.json");
    own = r.ok ? await r.json() : null;
  } catch (e) { own = null; }
  if (!own) return null;
  serverAnswers = await remote.limits();
  if (!serverAnswers) return own;
  return { ...serverAnswers, server: true, site: own.site };
}

export async function parse(text, format = undefined) {
  const body = format ? { text, format } : { text };
  const key = JSON.stringify(body);
  const kept = keptParses().find(([k]) => k === key);
  if (kept) return kept[1];
  const answer = await ask("parse", body, () => remote.parse(text, format));
  if (key.length <= KEEP_BYTES) keepParse(key, answer);
  // the page's address names the puzzle by its Tatham ID, or as JSON (share.js): kept under those too
  const { bridges, ...board } = answer, id = tathamId(board.puzzle);
  keepParse(JSON.stringify(id ? { text: id, format: "tatham" } : { text: JSON.stringify(board.puzzle), format: "json" }), board);
  return answer;
}

export const solve = (puzzle) => ask("solve", { puzzle }, () => remote.solve(puzzle));

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

startWorker();
if ("serviceWorker" in navigator && location.protocol !== "file:") {
  navigator.serviceWorker.register(new URL("../sw.js", import.meta.url)).catch(() => { /* no offline copy */ });
}
