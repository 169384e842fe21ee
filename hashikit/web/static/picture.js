// hashikit web: read a puzzle from a picture (a file, the clipboard or a phone's camera) through
// POST /api/read-picture, show what was read over the picture, where the board is and as large as
// its frame, and what the rules of the puzzle corrected (each undoable); let the player correct a
// number (a tap on the digits beside the picked island, the first unsure one picked already, or a
// digit key on a focused island), then play it (with the bridges drawn in the picture as the game
// so far).
"use strict";

import { $ } from "./dom.js";
import { el } from "./draw.js";
import { loadPuzzle } from "./load.js";
import { say } from "./messages.js";
import { readPicture } from "./server.js";
import { state, subscribe } from "./store.js";
import { layoutBoard } from "./zoom.js";

// pictures are sent at most this wide or high (a phone photo is scaled down first), and re-encoded
// when their base64 (4 characters for 3 bytes) would not fit the server's largest request body
const MAX_SIDE = 1600;
const maxBytes = () => Math.floor((state.limits?.max_input_bytes || 0) * 0.7);

let reading = null; // the server's answer, with the player's corrections applied to reading.islands
let picked = -1; // index into reading.islands of the island being corrected
// reading.corrections: what the rules corrected, each marked `undone` when the player takes it back

function toBase64(bytes) {
  let s = "";
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s);
}

// the picture as base64, scaled down (and re-encoded) when it is large
async function prepare(blob) {
  const bytes = new Uint8Array(await blob.arrayBuffer());
  let bitmap = null;
  try { bitmap = await createImageBitmap(blob); } catch (e) { /* not a picture the browser reads */ }
  if (!bitmap) return { data: toBase64(bytes), url: URL.createObjectURL(blob) };
  const scale = Math.min(1, MAX_SIDE / Math.max(bitmap.width, bitmap.height));
  if (scale === 1 && bytes.length <= maxBytes()) return { data: toBase64(bytes), url: URL.createObjectURL(blob) };
  const canvas = document.createElement("canvas");
  canvas.width = Math.round(bitmap.width * scale);
  canvas.height = Math.round(bitmap.height * scale);
  canvas.getContext("2d").drawImage(bitmap, 0, 0, canvas.width, canvas.height);
  const url = canvas.toDataURL("image/jpeg", 0.92);
  return { data: url.split(",", 2)[1], url };
}

// a cell's centre in picture pixels: through the grid as the camera saw it (a homography) when given
function centre(r, c) {
  const H = reading.homography;
  if (H) {
    const w = H[2][0] * c + H[2][1] * r + H[2][2];
    return [(H[0][0] * c + H[0][1] * r + H[0][2]) / w, (H[1][0] * c + H[1][1] * r + H[1][2]) / w];
  }
  return [reading.origin[0] + c * reading.ex[0] + r * reading.ey[0],
          reading.origin[1] + c * reading.ex[1] + r * reading.ey[1]];
}

const sameCell = (cell, r, c) => !!cell && cell[0] === r && cell[1] === c;

// the rules' correction of the island at (r, c) still in force, if any
const correctedAt = (r, c) => reading.corrections.find((k) => !k.undone && k.was !== k.now && sameCell(k.cell, r, c));

