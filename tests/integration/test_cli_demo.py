"""``mcp-inspect --cli`` against the bundled demo server, as a user runs it (a real subprocess).

Default output is the official CLI's (the result as pretty JSON, failures as one ``{"error": ...}`` line);
the readable summary is ``--format human``. Exit codes: :mod:`inspector.cli.exitcodes`."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from typing import Any

import pytest

DEMO = [sys.executable, "-m", "inspector.demo"]


def cli(*args: str, timeout: float = 90, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    proc = subprocess.run(
        [sys.executable, "-m", "inspector", "--cli", *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        env={**os.environ, **(env or {})},
        check=False,
    )
    assert "Traceback" not in proc.stderr, proc.stderr
    return proc


def demo(*args: str, timeout: float = 90) -> subprocess.CompletedProcess[str]:
    return cli(*args, "--", *DEMO, timeout=timeout)


def envelope(proc: subprocess.CompletedProcess[str]) -> dict[str, Any]:
    """The ``error`` object of the one ``{"error": ...}`` line that ends stderr."""
    document = json.loads(proc.stderr.strip().splitlines()[-1])
    assert isinstance(document, dict) and list(document) == ["error"], proc.stderr
    error: dict[str, Any] = document["error"]
    return error


SCHEMA_COUNT = "Schema portability: "
"""The count line the demo's deliberately unportable tool schema earns every tools/list (as the official)."""


def result_of(proc: subprocess.CompletedProcess[str]) -> Any:
    """The ``result`` of a ``--format json`` run, checking stdout is exactly one JSON object."""
    document = json.loads(proc.stdout)
    assert isinstance(document, dict) and list(document) == ["result"], proc.stdout[:500]
    return document["result"]


def test_tools_list_human() -> None:
    proc = demo("--method", "tools/list", "--format", "human")
    assert proc.returncode == 0, proc.stderr
    assert "- echo: Return the message unchanged" in proc.stdout
    assert "    message: string, required" in proc.stdout
    assert proc.stderr.startswith(SCHEMA_COUNT) and len(proc.stderr.splitlines()) == 1


def test_tools_list_default_is_the_result_as_pretty_json() -> None:
    proc = demo("--method", "tools/list")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith('{\n  "') and proc.stdout.endswith("\n}\n")  # indented by two
    assert "echo" in {tool["name"] for tool in json.loads(proc.stdout)["tools"]}
    assert proc.stderr.startswith(SCHEMA_COUNT) and len(proc.stderr.splitlines()) == 1
    quiet = demo("--method", "tools/list", "-q")
    assert (quiet.returncode, quiet.stderr) == (0, "")
    assert json.loads(quiet.stdout) == json.loads(proc.stdout)


def test_tools_list_json_shape() -> None:
    proc = demo("--method", "tools/list", "--format", "json")
    assert proc.returncode == 0, proc.stderr
    result = result_of(proc)
    names = {tool["name"] for tool in result["tools"]}
    assert {"echo", "add", "business_error", "protocol_error", "slow", "sample"} <= names
    assert "nextCursor" not in result
    assert proc.stderr.startswith(SCHEMA_COUNT) and len(proc.stderr.splitlines()) == 1


def test_echo_and_add_with_coerced_arguments() -> None:
    proc = demo("--method", "tools/call", "--tool-name", "echo", "--tool-arg", "message=42", "--format", "json")
    assert proc.returncode == 0, proc.stderr
    # message is a string in the schema: "42" stays a string
    assert result_of(proc)["content"][0] == {"type": "text", "text": "42"}

    proc = demo("--method", "tools/call", "--tool-name", "add", "--tool-arg", "a=2", "b=3.5", "--format", "json")
    assert proc.returncode == 0, proc.stderr
    result = result_of(proc)
    assert result["structuredContent"] == {"sum": 5.5}
    assert result["isError"] is False

    proc = demo("--method", "tools/call", "--tool-name", "add", "--tool-arg", "a=2", "--tool-arg", "b=3")
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["structuredContent"] == {"sum": 5}

    proc = demo("--method", "tools/call", "--tool-name", "add", "--tool-arg", "a=2", "b=3", "--format", "human")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("5")
    assert '"sum": 5' in proc.stdout


