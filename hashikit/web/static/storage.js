// hashikit web: what the browser keeps between visits (localStorage): each puzzle's progress, the
// last puzzle played, best times per size and level, the colour theme and the board toggles.  Storage
// that is full or switched off never stops the game: every call here fails quietly.
"use strict";

const PREFIX = "hashikit:";

function read(key, fallback = null) {
  try {
    const v = localStorage.getItem(PREFIX + key);
    return v === null ? fallback : JSON.parse(v);
  } catch (e) { return fallback; }
}

function write(key, value) {
  try { localStorage.setItem(PREFIX + key, JSON.stringify(value)); } catch (e) { /* full or off */ }
}

export const loadProgress = (code) => read("game:" + code);
export const saveProgress = (code, state) => write("game:" + code, state);
export const lastGame = () => read("last");

// every game kept, the last played first: [{code (its puzzle's address part), at, level}]
export function savedGames() {
  const out = [];
  try {
    for (let k = 0; k < localStorage.length; k++) {
      const key = localStorage.key(k);
      if (!key.startsWith(PREFIX + "game:")) continue;
      const game = read(key.slice(PREFIX.length)) || {};
      out.push({ code: key.slice(PREFIX.length + "game:".length), at: +game.at || 0, level: game.level });
    }
  } catch (e) { /* storage off */ }
  return out.sort((a, b) => b.at - a.at);
}
export const setLastGame = (hash) => write("last", hash);
export const theme = () => read("theme");
export const setTheme = (t) => write("theme", t);
// the board toggles (Mark errors, Possible bridges, Colour groups): {id: checked}
export const prefs = () => read("prefs", {}) || {};
export const setPrefs = (p) => write("prefs", p);

export function bestTimes() { return read("best", {}); }

// records ms for key when it beats the old best; returns {best, isNew}
export function recordTime(key, ms) {
  const all = bestTimes();
  const old = all[key];
  if (old === undefined || ms < old) { all[key] = ms; write("best", all); return { best: ms, isNew: true }; }
  return { best: old, isNew: false };
}