function draw() {
  const svg = $("picture-overlay");
  svg.textContent = "";
  svg.setAttribute("viewBox", `0 0 ${reading.width} ${reading.height}`);
  const pitch = Math.hypot(reading.ex[0], reading.ex[1]);
  for (const [r1, c1, r2, c2, n] of reading.bridges) {
    const [xa, ya] = centre(r1, c1), [xb, yb] = centre(r2, c2);
    el("line", { x1: xa, y1: ya, x2: xb, y2: yb, class: "picture-bridge", "stroke-width": Math.max(1, pitch * 0.05 * n) }, svg);
  }
  reading.islands.forEach(([r, c, n, sure], i) => {
    const [x, y] = centre(r, c);
    const fixed = correctedAt(r, c);
    const how = fixed ? ` (read as ${fixed.was}, corrected by the rules)` : sure < 0.8 ? " (unsure)" : "";
    const g = el("g", { class: "picture-island" + (fixed ? " corrected" : sure < 0.8 ? " unsure" : "") +
                                 (i === picked ? " picked" : ""),
                        role: "button", tabindex: "0", "data-row": r, "data-col": c,
                        "aria-label": `row ${r + 1}, column ${c + 1}: ${n}${how}; tap to correct` }, svg);
    el("circle", { cx: x, cy: y, r: pitch * 0.45 }, g);
    const t = el("text", { x: x + pitch * 0.3, y: y - pitch * 0.28, "font-size": Math.max(8, pitch * 0.42) }, g);
    t.textContent = String(n);
    const pick = () => { picked = i; draw(); showFix(); };
    g.addEventListener("click", pick);
    g.addEventListener("keydown", (e) => {
      if (e.key === "Enter" || e.key === " ") { e.preventDefault(); pick(); return; }
      const n = /^[0-8]$/.test(e.key) ? +e.key : e.key === "Delete" || e.key === "Backspace" ? 0 : null;
      if (n === null || e.ctrlKey || e.metaKey || e.altKey) return;
      e.preventDefault();
      e.stopPropagation();
      picked = i;
      correct(n);                   // one key: the number, or none
    });
  });
}

// the digits beside the picked island: below it where the picture has room, else above
function showFix() {
  const fix = $("picture-fix");
  fix.hidden = picked < 0;
  if (picked < 0) return;
  const [r, c, n] = reading.islands[picked];
  $("picture-fix-label").textContent = `Row ${r + 1}, column ${c + 1} (read as ${n}):`;
  const img = $("picture-img"), scale = img.clientWidth / reading.width;
  const [x, y] = centre(r, c), pitch = Math.hypot(reading.ex[0], reading.ex[1]) * scale;
  const w = fix.offsetWidth, h = fix.offsetHeight, sx = x * scale, sy = y * scale;
  fix.style.left = `${Math.max(0, Math.min(img.clientWidth - w, sx - w / 2))}px`;
  fix.style.top = `${sy + pitch * 0.6 + h <= img.clientHeight ? sy + pitch * 0.6 : Math.max(0, sy - pitch * 0.6 - h)}px`;
}

// the picture as large as the board's frame allows: its width, and the screen's height with the board
// section at the top of the screen (the Play and Discard buttons below it in view too)
function fitPicture() {
  const img = $("picture-img"), view = $("picture-view");
  if (!reading || view.hidden || !img.naturalWidth) return;
  const below = img.getBoundingClientRect().top - $("play").getBoundingClientRect().top;
  const width = view.clientWidth - 18, height = Math.max(240, innerHeight - below - 72);
  const scale = Math.min(width / img.naturalWidth, height / img.naturalHeight);
  img.style.width = `${Math.round(img.naturalWidth * scale)}px`;
  img.style.height = `${Math.round(img.naturalHeight * scale)}px`;
  showFix();
}

// the picture shown where the board is (the board waits behind it), or the board again
function showView(on) {
  $("picture-view").hidden = !on;
  document.body.classList.toggle("reading-picture", on);
  if (on) fitPicture(); else layoutBoard();
}

// the next island read with doubt and not yet settled by the player, after island `from`
function nextUnsure(from = -1) {
  const n = reading.islands.length;
  for (let k = 1; k <= n; k++) {
    const i = (from + k + n) % n;
    if (reading.islands[i][3] < 0.8) return i;
  }
  return -1;
}

function note() {
  const n = reading.islands.length, b = reading.bridges.length;
  const lines = [`Read ${n} islands${b ? ` and ${b} bridges` : ""}. Check the numbers against the picture; tap one to correct it.`];
  if (reading.unsure.length) lines.push("Unsure: " + reading.unsure.join("; ") + ".");
  $("picture-note").textContent = lines.join(" ");
  listCorrections();
}

