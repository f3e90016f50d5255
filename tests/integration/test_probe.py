"""``mcp-inspect --cli --probe``: one JSON report of everything a real server offers, and the right exit code."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from inspector.cli.probe import schema_argument_hint
from inspector.schema.synthesize import synthesize_arguments

REPO = Path(__file__).resolve().parents[2]
MISBEHAVING = [sys.executable, str(REPO / "tests" / "servers" / "misbehaving.py")]
DEMO = [sys.executable, "-m", "inspector.demo"]
STEP_KEYS = {"method", "outcome", "diagnostics"}


def probe(*args: str, timeout: float = 120, env: dict[str, str] | None = None) -> tuple[int, dict[str, Any], str]:
    proc = subprocess.run(
        [sys.executable, "-m", "inspector", "--cli", "--probe", *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=REPO,
        env={**os.environ, **(env or {})},
        check=False,
    )
    assert "Traceback" not in proc.stderr, proc.stderr
    report = json.loads(proc.stdout)
    return proc.returncode, report, proc.stderr


def envelope(stderr: str) -> dict[str, Any]:
    """The ``{"error": ...}`` line that ends stderr (a stdio server's own stderr may come before it)."""
    document = json.loads(stderr.strip().splitlines()[-1])
    assert list(document) == ["error"], stderr
    error: dict[str, Any] = document["error"]
    return error


def steps(report: dict[str, Any], method: str) -> dict[str | None, dict[str, Any]]:
    return {step.get("name"): step for step in report["steps"] if step["method"] == method}


def check_shape(report: dict[str, Any], code: int) -> None:
    assert set(report) == {
        "target", "transport", "protocolVersionOffered", "server", "steps", "diagnostics", "schemaFindings",
        "totals", "exitCode",
    }  # fmt: skip
    findings = [f for group in report["schemaFindings"] for f in group["findings"]]
    assert report["totals"]["schemaErrors"] == sum(1 for f in findings if f["severity"] == "error")
    assert report["totals"]["schemaWarnings"] == sum(1 for f in findings if f["severity"] == "warning")
    assert report["exitCode"] == code
    totals = report["totals"]
    assert totals["steps"] == len(report["steps"])
    assert totals["steps"] == totals["ok"] + totals["errors"] + totals["toolErrors"] + totals["skipped"]
    every = [d for step in report["steps"] for d in step["diagnostics"]] + report["diagnostics"]
    assert totals["violations"] == sum(1 for d in every if d["severity"] == "violation")
    for step in report["steps"]:
        assert STEP_KEYS <= set(step)
        assert step["outcome"] in ("ok", "error", "isError", "skipped")
        if step["outcome"] != "skipped":
            assert step["durationMs"] >= 0
        if step["outcome"] == "error":
            assert step["error"]["message"]


@pytest.mark.parametrize(("era", "version"), [("legacy", "2025-11-25"), ("modern", "2026-07-28")])
def test_demo_server_every_feature(era: str, version: str) -> None:
    # the same report in both eras: in 2026-07-28 the server's questions come as input_required results,
    # answered by the same headless handlers (listed as serverRequests all the same)
    code, report, _ = probe("--protocol-era", era, *DEMO, timeout=180)
    # the demo's bad_structured tool returns structuredContent that breaks its outputSchema: a violation
    assert code == 6
    check_shape(report, 6)
    assert report["transport"] == "stdio"
    assert report["server"]["name"] == "inspector-demo"
    assert report["server"]["protocolVersion"] == version
    assert {"tools", "resources", "prompts", "completions"} <= set(report["server"]["capabilities"])

    tools_list = steps(report, "tools/list")[None]
    calls = steps(report, "tools/call")
    assert tools_list["count"] == len(calls) and tools_list["pages"] >= 1
    assert calls["add"]["arguments"] == {"a": 0, "b": 0} and calls["add"]["outcome"] == "ok"
    assert calls["business_error"]["outcome"] == "isError"
    assert calls["protocol_error"]["outcome"] == "error"
    assert calls["protocol_error"]["error"]["code"] == -32000
    assert {d["path"] for d in calls["bad_structured"]["diagnostics"]} >= {"$.result.structuredContent.temperature"}
    assert report["totals"]["violations"] == len(calls["bad_structured"]["diagnostics"])
    # validate_order's `items: true` is legal JSON Schema but not portable: the lint reports it, the exit stays 6
    # for the violation above (schema findings are not violations)
    lint = {group["toolName"]: group["findings"] for group in report["schemaFindings"]}
    assert any(f["rule"] == "boolean-schema" and f["severity"] == "error" for f in lint["validate_order"])

    # the server's own requests, answered headlessly
    (elicit,) = calls["elicit_form"]["serverRequests"]
    assert elicit["method"] == "elicitation/create" and elicit["action"] == "accept"
    assert elicit["content"]["name"] == "Ada Lovelace"  # the schema's default
    assert calls["sample"]["serverRequests"] == [{"method": "sampling/createMessage", "answer": "fixed reply"}]
    assert calls["list_roots"]["serverRequests"] == [{"method": "roots/list", "roots": 0}]

    reads = steps(report, "resources/read")
    assert steps(report, "resources/list")[None]["count"] == len(reads)
    assert all(step["outcome"] == "ok" for step in reads.values())
    assert "demo://text/hello" in reads
    assert steps(report, "resources/templates/list")[None]["count"] >= 4

    prompts = steps(report, "prompts/get")
    assert set(prompts) >= {"greeting", "code_review", "describe_media"}
    assert all(step["outcome"] == "ok" for step in prompts.values())
    completions = steps(report, "completion/complete")
    assert "greeting:name" in completions  # required prompt arguments are completed first
    assert prompts["greeting"]["arguments"]["name"]


def test_schema_valued_arguments_round_trip_a_real_schema() -> None:
    rich = {"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object", "additionalProperties": False}
    larger = {"type": "object", "properties": {name: {"type": "string", "minLength": 1} for name in "abcdefgh"}}
    echo_schema = {
        "type": "object",
        "properties": {
            "schema": {"type": "object", "description": "The inputSchema the client observed for focal, verbatim."},
            "options": {"type": "object"},
        },
        "required": ["schema", "options"],
    }
    focal = {"name": "focal", "inputSchema": rich}
    echo = {"name": "echo", "inputSchema": echo_schema}
    other = {"name": "other", "inputSchema": larger}

    named = synthesize_arguments(echo_schema, hint=schema_argument_hint(echo, [focal, echo, other])).value
    assert named == {"schema": rich, "options": {}}  # the tool the description names; "options" is no schema
    assert named["schema"] is not rich  # a copy

    echo_schema["properties"]["schema"]["description"] = "Any JSON Schema."
    largest = synthesize_arguments(echo_schema, hint=schema_argument_hint(echo, [focal, echo, other])).value
    assert largest["schema"] == larger

    alone = synthesize_arguments(echo_schema, hint=schema_argument_hint(echo, [echo])).value
    assert alone == {"schema": {}, "options": {}}


def test_time_server_is_clean() -> None:
    pytest.importorskip("mcp_server_time")
    code, report, stderr = probe(sys.executable, "-m", "mcp_server_time")
    assert code == 0, stderr
    check_shape(report, 0)
    calls = steps(report, "tools/call")
    assert set(calls) == {"get_current_time", "convert_time"}
    assert set(calls["convert_time"]["arguments"]) == {"source_timezone", "time", "target_timezone"}
    # '' is not a time zone: a tool error, which is not a protocol violation
    assert all(step["outcome"] in ("ok", "isError") for step in calls.values())


def test_invalid_tools_list_is_a_violation() -> None:
    code, report, _ = probe(*MISBEHAVING, "--mode", "invalid-tools-list")
    assert code == 6
    check_shape(report, 6)
    listing = steps(report, "tools/list")[None]
    assert listing["outcome"] == "ok"
    paths = {d["path"] for d in listing["diagnostics"]}
    assert "$.result.tools[0].name" in paths
    unnamed = [s for s in report["steps"] if s["method"] == "tools/call" and s["outcome"] == "skipped"]
    assert unnamed and "without a string name" in unnamed[0]["notes"][0]


def test_tool_errors_and_timeouts_are_not_violations() -> None:
    code, report, _ = probe(*MISBEHAVING, "--mode", "silent", "--timeout", "1")
    assert code == 0
    check_shape(report, 0)
    (call,) = steps(report, "tools/call").values()
    assert call["outcome"] == "error"
    assert call["arguments"] == {}  # "text" is optional
    assert "1" in call["error"]["message"] and call["durationMs"] < 5000
    assert steps(report, "prompts/list")[None]["outcome"] == "ok"  # the probe went on


def test_non_standard_elicitation_alias_is_answered() -> None:
    code, report, _ = probe(*MISBEHAVING, "--mode", "elicit-alias")
    (call,) = steps(report, "tools/call").values()
    (asked,) = call["serverRequests"]
    assert asked["action"] == "accept"
    assert code == report["exitCode"]


@pytest.mark.parametrize(
    ("mode", "where"),
    [("crash", "tools/call"), ("slow-init", "initialize")],
)
def test_lost_or_failed_connection_exits_1(mode: str, where: str) -> None:
    code, report, stderr = probe(*MISBEHAVING, "--mode", mode, "--timeout", "2")
    assert code == 1
    check_shape(report, 1)
    failed = [s for s in report["steps"] if s["outcome"] == "error"]
    assert failed[0]["method"] == where
    assert envelope(stderr)["code"] == "error"
    if where == "initialize":
        assert report["server"] is None
    else:
        assert all(s["outcome"] == "skipped" for s in report["steps"][report["steps"].index(failed[0]) + 1 :])


def test_unstartable_command_exits_1() -> None:
    code, report, stderr = probe("/nonexistent/server-binary")
    assert code == 1
    assert report["steps"][0]["method"] == "initialize" and report["steps"][0]["outcome"] == "error"
    assert "/nonexistent/server-binary" in stderr


def test_json_format_is_one_line() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "inspector", "--cli", "--probe", "--format", "json", *MISBEHAVING],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.count("\n") == 1
    assert json.loads(proc.stdout)["server"]["name"] == "misbehaving"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--method", "tools/list", "srv"], "--probe runs every method itself"),
        (["--tool-name", "x", "srv"], "--tool-name is not used with --probe"),
        (["--header", "A: b", "srv"], "--header is for HTTP targets"),
        (["--client-id", "c", "srv"], "--client-id is for HTTP targets"),
        (["--transport", "http", "srv"], "--transport http needs"),
        (["--transport", "stdio", "http://127.0.0.1:1/mcp"], "--transport stdio needs a server command"),
        (["--transport", "ws", "http://127.0.0.1:1/mcp"], "--transport must be stdio, http or sse"),
        (["http://127.0.0.1:1/mcp", "extra"], "a URL TARGET takes no arguments"),
        (["--header", "no colon", "http://127.0.0.1:1/mcp"], "--header expects 'NAME: VALUE'"),
        (["--client-secret", "s", "http://127.0.0.1:1/mcp"], "--client-secret needs the --client-id"),
        (["--client-metadata-url", "http://x/c.json", "http://127.0.0.1:1/mcp"], "must be an https:// URL"),
        (["-e", "A=1", "http://127.0.0.1:1/mcp"], "-e is for server commands, not URL targets"),
    ],
)
def test_usage_errors(args: list[str], message: str) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "inspector", "--cli", "--probe", *args],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert proc.returncode == 1
    assert message in proc.stderr, proc.stderr
    assert envelope(proc.stderr)["code"] == "error"


