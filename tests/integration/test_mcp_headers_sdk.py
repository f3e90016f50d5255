"""The header rules, the result cache and the error explanations against a real official-SDK server over HTTP.

tests/servers/headers_server.py serves 2026-07-28 Streamable HTTP on 127.0.0.1. Requests are plain POSTs
(httpx2) whose headers come from :mod:`inspector.protocol.mcp_headers` — the SDK validates every one of them
against the body and answers -32020 when they disagree, so a passing call proves the headers are right.
"""

from __future__ import annotations

import itertools
import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx2
import pytest
from servers.http_misbehaving import Launched

from inspector.protocol.error_codes import explain_error
from inspector.protocol.mcp_headers import (
    filter_tools,
    header_params_by_tool,
    is_header_mismatch,
    request_headers,
)
from inspector.protocol.result_cache import ResultCache

REPO = Path(__file__).resolve().parents[2]
V = "2026-07-28"
_ids = itertools.count(1)


@pytest.fixture(scope="module")
def url() -> Iterator[str]:
    server = Launched([sys.executable, str(REPO / "tests" / "servers" / "headers_server.py")], cwd=str(REPO))
    try:
        yield server.wait_for_line(r"listening on (http://127\.0\.0\.1:\d+/mcp)")
    finally:
        server.stop()


def meta(version: str = V, capabilities: dict[str, Any] | None = None) -> dict[str, Any]:
    return {
        "io.modelcontextprotocol/protocolVersion": version,
        "io.modelcontextprotocol/clientCapabilities": capabilities or {},
        "io.modelcontextprotocol/clientInfo": {"name": "inspector-tests", "version": "0"},
    }


def post(
    url: str,
    method: str,
    params: dict[str, Any],
    headers: dict[str, str],
    envelope: dict[str, Any] | None = None,
) -> tuple[int, dict[str, Any]]:
    body = {"jsonrpc": "2.0", "id": next(_ids), "method": method, "params": {**params, "_meta": envelope or meta()}}
    response = httpx2.post(
        url, json=body, headers={"Accept": "application/json, text/event-stream", **headers}, timeout=15
    )
    return response.status_code, response.json()


def send(url: str, method: str, params: dict[str, Any], tools: dict[str, Any] | None = None) -> tuple[int, Any]:
    return post(url, method, params, request_headers(method, params, V, tools or {}))


def listed_tools(url: str) -> tuple[list[Any], dict[str, Any]]:
    status, answer = send(url, "tools/list", {})
    assert status == 200, answer
    kept, dropped = filter_tools(answer["result"]["tools"])
    assert dropped == []  # the SDK refuses to register a tool with an invalid annotation
    return kept, header_params_by_tool(kept)


CALLS = [
    {"region": "us-west1", "query": "SELECT 1"},
    {"region": "Hello, 世界", "query": "q", "count": 42, "dry_run": True},
    {"region": " padded ", "query": "q", "count": -7, "dry_run": False},
    {"region": "line1\r\nline2", "query": "q", "count": 2**53 - 1},
    {"region": "=?base64?literal?=", "query": "q"},
    {"region": "", "query": "q"},
    {"region": "\tindented", "query": "q", "count": 0},
]


@pytest.mark.parametrize("arguments", CALLS)
def test_the_sdk_accepts_our_param_headers(url: str, arguments: dict[str, Any]) -> None:
    _, index = listed_tools(url)
    assert [p.header for p in index["route"].params] == ["Region", "Count", "DryRun"]
    status, answer = send(url, "tools/call", {"name": "route", "arguments": arguments}, index)
    assert status == 200, answer
    text = answer["result"]["content"][0]["text"]
    assert text.startswith(f"region={arguments['region']} count={arguments.get('count', 0)}")


def test_without_param_headers_the_sdk_answers_header_mismatch(url: str) -> None:
    params = {"name": "route", "arguments": {"region": "us-west1", "query": "q"}}
    status, answer = send(url, "tools/call", params, tools={})  # as if the tool list were not known
    assert status == 400 and is_header_mismatch(answer["error"]["code"])
    sentence = explain_error(answer["error"]["code"], answer["error"]["message"], None, "tools/call")
    assert sentence is not None and "list the tools again" in sentence


