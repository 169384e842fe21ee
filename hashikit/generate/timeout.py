"""The generator's own time-out, kept in a module of plain Python (a compiled module cannot
derive a class from a built-in exception)."""


class _OutOfTime(TimeoutError):
    """The generator's deadline passed (raised from deep inside a layout or a deduction run)."""