# -- URL targets ----------------------------------------------------------------------------------------------


def _serve(command: list[str], pattern: str, what: str, timeout: float) -> Iterator[str]:
    """Start ``command``, yield the group of the first output line matching ``pattern``, then stop it.
    ``with Popen`` closes the output pipe (no ResourceWarning) and reaps the process."""
    with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=REPO) as proc:
        try:
            deadline = time.monotonic() + timeout
            assert proc.stdout is not None
            while time.monotonic() < deadline:
                line = proc.stdout.readline()
                match = re.search(pattern, line)
                if match:
                    yield match.group(1)
                    return
                if not line and proc.poll() is not None:
                    break
            pytest.fail(f"{what} did not start")
        finally:
            proc.terminate()
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


def _launch(args: list[str], pattern: str) -> Iterator[str]:
    yield from _serve([*DEMO, *args], pattern, f"the demo server ({' '.join(args)})", 30)


@pytest.fixture(scope="module")
def demo_http() -> Iterator[str]:
    yield from _launch(["--http", "0"], r"listening on (http://127\.0\.0\.1:\d+/mcp)")


@pytest.fixture(scope="module")
def demo_sse() -> Iterator[str]:
    yield from _launch(["--sse", "0"], r"listening on (http://127\.0\.0\.1:\d+/sse)")


