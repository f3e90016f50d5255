"""Static checks as tests: ruff (config in pyproject.toml) and mypy --strict (packages from pyproject.toml)."""

from __future__ import annotations

import subprocess
import sys
import tomllib
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


def test_warnings_are_errors() -> None:
    """pytest turns every warning into an error; what it lets through are narrow ignores of third-party warnings."""
    config = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    filters: list[str] = config["tool"]["pytest"]["ini_options"]["filterwarnings"]
    assert filters[:1] == ["error"], filters
    for entry in filters[1:]:
        action, message, category, module, *_ = [*entry.split(":"), "", "", "", ""]
        assert action == "ignore", entry
        assert category and (message or module), f"too broad: {entry!r} (name the category and the message or module)"
        assert not module.startswith(("inspector", "tests")), f"fix our own warnings at the source: {entry!r}"
