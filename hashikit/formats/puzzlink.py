"""puzz.link (pzprjs) URLs for Hashikake: ``https://puzz.link/p?hashikake/<cols>/<rows>/<body>``.

Accepted: the pid aliases ``hashi`` and ``bridges``, the ``pzv.jp`` host and
``p.html``, a missing scheme, and an optional flag segment before the size.
The body is pzprjs' "number16" cell encoding (``Encode.js``): row-major cells,
``0``-``9``/``a``-``f`` a number 0-15, ``-``xx 16-255, ``+``xxx 256-4095, ``.`` an
unknown number ("?"), ``g``-``z`` a run of 1-20 empty cells.  A body that ends
early leaves the remaining cells empty, as pzprjs does.

Hashikake on puzz.link always has MAXBRIDGES 2.
"""

from __future__ import annotations

from ..errors import FormatError
from ..limits import CLI, Limits
from ..model import Puzzle, Solution
from . import Document, Format, register
from ._common import build_puzzle, header_line, validate_board, validate_islands, validate_side, is_whole, whole_number

PIDS = ("hashikake", "hashi", "bridges")
_HEX = "0123456789abcdef"
#: prefix -> (digits, offset), as pzprjs' readNumber16
_LONG = {"-": (2, 0), "+": (3, 0), "=": (3, 4096), "%": (3, 8192), "*": (4, 12240), "$": (5, 77776)}


