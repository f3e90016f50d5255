"""``mcp-inspect --cli --replay RECORDING TARGET...``: real recordings of real sessions replayed over stdio."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest
from clikit import run_inspector
from replaykit import FixedAnswers, demo_command, era_args, record, stdio

from inspector.client.connection import Connection

ERAS = ("legacy", "modern")


async def _everyday(conn: Connection) -> None:
    await conn.list_tools()
    await conn.call_tool("echo", {"message": "hi"})
    await conn.call_tool("add", {"a": 1, "b": 2})
    await conn.list_prompts()
    await conn.list_resources()


async def _adds(conn: Connection) -> None:
    await conn.call_tool("add", {"a": 1, "b": 2})


def replay(
    recording: Path, *args: str, era: str = "legacy", variant: str = "standard"
) -> subprocess.CompletedProcess[str]:
    return run_inspector(
        "--cli", "--replay", str(recording), *era_args(era), *args, "--", *demo_command(era, variant), timeout=180
    )


def report_of(proc: subprocess.CompletedProcess[str]) -> dict[str, Any]:
    document: dict[str, Any] = json.loads(proc.stdout)
    return document


def by_label(report: dict[str, Any]) -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    for entry in report["requests"]:
        label = entry["method"] + (f" {entry['subject']}" if entry["subject"] else "")
        out.setdefault(label, entry)
    return out


@pytest.mark.parametrize("era", ERAS)
def test_same_build_matches(tmp_path: Path, era: str) -> None:
    recording = record(stdio(demo_command(era)), tmp_path, _everyday, era=era)
    proc = replay(recording, "--format", "json", era=era)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    report = report_of(proc)
    assert report["passed"] is True
    assert report["recordedEra"] == report["targetEra"] == ("modern" if era == "modern" else "handshake")
    labels = by_label(report)
    assert {"tools/list", "tools/call echo", "tools/call add", "prompts/list", "resources/list"} <= set(labels)
    assert all(entry["outcome"] == "same" for entry in report["requests"]), report
    assert report["totals"] == {
        "requests": len(report["requests"]),
        "same": len(report["requests"]),
        "changed": 0,
        "failed": 0,
        "skipped": 0,
    }
    assert not any(entry["method"] in ("initialize", "server/discover") for entry in report["requests"])
    # the human report says the same
    human = replay(recording, era=era)
    assert human.returncode == 0
    assert f"{len(report['requests'])} same, 0 changed, 0 failed" in human.stdout


def _named(value: Any) -> Any:
    return value.get("name") if isinstance(value, dict) else None


@pytest.mark.parametrize("era", ERAS)
def test_changed_build_is_caught(tmp_path: Path, era: str) -> None:
    recording = record(stdio(demo_command(era)), tmp_path, _everyday, era=era)
    proc = replay(recording, "--format", "json", era=era, variant="changed")
    assert proc.returncode == 10, proc.stdout + proc.stderr
    report = report_of(proc)
    assert report["passed"] is False
    labels = by_label(report)
    # the changed result
    add = labels["tools/call add"]
    assert add["outcome"] == "changed"
    assert {"path": "$.result.content[0].text", "change": "changed", "old": "3", "new": "1 + 2 = 3"} in add["diff"]
    assert all(d["path"].startswith("$.result.content") for d in add["diff"]), add["diff"]
    # the renamed tool: the call of echo no longer works, and the listing shows echo gone, echo_message new
    echo = labels["tools/call echo"]
    assert echo["outcome"] in ("failed", "changed")
    listing = labels["tools/list"]
    assert listing["outcome"] == "changed"
    removed = [d for d in listing["diff"] if d["change"] == "removed" and _named(d.get("old")) == "echo"]
    added = [d for d in listing["diff"] if d["change"] == "added" and _named(d.get("new")) == "echo_message"]
    assert removed and added, listing["diff"]
    # unchanged requests stay the same
    assert labels["prompts/list"]["outcome"] == "same"
    assert report["totals"]["same"] + report["totals"]["changed"] + report["totals"]["failed"] == len(
        report["requests"]
    )


def test_ignore_makes_a_difference_go_away(tmp_path: Path) -> None:
    recording = record(stdio(demo_command()), tmp_path, _adds)
    assert replay(recording, variant="changed").returncode == 10
    proc = replay(recording, "--ignore", "$.result.content[*].text", "--format", "json", variant="changed")
    assert proc.returncode == 0, proc.stdout
    entry = report_of(proc)["requests"][0]
    assert entry["outcome"] == "same"
    assert {"path": "$.result.content[0].text", "reason": "--ignore $.result.content[*].text"} in entry["ignored"]


def test_bad_ignore_pattern_is_a_usage_error(tmp_path: Path) -> None:
    recording = record(stdio(demo_command()), tmp_path, _adds)
    proc = replay(recording, "--ignore", "$.result[", variant="changed")
    assert proc.returncode == 1
    assert "--ignore" in proc.stderr


def test_unreadable_recording_exits_1(tmp_path: Path) -> None:
    bogus = tmp_path / "not-a-recording.sqlite3"
    bogus.write_text("hello")
    proc = replay(bogus)
    assert proc.returncode == 1
    assert "cannot read the recording" in proc.stderr
    missing = replay(tmp_path / "missing.sqlite3")
    assert missing.returncode == 1


async def _asks(conn: Connection) -> None:
    await conn.call_tool("sample", {"prompt": "write a haiku"})
    await conn.call_tool("ask_twice", {})


@pytest.mark.parametrize("era", ERAS)
def test_server_requests_and_input_rounds_get_the_recorded_answers(tmp_path: Path, era: str) -> None:
    """Legacy: sampling and elicitation requests of the server; 2026-07-28: input_required rounds. Recorded with
    answers no headless run gives, so only a replay that answers with the recording's answers matches."""
    recording = record(stdio(demo_command(era)), tmp_path, _asks, era=era, handlers=FixedAnswers())
    proc = replay(recording, "--format", "json", era=era)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    labels = by_label(report_of(proc))
    sample, ask = labels["tools/call sample"], labels["tools/call ask_twice"]
    assert sample["outcome"] == ask["outcome"] == "same"
    assert sample["answersRecorded"] == sample["answersUsed"] == 1
    assert ask["answersRecorded"] == ask["answersUsed"] == 2
    assert not ask["notes"]