// what the rules corrected, each with a button to take it back (or put it back again)
function listCorrections() {
  let list = $("picture-corrections");
  if (!list) {
    list = document.createElement("ul");
    list.id = "picture-corrections";
    list.className = "small";
    list.setAttribute("aria-label", "what the rules of the puzzle corrected");
    $("picture-note").after(list);
  }
  list.textContent = "";
  list.hidden = !reading.corrections.length;
  reading.corrections.forEach((k, i) => {
    const li = document.createElement("li");
    if (k.undone) li.className = "undone";
    const text = document.createElement("span");
    text.textContent = (k.was === k.now ? "Checked by the rules: " : "Corrected by the rules: ") + k.text +
                       (k.undone ? " (undone)" : ".");
    li.append(text);
    if (k.was !== k.now) {
      const button = document.createElement("button");
      button.type = "button";
      button.className = "quiet";
      button.dataset.correction = String(i);
      button.textContent = k.undone ? "Redo" : "Undo";
      button.setAttribute("aria-label", `${k.undone ? "Redo" : "Undo"}: ${k.text}`);
      li.append(" ", button);
    }
    list.append(li);
  });
}

// take back (or put back) the rules' correction i: an island's number (0: the island itself), or a
// link's bridges
function toggleCorrection(i) {
  const k = reading.corrections[i];
  if (!k || k.was === k.now) return;
  k.undone = !k.undone;
  const value = k.undone ? k.was : k.now;
  if (k.cell) {
    const [r, c] = k.cell;
    const at = reading.islands.findIndex(([ir, ic]) => ir === r && ic === c);
    if (value === 0) {
      if (at >= 0) reading.islands.splice(at, 1);
    } else if (at >= 0) {
      reading.islands[at] = [r, c, value, 1, reading.islands[at][4], reading.islands[at][5]];
    } else {
      reading.islands.push([r, c, value, 1, ...centre(r, c)]);
    }
  } else if (k.link) {
    const [r1, c1, r2, c2] = k.link;
    reading.bridges = reading.bridges.filter((b) => !(b[0] === r1 && b[1] === c1 && b[2] === r2 && b[3] === c2));
    if (value > 0) reading.bridges.push([r1, c1, r2, c2, value]);
  }
  picked = -1;
  showFix();
  draw();
  note();
}

function correct(number) {
  if (picked < 0) return;
  const [r, c] = reading.islands[picked];
  if (number === 0) {
    reading.islands.splice(picked, 1);
    reading.bridges = reading.bridges.filter(([r1, c1, r2, c2]) => !((r1 === r && c1 === c) || (r2 === r && c2 === c)));
  } else {
    reading.islands[picked] = [r, c, number, 1, reading.islands[picked][4], reading.islands[picked][5]];
  }
  // the player's own number stands: the rules' correction there is no longer one to undo
  reading.corrections = reading.corrections.filter((k) => !sameCell(k.cell, r, c));
  const was = picked, keys = !!document.activeElement?.closest?.("#picture-overlay");
  picked = nextUnsure(number === 0 ? picked - 1 : picked);       // the next doubtful one, ready for one tap
  draw();
  showFix();
  note();
  const islands = $("picture-overlay").querySelectorAll(".picture-island");   // the keyboard keeps its place
  if (keys) islands[picked >= 0 ? picked : Math.min(was, islands.length - 1)]?.focus();
}

