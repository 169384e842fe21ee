// hashikit web: the referee, the rules on the page as plain functions of a puzzle's graph and a position (no
// DOM, no state of its own, no imports): the islands and links of a parsed puzzle, degrees and groups,
// the reason a move is refused, and the judgement of a board (the rule checker's rules, by the
// checker's names, and the page's own two deductions).  tests/test_web_rules.py holds it to the
// Python checker on random boards.
//
// graph:    {rows, cols, maxbridges, noLoops, islands: [{r, c, n}], ignored: [[r, c, n]],
//            links: [{a, b, h, cap, cross: [link]}], at: Map "r,c" -> island, linkOf: Map "a,b" -> link,
//            inc: island -> [link]}
// position: {counts: [bridges per link], marks: [boolean per link], locked: Set of islands,
//            atMost: Map link -> the most bridges a hint left it}
"use strict";

const key = (r, c) => `${r},${c}`;

// the graph of a puzzle as POST /api/parse answers it ({puzzle, links, crossings})
export function graphOf(parsed) {
  const puzzle = parsed.puzzle;
  const ignoredCells = new Set((puzzle.ignore || []).map(([r, c]) => key(r, c)));
  const islands = puzzle.islands.filter(([r, c]) => !ignoredCells.has(key(r, c)))
    .map(([r, c, n]) => ({ r, c, n }))
    .sort((x, y) => x.r - y.r || x.c - y.c);
  const at = new Map(islands.map((s, i) => [key(s.r, s.c), i]));
  const maxbridges = puzzle.maxbridges || 2;
  const links = [];
  for (const [r1, c1, r2, c2] of parsed.links) {
    const i = at.get(key(r1, c1)), j = at.get(key(r2, c2));
    if (i === undefined || j === undefined) continue;
    const a = Math.min(i, j), b = Math.max(i, j);
    links.push({ a, b, h: r1 === r2, cap: Math.min(maxbridges, islands[a].n, islands[b].n), cross: [] });
  }
  for (const [x, y] of parsed.crossings || []) {
    if (links[x] && links[y]) { links[x].cross.push(y); links[y].cross.push(x); }
  }
  const inc = islands.map(() => []);
  links.forEach((l, k) => { inc[l.a].push(k); inc[l.b].push(k); });
  return {
    rows: puzzle.rows, cols: puzzle.cols, maxbridges, noLoops: !!puzzle.no_loops, islands,
    ignored: puzzle.islands.filter(([r, c]) => ignoredCells.has(key(r, c))), links, at,
    linkOf: new Map(links.map((l, k) => [key(l.a, l.b), k])), inc,
  };
}

// the links of a puzzle ({rows, cols, islands: [[r, c, n]]}) the page has not had parsed (the
// constructor's): each island to the next one along its row and down its column, as the model
// lists them (rows first, then columns), [[r1, c1, r2, c2], ...]
export function linksOf(puzzle) {
  const isl = [...puzzle.islands].sort((x, y) => x[0] - y[0] || x[1] - y[1]), out = [];
  for (let i = 0; i + 1 < isl.length; i++) if (isl[i][0] === isl[i + 1][0]) out.push([...isl[i].slice(0, 2), ...isl[i + 1].slice(0, 2)]);
  const byCol = [...isl].sort((x, y) => x[1] - y[1] || x[0] - y[0]);
  for (let i = 0; i + 1 < byCol.length; i++) if (byCol[i][1] === byCol[i + 1][1]) out.push([...byCol[i].slice(0, 2), ...byCol[i + 1].slice(0, 2)]);
  return out;
}

// islands whose number their links cannot reach even with every link full (the model's
// capacity_problems: such a puzzle has no solution, and the server refuses it as bad input):
// [{island, need, neighbours, most}]
export function capacityProblems(g) {
  const out = [];
  g.islands.forEach((s, i) => {
    const most = g.inc[i].reduce((sum, k) => sum + g.links[k].cap, 0);
    if (s.n > most) out.push({ island: i, need: s.n, neighbours: g.inc[i].length, most });
  });
  return out;
}

// a position with no bridge, mark, lock or hint limit
export function emptyPosition(g) {
  return { counts: g.links.map(() => 0), marks: g.links.map(() => false), locked: new Set(), atMost: new Map() };
}

export const islandIndex = (g, r, c) => g.at.get(key(r, c));
export function linkBetween(g, i, j) {
  if (i === undefined || j === undefined) return undefined;
  return g.linkOf.get(i < j ? key(i, j) : key(j, i));
}
export const linkAt = (g, [r1, c1, r2, c2]) => linkBetween(g, islandIndex(g, r1, c1), islandIndex(g, r2, c2));
export const ends = (g, k) => { const l = g.links[k], a = g.islands[l.a], b = g.islands[l.b]; return [a.r, a.c, b.r, b.c]; };
export const other = (g, k, i) => (g.links[k].a === i ? g.links[k].b : g.links[k].a);

export const degree = (g, pos, i) => g.inc[i].reduce((s, k) => s + pos.counts[k], 0);
export const degrees = (g, pos) => g.islands.map((_, i) => degree(g, pos, i));
export const isComplete = (g, pos) => g.islands.length > 0 && g.islands.every((s, i) => degree(g, pos, i) === s.n);

