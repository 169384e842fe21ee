"""``hashikit bench`` as a library: :mod:`.running` (find the puzzle files, run every engine on
each in the batch runner's workers, check every answer with the rule checker, one CSV row each)
and :mod:`.tables` (the rows as tables beside the published numbers of Coelho et al. 2019).

May import: the model, limits, errors, checker, formats, solvers and ``run`` (never service,
publish or the front ends).
"""

from .running import (CSV_FIELDS, BenchError, BenchResult, validate_engines, find_puzzles, hs_fields, hs_group,
                      parse_engine_options, progress_path, puzzle_extensions, read_csv, run_bench, sample_files,
                      write_csv)
from .tables import PLOT_ENDINGS, PLOT_INSTALL, can_plot, plot, problem_lines, render_markdown, render_text, tables_for

__all__ = ["PLOT_ENDINGS", "PLOT_INSTALL", "can_plot", "progress_path", "CSV_FIELDS", "BenchError", "BenchResult", "validate_engines", "find_puzzles", "hs_fields", "hs_group",
           "parse_engine_options", "plot", "problem_lines", "puzzle_extensions", "read_csv", "render_markdown",
           "render_text", "run_bench", "sample_files", "tables_for", "write_csv"]
