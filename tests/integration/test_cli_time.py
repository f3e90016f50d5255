"""``mcp-inspect --cli`` against ``mcp-server-time`` (PyPI), checked against what its README documents.

Documented: tools ``get_current_time(timezone)`` and ``convert_time(source_timezone, time, target_timezone)``;
each returns its result as ``structuredContent`` and as the same object in indented JSON in a text block; a
tool failure is an ``isError`` result prefixed ``Error executing tool <name>: ``; an unknown tool is a
JSON-RPC ``-32602`` error (for the CLI, as for the official one: a tool not in tools/list, exit 5
``tool_not_found``); no prompts or resources (empty lists).
"""

from __future__ import annotations

import json
import subprocess
import sys
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from clikit import run_inspector

pytest.importorskip("mcp_server_time")

TIME = [sys.executable, "-m", "mcp_server_time"]


def cli(*args: str, timeout: float = 90) -> subprocess.CompletedProcess[str]:
    return run_inspector("--cli", *args, "--", *TIME, timeout=timeout)


def result_of(proc: subprocess.CompletedProcess[str]) -> Any:
    document = json.loads(proc.stdout)
    assert list(document) == ["result"]
    return document["result"]


def envelope(proc: subprocess.CompletedProcess[str]) -> Any:
    """The ``{"error": ...}`` line ending stderr (the server logs there too, passed through)."""
    return json.loads(proc.stderr.strip().splitlines()[-1])["error"]


def test_documented_tools() -> None:
    proc = cli("--method", "tools/list", "--format", "json")
    assert proc.returncode == 0, proc.stderr
    tools = {tool["name"]: tool for tool in result_of(proc)["tools"]}
    assert set(tools) == {"get_current_time", "convert_time"}
    assert tools["get_current_time"]["inputSchema"]["required"] == ["timezone"]
    assert set(tools["convert_time"]["inputSchema"]["required"]) == {"source_timezone", "time", "target_timezone"}

    proc = cli("--method", "tools/list", "--format", "human")
    assert proc.returncode == 0, proc.stderr
    assert "- get_current_time: Get current time in a specific timezone" in proc.stdout
    assert "    timezone: string, required" in proc.stdout


def test_get_current_time() -> None:
    before = datetime.now(ZoneInfo("Europe/Warsaw"))
    proc = cli("--method", "tools/call", "--tool-name", "get_current_time", "--tool-arg", "timezone=Europe/Warsaw",
               "--format", "json")  # fmt: skip
    after = datetime.now(ZoneInfo("Europe/Warsaw"))
    assert proc.returncode == 0, proc.stderr
    result = result_of(proc)
    structured = result["structuredContent"]
    assert set(structured) == {"timezone", "datetime", "day_of_week", "is_dst"}
    assert structured["timezone"] == "Europe/Warsaw"
    when = datetime.fromisoformat(structured["datetime"])
    assert before.replace(microsecond=0) <= when <= after
    assert when.utcoffset() == when.astimezone(ZoneInfo("Europe/Warsaw")).utcoffset()
    assert structured["day_of_week"] == when.strftime("%A")
    assert structured["is_dst"] == bool(when.astimezone(ZoneInfo("Europe/Warsaw")).dst())
    # the same object as indented JSON in a text block
    assert json.loads(result["content"][0]["text"]) == structured


def test_convert_time() -> None:
    proc = cli("--method", "tools/call", "--tool-name", "convert_time", "--tool-arg",
               "source_timezone=America/New_York", "time=16:30", "target_timezone=Asia/Tokyo", "--format", "json")  # fmt: skip  # noqa: E501
    assert proc.returncode == 0, proc.stderr
    structured = result_of(proc)["structuredContent"]
    source = datetime.fromisoformat(structured["source"]["datetime"])
    target = datetime.fromisoformat(structured["target"]["datetime"])
    assert (source.hour, source.minute) == (16, 30)
    assert source == target  # the same instant
    assert target.utcoffset() == target.astimezone(ZoneInfo("Asia/Tokyo")).utcoffset()
    assert source.utcoffset() == source.astimezone(ZoneInfo("America/New_York")).utcoffset()
    target_offset, source_offset = target.utcoffset(), source.utcoffset()
    assert target_offset is not None and source_offset is not None
    hours = (target_offset - source_offset).total_seconds() / 3600
    assert structured["time_difference"] == f"{hours:+.1f}h"


@pytest.mark.parametrize("zone", ["Mars/Olympus", "europe/warsaw"])
def test_invalid_timezone_is_a_tool_error(zone: str) -> None:
    proc = cli("--method", "tools/call", "--tool-name", "get_current_time", "--tool-arg", f"timezone={zone}")
    assert proc.returncode == 5
    assert "Error executing tool get_current_time: Invalid timezone" in json.loads(proc.stdout)["content"][0]["text"]
    assert envelope(proc)["code"] == "tool_is_error"
    proc = cli("--method", "tools/call", "--tool-name", "get_current_time", "--tool-arg", f"timezone={zone}",
               "--format", "human")  # fmt: skip
    assert proc.returncode == 5
    assert "Error executing tool get_current_time: Invalid timezone" in proc.stdout
    assert (
        proc.stderr.strip()
        .splitlines()[-1]
        .startswith("error: tool 'get_current_time' returned isError: true: Error executing tool get_current_time")
    )


def test_bad_time_format_is_a_tool_error() -> None:
    proc = cli("--method", "tools/call", "--tool-name", "convert_time", "--tool-arg", "source_timezone=UTC",
               "time=4pm", "target_timezone=UTC", "--format", "json")  # fmt: skip
    assert proc.returncode == 5
    assert result_of(proc)["isError"] is True
    assert envelope(proc)["code"] == "tool_is_error"


def test_unknown_tool_is_tool_not_found_with_the_servers_answer() -> None:
    proc = cli("--method", "tools/call", "--tool-name", "no_such_tool", "--format", "json")
    assert proc.returncode == 5
    error = envelope(proc)
    assert error["code"] == "tool_not_found"
    assert error["failure"]["jsonrpcCode"] == -32602  # what the server answered to the call
    assert "Unknown tool: no_such_tool" in error["cause"]
    assert proc.stdout == ""


def test_no_prompts_no_resources_and_ping() -> None:
    for method, key in (("prompts/list", "prompts"), ("resources/list", "resources")):
        proc = cli("--method", method, "--format", "json")
        assert proc.returncode == 0, proc.stderr
        assert result_of(proc)[key] == []
    proc = cli("--method", "ping")
    assert (proc.returncode, proc.stdout) == (0, "{}\n"), proc.stderr


def test_load() -> None:
    proc = cli("--load", "--tool-name", "get_current_time", "--tool-arg", "timezone=UTC", "--load-requests", "20",
               "--load-concurrency", "5")  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    summary = json.loads(proc.stdout)
    assert (summary["ok"], summary["errors"], summary["toolErrors"]) == (20, 0, 0)
