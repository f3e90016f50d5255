"""The PyInstaller app's entry script: the same ``main`` as the ``mcp-inspect`` console script."""

import sys

from inspector.__main__ import main

if __name__ == "__main__":
    sys.exit(main())
