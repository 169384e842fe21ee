"""A puzzle catalogue in SQLite: every puzzle once, with what is known about it.

Publishers keep tens of thousands of puzzles; the catalogue holds each one with
its size, MAXBRIDGES, variant (``no_loops``), grade, score, island count, seed,
generator version, the puzzle in a canonical text (hashikit's JSON format) and
its solution, keyed by a *fingerprint*: a hash of the puzzle's canonical form
under the board's symmetries.  A puzzle and its mirror images and rotations are
the same puzzle to a solver, so they share one fingerprint, and a UNIQUE
constraint keeps the second copy out (:meth:`Catalog.add` returns False and the
catalogue counts it in ``rejected``).

Symmetries: the 8 of the square (4 rotations, each mirrored or not).  On a
non-square board 4 of them keep the board's shape and the other 4 turn an R x C
board into a C x R one: both are the same puzzle, so all 8 are tried on every
board and the canonical form (the smallest) decides.

Many writers: each worker process opens its own :class:`Catalog` on the same
file.  The database runs in WAL mode (readers never block the writer), waits up
to ``busy_timeout`` for the write lock, and retries a locked write a few times
with a growing pause; one transaction per :meth:`add` (or per
:meth:`add_many` batch) keeps the lock short.

SQLite is in the standard library: no server, one file, safe to copy.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import re
import sqlite3
import time
from dataclasses import dataclass
from typing import Iterable, Iterator

from .. import __version__
from ..errors import HashikitError
from ..model import LEVELS, Puzzle, Solution

#: generator version stored with every puzzle unless the caller names another
GENERATOR = f"hashikit {__version__}"
#: how long a writer waits for the lock (ms), and how often a locked write is retried
BUSY_TIMEOUT_MS = 30_000
WRITE_RETRIES = 8

_SCHEMA = """
CREATE TABLE IF NOT EXISTS puzzles (
    id          INTEGER PRIMARY KEY,
    fingerprint TEXT NOT NULL UNIQUE,
    rows        INTEGER NOT NULL,
    cols        INTEGER NOT NULL,
    maxbridges  INTEGER NOT NULL,
    no_loops    INTEGER NOT NULL,
    islands     INTEGER NOT NULL,
    level       TEXT,
    score       INTEGER,
    seed        TEXT,
    generator   TEXT,
    source      TEXT,
    puzzle      TEXT NOT NULL,
    solution    TEXT,
    added       REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS puzzles_level ON puzzles (level, score);
CREATE INDEX IF NOT EXISTS puzzles_size ON puzzles (rows, cols);
"""

_COLUMNS = ("fingerprint", "rows", "cols", "maxbridges", "no_loops", "islands", "level", "score",
            "seed", "generator", "source", "puzzle", "solution", "added")
#: keyword arguments :meth:`Catalog.add` takes besides the puzzle and solution
META_KEYS = ("level", "score", "seed", "generator", "source")


class CatalogError(HashikitError):
    """A catalogue that cannot be opened, or a request it cannot answer."""


#: ``PRAGMA application_id`` of a hashikit catalogue ("HSHK"), set when one is made
APPLICATION_ID = 0x4853484B
#: the first bytes of every SQLite database file
SQLITE_HEADER = b"SQLite format 3\x00"


def _read_only(path: str, timeout_ms: int = BUSY_TIMEOUT_MS) -> sqlite3.Connection:
    """A connection that cannot change the file (SQLite's ``mode=ro``)."""
    from urllib.parse import quote

    uri = "file:" + quote(os.path.abspath(path)) + "?mode=ro"
    db = sqlite3.connect(uri, uri=True, timeout=timeout_ms / 1000, isolation_level=None)
    db.execute(f"PRAGMA busy_timeout = {int(timeout_ms)}")
    return db


def _columns_of(db: sqlite3.Connection, table: str) -> list[str]:
    return [row[1] for row in db.execute(f"PRAGMA table_info({table})")]


def validate(path: str | os.PathLike) -> bool:
    """Refuse (CatalogError, the file untouched) an existing file that is not a hashikit catalogue:
    another program's SQLite database, a PDF, a text file.  True when ``path`` is a catalogue, False
    when there is nothing there yet (no file, an empty file, or an empty SQLite database)."""
    path = os.fspath(path)
    if not os.path.exists(path):
        return False
    if os.path.isdir(path):
        raise CatalogError(f"{path}: is a folder, not a hashikit catalogue")
    try:
        with open(path, "rb") as fh:
            head = fh.read(100)  # SQLite's file header
    except OSError as exc:
        raise CatalogError(f"{path}: cannot read: {exc.strerror or exc}") from None
    if not head:
        return False
    if not head.startswith(SQLITE_HEADER):
        raise CatalogError(f"{path}: not a hashikit catalogue (not a SQLite database)")
    if len(head) == 100 and int.from_bytes(head[68:72], "big") == APPLICATION_ID:
        return True  # ours, read from the header without opening the database
    try:
        db = _read_only(path)
        try:
            app = db.execute("PRAGMA application_id").fetchone()[0]
            tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
            columns = _columns_of(db, "puzzles") if "puzzles" in tables else []
        finally:
            db.close()
    except sqlite3.DatabaseError as exc:
        raise CatalogError(f"{path}: not a hashikit catalogue, or a damaged one ({exc})") from None
    if app == APPLICATION_ID or (app == 0 and columns == ["id", *_COLUMNS]):
        return True
    if app == 0 and not tables:
        return False
    what = f"its tables: {', '.join(sorted(tables))}" if tables else f"application id {app:#x}"
    raise CatalogError(f"{path}: not a hashikit catalogue (another program's SQLite database; {what})")


# -- fingerprints ---------------------------------------------------------------------

def _transforms(rows: int, cols: int):
    """The 8 symmetries as (new rows, new cols, map (r, c) -> (r', c'))."""
    R, C = rows - 1, cols - 1
    return (
        (rows, cols, lambda r, c: (r, c)),
        (rows, cols, lambda r, c: (r, C - c)),          # mirror left-right
        (rows, cols, lambda r, c: (R - r, c)),          # mirror top-bottom
        (rows, cols, lambda r, c: (R - r, C - c)),      # half turn
        (cols, rows, lambda r, c: (c, r)),              # transpose
        (cols, rows, lambda r, c: (c, R - r)),          # quarter turn clockwise
        (cols, rows, lambda r, c: (C - c, r)),          # quarter turn anticlockwise
        (cols, rows, lambda r, c: (C - c, R - r)),      # anti-transpose
    )


def canonical_form(puzzle: Puzzle) -> str:
    """The smallest text of the puzzle over its 8 symmetries (variant and MAXBRIDGES included)."""
    head = f"m{puzzle.maxbridges}{'L' if puzzle.no_loops else ''}"
    best = None
    for rows, cols, move in _transforms(puzzle.rows, puzzle.cols):
        cells = sorted(move(i.row, i.col) + (i.number,) for i in puzzle.islands)
        ignored = sorted(move(i.row, i.col) + (i.number,) for i in puzzle.ignored)
        text = (f"{head}:{rows}x{cols}:" + ";".join(f"{r},{c},{n}" for r, c, n in cells)
                + ("|" + ";".join(f"{r},{c},{n}" for r, c, n in ignored) if ignored else ""))
        if best is None or text < best:
            best = text
    return best


def fingerprint(puzzle: Puzzle) -> str:
    """A short hash of :func:`canonical_form`: equal for a puzzle and its rotations/mirrors."""
    return hashlib.sha256(canonical_form(puzzle).encode("ascii")).hexdigest()[:32]


# -- entries -----------------------------------------------------------------------------

@dataclass
class Entry:
    """One catalogue row, with the puzzle and solution rebuilt."""

    id: int
    fingerprint: str
    rows: int
    cols: int
    maxbridges: int
    no_loops: bool
    islands: int
    level: str | None
    score: int | None
    seed: str | None
    generator: str | None
    source: str | None
    puzzle_text: str
    solution_text: str | None

    @property
    def puzzle(self) -> Puzzle:
        from ..formats import read_text

        p = read_text(self.puzzle_text, "json", f"catalogue entry {self.id}").puzzle
        if self.no_loops:
            p = Puzzle(p.rows, p.cols, p.islands + p.ignored, p.maxbridges,
                       ignore=[i.pos for i in p.ignored], no_loops=True)
        return p

    @property
    def solution(self) -> Solution | None:
        return None if self.solution_text is None else Solution.from_list(json.loads(self.solution_text))

    def to_json(self) -> dict:
        return {"id": self.id, "fingerprint": self.fingerprint, "size": f"{self.rows}x{self.cols}",
                "maxbridges": self.maxbridges, "no_loops": self.no_loops, "islands": self.islands,
                "level": self.level, "score": self.score, "seed": self.seed,
                "generator": self.generator, "source": self.source}


def parse_size(text: str) -> tuple[int, int]:
    """``15x15`` (or ``15``) as (rows, cols)."""
    parts = str(text).lower().split("x")
    try:
        nums = [int(p) for p in parts]
    except ValueError:
        nums = []
    if len(nums) == 1:
        nums = nums * 2
    if len(nums) != 2 or min(nums) < 1:
        raise CatalogError(f"a size is ROWSxCOLS with whole numbers of at least 1, got {text!r}")
    return nums[0], nums[1]


# -- folders of puzzle files --------------------------------------------------------------------

#: files in a folder that are not puzzle files: the index generate writes, JSON lines (the batch
#: runner's log, generate.jsonl; catalogue exports: many puzzles a file), pictures, books, databases
_NOT_PUZZLES = re.compile(r"(^index\.(json|csv)$)|(\.(jsonl|svg|png|pdf|db|db-wal|db-shm|db-journal|md)$)",
                          re.IGNORECASE)


@dataclass
class FolderFile:
    """A puzzle file of a folder, with what the folder's index says about it."""
    path: str
    puzzle: Puzzle
    solution: Solution | None
    level: str | None = None
    seed: str | None = None


def _index(folder: str) -> dict[str, dict]:
    """The rows of the folder's index.csv (else index.json) by file name: grade and seed."""
    import csv

    path = os.path.join(folder, "index.csv")
    if os.path.isfile(path):
        with open(path, newline="", encoding="utf-8") as fh:
            rows = list(csv.DictReader(fh))
    elif os.path.isfile(os.path.join(folder, "index.json")):
        with open(os.path.join(folder, "index.json"), encoding="utf-8") as fh:
            try:
                rows = json.load(fh)
            except json.JSONDecodeError as exc:
                raise CatalogError(f"{fh.name}:{exc.lineno}:{exc.colno}: invalid JSON: {exc.msg}") from None
    else:
        return {}
    out = {}
    for k, row in enumerate(rows, 2):
        if not isinstance(row, dict) or not row.get("file"):
            raise CatalogError(f"{path}:{k}: an index row without a file name")
        grade = row.get("grade") or None
        if grade is not None and grade not in LEVELS:
            raise CatalogError(f"{path}:{k}: unknown grade {grade!r}; levels: {', '.join(LEVELS)}")
        seed = row.get("seed")
        out[row["file"]] = {"level": grade, "seed": None if seed in (None, "") else str(seed)}
    return out


def puzzle_files(folder: str) -> list[str]:
    """The puzzle files of ``folder`` in name order (see :data:`_NOT_PUZZLES` for what is skipped)."""
    return [os.path.join(folder, n) for n in sorted(os.listdir(folder))
            if not _NOT_PUZZLES.search(n) and os.path.isfile(os.path.join(folder, n))]


def read_folder(folder: str, fmt: str | None = None) -> list[FolderFile]:
    """Every puzzle file of ``folder`` (as ``generate --count`` writes one: its batch log and index
    skipped), read, with the level and seed its index.csv gives each file."""
    from ..formats import read_file

    index = _index(folder)
    out = []
    for path in puzzle_files(folder):
        doc = read_file(path, fmt)
        if doc.puzzle is None:
            raise CatalogError(f"{path}: holds a solution without its puzzle")
        meta = index.get(os.path.basename(path), {})
        out.append(FolderFile(path, doc.puzzle, doc.solution, meta.get("level"), meta.get("seed")))
    return out


# -- the catalogue ---------------------------------------------------------------------------

class Catalog:
    """A SQLite catalogue file; open one per process (connections are not shared).

    >>> cat = Catalog("puzzles.db")                                  # doctest: +SKIP
    >>> cat.add(puzzle, solution, level="hard", score=121, seed=7)   # doctest: +SKIP
    True
    """

    def __init__(self, path: str | os.PathLike, *, create: bool = True, timeout_ms: int = BUSY_TIMEOUT_MS,
                 check: bool = False):
        """Open (``create``: open or make, for writing) the catalogue at ``path``.  Without
        ``create`` it is opened read-only and must exist; with ``check`` SQLite's ``quick_check``
        runs first and a damaged file is refused with what it found.  A file that is not a hashikit
        catalogue is refused either way, before anything is written to it."""
        self.path = os.fspath(path)
        #: puzzles this object was asked to add that were already there (same fingerprint)
        self.rejected = 0
        #: puzzles this object added
        self.added = 0
        self.read_only = not create
        if not create and not os.path.exists(self.path):
            raise CatalogError(f"{self.path}: no such catalogue")
        folder = os.path.dirname(os.path.abspath(self.path))
        if not os.path.isdir(folder):
            raise CatalogError(f"{self.path}: the folder {folder} does not exist")
        known = validate(self.path)
        if not create and not known:
            raise CatalogError(f"{self.path}: not a hashikit catalogue (it holds no puzzles table)")
        try:
            if not create:
                self._db = _read_only(self.path, timeout_ms)
            else:
                self._db = sqlite3.connect(self.path, timeout=timeout_ms / 1000, isolation_level=None)
                self._db.execute(f"PRAGMA busy_timeout = {int(timeout_ms)}")
        except sqlite3.DatabaseError as exc:
            raise CatalogError(f"{self.path}: cannot open the catalogue ({exc})") from None
        try:
            if check:
                damage = self.damage(full=False)
                if damage:
                    more = f" (and {len(damage) - 3} more)" if len(damage) > 3 else ""
                    raise CatalogError(f"{self.path}: the catalogue is damaged: {'; '.join(damage[:3])}{more}; "
                                       f"'hashikit catalog check {self.path}' lists what is wrong")
            if create:
                self._retry(lambda: self._db.execute("PRAGMA journal_mode = WAL"))
                self._db.execute("PRAGMA synchronous = NORMAL")
                self._retry(lambda: self._db.executescript(_SCHEMA))
                if not known:
                    self._db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
        except sqlite3.DatabaseError as exc:
            self._db.close()
            raise CatalogError(f"{self.path}: the catalogue is damaged ({exc}); "
                               f"'hashikit catalog check {self.path}' lists what is wrong") from None
        except BaseException:
            self._db.close()
            raise

    def damage(self, full: bool = True) -> list[str]:
        """What SQLite finds wrong with the file (``integrity_check``, or with ``full`` False the
        faster ``quick_check``), one line each; empty when it is sound."""
        pragma = "integrity_check" if full else "quick_check"
        try:
            rows = self._db.execute(f"PRAGMA {pragma}").fetchall()
        except sqlite3.DatabaseError as exc:
            return [str(exc)]
        lines = [line for row in rows for line in str(row[0]).splitlines()
                 if line.strip() and line.strip() != "*** in database main ***"]
        return [] if lines == ["ok"] else lines

    def problems(self) -> list[str]:
        """Every row checked: its puzzle read back, its fingerprint and counts as the puzzle gives
        them, its solution passed by the rule checker; one line per problem found."""
        from ..checker import check

        found = []
        sql = f"SELECT id, {', '.join(c for c in _COLUMNS if c != 'added')} FROM puzzles ORDER BY id"
        try:
            rows = self._db.execute(sql).fetchall()
        except sqlite3.DatabaseError as exc:
            return [f"the puzzles cannot be read: {exc}"]
        for row in rows:
            entry = Entry(*row[:5], bool(row[5]), *row[6:])
            where = f"entry {entry.id}"
            try:
                puzzle = entry.puzzle
            except HashikitError as exc:
                found.append(f"{where}: its puzzle cannot be read: {exc}")
                continue
            if fingerprint(puzzle) != entry.fingerprint:
                found.append(f"{where}: its fingerprint is not its puzzle's")
            if (puzzle.rows, puzzle.cols, len(puzzle.islands), puzzle.maxbridges) != \
                    (entry.rows, entry.cols, entry.islands, entry.maxbridges):
                found.append(f"{where}: its size, islands or MAXBRIDGES differ from its puzzle's")
            if entry.level is not None and entry.level not in LEVELS:
                found.append(f"{where}: unknown level {entry.level!r}")
            if entry.solution_text is not None:
                try:
                    solution = entry.solution
                    ok = check(puzzle, solution).ok
                except (ValueError, TypeError, HashikitError) as exc:
                    found.append(f"{where}: its solution cannot be read: {exc}")
                    continue
                if not ok:
                    found.append(f"{where}: its solution breaks the rules")
        return found

    # -- plumbing -----------------------------------------------------------------------
    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> "Catalog":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def _retry(self, action):
        """Run ``action``; on 'database is locked' (another writer held on past the busy
        timeout) wait a little longer each time and try again."""
        for attempt in range(WRITE_RETRIES):
            try:
                return action()
            except sqlite3.OperationalError as exc:
                if "locked" not in str(exc) and "busy" not in str(exc):
                    raise
                if attempt == WRITE_RETRIES - 1:
                    raise CatalogError(f"{self.path}: still locked by another writer after "
                                       f"{WRITE_RETRIES} tries") from None
                time.sleep(0.05 * 2 ** attempt * (1 + random.random()))

    # -- writing ------------------------------------------------------------------------
    @staticmethod
    def row_for(puzzle: Puzzle, solution: Solution | None = None, **meta) -> tuple:
        """The row stored for ``puzzle``: fingerprint first.  Pure, so workers can build rows
        and a single writer store them (:meth:`add_rows`)."""
        from ..formats import write_text

        unknown = set(meta) - set(META_KEYS)
        if unknown:
            raise CatalogError(f"unknown catalogue field(s) {', '.join(sorted(unknown))}; "
                               f"known: {', '.join(META_KEYS)}")
        level = meta.get("level")
        if level is not None and level not in LEVELS:
            raise CatalogError(f"unknown level {level!r}; levels: {', '.join(LEVELS)}")
        if solution is not None:
            from ..checker import check

            report = check(puzzle, solution)
            if not report.ok:
                raise CatalogError(f"the solution given breaks the rules: {report.violations[0].message}")
        seed = meta.get("seed")
        return (fingerprint(puzzle), puzzle.rows, puzzle.cols, puzzle.maxbridges, int(puzzle.no_loops),
                len(puzzle.islands), level, meta.get("score"), None if seed is None else str(seed),
                meta.get("generator", GENERATOR), meta.get("source"),
                write_text(puzzle, "json"),
                None if solution is None else json.dumps(solution.to_list(), separators=(",", ":")),
                time.time())

    def add(self, puzzle: Puzzle, solution: Solution | None = None, **meta) -> bool:
        """Store ``puzzle``; False (and ``rejected`` + 1) when it, or a mirror or rotation of it,
        is already there.  A solution is checked by the rule checker first."""
        return self.add_rows([self.row_for(puzzle, solution, **meta)]) == 1

    def add_many(self, items: Iterable[tuple]) -> int:
        """Store ``(puzzle, solution, meta)`` triples in one transaction; the number added."""
        return self.add_rows([self.row_for(p, s, **(m or {})) for p, s, m in items])

    def add_rows(self, rows: list[tuple]) -> int:
        """Store rows made by :meth:`row_for` in one transaction; the number that were new."""
        if not rows:
            return 0
        sql = (f"INSERT OR IGNORE INTO puzzles ({', '.join(_COLUMNS)}) "
               f"VALUES ({', '.join('?' * len(_COLUMNS))})")

        def write():
            self._db.execute("BEGIN IMMEDIATE")
            try:
                before = self._db.total_changes
                self._db.executemany(sql, rows)
                new = self._db.total_changes - before
                self._db.execute("COMMIT")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            return new

        new = self._retry(write)
        self.added += new
        self.rejected += len(rows) - new
        return new

    def has(self, puzzle: Puzzle) -> bool:
        """Whether ``puzzle`` (or a mirror or rotation of it) is stored."""
        return self._db.execute("SELECT 1 FROM puzzles WHERE fingerprint = ?",
                                (fingerprint(puzzle),)).fetchone() is not None

    # -- reading ------------------------------------------------------------------------
    def __len__(self) -> int:
        return self._db.execute("SELECT COUNT(*) FROM puzzles").fetchone()[0]

    def fingerprints(self) -> set[str]:
        return {row[0] for row in self._db.execute("SELECT fingerprint FROM puzzles")}

    def query(self, size: str | tuple[int, int] | None = None, level: str | None = None,
              score: tuple[int | None, int | None] | None = None, maxbridges: int | None = None,
              no_loops: bool | None = None, at_most: int | None = None) -> list[Entry]:
        """Entries matching every filter given, easiest first (level, then score, then id)."""
        return list(self.iter_query(size, level, score, maxbridges, no_loops, at_most))

    def iter_query(self, size=None, level=None, score=None, maxbridges=None, no_loops=None,
                   at_most=None) -> Iterator[Entry]:
        where, args = [], []
        if size is not None:
            rows, cols = parse_size(size) if isinstance(size, str) else size
            where.append("rows = ? AND cols = ?")
            args += [rows, cols]
        if level is not None:
            if level not in LEVELS:
                raise CatalogError(f"unknown level {level!r}; levels: {', '.join(LEVELS)}")
            where.append("level = ?")
            args.append(level)
        if score is not None:
            lo, hi = score
            if lo is not None:
                where.append("score >= ?")
                args.append(lo)
            if hi is not None:
                where.append("score <= ?")
                args.append(hi)
        if maxbridges is not None:
            where.append("maxbridges = ?")
            args.append(maxbridges)
        if no_loops is not None:
            where.append("no_loops = ?")
            args.append(int(no_loops))
        order = " ".join(f"WHEN '{lv}' THEN {k}" for k, lv in enumerate(LEVELS))
        sql = (f"SELECT id, {', '.join(c for c in _COLUMNS if c != 'added')} FROM puzzles"
               + (" WHERE " + " AND ".join(where) if where else "")
               + f" ORDER BY CASE level {order} ELSE {len(LEVELS)} END, score, id")
        if at_most is not None:
            sql += " LIMIT ?"
            args.append(int(at_most))
        for row in self._db.execute(sql, args):
            row = list(row)
            row[5] = bool(row[5])
            yield Entry(*row)

    # -- export ---------------------------------------------------------------------------
    def export(self, fmt: str | None, dest: str | os.PathLike, *, with_solution: bool = False,
               **filters) -> list[str]:
        """Write the matching puzzles to folder ``dest``, one file each in format ``fmt`` (default
        ``json``; ``00001.json``, ...) plus ``index.json`` with their catalogue fields; or, when
        ``dest`` ends in ``.jsonl``, one hashikit JSON puzzle a line (its catalogue fields under
        ``"catalog"``).  ``with_solution`` writes each solution too; a format that cannot hold one
        is refused, as is a format hashikit cannot read back.  Returns the paths written."""
        from ..formats import get, write_text

        dest = os.fspath(dest)
        f = get(fmt or "json")
        if dest.endswith(".jsonl") and f.name != "json":
            raise CatalogError(f"{dest}: a .jsonl file holds hashikit JSON lines; export --to {f.name} into a "
                               "folder instead")
        if f.write is None or f.read is None:
            raise CatalogError(f"format {f.name!r} cannot be read back; catalog export writes the formats "
                               "hashikit reads")
        if with_solution and not f.has_solution:
            holds = ", ".join(sorted(n for n, g in _formats().items() if g.has_solution and g.write))
            raise CatalogError(f"format {f.name!r} cannot hold a solution; formats that can: {holds}")
        with_solution = with_solution or f.needs_solution
        entries = self.query(**filters)
        from ..files import Staging, replacing

        if dest.endswith(".jsonl"):
            with replacing(dest) as fh:
                for e in entries:
                    record = json.loads(write_text(e.puzzle, "json"))
                    if with_solution:
                        record["bridges"] = self.solution_of(e).to_list()
                    record["catalog"] = e.to_json()
                    fh.write(json.dumps(record, separators=(",", ":")) + "\n")
            return [dest]
        ext = f.extensions[0] if f.extensions else f".{f.name}"
        paths, index = [], []
        with Staging() as stage:
            part = stage.folder(dest)
            for e in entries:
                solution = self.solution_of(e) if with_solution else None
                name = f"{e.id:05d}{ext}"
                with open(os.path.join(part, name), "w", encoding="utf-8") as fh:
                    fh.write(write_text(e.puzzle, f.name, solution))
                paths.append(os.path.join(dest, name))
                index.append(dict(e.to_json(), file=name))
            with open(os.path.join(part, "index.json"), "w", encoding="utf-8") as fh:
                json.dump(index, fh, indent=1)
        return paths

    @staticmethod
    def solution_of(entry: Entry) -> Solution:
        """The entry's stored solution, or (a catalogue filled before solutions were kept) one the
        SAT engine finds, passed by the rule checker either way."""
        from ..checker import check

        solution = entry.solution
        if solution is None:
            from ..solvers import solve

            result = solve(entry.puzzle)
            if result.solution is None:
                raise CatalogError(f"catalogue entry {entry.id} has no solution ({result.status})")
            solution = result.solution
        if not check(entry.puzzle, solution).ok:
            raise CatalogError(f"catalogue entry {entry.id}: its solution breaks the rules")
        return solution


def _formats() -> dict:
    from ..formats import FORMATS, _load_all

    _load_all()
    return FORMATS


__all__ = ["APPLICATION_ID", "Catalog", "CatalogError", "validate", "Entry", "generate_row", "FolderFile", "puzzle_files", "read_folder", "LEVELS", "META_KEYS", "GENERATOR",
           "canonical_form", "fingerprint", "parse_size"]


def generate_row(rows: int, cols: int, difficulty: str, seed: int) -> tuple:
    """One job: a unique graded puzzle for ``seed``, as the catalogue row that stores it.

    Runs on a worker (of a cluster, say); returns plain data (strings and numbers), so the result
    travels cheaply and one writer (the caller) stores it: workers need no access to the file.
    """
    from ..generate import generate_unique

    puzzle, solution, grade = generate_unique(rows, cols, difficulty, seed=seed)
    return Catalog.row_for(puzzle, solution, level=grade.level, score=grade.score, seed=seed)