def test_tool_args_json() -> None:
    proc = demo("--method", "tools/call", "--tool-name", "add", "--tool-args-json", '{"a": 1, "b": 10}',
                "--format", "json")  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert result_of(proc)["structuredContent"] == {"sum": 11}


def test_object_and_boolean_coercion() -> None:
    proc = demo("--method", "tools/call", "--tool-name", "get_embedded_resource", "--tool-arg",
                "include_binary=true", "--format", "json")  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    kinds = [item["type"] for item in result_of(proc)["content"]]
    assert kinds.count("resource") == 2


def test_uncoercible_value_is_sent_and_warned_about() -> None:
    proc = demo("--method", "tools/call", "--tool-name", "add", "--tool-arg", "a=two", "b=1")
    assert "warning: --tool-arg a: the tool's inputSchema expects number" in proc.stderr
    # the server rejects the string: a tool error (5) or a JSON-RPC error (1), never a traceback or a hang
    assert proc.returncode in (1, 5)


def test_tool_is_error_exits_5() -> None:
    proc = demo("--method", "tools/call", "--tool-name", "business_error", "--format", "json")
    assert proc.returncode == 5
    assert result_of(proc)["isError"] is True
    error = json.loads(proc.stderr)["error"]
    assert (error["code"], error["kind"]) == ("tool_is_error", "tool")
    assert error["message"].startswith("tool 'business_error' returned isError: true")

    proc = demo("--method", "tools/call", "--tool-name", "business_error")
    assert proc.returncode == 5
    assert json.loads(proc.stdout)["isError"] is True  # the result is still printed, as the official CLI
    assert envelope(proc)["code"] == "tool_is_error"
    assert len(proc.stderr.splitlines()) == 1

    proc = demo("--method", "tools/call", "--tool-name", "business_error", "--format", "human")
    assert proc.returncode == 5
    assert proc.stdout.startswith("tool returned an error (isError: true):")
    assert proc.stderr.startswith("error: tool 'business_error' returned isError: true")
    assert len(proc.stderr.splitlines()) == 1


def test_unknown_tool_exits_5_tool_not_found() -> None:
    proc = demo("--method", "tools/call", "--tool-name", "no_such_tool")
    assert (proc.returncode, proc.stdout) == (5, "")
    assert envelope(proc)["code"] == "tool_not_found"


def test_protocol_error_exits_1_with_code_and_data() -> None:
    proc = demo("--method", "tools/call", "--tool-name", "protocol_error", "--format", "json")
    assert proc.returncode == 1
    assert proc.stdout == ""
    error = json.loads(proc.stderr)["error"]
    assert (error["code"], error["kind"]) == ("error", "protocol")
    assert isinstance(error["jsonrpcCode"], int)
    assert "data" in error

    proc = demo("--method", "tools/call", "--tool-name", "protocol_error")
    assert (proc.returncode, proc.stdout) == (1, "")
    assert envelope(proc)["jsonrpcCode"] == error["jsonrpcCode"]

    proc = demo("--method", "tools/call", "--tool-name", "protocol_error", "--format", "human")
    assert proc.returncode == 1
    assert proc.stderr.startswith("error: tools/call failed: server returned error")
    assert len(proc.stderr.splitlines()) == 1


