"""Test-wide set-up: headless Qt, throw-away config/data dirs, an in-memory keyring, the `node` marker.

Everything here happens at import time (before any test module imports Qt or the inspector), and the
environment variables are inherited by the subprocesses the tests start (the CLI, the demo server).
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import keyring
import keyring.backend
import keyring.errors
import nodetools
import pytest
from keyringkit import MemoryKeyring

# 1. Qt without a screen. Must be set before a QApplication exists (pytest-qt creates it lazily).
os.environ["QT_QPA_PLATFORM"] = "offscreen"

# 2. Per-session config and data dirs, so no test reads or writes the user's real profiles/recordings.
_SESSION_DIR = Path(tempfile.mkdtemp(prefix="mcp-inspector-tests-"))
os.environ["MCP_INSPECTOR_CONFIG_DIR"] = str(_SESSION_DIR / "config")
os.environ["MCP_INSPECTOR_DATA_DIR"] = str(_SESSION_DIR / "data")

# Subprocesses get keyring's null backend (stores nothing, finds nothing): never the real keyring.
os.environ["PYTHON_KEYRING_BACKEND"] = "keyring.backends.null.Keyring"


# 3. An in-memory keyring for this process.
_KEYRING = MemoryKeyring()
keyring.set_keyring(_KEYRING)


@pytest.fixture(autouse=True)
def _isolated_keyring() -> Iterator[None]:
    """Every test starts with an empty in-memory keyring (and gets it back if it swapped the backend)."""
    _KEYRING.passwords.clear()
    keyring.set_keyring(_KEYRING)
    yield
    _KEYRING.passwords.clear()
    keyring.set_keyring(_KEYRING)


@pytest.fixture(autouse=True)
def _isolated_discover_cache() -> Iterator[None]:
    """No test opens from a server/discover answer another test's connection got (the process-wide cache)."""
    from inspector.client.discover_cache import SHARED

    SHARED.clear()
    yield
    SHARED.clear()


@pytest.fixture
def memory_keyring() -> MemoryKeyring:
    """The in-memory keyring backend in use, to inspect or pre-fill stored secrets."""
    return _KEYRING


@pytest.fixture
def session_dirs() -> dict[str, Path]:
    """The per-session config and data dirs the inspector sees (via MCP_INSPECTOR_*_DIR)."""
    return {
        "config": Path(os.environ["MCP_INSPECTOR_CONFIG_DIR"]),
        "data": Path(os.environ["MCP_INSPECTOR_DATA_DIR"]),
    }


# 4. `node` marker: without the Node tools those tests are skipped with the reason, or fail with it when $CI is
#    set (nodetools.unavailable). Which tests really ran a Node tool is counted and printed at the end.
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if nodetools.installed() or nodetools.in_ci():
        return
    skip = pytest.mark.skip(reason=nodetools.MISSING_REASON)
    for item in items:
        if item.get_closest_marker("node") is not None:
            item.add_marker(skip)


def pytest_runtest_setup(item: pytest.Item) -> None:
    if item.get_closest_marker("node") is not None and not nodetools.installed():
        nodetools.unavailable(nodetools.MISSING_REASON)


_NODE_TOOL_PASSES: dict[str, int] = dict.fromkeys(nodetools.TOOLS, 0)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Iterator[None]:
    nodetools.begin_test(item.nodeid)
    try:
        return (yield)
    finally:
        nodetools.end_test()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Iterator[pytest.TestReport]:
    report: pytest.TestReport = yield
    if report.when == "call" and report.passed:
        for tool in nodetools.TOOLS:
            if item.nodeid in nodetools.used_by(tool):
                _NODE_TOOL_PASSES[tool] += 1
    return report


def pytest_terminal_summary(terminalreporter: Any, exitstatus: int, config: pytest.Config) -> None:
    counts = ", ".join(f"{tool} {count}" for tool, count in _NODE_TOOL_PASSES.items())
    terminalreporter.write_line(f"node tools: passed tests that ran them: {counts}")


def pytest_unconfigure(config: pytest.Config) -> None:
    shutil.rmtree(_SESSION_DIR, ignore_errors=True)
