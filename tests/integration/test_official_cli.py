"""The official inspector CLI (``@modelcontextprotocol/inspector``, pinned in ``.ci/node``) side by side with ours.

Both run against the bundled demo server over stdio; what the official CLI reports is the reference.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from typing import Any

import nodetools
import pytest

pytestmark = pytest.mark.node

DEMO = [sys.executable, "-m", "inspector.demo"]


def run(argv: list[str], timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run(argv, capture_output=True, text=True, timeout=timeout, env=dict(os.environ), check=False)


def official(*args: str) -> Any:
    proc = run([*nodetools.require_official_inspector_cli(), *DEMO, *args])
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def ours(*args: str) -> Any:
    proc = run([sys.executable, "-m", "inspector", "--cli", *args, "--format", "json", "--", *DEMO])
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr, proc.stderr
    return json.loads(proc.stdout)["result"]


def test_tools_list_names_and_schemas_match() -> None:
    theirs = {tool["name"]: tool for tool in official("--method", "tools/list")["tools"]}
    mine = {tool["name"]: tool for tool in ours("--method", "tools/list")["tools"]}
    assert len(theirs) >= 10
    assert set(mine) == set(theirs)
    for name, tool in theirs.items():
        assert mine[name]["inputSchema"] == tool["inputSchema"], name


def test_tools_call_result_matches() -> None:
    args = ("--method", "tools/call", "--tool-name", "add", "--tool-arg", "a=2", "b=3")
    theirs = official(*args)
    mine = ours(*args)
    assert mine["content"] == theirs["content"]
    assert mine.get("isError", False) == theirs.get("isError", False)
