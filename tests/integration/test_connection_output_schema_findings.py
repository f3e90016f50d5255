"""Issue 14 §5.5 (engine): a structuredContent that breaks its tool's outputSchema is a diagnostic on the answer's
frame — recorded, in ``Connection.diagnostics``, counted — not only a banner in the Tools tab."""

from __future__ import annotations

import asyncio
import sys
from typing import Any

from inspector.client.connection import Connection
from inspector.content.validation import validate_tool_result
from inspector.protocol.diagnostics import DiagnosticCode, Severity
from inspector.protocol.wire import Direction, Kind, WireMessage
from inspector.transports.stdio import StdioTransport

DEMO = [sys.executable, "-m", "inspector.demo"]


class Recorder:
    def __init__(self) -> None:
        self.messages: list[WireMessage] = []

    def record_message(self, msg: WireMessage) -> None:
        self.messages.append(msg)

    def record_transport(self, event: Any) -> None:
        pass


def responses(recorder: Recorder) -> list[WireMessage]:
    return [m for m in recorder.messages if m.direction is Direction.IN and m.kind is Kind.RESPONSE]


def test_an_output_schema_violation_is_recorded_on_the_response() -> None:
    recorder = Recorder()

    async def main() -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
        conn = Connection(StdioTransport(DEMO[0], DEMO[1:]), recorder=recorder, protocol_era="legacy")
        async with conn:
            tools = await conn.list_tools()
            bad = await conn.call_tool("bad_structured", {})
            good = await conn.call_tool("get_weather", {"city": "Paris"})
            return tools, bad, good

    tools, bad, good = asyncio.run(asyncio.wait_for(main(), 60))
    schema = next(t["outputSchema"] for t in tools["tools"] if t["name"] == "bad_structured")
    issues = validate_tool_result(bad, schema)
    assert issues, "the demo's bad_structured must break its own outputSchema"
    tool_calls = [m for m in responses(recorder) if m.method == "tools/call"]
    assert len(tool_calls) == 2
    bad_frame = tool_calls[0]
    found = [d for d in bad_frame.diagnostics if "outputSchema of bad_structured" in d.message]
    # one diagnostic per issue the Tools tab shows, each a violation pointing into structuredContent
    assert len(found) == len(issues)
    assert all(d.code is DiagnosticCode.OUTPUT_SCHEMA and d.severity is Severity.VIOLATION for d in found)
    assert all(d.path is None or d.path.startswith("$.result.structuredContent") for d in found)
    # the good tool's answer carries none
    assert not any("outputSchema" in d.message for d in tool_calls[1].diagnostics)
    assert (
        validate_tool_result(good, next(t["outputSchema"] for t in tools["tools"] if t["name"] == "get_weather")) == []
    )


def test_the_probe_reports_each_output_schema_finding_once() -> None:
    """The probe used to check outputSchemas itself; now the connection does, and the probe must not repeat it."""
    import json
    import os
    import subprocess
    from pathlib import Path

    repo = Path(__file__).resolve().parents[2]
    proc = subprocess.run(
        [sys.executable, "-m", "inspector", "--cli", "--probe", "--protocol-era", "legacy", *DEMO],
        capture_output=True,
        text=True,
        timeout=180,
        cwd=repo,
        env=dict(os.environ),
        check=False,
    )
    report = json.loads(proc.stdout)
    (step,) = [s for s in report["steps"] if s["method"] == "tools/call" and s.get("name") == "bad_structured"]
    paths = [d.get("path") for d in step["diagnostics"]]
    assert "$.result.structuredContent.temperature" in paths
    assert len(paths) == len(set(paths)), paths  # each finding once
    assert all(d["code"] == "output-schema" for d in step["diagnostics"])
    assert report["totals"]["violations"] == len(step["diagnostics"])
