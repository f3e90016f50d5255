"""Running a command and measuring its peak memory (the limits tests: a hostile server must not blow us up).

``run_measured(argv)`` runs ``argv`` in a child of a small Python wrapper and returns the completed process
with ``peak_rss_mb``: the largest resident set of any process it waited for (``ru_maxrss`` of the wrapper's
children: the command and, once reaped, what the command started). Each run is bounded by ``timeout``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from dataclasses import dataclass

__all__ = ["Measured", "run_measured"]

_WRAPPER = r"""
import json, resource, subprocess, sys, time
argv = json.loads(sys.argv[1])
t0 = time.monotonic()
proc = subprocess.run(argv, capture_output=True, timeout=float(sys.argv[2]))
elapsed = time.monotonic() - t0
peak_kb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
sys.stdout.write(json.dumps({"rc": proc.returncode, "out": proc.stdout.decode("utf-8", "backslashreplace"),
    "err": proc.stderr.decode("utf-8", "backslashreplace"), "peak_kb": peak_kb, "elapsed": elapsed}))
"""


@dataclass(frozen=True)
class Measured:
    returncode: int
    stdout: str
    stderr: str
    peak_rss_mb: float
    elapsed: float
    """Seconds the command ran."""


def run_measured(argv: list[str], *, timeout: float = 120.0, env: dict[str, str] | None = None) -> Measured:
    started = time.monotonic()
    wrapper = subprocess.run(
        [sys.executable, "-c", _WRAPPER, json.dumps(argv), str(timeout)],
        capture_output=True,
        text=True,
        timeout=timeout + 30,
        env=dict(os.environ) if env is None else env,
        check=False,
    )
    if wrapper.returncode != 0:
        raise AssertionError(f"measuring wrapper failed after {time.monotonic() - started:.1f} s: {wrapper.stderr}")
    data = json.loads(wrapper.stdout)
    return Measured(data["rc"], data["out"], data["err"], data["peak_kb"] / 1024, data["elapsed"])