// union-find groups of islands joined by bridges: island -> group root
export function groups(g, pos) {
  const parent = g.islands.map((_, i) => i);
  const find = (i) => { while (parent[i] !== i) { parent[i] = parent[parent[i]]; i = parent[i]; } return i; };
  g.links.forEach((l, k) => { if (pos.counts[k]) parent[find(l.a)] = find(l.b); });
  return g.islands.map((_, i) => find(i));
}

// the groups themselves, each a list of islands in order, ordered by their first island
export function groupLists(g, pos) {
  const members = new Map();
  groups(g, pos).forEach((root, i) => { if (!members.has(root)) members.set(root, []); members.get(root).push(i); });
  return [...members.values()];
}

// why link k may not go to `next` bridges, or null: {rule: "marked" | "locked" | "crossing" |
// "island-count", island (the locked or overfull end), link (the crossed link), degree}
export function refusal(g, pos, k, next) {
  const l = g.links[k], cur = pos.counts[k];
  if (pos.marks[k]) return { rule: "marked" };
  const lockedEnd = [l.a, l.b].find((i) => pos.locked.has(i));
  if (lockedEnd !== undefined) return { rule: "locked", island: lockedEnd };
  const crossed = l.cross.find((o) => pos.counts[o]);
  if (crossed !== undefined && next > 0) return { rule: "crossing", link: crossed };
  for (const i of [l.a, l.b]) {
    const d = degree(g, pos, i) - cur + next;
    if (d > g.islands[i].n) return { rule: "island-count", island: i, degree: d };
  }
  return null;
}

// a link that can still take one more bridge (what Tatham's G key shows)
export function canTakeMore(g, pos, k) {
  const l = g.links[k];
  if (pos.marks[k] || pos.counts[k] >= l.cap) return false;
  if (pos.locked.has(l.a) || pos.locked.has(l.b)) return false;
  if (l.cross.some((o) => pos.counts[o])) return false;
  return degree(g, pos, l.a) < g.islands[l.a].n && degree(g, pos, l.b) < g.islands[l.b].n;
}

// the links with bridges that lie on a cycle of bridges (each pair once): those that are not
// bridges of the graph in the graph-theory sense, found in one depth-first pass (Tarjan)
function loopLinks(g, pos) {
  const adj = g.islands.map(() => []);
  g.links.forEach((l, k) => { if (pos.counts[k]) { adj[l.a].push(k); adj[l.b].push(k); } });
  const order = g.islands.map(() => -1), low = g.islands.map(() => 0), cut = new Set();
  let t = 0;
  for (let root = 0; root < g.islands.length; root++) {
    if (order[root] >= 0) continue;
    order[root] = low[root] = t++;
    const stack = [[root, -1, 0]];
    while (stack.length) {
      const top = stack[stack.length - 1], [i, via] = top;
      if (top[2] < adj[i].length) {
        const k = adj[i][top[2]++];
        if (k === via) continue;
        const j = other(g, k, i);
        if (order[j] < 0) { order[j] = low[j] = t++; stack.push([j, k, 0]); }
        else low[i] = Math.min(low[i], order[j]);
      } else {
        stack.pop();
        if (stack.length) {
          const up = stack[stack.length - 1][0];
          low[up] = Math.min(low[up], low[i]);
          if (low[i] > order[up]) cut.add(via);
        }
      }
    }
  }
  return g.links.map((_, k) => k).filter((k) => pos.counts[k] && !cut.has(k));
}