def test_a_tampered_name_is_refused(url: str) -> None:
    _, index = listed_tools(url)
    params = {"name": "route", "arguments": {"region": "eu", "query": "q"}}
    headers = request_headers("tools/call", params, V, index) | {"Mcp-Name": "other"}
    status, answer = post(url, "tools/call", params, headers)
    assert status == 400 and is_header_mismatch(answer["error"]["code"])
    headers = request_headers("tools/call", params, V, index) | {"Mcp-Param-Region": "us"}
    status, answer = post(url, "tools/call", params, headers)
    assert status == 400 and is_header_mismatch(answer["error"]["code"])


def test_resources_read_and_prompts_use_mcp_name(url: str) -> None:
    status, answer = send(url, "resources/read", {"uri": "demo://greeting"})
    assert status == 200 and answer["result"]["contents"][0]["text"] == "hello"


def test_unsupported_version_is_explained(url: str) -> None:
    headers = request_headers("tools/list", {}, "2099-01-01", {})
    status, answer = post(url, "tools/list", {}, headers, envelope=meta("2099-01-01"))
    error = answer["error"]
    assert status == 400 and error["code"] == -32022
    assert explain_error(error["code"], error["message"], error.get("data"), "tools/list") == (
        "the server does not support protocol version 2099-01-01; it supports 2026-07-28"
    )


def test_missing_capability_is_explained(url: str) -> None:
    _, index = listed_tools(url)
    status, answer = send(url, "tools/call", {"name": "needs_extension", "arguments": {}}, index)
    error = answer["error"]
    assert status == 400 and error["code"] == -32021
    assert explain_error(error["code"], error["message"], error.get("data"), "tools/call") == (
        "the server requires the client capability extensions.io.example/ext, which this request did not declare"
    )
    envelope = meta(capabilities={"extensions": {"io.example/ext": {}}})
    params = {"name": "needs_extension", "arguments": {}}
    status, answer = post(url, "tools/call", params, request_headers("tools/call", params, V, index), envelope)
    assert status == 200, answer


def test_resource_not_found_is_explained(url: str) -> None:
    status, answer = send(url, "resources/read", {"uri": "demo://nope"})
    error = answer["error"]
    assert status == 400 and error["code"] == -32602 and error["data"] == {"uri": "demo://nope"}
    assert explain_error(error["code"], error["message"], error.get("data"), "resources/read") == (
        "resource not found: demo://nope"
    )


class Clock:
    now = 0.0

    def __call__(self) -> float:
        return self.now


def test_results_are_cached_as_the_server_says(url: str) -> None:
    clock = Clock()
    cache = ResultCache(clock=clock)
    status, tools = send(url, "tools/list", {})
    assert status == 200
    stored = cache.put("tools/list", {"_meta": meta()}, tools["result"])
    assert stored is not None and stored.ttl_ms == 60_000 and stored.scope == "public"
    status, read = send(url, "resources/read", {"uri": "demo://greeting"})
    stored = cache.put("resources/read", {"uri": "demo://greeting"}, read["result"])
    assert stored is not None and stored.ttl_ms == 5_000 and stored.private
    clock.now = 4.9
    assert cache.get("resources/read", {"uri": "demo://greeting", "_meta": meta()}) is not None
    clock.now = 5.0
    assert cache.get("resources/read", {"uri": "demo://greeting"}) is None
    assert cache.get("tools/list", None) is not None
    assert cache.on_notification("notifications/tools/list_changed", None) == 1
    assert cache.get("tools/list", None) is None


def cli(url: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "inspector", "--cli", url, *args],
        capture_output=True, text=True, timeout=60, cwd=str(REPO), check=False,
    )  # fmt: skip


def test_the_cli_explains_the_servers_errors(url: str) -> None:
    proc = cli(url, "--method", "resources/read", "--uri", "demo://nope", "--format", "human")
    assert proc.returncode == 1 and proc.stdout == ""  # a JSON-RPC error response: 1, as the official CLI
    assert proc.stderr == (
        "error: resources/read failed: server returned error -32602: Unknown resource: demo://nope"
        " — resource not found: demo://nope\n"
    )
    proc = cli(url, "--method", "tools/call", "--tool-name", "needs_extension", "--format", "json")
    assert proc.returncode == 1
    error = json.loads(proc.stderr)["error"]
    assert error["code"] == "error" and error["jsonrpcCode"] == -32021 and error["method"] == "tools/call"
    assert error["explanation"] == (
        "the server requires the client capability extensions.io.example/ext, which this request did not declare"
    )