def _url_line(text: str, source: str) -> tuple[str, int, int]:
    found = None
    for lineno, line in enumerate(text.splitlines(), 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        if found is not None:
            raise FormatError("extra text after the URL (give one URL)", source, lineno,
                              len(line) - len(line.lstrip()) + 1)
        found = (line.strip(), lineno, len(line) - len(line.lstrip()) + 1)
    if found is None:
        raise FormatError("no URL found (the input is empty)", source)
    return found


def decode_body(body: str, cells: int, fail, max_islands: int | None = None) -> list[tuple[int, int, int]]:
    """``(cell index, number, offset)`` triples; ``fail(message, offset)`` raises."""
    out = []
    c = i = 0
    while i < len(body) and c < cells:
        ch = body[i]
        if ch in _HEX:
            out.append((c, int(ch, 16), i))
            c, i = c + 1, i + 1
            if max_islands is not None and len(out) > max_islands:
                fail(f"the puzzle has more than {max_islands} islands, the most hashikit reads", i - 1)
        elif ch in _LONG:
            digits, offset = _LONG[ch]
            chunk = body[i + 1:i + 1 + digits]
            if len(chunk) != digits or any(d not in _HEX for d in chunk):
                fail(f"{ch!r} must be followed by {digits} hexadecimal digits", i)
            out.append((c, int(chunk, 16) + offset, i))
            c, i = c + 1, i + 1 + digits
            if max_islands is not None and len(out) > max_islands:
                fail(f"the puzzle has more than {max_islands} islands, the most hashikit reads", i - 1 - digits)
        elif "g" <= ch <= "z":
            c, i = c + int(ch, 36) - 15, i + 1
        elif ch == ".":
            fail("'.' is an island with an unknown number ('?'); hashikit needs every island's number", i)
        else:
            fail(f"unexpected character {ch!r} in the puzzle body (pzprjs number16 encoding)", i)
    if i < len(body):
        fail(f"the body is longer than the board needs ({cells} cells)", i)
    return out


def _query(line: str) -> tuple[list[str], list[int], int] | None:
    """The URL's query split at ``/``, each part's offset in the line, and the index of the
    columns part (after the puzzle type and a pzprjs flag segment, if any); None without a ``?``."""
    q = line.find("?")
    if q < 0:
        return None
    parts, offsets, pos = [], [], q + 1
    for part in line[q + 1:].split("#", 1)[0].split("/"):
        parts.append(part)
        offsets.append(pos)
        pos += len(part) + 1
    k = 1
    if len(parts) > k and parts[k] and not is_whole(parts[k]):
        k += 1  # a pzprjs flag segment
    return parts, offsets, k


def size(text: str, source: str) -> tuple[int, int] | None:
    """The rows and columns the URL declares (``<cols>/<rows>``)."""
    head = header_line(text)
    found = head and _query(head[0])
    if not found:
        return None
    parts, offsets, k = found
    if len(parts) < k + 2 or not (is_whole(parts[k]) and is_whole(parts[k + 1])):
        return None
    cols, rows = (whole_number(parts[j], f"the number of {name}", source, head[1], head[2] + offsets[j])
                  for j, name in ((k, "columns"), (k + 1, "rows")))
    return rows, cols


def read(text: str, source: str, limits: Limits = CLI) -> Document:
    line, lineno, col0 = _url_line(text, source)

    def fail(message, offset):
        raise FormatError(message, source, lineno, col0 + offset)

    q = line.find("?")
    if q < 0:
        fail("not a puzz.link URL: no '?' (expected https://puzz.link/p?hashikake/<cols>/<rows>/<body>)", 0)
    head = line[:q].lower()
    for scheme in ("https://", "http://"):
        if head.startswith(scheme):
            head = head[len(scheme):]
    if head and not any(head.startswith(h) for h in ("puzz.link/", "pzv.jp/", "www.pzv.jp/")):
        fail(f"not a puzz.link or pzv.jp URL: {line[:q]!r}", 0)
    parts, offsets, k = _query(line)
    if parts[0] not in PIDS:
        fail(f"puzzle type {parts[0]!r} is not Hashikake (expected one of {', '.join(PIDS)})", offsets[0])
    if len(parts) < k + 2:
        fail("the URL needs <cols>/<rows>/<body> after the puzzle type", len(line))
    size = []
    for name, j in (("columns", k), ("rows", k + 1)):
        value = whole_number(parts[j], f"the number of {name}", source, lineno, col0 + offsets[j])
        validate_side(value, name, limits, source, lineno, col0 + offsets[j])
        size.append(value)
    cols, rows = size
    validate_board(rows, cols, limits, source, lineno, col0 + offsets[k])
    body = "/".join(parts[k + 2:])
    body_at = offsets[k + 2] if len(parts) > k + 2 else len(line)
    found = decode_body(body, rows * cols, lambda m, i: fail(m, body_at + i), limits.max_islands)
    islands, where = [], {}
    for c, number, i in found:
        r, cc = divmod(c, cols)
        if number == 0:
            fail("an island numbered 0", body_at + i)
        islands.append((r, cc, number))
        where[(r, cc)] = col0 + body_at + i
    if not islands:
        fail("the puzzle has no islands", body_at)
    validate_islands(len(islands), limits, source, lineno, col0 + body_at)
    return Document(build_puzzle(rows, cols, islands, 2, source,
                                 lambda r, c: (lineno, where.get((r, c), col0 + body_at)), limits=limits))


def _write_number(n: int) -> str:
    if n < 16:
        return _HEX[n]
    if n < 256:
        return "-" + format(n, "02x")
    return "+" + format(n, "03x")


def encode_body(puzzle: Puzzle) -> str:
    numbers = {(i.row, i.col): i.number for i in puzzle.islands}
    out, count = [], 0
    for r in range(puzzle.rows):
        for c in range(puzzle.cols):
            n = numbers.get((r, c))
            if n is None:
                count += 1
                if count == 20:
                    out.append("z")
                    count = 0
                continue
            if count:
                out.append("0123456789abcdefghijklmnopqrstuvwxyz"[15 + count])
                count = 0
            out.append(_write_number(n))
    if count:
        out.append("0123456789abcdefghijklmnopqrstuvwxyz"[15 + count])
    return "".join(out)


def write(puzzle: Puzzle, solution: Solution | None = None) -> str:
    if puzzle.maxbridges != 2:
        raise FormatError(f"puzz.link Hashikake always has MAXBRIDGES 2; this puzzle has "
                          f"{puzzle.maxbridges} (use the tatham or json format)")
    return f"https://puzz.link/p?hashikake/{puzzle.cols}/{puzzle.rows}/{encode_body(puzzle)}\n"


register(Format("puzzlink", (".url",), "puzz.link URL, https://puzz.link/p?hashikake/<cols>/<rows>/<body>",
                read, write, size=size,
                readme="`https://puzz.link/p?hashikake/<cols>/<rows>/<body>` (pzprjs encoding)"))
