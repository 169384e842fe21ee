"""Graphviz DOT of a solution (writer only): ``neato -n -Tsvg`` keeps the grid layout.

One node per island, labelled with its number, at ``pos="x,y!"`` in points
(x = col * 72, y = (rows - 1 - row) * 72).  With a solution, one edge per bridged
pair: a single line, ``color="black:black"`` (two parallel lines) for a double
bridge, and for more four lines and a ``label`` with the count (a drawing of a few
lines whatever the count).  Without one, the puzzle's candidate links are drawn
dashed and grey.  Ignored islands are grey dotted nodes.  The graph's label says
"no loops" for a puzzle of that variant.
"""

from __future__ import annotations

from ..model import Puzzle, Solution
from . import Format, register
from ._common import validate_solution

K = 72  # points per cell
#: most parallel lines drawn for one bridge; larger counts get a label
MAX_LINES = 4


def node_id(pos: tuple[int, int]) -> str:
    return f"r{pos[0]}c{pos[1]}"


def write(puzzle: Puzzle, solution: Solution | None = None) -> str:
    if solution is not None:
        validate_solution(puzzle, solution)
    out = ["graph hashi {",
           f'  graph [label="{puzzle.rows}x{puzzle.cols} MAXBRIDGES {puzzle.maxbridges}'
           f'{", no loops" if puzzle.no_loops else ""}'
           f'{"" if solution is not None else " (candidate links)"}", labelloc=b];',
           '  node [shape=circle, width=0.5, fixedsize=true, fontname="Helvetica"];',
           "  edge [penwidth=1.5];"]

    def pos(r, c):
        return f'pos="{c * K},{(puzzle.rows - 1 - r) * K}!"'

    for isl in puzzle.islands:
        out.append(f'  {node_id(isl.pos)} [label="{isl.number}", {pos(isl.row, isl.col)}];')
    for isl in puzzle.ignored:
        out.append(f'  {node_id(isl.pos)} [label="{isl.number}", {pos(isl.row, isl.col)}, '
                   f'style=dotted, fontcolor=gray, color=gray];')
    if solution is None:
        isl = puzzle.islands
        for ln in puzzle.links:
            out.append(f"  {node_id(isl[ln.a].pos)} -- {node_id(isl[ln.b].pos)} "
                       f"[style=dashed, color=gray];")
    else:
        for (p, q), count in solution:
            if count == 1:
                attrs = 'color="black"'
            elif count == 2:
                attrs = 'color="black:black"'
            else:
                attrs = f'color="{":".join(["black"] * min(count, MAX_LINES))}", label="{count}"'
            out.append(f"  {node_id(p)} -- {node_id(q)} [{attrs}];")
    out.append("}")
    return "\n".join(out) + "\n"


register(Format("dot", (".dot", ".gv"), "Graphviz DOT with grid positions, render with 'neato -n'", None, write,
                holds_no_loops=True,
                readme="Graphviz DOT of the solution with grid positions (`neato -n`); candidate links dashed "
                       "when there is no solution"))
