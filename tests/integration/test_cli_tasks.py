"""``mcp-inspect --cli`` and ``--probe`` with tools that run as tasks, as a user runs them (real subprocesses).

Against ``@modelcontextprotocol/server-everything`` (2025-11-25 tasks: ``simulate-research-query`` requires
one) and against the bundled demo in both eras (its task tools; skipped, saying so, while it has none).
"""

from __future__ import annotations

import importlib.util
import json
import re
import subprocess
import sys
from typing import Any

import nodetools
import pytest
from clikit import run_inspector

DEMO = [sys.executable, "-m", "inspector.demo"]
TOOL = "simulate-research-query"
STATUS_LINE = re.compile(r"^task [0-9a-f]+: (working|input_required|completed)\b", re.M)


def cli(*args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return run_inspector("--cli", *args, timeout=timeout)


def everything(*args: str) -> subprocess.CompletedProcess[str]:
    return cli(*args, "--", *nodetools.require_server_everything("stdio"))


def needs_demo_tasks() -> None:
    if importlib.util.find_spec("inspector.demo.tools_tasks") is None:
        pytest.skip("the demo server has no task tools yet (inspector.demo.tools_tasks)")


@pytest.mark.node
def test_required_task_tool_prints_its_result() -> None:
    args = ("--method", "tools/call", "--tool-name", TOOL, "--tool-arg", "topic=python", "ambiguous=true")
    proc = everything(*args, "--format", "human")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("# Research Report: python (programming)")
    # the status lines on stderr (human format), in order, ending with completed
    seen = STATUS_LINE.findall(proc.stderr)
    assert seen[0] == "working" and "input_required" in seen and seen[-1] == "completed", proc.stderr
    assert "Analyzing content..." in proc.stderr
    # the default format: the result as JSON (as the official CLI), no status lines of ours
    proc = everything(*args)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["content"][0]["text"].startswith("# Research Report: python (programming)")
    assert STATUS_LINE.findall(proc.stderr) == []


@pytest.mark.node
def test_required_task_tool_json_and_strict() -> None:
    proc = everything("--method", "tools/call", "--tool-name", TOOL, "--tool-arg", "topic=x", "--format", "json")
    assert proc.returncode == 0, proc.stderr
    document = json.loads(proc.stdout)
    assert list(document) == ["result"]
    assert document["result"]["content"][0]["text"].startswith("# Research Report: x")
    assert document["result"]["_meta"]["io.modelcontextprotocol/related-task"]["taskId"]
    # stderr: only the server's own (passed through, as the official CLI) -- no status lines, no error
    assert proc.stderr == "Starting default (STDIO) server...\n"
    # --strict validates every message: the task handle is no CallToolResult violation
    strict = everything("--method", "tools/call", "--tool-name", TOOL, "--tool-arg", "topic=x", "--strict")
    assert strict.returncode == 0, strict.stderr


@pytest.mark.node
def test_probe_runs_task_tools_as_tasks() -> None:
    proc = everything("--probe", "--format", "json")
    report = json.loads(proc.stdout)
    step = next(s for s in report["steps"] if s["method"] == "tools/call" and s.get("name") == TOOL)
    assert step["outcome"] == "ok", step
    assert any(re.fullmatch(r"ran as task [0-9a-f]+: working -> completed", note) for note in step["notes"]), step
    assert step["diagnostics"] == []
    assert report["totals"]["violations"] == 0 and proc.returncode == 0, report["totals"]


@pytest.mark.parametrize("era", ["legacy", "modern"])
def test_demo_required_task_tool_both_eras(era: str) -> None:
    needs_demo_tasks()
    proc = cli(
        "--protocol-era", era, "--method", "tools/call", "--tool-name", "task_needs_input", "--format", "json",
        "--strict", *DEMO, "--era", era,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    result: dict[str, Any] = json.loads(proc.stdout)["result"]
    # the headless elicitation answer: the form accepted with its defaults
    assert json.loads(result["content"][0]["text"])["answer"]["action"] == "accept"


@pytest.mark.slow  # the demo probe runs task_cancellable to its end (5 s by default)
@pytest.mark.parametrize("era", ["legacy", "modern"])
def test_demo_probe_notes_the_tasks(era: str) -> None:
    needs_demo_tasks()
    proc = cli("--probe", "--protocol-era", era, "--format", "json", *DEMO, "--era", era, timeout=180)
    report = json.loads(proc.stdout)
    calls = {s["name"]: s for s in report["steps"] if s["method"] == "tools/call"}
    for name in ("task_needs_input", "task_cancellable"):
        assert calls[name]["outcome"] == "ok", calls[name]
        notes = " ".join(calls[name].get("notes", []))
        assert re.search(r"ran as task \S+: working -> .*completed", notes), calls[name]
        # nothing wrong with the server; in 2026-07-28 the step may say (information) that the demo does not
        # acknowledge task ids on subscriptions/listen (it is polled)
        problems = [d for d in calls[name]["diagnostics"] if d["severity"] != "info"]
        assert problems == [], calls[name]
        assert all("did not acknowledge task ids" in d["message"] for d in calls[name]["diagnostics"])
