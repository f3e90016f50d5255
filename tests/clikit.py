"""Running ``python -m inspector`` (the CLI) as a separate process, as a user or a script would."""

from __future__ import annotations

import os
import subprocess
import sys

__all__ = ["run_inspector"]


def run_inspector(
    *args: str, timeout: float = 120, python_flags: tuple[str, ...] = ()
) -> subprocess.CompletedProcess[str]:
    """``python [FLAGS] -m inspector ARGS...`` with our environment; whatever happens, no traceback may show."""
    proc = subprocess.run(
        [sys.executable, *python_flags, "-m", "inspector", *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        env=dict(os.environ),
        stdin=subprocess.DEVNULL,
        check=False,
    )
    assert "Traceback" not in proc.stderr, proc.stderr
    return proc
