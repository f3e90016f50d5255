"""The official inspector CLI and ours, run the same way on the same command line, for side-by-side tests.

Both run as separate processes with stdin closed and one throw-away HOME (the official CLI keeps its catalog,
client config and OAuth state under ``~/.mcp-inspector``; ours its config in ``MCP_INSPECTOR_CONFIG_DIR``, which
conftest already points into tmp). ``both(...)`` runs the same arguments through each and returns the pair.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

import nodetools

__all__ = ["Outcome", "both", "official", "ours"]


@dataclass(frozen=True)
class Outcome:
    """What one CLI did: exit status, stdout, stderr."""

    returncode: int
    stdout: str
    stderr: str


def _env(home: Path | None, extra: Mapping[str, str] | None) -> dict[str, str]:
    env = dict(os.environ)
    if home is not None:
        home.mkdir(parents=True, exist_ok=True)
        env["HOME"] = str(home)
    env.update(extra or {})
    return env


def _run(argv: list[str], env: dict[str, str], timeout: float, cwd: Path | None) -> Outcome:
    proc = subprocess.run(
        argv,
        capture_output=True,
        text=True,
        timeout=timeout,
        env=env,
        stdin=subprocess.DEVNULL,
        cwd=cwd,
        check=False,
    )
    return Outcome(proc.returncode, proc.stdout, proc.stderr)


def official(
    *args: str,
    home: Path | None = None,
    env: Mapping[str, str] | None = None,
    timeout: float = 120,
    cwd: Path | None = None,
) -> Outcome:
    """The official inspector CLI (pinned in .ci/node, run with Node 22); a missing one ends the test."""
    return _run([*nodetools.require_official_inspector_cli(), *args], _env(home, env), timeout, cwd)


def ours(
    *args: str,
    home: Path | None = None,
    env: Mapping[str, str] | None = None,
    timeout: float = 120,
    cwd: Path | None = None,
) -> Outcome:
    """``python -m inspector --cli ARGS``; whatever happens, no Python traceback may show."""
    outcome = _run([sys.executable, "-m", "inspector", "--cli", *args], _env(home, env), timeout, cwd)
    assert "Traceback" not in outcome.stderr, outcome.stderr
    return outcome


def both(
    *args: str,
    home: Path | None = None,
    env: Mapping[str, str] | None = None,
    timeout: float = 120,
    cwd: Path | None = None,
) -> tuple[Outcome, Outcome]:
    """(official, ours) for the same arguments, each with its own HOME under ``home`` (``official/``, ``ours/``)."""
    return (
        official(*args, home=None if home is None else home / "official", env=env, timeout=timeout, cwd=cwd),
        ours(*args, home=None if home is None else home / "ours", env=env, timeout=timeout, cwd=cwd),
    )