// The judgement of a board.  `violations` are the rule checker's, by its rule names, each with
// the islands and links it is about:
//   crossing          two links with bridges that cross (links [k, o], their four ends)
//   too-many-bridges  a link with more than MAXBRIDGES bridges
//   island-count      an island whose bridges are not its number (`over`: more than its number)
//   disconnected      more than one group (`groups`: every group's islands)
//   loop              in the no-loops variant, the bridges on a cycle (links, their islands)
//   marked            bridges on a link marked "no bridge", or more than a hint left it
// `valid`: none of those a board in play can break (crossing, too-many-bridges, an island over its
// number, marked); `complete`: no violation at all.  Two deductions are the page's own:
//   stuck             an island that can no longer get its number (its links blocked or full)
//   cut-off           a group whose islands are all finished, apart from other islands
// `errors`: what "Mark errors" shows, islands and links.
export function judge(g, pos) {
  const { counts, marks } = pos, isl = g.islands, violations = [];
  const deg = degrees(g, pos);
  const errors = { islands: new Set(), links: new Set() };
  g.links.forEach((l, k) => {
    if (!counts[k]) return;
    for (const o of l.cross) {
      if (o > k && counts[o]) {
        violations.push({ rule: "crossing", links: [k, o], islands: [l.a, l.b, g.links[o].a, g.links[o].b] });
      }
    }
    if (l.cross.some((o) => counts[o])) errors.links.add(k);
    if (counts[k] > g.maxbridges) violations.push({ rule: "too-many-bridges", links: [k], islands: [l.a, l.b] });
    if (counts[k] > l.cap) errors.links.add(k);
    const most = marks[k] ? 0 : pos.atMost.get(k);
    if (most !== undefined && counts[k] > most) {
      violations.push({ rule: "marked", links: [k], islands: [l.a, l.b] });
      errors.links.add(k);
    }
  });
  isl.forEach((s, i) => {
    if (deg[i] !== s.n) violations.push({ rule: "island-count", islands: [i], links: [], over: deg[i] > s.n });
    if (deg[i] > s.n) { errors.islands.add(i); return; }
    let room = 0;
    for (const k of g.inc[i]) {
      const l = g.links[k], o = other(g, k, i);
      const blocked = marks[k] || l.cross.some((x) => counts[x]) || pos.locked.has(o) || pos.locked.has(i);
      room += blocked ? counts[k] : Math.min(l.cap, counts[k] + Math.max(0, isl[o].n - deg[o]));
    }
    if (room < s.n) { violations.push({ rule: "stuck", islands: [i], links: [] }); errors.islands.add(i); }
  });
  const parts = groupLists(g, pos);
  if (parts.length > 1) {
    violations.push({ rule: "disconnected", islands: parts.map((p) => p[0]), links: [], groups: parts });
    for (const part of parts) {
      if (part.every((i) => deg[i] === isl[i].n)) {
        violations.push({ rule: "cut-off", islands: part, links: [] });
        for (const i of part) errors.islands.add(i);
      }
    }
  }
  if (g.noLoops) {
    const links = loopLinks(g, pos);
    if (links.length) {
      const islands = [...new Set(links.flatMap((k) => [g.links[k].a, g.links[k].b]))].sort((x, y) => x - y);
      violations.push({ rule: "loop", links, islands });
      for (const k of links) errors.links.add(k);
    }
  }
  const CHECKER = new Set(["crossing", "too-many-bridges", "island-count", "disconnected", "loop", "marked"]);
  const inPlay = (v) => v.rule === "crossing" || v.rule === "too-many-bridges" || v.rule === "marked" ||
    (v.rule === "island-count" && v.over);
  return {
    complete: !violations.some((v) => CHECKER.has(v.rule)),
    valid: !violations.some(inPlay),
    violations,
    errors,
  };
}

// bridges beyond a solution's and "no bridge" marks on links it uses, with their islands
export function mistakes(g, pos, solutionCounts) {
  const links = new Set(), marks = new Set(), islands = new Set();
  g.links.forEach((l, k) => {
    if (pos.counts[k] > solutionCounts[k]) { links.add(k); islands.add(l.a); islands.add(l.b); }
    if (pos.marks[k] && solutionCounts[k] > 0) marks.add(k);
  });
  return { links, marks, islands };
}

// the bridges as the server lists them: [[r1, c1, r2, c2, count], ...]
export function bridgeList(g, counts) {
  const out = [];
  g.links.forEach((_, k) => { if (counts[k]) out.push([...ends(g, k), counts[k]]); });
  return out;
}

// the marks as the server takes them: [r1, c1, r2, c2] for "no bridge", [r1, c1, r2, c2, most]
// for a hint's limit
export const markList = (g, pos) => [
  ...g.links.map((_, k) => k).filter((k) => pos.marks[k]).map((k) => ends(g, k)),
  ...[...pos.atMost].filter(([k]) => !pos.marks[k]).map(([k, most]) => [...ends(g, k), most]),
];

// bridges [[r1, c1, r2, c2, k], ...] into counts; returns how many did not fit a link
export function applyBridgeList(g, list, counts) {
  let misfits = 0;
  for (const [r1, c1, r2, c2, k] of list) {
    const l = linkAt(g, [r1, c1, r2, c2]);
    if (l === undefined) { misfits++; continue; }
    counts[l] = k;
  }
  return misfits;
}

// a move is a list of changes [kind, index, from, to]; kind "b" bridges on a link, "m" a mark,
// "l" a lock.  Of saved moves, those whose every change names a link or island of this graph.
export function validMoves(g, moves, most) {
  if (!Array.isArray(moves)) return [];
  const ok = (ch) => Array.isArray(ch) && ch.length === 4 && Number.isInteger(ch[1]) && ch[1] >= 0 &&
    ((ch[0] === "b" && ch[1] < g.links.length && ch.slice(2).every((v) => Number.isInteger(v) && v >= 0 && v <= g.links[ch[1]].cap)) ||
     ((ch[0] === "m" || ch[0] === "l") && ch[1] < (ch[0] === "m" ? g.links.length : g.islands.length) &&
      ch.slice(2).every((v) => v === 0 || v === 1)));
  return moves.filter((m) => Array.isArray(m) && m.length && m.every(ok)).slice(-most);
}

// the position after one change (in place)
export function setValue(pos, kind, k, v) {
  if (kind === "b") pos.counts[k] = v;
  else if (kind === "m") pos.marks[k] = !!v;
  else if (kind === "l") { if (v) pos.locked.add(k); else pos.locked.delete(k); }
}