def test_streamable_http_url(demo_http: str) -> None:
    code, report, _ = probe(demo_http, "--header", "X-Probe: 1", timeout=180)
    assert code == 6  # bad_structured, as over stdio
    check_shape(report, 6)
    assert (report["target"], report["transport"]) == (demo_http, "http")
    assert steps(report, "tools/call")["elicit_form"]["serverRequests"][0]["action"] == "accept"
    assert report["totals"]["errors"] == 1  # protocol_error only


def test_legacy_sse_url(demo_sse: str) -> None:
    code, report, _ = probe(demo_sse, "--transport", "sse", timeout=180)
    assert code == 6
    check_shape(report, 6)
    assert report["transport"] == "sse"
    assert steps(report, "tools/call")["add"]["outcome"] == "ok"


def test_refused_url_exits_4_unreachable() -> None:
    code, report, stderr = probe("http://127.0.0.1:9/mcp", "--timeout", "5")
    assert code == 4
    check_shape(report, 4)
    assert report["server"] is None and report["steps"][0]["outcome"] == "error"
    assert envelope(stderr)["code"] == "unreachable"


def test_connect_timeout_bounds_the_opening() -> None:
    code, report, stderr = probe(*MISBEHAVING, "--mode", "slow-init", "--connect-timeout", "500", "--timeout", "30")
    assert code == 4
    check_shape(report, 4)
    assert "--connect-timeout" in report["steps"][0]["error"]["message"]
    assert envelope(stderr)["code"] == "unreachable"


