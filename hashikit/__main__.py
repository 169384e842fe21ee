"""``python -m hashikit``: the same as the ``hashikit`` command."""

import sys

from .cli import main

if __name__ == "__main__":
    sys.exit(main())