async function read(blob) {
  if (!blob) return;
  say("Reading the picture…");
  try {
    const { data, url } = await prepare(blob);
    reading = await readPicture(data);
    reading.corrections = reading.corrections || [];
    picked = -1;
    $("picture-img").src = url;
    await $("picture-img").decode().catch(() => {});
    picked = nextUnsure();
    showView(true);
    draw();
    showFix();
    note();
    const fixes = reading.corrections.filter((k) => k.was !== k.now).length;
    say(reading.unsure.length ? "Read the picture; some places are unsure: check them below."
      : fixes ? `Read the picture; the rules corrected ${fixes} place${fixes > 1 ? "s" : ""}: check below, undo if wrong.`
        : "Read the picture: check it below, then Play.", reading.unsure.length ? "error" : "");
    $("play").scrollIntoView({ block: "start" });
  } catch (e) {
    reading = null;
    showView(false);
    say(`The picture: ${e.message}`, "error");
  }
}

// the board read, played: the picture stays until the new game is on the board (the store's new
// puzzle brings the board back), so the old game never shows in between
async function play() {
  if (!reading) return;
  const p = reading.puzzle, withBridges = reading.bridges.length > 0;
  const puzzle = { format: "hashikit-puzzle", rows: p.rows, cols: p.cols, maxbridges: p.maxbridges,
                   islands: reading.islands.map(([r, c, n]) => [r, c, n]) };
  if (withBridges) puzzle.bridges = reading.bridges;
  $("picture-play").disabled = true;
  try {
    await loadPuzzle(puzzle, { level: "custom" });
    reading = null;
    showView(false);
    say(`Playing the board read from the picture${withBridges ? ", with its bridges" : ""}.`);
  } catch (e) {
    say(`The board read cannot be played: ${e.message}`, "error");
  } finally {
    $("picture-play").disabled = false;
  }
}

if ($("picture-block")) {
  for (const id of ["picture-file", "picture-camera"]) {
    $(id).addEventListener("change", async () => {
      const f = $(id).files[0];
      $(id).value = "";
      await read(f);
    });
  }
  $("picture-paste").addEventListener("click", async () => {
    try {
      for (const item of await navigator.clipboard.read()) {
        const type = item.types.find((t) => t.startsWith("image/"));
        if (type) { await read(await item.getType(type)); return; }
      }
      say("The clipboard holds no picture.", "error");
    } catch (e) {
      say("Paste the picture with Ctrl+V (the browser did not let the page read the clipboard).", "error");
    }
  });
  document.addEventListener("paste", async (e) => {
    const item = [...(e.clipboardData?.items || [])].find((i) => i.type.startsWith("image/"));
    if (!item) return; // text goes where it was pasted
    e.preventDefault();
    await read(item.getAsFile());
  });
  $("picture-digits").addEventListener("click", (e) => {
    const b = e.target.closest("button[data-n]");
    if (b) correct(Number(b.dataset.n));
  });
  $("picture-view").addEventListener("click", (e) => {
    const b = e.target.closest("button[data-correction]");
    if (b) toggleCorrection(Number(b.dataset.correction));
  });
  $("picture-play").addEventListener("click", () => play());
  $("picture-discard").addEventListener("click", () => { reading = null; showView(false); });
  // another puzzle, or the constructor, while a picture is being checked: the board comes back
  subscribe((changed) => {
    if ((changed.has("puzzle") || changed.has("mode")) && !$("picture-view").hidden) {
      reading = null;
      showView(false);
    }
  });
  window.addEventListener("resize", fitPicture);
  // a camera button where the device has a camera
  navigator.mediaDevices?.enumerateDevices?.()
    .then((devices) => { $("picture-camera-button").hidden = !devices.some((d) => d.kind === "videoinput"); })
    .catch(() => {});
}

// a page with no hashikit server behind it (limits.server false) cannot read pictures: it says so
function offerPictures() {
  const none = state.limits?.server === false;
  for (const id of ["picture-file", "picture-camera", "picture-paste"]) if ($(id)) $(id).disabled = none;
  if ($("picture-needs")) $("picture-needs").hidden = !none;
}
subscribe((changed) => { if (changed.has("limits")) offerPictures(); });
