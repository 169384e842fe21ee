// hashikit web: every question the page asks the server, one function each, with the request body
// each one sends.  The page asks nothing elsewhere: a page with no server answers the same
// functions in a module of its own (say, the same Python in a Web Worker) in place of this one.
"use strict";

export class ServerError extends Error {
  constructor(message, status) { super(message); this.status = status; }
}

async function post(path, body, signal = undefined, file = false) {
  let r;
  try {
    r = await fetch(path, { method: "POST", headers: { "content-type": "application/json" },
                            body: JSON.stringify(body), signal });
  } catch (e) {
    if (e.name === "AbortError") throw e;
    throw new ServerError("the server does not answer (is hashikit serve still running?)", 0);
  }
  if (file && r.ok) return r.blob();
  let data = null;
  try { data = await r.json(); } catch (e) { /* not JSON */ }
  if (!r.ok) {
    const detail = data && (data.error || (Array.isArray(data.detail) ? data.detail.map((d) => d.msg).join("; ")
                                                                      : data.detail));
    throw new ServerError(detail || `the server answered ${r.status}`, r.status);
  }
  return data;
}

// the server's limits and options (GET /api/limits), or null when they cannot be read
export async function limits() {
  try {
    const r = await fetch("api/limits");
    const doc = r.ok ? await r.json() : null;
    return doc && typeof doc === "object" && doc.generate ? doc : null;
  } catch (e) { return null; }
}

// the drawing's sizes (GET /api/style: the one style table hashikit's pictures and books are drawn
// with), this page's column ("page"): every size a fraction of a cell
export async function style() {
  const r = await fetch("api/style");
  if (!r.ok) throw new ServerError(`the board's sizes could not be read (GET /api/style: ${r.status})`, r.status);
  return (await r.json()).page;
}

// puzzle text in any format the server reads (guessed unless `format` names it): {puzzle, links,
// crossings, bridges?}
export const parse = (text, format = undefined) => post("api/parse", format ? { text, format } : { text });

// the solution, and whether it is unique
export const solve = (puzzle) => post("api/solve", { puzzle });

// a board in play: the puzzle, its bridges [[r1, c1, r2, c2, count]] and its marks
// [[r1, c1, r2, c2(, most)]], as both /api/check and /api/hint take it
const boardBody = ({ puzzle, bridges, marks }) => ({ puzzle, bridges, marks });
export const check = (board) => post("api/check", boardBody(board));
export const hint = (board) => post("api/hint", boardBody(board));

// no, one or several solutions (with the links where two differ), and a unique one's grade
export const analyze = (puzzle, signal) => post("api/analyze", { puzzle }, signal);

// the puzzle written in a format (with its solution's bridges when the format shows one)
export const convert = (puzzle, format, bridges = undefined) =>
  post("api/convert", bridges ? { puzzle, format, bridges } : { puzzle, format });

// a new puzzle from the generator; `request` as GET /api/limits's "generate" allows
export const generate = (request, signal) => post("api/generate", request, signal);

// a picture (base64) read as a board
export const readPicture = (image) => post("api/read-picture", { image });

// print sheets of puzzles (POST /api/sheets): {puzzles, per_page, solutions, paper} as a PDF (a Blob),
// or with format "svg" as {pages: [svg text], solutions_from} for the browser to print
export const sheets = (request) => post("api/sheets", request, undefined, request.format !== "svg");
