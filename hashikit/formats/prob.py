"""A ProB B machine for the puzzle (writer only), after the "Bridges" model on the ProB wiki.

Islands are named ``a``..``z`` and then ``n1``, ``n2``, ... in column-major order
(by x = column, then y = row), which reproduces the wiki example's names a..n.
Coordinates are 0-based: ``xc`` is the column, ``yc`` the row.  Ignored islands
are in ``N`` and in ``ignore``.  A given solution is appended as an ASSERTIONS
clause ``sol = {...}`` (every possible link, 0 for no bridge) and as a comment.
"""

from __future__ import annotations

from ..model import Island, Puzzle, Solution
from . import Format, register


def island_names(puzzle: Puzzle) -> dict[tuple[int, int], str]:
    """Position -> B identifier, column-major over the islands and the ignored ones."""
    every = sorted(puzzle.islands + puzzle.ignored, key=lambda i: (i.col, i.row))
    names = {}
    for k, isl in enumerate(every):
        names[isl.pos] = chr(ord("a") + k) if k < 26 else f"n{k - 25}"
    return names


def _wrap(items: list[str], indent: str, width: int = 88) -> str:
    lines, line = [], ""
    for item in items:
        if line and len(line) + len(item) + 2 > width - len(indent):
            lines.append(line + ",")
            line = item
        else:
            line = f"{line}, {item}" if line else item
    lines.append(line)
    return f"\n{indent}".join(lines)


def write(puzzle: Puzzle, solution: Solution | None = None) -> str:
    names = island_names(puzzle)
    every: list[Island] = sorted(puzzle.islands + puzzle.ignored, key=lambda i: (i.col, i.row))
    nodes = puzzle.islands
    out = ["/* Hashiwokakero puzzle exported by hashikit: the ProB wiki's Bridges model.",
           f"   Board {puzzle.rows} rows x {puzzle.cols} columns, MAXBRIDGES {puzzle.maxbridges}.",
           "   Coordinates are 0-based: xc = column, yc = row.",
           "   island  column(x)  row(y)  number"]
    ignored = {i.pos for i in puzzle.ignored}
    for isl in every:
        note = "  (ignored)" if isl.pos in ignored else ""
        out.append(f"   {names[isl.pos]:<6}  {isl.col:>9}  {isl.row:>6}  {isl.number:>6}{note}")
    out.append("*/")
    coord_top = max(puzzle.rows, puzzle.cols)
    out += [
        "MACHINE Bridges",
        "DEFINITIONS",
        f"  MAXBRIDGES == {puzzle.maxbridges};",
        "  LINKS == 1..(MAXBRIDGES*4);",
        f"  COORD == 0..{coord_top};",
        "  p1 == prj1(nodes, nodes);",
        "  p2 == prj2(nodes, nodes)",
        "SETS",
        "  N = {" + _wrap([names[i.pos] for i in every], "       ") + "}",
        "CONSTANTS nodes, ignore, nl, xc, yc, plx, ply, pl, cs, sol, connected",
        "PROPERTIES",
        "  nodes = N \\ ignore &",
        "  ignore = {" + ", ".join(names[p] for p in sorted(ignored, key=lambda p: (p[1], p[0]))) + "} &",
        "  nl : nodes --> LINKS &",
        "  xc : nodes --> COORD & yc : nodes --> COORD &",
        "  nl = {" + _wrap([f"{names[i.pos]}|->{i.number}" for i in sorted(nodes, key=lambda i: (i.col, i.row))],
                          "        ") + "} &",
        "  xc = {" + _wrap([f"{names[i.pos]}|->{i.col}" for i in sorted(nodes, key=lambda i: (i.col, i.row))],
                          "        ") + "} &",
        "  yc = {" + _wrap([f"{names[i.pos]}|->{i.row}" for i in sorted(nodes, key=lambda i: (i.col, i.row))],
                          "        ") + "} &",
        "  plx : nodes <-> nodes & ply : nodes <-> nodes & pl : nodes <-> nodes &",
        "  /* plx: same column (x), no island strictly between; ply: the same along a row */",
        "  plx = {u1, u2 | u1 : nodes & u2 : nodes & xc(u1) = xc(u2) & yc(u2) > yc(u1) &",
        "         !u3.(u3 : nodes & xc(u3) = xc(u1) => yc(u3) /: yc(u1)+1 .. yc(u2)-1)} &",
        "  ply = {u1, u2 | u1 : nodes & u2 : nodes & yc(u1) = yc(u2) & xc(u2) > xc(u1) &",
        "         !u3.(u3 : nodes & yc(u3) = yc(u1) => xc(u3) /: xc(u1)+1 .. xc(u2)-1)} &",
        "  pl = plx \\/ ply &",
        "  /* cs: a vertical and a horizontal link whose interiors cross */",
        "  cs = {l1, l2 | l1 : plx & l2 : ply &",
        "        xc(p1(l1)) : xc(p1(l2))+1 .. xc(p2(l2))-1 &",
        "        yc(p1(l2)) : yc(p1(l1))+1 .. yc(p2(l1))-1} &",
        "  sol : pl --> 0..MAXBRIDGES &",
        "  !nn.(nn : nodes => SIGMA(ll).(ll : pl & (p1(ll) = nn or p2(ll) = nn) | sol(ll)) = nl(nn)) &",
        "  !(l1, l2).((l1 |-> l2) : cs => sol(l1) = 0 or sol(l2) = 0) &",
        "  connected = {ll | ll : pl & sol(ll) > 0} &",
        "  !(u1, u2).(u1 : nodes & u2 : nodes & u1 /= u2 => (u1 |-> u2) : closure1(connected \\/ connected~))",
    ]
    if solution is not None:
        isl = puzzle.islands
        pairs = []
        counts = dict(solution.bridges)
        for ln in puzzle.links:
            a, b = isl[ln.a], isl[ln.b]
            pairs.append(f"({names[a.pos]}|->{names[b.pos]})|->{counts.get((a.pos, b.pos), 0)}")
        built = [f"{names[p]}-{names[q]} {c}" for (p, q), c in solution if p in names and q in names]
        out += ["/* solution: " + _wrap(built, "   ") + " */",
                "ASSERTIONS",
                "  sol = {" + _wrap(pairs, "         ") + "}"]
    out.append("END")
    return "\n".join(out) + "\n"


register(Format("prob", (".mch",), "ProB B machine of the 'Bridges' model", None, write,
                readme="a B machine equivalent to ProB's \"Bridges\" model, for ProB"))
