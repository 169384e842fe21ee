// hashikit web: the puzzle of the day, on a site that has one (`hashikit site` states it in its
// limits document: site.daily = {level, rows, cols, seed}).  The day's puzzle is the generator's
// for that level and size, with the seed made from the site's seed and the date (the player's
// calendar day), so every player of the site gets the same puzzle on a date; any earlier day's
// can be played again.
"use strict";

import { $ } from "./dom.js";
import { newPuzzle } from "./load.js";
import { say } from "./messages.js";
import { state, subscribe } from "./store.js";

const DAY_MS = 86400000;

// a date as the page writes it (YYYY-MM-DD), the player's calendar day
export function isoDay(d = new Date()) {
  const pad = (n) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

const dayNumber = (day) => { const [y, m, d] = day.split("-").map(Number); return Date.UTC(y, m - 1, d) / DAY_MS; };
const dayOf = (n) => new Date(n * DAY_MS).toISOString().slice(0, 10);
export const shiftDay = (day, by) => dayOf(dayNumber(day) + by);

// the generator's seed for the puzzle of `day`: the site's seed times 65536, plus the day's number
// since 1970-01-01 (below 65536 until the year 2149)
export const daySeed = (day, siteSeed) => siteSeed * 65536 + dayNumber(day);

// a day in the page's words, "Thursday 1 May 2025" (written out here: the browser's date formats
// cost a phone a tenth of a second the first time)
const WEEKDAYS = ["Thursday", "Friday", "Saturday", "Sunday", "Monday", "Tuesday", "Wednesday"];  // from 1970-01-01
const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
                "November", "December"];
function longDay(day) {
  const [y, m, d] = day.split("-").map(Number);
  return `${WEEKDAYS[((dayNumber(day) % 7) + 7) % 7]} ${d} ${MONTHS[m - 1]} ${y}`;
}

// the puzzle of `day` (default: today) loaded to play; false where the site has no daily puzzle
export async function openDaily(day = isoDay()) {
  const d = state.limits?.site?.daily;
  if (!d || day > isoDay()) return false;
  const body = { rows: d.rows, cols: d.cols, difficulty: d.level, seed: daySeed(day, d.seed) };
  const out = await newPuzzle(body, `the puzzle of ${longDay(day)}`, { daily: day });
  if (out) say(`The puzzle of ${longDay(day)}: ${d.level}, ${d.cols} × ${d.rows}. Every player of this site gets this one today.`);
  return !!out;
}

function show() {
  const d = state.limits?.site?.daily;
  $("daily-card").hidden = !d;
  if (!d) return;
  const day = state.daily, today = isoDay();
  $("daily-text").textContent = day
    ? `Playing the puzzle of ${longDay(day)} (${d.level}, ${d.cols} × ${d.rows}).`
    : `A ${d.level} ${d.cols} × ${d.rows} puzzle each day, the same for every player.`;
  $("daily-next").disabled = !day || day >= today;
  $("daily-today").disabled = day === today;
}

$("daily-today").addEventListener("click", () => openDaily(isoDay()));
$("daily-prev").addEventListener("click", () => openDaily(shiftDay(state.daily || isoDay(), -1)));
$("daily-next").addEventListener("click", () => { if (state.daily) openDaily(shiftDay(state.daily, 1)); });

subscribe((changed) => { if (changed.has("limits") || changed.has("puzzle")) show(); });
