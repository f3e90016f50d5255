"""Static checks as tests: ruff (config in pyproject.toml) and mypy --strict (packages from pyproject.toml)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]


def _run_module(module: str, *args: str, timeout: float) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", module, *args],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


def test_ruff_is_clean() -> None:
    proc = _run_module(
        "ruff", "check", "--no-cache", "--output-format", "concise", "inspector", "tests", "bench", timeout=120
    )
    assert proc.returncode == 0, f"ruff findings:\n{proc.stdout}\n{proc.stderr}"


def test_mypy_is_clean() -> None:
    proc = _run_module("mypy", timeout=600)
    assert proc.returncode == 0, f"mypy findings:\n{proc.stdout}\n{proc.stderr}"