def test_resources_list_and_read() -> None:
    proc = demo("--method", "resources/list", "--format", "json")
    assert proc.returncode == 0, proc.stderr
    uris = {r["uri"] for r in result_of(proc)["resources"]}
    assert "demo://text/hello" in uris

    proc = demo("--method", "resources/read", "--uri", "demo://text/hello", "--format", "json")
    assert proc.returncode == 0, proc.stderr
    contents = result_of(proc)["contents"]
    assert contents[0]["uri"] == "demo://text/hello"
    assert isinstance(contents[0]["text"], str) and contents[0]["text"]

    proc = demo("--method", "resources/read", "--uri", "demo://images/logo.png", "--format", "human")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("[resource demo://images/logo.png (image/png), ")

    proc = demo("--method", "resources/templates/list", "--format", "json")
    assert proc.returncode == 0, proc.stderr
    assert all("uriTemplate" in t for t in result_of(proc)["resourceTemplates"])


def test_prompts_list_and_get() -> None:
    proc = demo("--method", "prompts/list", "--format", "json")
    assert proc.returncode == 0, proc.stderr
    assert "greeting" in {p["name"] for p in result_of(proc)["prompts"]}

    proc = demo("--method", "prompts/get", "--prompt-name", "greeting", "--prompt-args", "name=Ada", "--format", "json")
    assert proc.returncode == 0, proc.stderr
    messages = result_of(proc)["messages"]
    assert messages and "Ada" in json.dumps(messages)

    proc = demo(
        "--method", "prompts/get", "--prompt-name", "greeting", "--prompt-args", "name=Ada", "--format", "human"
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.lstrip().startswith(("[user]", "A", "G")) and "Ada" in proc.stdout


def test_ping_and_logging_set_level() -> None:
    proc = demo("--method", "ping")
    assert (proc.returncode, proc.stdout) == (0, "{}\n"), proc.stderr
    proc = demo("--method", "ping", "--format", "human")
    assert (proc.returncode, proc.stdout) == (0, "ok\n"), proc.stderr
    proc = demo("--method", "ping", "--format", "json")
    assert result_of(proc) == {}
    proc = demo("--method", "logging/setLevel", "--log-level", "warning", "--format", "json")
    assert proc.returncode == 0, proc.stderr
    assert result_of(proc) == {}


def test_server_requests_get_headless_answers() -> None:
    proc = demo("--method", "tools/call", "--tool-name", "sample", "--tool-arg", "prompt=hi", "--format", "json")
    assert proc.returncode == 0, proc.stderr
    assert "automatic reply from mcp-inspect" in json.dumps(result_of(proc))
    proc = demo("--method", "tools/call", "--tool-name", "elicit_form", "--format", "json")
    assert proc.returncode == 0, proc.stderr
    assert "accept" in json.dumps(result_of(proc))
    proc = demo("--method", "tools/call", "--tool-name", "list_roots", "--format", "json")
    assert proc.returncode == 0, proc.stderr


def test_progress_keeps_a_slow_call_alive_past_the_timeout() -> None:
    # 5 s of work with a progress notification every 0.5 s, and a 3 s request timeout reset by each
    # (3 s, not less: the timeout also bounds initialize, and the demo server takes ~1 s to import)
    proc = demo("--method", "tools/call", "--tool-name", "slow", "--tool-arg", "seconds=5", "steps=10",
                "--timeout", "3", "--format", "json")  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert result_of(proc)["isError"] is False


def test_timeout_without_progress_exits_1() -> None:
    proc = demo("--method", "tools/call", "--tool-name", "slow", "--tool-arg", "seconds=5", "steps=1",
                "--timeout", "1")  # fmt: skip
    assert proc.returncode == 1
    assert envelope(proc)["code"] == "error" and "timed out" in envelope(proc)["message"]
    # the server's own stderr is passed through (as the official CLI); the envelope is the last line
    assert proc.stderr.splitlines()[:-1] == ["inspector-demo: slow cancelled after 0/1 steps"]


def test_load_summary() -> None:
    proc = demo("--load", "--tool-name", "echo", "--tool-arg", "message=hi", "--load-concurrency", "4",
                "--load-requests", "40")  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    summary = json.loads(proc.stdout)  # the summary is the result: pretty JSON (the fields: inspector.cli.load)
    assert {"tool", "concurrency", "requests", "ok", "toolErrors", "errors", "elapsedMs", "throughput",
            "latencyMs"} <= set(summary)  # fmt: skip
    assert (summary["tool"], summary["concurrency"], summary["requests"]) == ("echo", 4, 40)
    assert (summary["ok"], summary["toolErrors"], summary["errors"]) == (40, 0, 0)
    assert summary["throughput"] > 0 and summary["elapsedMs"] > 0
    latency = summary["latencyMs"]
    assert latency["min"] <= latency["p50"] <= latency["p90"] <= latency["p99"] <= latency["max"]

    proc = demo("--load", "--tool-name", "echo", "--tool-arg", "message=hi", "--load-requests", "5", "--format", "json")
    assert proc.returncode == 0, proc.stderr
    assert result_of(proc)["ok"] == 5


def test_load_counts_tool_errors_and_exits_0() -> None:
    """As the official CLI: isError results are counted in the summary, not an exit status of their own."""
    proc = demo("--load", "--tool-name", "business_error", "--load-requests", "6", "--load-concurrency", "3")
    assert proc.returncode == 0, proc.stderr
    summary = json.loads(proc.stdout)
    assert (summary["ok"], summary["toolErrors"], summary["errors"]) == (0, 6, 0)
    assert proc.stderr == ""


def test_config_file(tmp_path: Any) -> None:
    config = tmp_path / "mcp.json"
    config.write_text(json.dumps({"mcpServers": {"demo": {"command": sys.executable, "args": ["-m", "inspector.demo"]},
                                                  "other": {"command": "false"}}}))  # fmt: skip
    proc = cli("--config", str(config), "--server", "demo", "--method", "ping")
    assert (proc.returncode, proc.stdout) == (0, "{}\n"), proc.stderr

    broken = tmp_path / "broken.json"
    broken.write_text('{\n  "mcpServers": {\n    "demo": {"command": "x",}\n  }\n}\n')
    proc = cli("--config", str(broken), "--server", "demo", "--method", "ping", "--format", "human")
    assert proc.returncode == 1
    assert (
        proc.stderr.strip()
        == f"usage error: {broken}:3:29: invalid JSON: Expecting property name enclosed in double quotes"
    )

    proc = cli("--config", str(config), "--server", "nope", "--method", "ping", "--format", "json")
    assert proc.returncode == 1
    assert json.loads(proc.stderr) == {"error": {"code": "error", "message": f"{config}: no server named 'nope'; defined: demo, other", "kind": "usage"}}  # fmt: skip  # noqa: E501


def test_demo_flag_is_a_target() -> None:
    proc = cli("--demo", "--method", "ping")
    assert (proc.returncode, proc.stdout) == (0, "{}\n"), proc.stderr


def test_env_and_cwd_reach_the_server(tmp_path: Any) -> None:
    # the demo's list_roots-free way to see env/cwd: a python -c server would do, but the CLI path is what matters:
    # a bad cwd is a usage error before anything starts
    proc = cli(*DEMO, "--method", "ping", "--cwd", str(tmp_path / "missing"))
    assert proc.returncode == 1
    assert "working directory does not exist" in proc.stderr
    proc = cli(*DEMO, "--method", "ping", "--cwd", str(tmp_path), "-e", "MCP_DEMO_UNUSED=1")
    assert proc.returncode == 0, proc.stderr


@pytest.mark.parametrize("fmt", ["text", "json", "human"])
def test_spawn_failure_is_one_line(fmt: str) -> None:
    proc = cli("definitely-not-a-command-xyz", "--method", "ping", "--format", fmt)
    assert proc.returncode == 1
    assert len(proc.stderr.strip().splitlines()) == 1
    assert "command not found: definitely-not-a-command-xyz" in proc.stderr
    if fmt != "human":
        assert envelope(proc)["code"] == "error"
