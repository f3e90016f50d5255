"""The command line that starts the bundled demo server from this very app (Qt-free, imports nothing heavy).

Normally ``python -m inspector.demo``. In the frozen app (PyInstaller, ``packaging/mcp-inspect.spec``)
``sys.executable`` is the app itself, which has no ``-m``: the app's hidden first argument
``--run-demo-server`` runs the demo instead (``inspector.__main__``).
"""

from __future__ import annotations

import sys
from typing import Final

__all__ = ["FROZEN_DEMO_FLAG", "demo_command", "is_frozen"]

FROZEN_DEMO_FLAG: Final = "--run-demo-server"
"""The app's hidden entry: ``mcp-inspect --run-demo-server [DEMO ARGS...]`` is ``python -m inspector.demo ...``."""


def is_frozen() -> bool:
    """Whether this is the PyInstaller app (its executable is the app, not a Python interpreter)."""
    return bool(getattr(sys, "frozen", False))


def demo_command(*args: str) -> list[str]:
    """``[executable, ...]`` running the demo server with ``args`` (``--http 0``, ``--era modern``, ...)."""
    if is_frozen():
        return [sys.executable, FROZEN_DEMO_FLAG, *args]
    return [sys.executable, "-m", "inspector.demo", *args]
