"""``mcp-inspect --cli`` against ``@modelcontextprotocol/server-everything`` (npm; installed by .ci/run)."""

from __future__ import annotations

import json
import subprocess
from typing import Any

import nodetools
import pytest
from clikit import run_inspector

pytestmark = pytest.mark.node


def cli(*args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    server = nodetools.require_server_everything("stdio")
    return run_inspector("--cli", *args, "--", *server, timeout=timeout)


def result_of(proc: subprocess.CompletedProcess[str]) -> Any:
    assert proc.returncode == 0, proc.stderr
    document = json.loads(proc.stdout)
    assert list(document) == ["result"]
    return document["result"]


def tool_names() -> set[str]:
    return {tool["name"] for tool in result_of(cli("--method", "tools/list", "--format", "json"))["tools"]}


def test_echo_and_sum() -> None:
    names = tool_names()
    assert "echo" in names
    result = result_of(
        cli("--method", "tools/call", "--tool-name", "echo", "--tool-arg", "message=hi", "--format", "json")
    )
    assert result["content"][0]["text"] == "Echo: hi"
    adder = "get-sum" if "get-sum" in names else "add"
    assert adder in names
    result = result_of(
        cli("--method", "tools/call", "--tool-name", adder, "--tool-arg", "a=2", "b=3", "--format", "json")
    )
    assert "5" in result["content"][0]["text"]


def test_lists_and_ping() -> None:
    assert result_of(cli("--method", "resources/list", "--format", "json"))["resources"]
    assert result_of(cli("--method", "prompts/list", "--format", "json"))["prompts"]
    assert result_of(cli("--method", "ping", "--format", "json")) == {}
    assert result_of(cli("--method", "logging/setLevel", "--log-level", "debug", "--format", "json")) == {}