@pytest.fixture(scope="module")
def oauth_server() -> Iterator[str]:
    """tests/servers/oauth_server.py without dynamic registration; one pre-registered client ``pre:sec``."""
    command = [sys.executable, str(REPO / "tests" / "servers" / "oauth_server.py"), "--no-dcr", "--client", "pre:sec"]
    yield from _serve(command, r"LISTENING (http://\S+/mcp)", "the OAuth test server", 60)


def test_oauth_protected_server_with_a_preregistered_client(oauth_server: str) -> None:
    code, report, stderr = probe("--auto-approve", "--client-id", "pre", "--client-secret", "sec", oauth_server)
    assert code == 0, stderr
    check_shape(report, 0)
    calls = steps(report, "tools/call")
    assert calls["admin_action"]["outcome"] == "ok"  # after step-up to mcp:admin (403 insufficient_scope)

    secret_from_env = {"MCP_INSPECT_CLIENT_SECRET": "sec"}
    code, report, stderr = probe("--auto-approve", "--client-id", "pre", oauth_server, env=secret_from_env)
    assert code == 0, stderr


def test_oauth_failure_is_one_line_and_exit_1(oauth_server: str) -> None:
    code, report, stderr = probe("--auto-approve", oauth_server)  # no registration endpoint, no client id
    assert code == 1
    assert report["steps"][0]["method"] == "initialize" and report["steps"][0]["outcome"] == "error"
    assert "Registration failed" in report["steps"][0]["error"]["message"]
    assert stderr.count("\n") == 1 and envelope(stderr)["code"] == "error"
