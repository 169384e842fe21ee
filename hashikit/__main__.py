"""``python -m hashikit``: the same as the ``hashikit`` command."""

import sys

if __name__ == "__main__":
    try:
        from .cli import main
    except KeyboardInterrupt:  # Ctrl-C while starting up: the same exit as during the work
        sys.exit(130)
    sys.exit(main())
