"""The use-cases, written once: solve, check, hint, explain, grade, analyze, generate, parse,
convert and render.  The CLI prints what these return and the web API serves it.

One module a concern: :mod:`.shapes` (the typed JSON shapes), :mod:`.admit` (limits, admission,
reading), :mod:`.solving` (solve, prove, the solver's verdict, time limits on work that cannot stop
itself), :mod:`.play` (check, mistakes, hints), :mod:`.grading` (explain, grade, analyze),
:mod:`.generating`, :mod:`.converting`, :mod:`.settling` (a picture's reading settled by the rules) and
:mod:`.picture` (a picture read for the library and the web).  Callers use the names this package gives (``service.solve``).

May import: the model, limits, errors, checker, formats, solvers, logic, render, generate and
``run.workers`` (never publish, cli or web).  Every use-case that takes a puzzle first admits it
under a :class:`~hashikit.limits.Limits` (``limits.CLI`` or ``limits.WEB``); every solution any
use-case returns comes from an engine and is checked by the rule checker.
"""

from __future__ import annotations

from .shapes import (IN_PLAY_RULES, Bridge, LinkEnds, Cell, Mark, Answer, PuzzleModel, SolveReport, ViolationModel, BoardCheckReport, StepModel, HintReport, GradeReport, ExplainReport, AnalyzeReport, ParseReport, ConvertReport, GenerateReport)
from .admit import (BadInput, OutOfTime, Cost, puzzle_cost, text_cost, picture_cost, admit, validate_dimensions, time_limit_for, load, load_puzzle, admit_file, parse, link_ends, bridges_on_board, board_marks, mark_list)
from .solving import (solve, solve_for_output, verdict, within)
from .play import (check, islands_differ, step_model, player_mistakes, hint, step_highlight)
from .grading import (explain, grade, analyze)
from .generating import (generate_unique, generate_paper, generate_record)
from .converting import (convert, writable_formats, convert_report, solution_text, render, drawing)

__all__ = ['AnalyzeReport', 'Answer', 'BadInput', 'BoardCheckReport', 'Bridge', 'Cell', 'Cost', 'ConvertReport', 'ExplainReport', 'GenerateReport', 'GradeReport', 'HintReport', 'IN_PLAY_RULES', 'LinkEnds', 'Mark', 'OutOfTime', 'ParseReport', 'PuzzleModel', 'SolveReport', 'StepModel', 'ViolationModel', 'admit', 'admit_file', 'analyze', 'board_marks', 'bridges_on_board', 'check', 'validate_dimensions', 'convert', 'convert_report', 'drawing', 'explain', 'generate_paper', 'generate_record', 'generate_unique', 'grade', 'hint', 'islands_differ', 'link_ends', 'load', 'load_puzzle', 'mark_list', 'parse', 'picture_cost', 'puzzle_cost', 'player_mistakes', 'render', 'solution_text', 'solve', 'solve_for_output', 'step_highlight', 'step_model', 'text_cost', 'time_limit_for', 'verdict', 'within', 'writable_formats']
