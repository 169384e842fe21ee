"""``python -m hashikit.cli``: the same as ``hashikit`` and ``python -m hashikit``."""

from . import main

if __name__ == "__main__":
    raise SystemExit(main())