def test_cross_era_replay_answers_inputs_by_method(tmp_path: Path) -> None:
    """A 2026-07-28 recording (input_required rounds) replayed against a handshake-era target (server requests)."""
    recording = record(stdio(demo_command("modern")), tmp_path, _asks, era="modern", handlers=FixedAnswers())
    proc = replay(recording, "--format", "json", era="legacy")
    report = report_of(proc)
    assert report["recordedEra"] == "modern" and report["targetEra"] == "handshake"
    assert any("era" in note for note in report["notes"])
    labels = by_label(report)
    assert labels["tools/call ask_twice"]["outcome"] == "same", labels["tools/call ask_twice"]
    assert labels["tools/call ask_twice"]["answersUsed"] == 2


async def _everything(conn: Connection) -> None:
    tools = await conn.list_tools()
    names = {tool["name"] for tool in tools["tools"]}
    await conn.call_tool("echo", {"message": "replayed"})
    adder = "get-sum" if "get-sum" in names else "add"
    await conn.call_tool(adder, {"a": 2, "b": 3})
    await conn.list_prompts()
    await conn.list_resources()
    await conn.ping()


@pytest.mark.node
def test_server_everything_replay(tmp_path: Path) -> None:
    import nodetools

    server = nodetools.require_server_everything("stdio")
    recording = record(stdio(server), tmp_path, _everything)
    proc = run_inspector("--cli", "--replay", str(recording), "--format", "json", "--", *server, timeout=180)
    report = report_of(proc)
    assert proc.returncode == 0, json.dumps(report, indent=1)[:4000]
    labels = by_label(report)
    assert labels["tools/call echo"]["outcome"] == "same"
    assert labels["ping"]["outcome"] == "same"
    assert report["totals"]["same"] == len(report["requests"]) >= 6


async def _task(conn: Connection) -> None:
    from inspector.client.tasks import call_tool_as_declared

    tools = (await conn.list_tools())["tools"]
    tool = next(t for t in tools if t["name"] == "task_slow")
    await call_tool_as_declared(conn, "task_slow", {"seconds": 0.5, "steps": 2}, tool=tool)


def test_task_polls_are_replayed_with_the_new_task_id(tmp_path: Path) -> None:
    """2026-07-28: tools/call answered with a task, then tasks/get polls: the task id is mapped to the new one, the
    polls that found it working are skipped (timing), the last one polls until the task is done and is compared."""
    recording = record(stdio(demo_command("modern")), tmp_path, _task, era="modern")
    proc = replay(recording, "--format", "json", era="modern")
    report = report_of(proc)
    assert proc.returncode == 0, json.dumps(report, indent=1)[:3000]
    polls = [entry for entry in report["requests"] if entry["method"] == "tasks/get"]
    assert polls and polls[-1]["outcome"] == "same"
    assert all(p["outcome"] == "skipped" and "timing" in p["reason"] for p in polls[:-1])
    call = by_label(report)["tools/call task_slow"]
    assert call["outcome"] == "same"
    assert any(i["reason"] == "task id" for i in call["ignored"]), call["ignored"]
