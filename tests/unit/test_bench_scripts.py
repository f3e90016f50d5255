"""The benchmark scripts' pure parts: bench/fast_server.py's answers in each era (checked against the official
2026-07-28 wire types), and how roundtrip.py / cli_oneshot.py turn samples into their JSON line."""

from __future__ import annotations

import argparse
import importlib.util
import sys
from types import ModuleType
from typing import Any

import mcp_types._v2026_07_28 as modern_types
import nodetools
import pytest

BENCH = nodetools.REPO_ROOT / "bench"


def _load(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"bench_{name}", BENCH / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


fast_server = _load("fast_server")
roundtrip = _load("roundtrip")
cli_oneshot = _load("cli_oneshot")

MODERN_META = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientCapabilities": {},
    "io.modelcontextprotocol/clientInfo": {"name": "t", "version": "0"},
}
SERVER_INFO = {"io.modelcontextprotocol/serverInfo": {"name": "bench-fast-server", "version": "1.0.0"}}


def ask(era: str, method: str, params: dict[str, Any] | None = None, *, meta: dict[str, Any] | None = None) -> Any:
    p = dict(params or {})
    if meta is not None:
        p["_meta"] = meta
    reply = fast_server.handle({"jsonrpc": "2.0", "id": 7, "method": method, "params": p}, era)
    assert reply is not None and reply["id"] == 7 and reply["jsonrpc"] == "2.0"
    assert ("result" in reply) != ("error" in reply)
    return reply


def code_of(reply: dict[str, Any]) -> int | None:
    return reply["error"]["code"] if "error" in reply else None


# ------------------------------------------------------------------------------------- fast_server
@pytest.mark.parametrize("era", ["modern", "both"])
def test_discover_answers_the_2026_shape(era: str) -> None:
    reply = ask(era, "server/discover", meta=MODERN_META)
    result = reply["result"]
    assert result["supportedVersions"] == ["2026-07-28"]
    assert result["resultType"] == "complete"
    assert result["_meta"] == SERVER_INFO
    assert result["capabilities"] == {"tools": {}}
    modern_types.DiscoverResultResponse.model_validate(reply)


def test_legacy_server_refuses_discover_as_a_handshake_only_server_does() -> None:
    assert code_of(ask("legacy", "server/discover", meta=MODERN_META)) == -32601


@pytest.mark.parametrize("era", ["modern", "both"])
def test_modern_results_carry_result_type_and_server_info(era: str) -> None:
    listed = ask(era, "tools/list", meta=MODERN_META)
    modern_types.ListToolsResultResponse.model_validate(listed)
    assert [t["name"] for t in listed["result"]["tools"]] == ["echo", "add", "fail"]
    called = ask(era, "tools/call", {"name": "echo", "arguments": {"message": "hi"}}, meta=MODERN_META)
    modern_types.CallToolResultResponse.model_validate(called)
    assert called["result"]["content"] == [{"type": "text", "text": "hi"}]
    assert called["result"]["resultType"] == "complete" and called["result"]["_meta"] == SERVER_INFO
    assert ask(era, "tools/call", {"name": "fail"}, meta=MODERN_META)["result"]["isError"] is True
    assert code_of(ask(era, "tools/call", {"name": "nope"}, meta=MODERN_META)) == -32602


@pytest.mark.parametrize("era", ["modern", "both"])
@pytest.mark.parametrize("version", ["2025-11-25", "1900-01-01", "2026-07-28 "])
def test_unsupported_version_is_32022_with_supported_and_requested(era: str, version: object) -> None:
    meta = {**MODERN_META, "io.modelcontextprotocol/protocolVersion": version}
    for method in ("server/discover", "tools/list"):
        reply = ask(era, method, meta=meta)
        assert reply["error"]["code"] == -32022
        assert reply["error"]["data"] == {"supported": ["2026-07-28"], "requested": version}
        modern_types.UnsupportedProtocolVersionError.model_validate(reply)


@pytest.mark.parametrize(
    "meta",
    [
        None,
        {},
        {"io.modelcontextprotocol/clientCapabilities": {}},
        {"io.modelcontextprotocol/protocolVersion": "2026-07-28"},
        {"io.modelcontextprotocol/protocolVersion": 20260728, "io.modelcontextprotocol/clientCapabilities": {}},
        {"io.modelcontextprotocol/protocolVersion": None, "io.modelcontextprotocol/clientCapabilities": {}},
        {"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": []},
    ],
)
def test_modern_only_server_rejects_a_request_without_the_envelope_as_invalid_params(meta: Any) -> None:
    assert code_of(ask("modern", "tools/list", meta=meta)) == -32602


def test_modern_only_server_names_its_versions_to_initialize() -> None:
    reply = ask("modern", "initialize", {"protocolVersion": "2025-11-25", "capabilities": {}})
    assert reply["error"]["code"] == -32022
    assert reply["error"]["data"] == {"supported": ["2026-07-28"], "requested": "2025-11-25"}


@pytest.mark.parametrize("era", ["legacy", "both"])
@pytest.mark.parametrize(("asked", "chosen"), [("2025-06-18", "2025-06-18"), ("2099-01-01", "2025-11-25")])
def test_handshake_era_initialize(era: str, asked: str, chosen: str) -> None:
    result = ask(era, "initialize", {"protocolVersion": asked, "capabilities": {}})["result"]
    assert result["protocolVersion"] == chosen
    assert result["serverInfo"] == {"name": "bench-fast-server", "version": "1.0.0"}
    assert "resultType" not in result


@pytest.mark.parametrize("era", ["legacy", "both"])
def test_requests_without_the_envelope_are_served_in_the_handshake_era(era: str) -> None:
    result = ask(era, "tools/call", {"name": "add", "arguments": {"a": 1, "b": 2}})["result"]
    assert result == {"content": [{"type": "text", "text": "3.0"}], "isError": False}
    assert ask(era, "ping")["result"] == {}


def test_legacy_server_ignores_the_envelope() -> None:
    assert "resultType" not in ask("legacy", "tools/list", meta=MODERN_META)["result"]


def test_notifications_get_no_answer() -> None:
    for era in fast_server.ERAS:
        assert fast_server.handle({"jsonrpc": "2.0", "method": "notifications/initialized"}, era) is None


@pytest.mark.parametrize(("argv", "era"), [([], "both"), (["--era", "legacy"], "legacy"), (["--era=modern"], "modern")])
def test_parse_era(argv: list[str], era: str) -> None:
    assert fast_server.parse_era(argv) == era


@pytest.mark.parametrize("argv", [["--era"], ["--era", "new"], ["--verbose"], ["--era=both", "x"]])
def test_parse_era_rejects(argv: list[str]) -> None:
    with pytest.raises(ValueError):
        fast_server.parse_era(argv)


# --------------------------------------------------------------------------------------- roundtrip
def _opts() -> argparse.Namespace:
    return argparse.Namespace(runs=3, calls=100)


@pytest.mark.parametrize(
    ("ours", "sdk", "cli", "met"),
    [
        (3000.0, 2000.0, 2500.0, True),  # exactly 1.5x the SDK
        (2990.0, 2000.0, 2500.0, False),  # just under 1.5x
        (3000.0, 1000.0, 3000.0, False),  # not faster than the official CLI
    ],
)
def test_roundtrip_goal_per_era(ours: float, sdk: float, cli: float, met: bool) -> None:
    rec = roundtrip.era_record({"ours": [ours], "sdk": [sdk], "official_cli": [cli]}, {})
    assert rec["goal_met"] is met
    assert rec["ratios"]["ours_vs_sdk"] == round(ours / sdk, 3)


def test_roundtrip_record_keeps_the_legacy_keys_on_top_and_adds_eras() -> None:
    rates = {
        ("ours", "legacy"): [3000.0, 3100.0, 2900.0],
        ("sdk", "legacy"): [1000.0],
        ("official_cli", "legacy"): [1500.0],
        ("ours", "modern"): [2000.0],
        ("sdk", "modern"): [1500.0],
        ("official_cli", "modern"): [1000.0],
    }
    rec = roundtrip.build_record(_opts(), ["legacy", "modern"], rates, {})
    assert rec["ours_calls_per_s_median"] == 3000.0
    assert rec["ratios"] == {"ours_vs_sdk": 3.0, "ours_vs_official_cli": 2.0}
    assert rec["goal_met"] is True
    assert set(rec["eras"]) == {"legacy", "modern"}
    assert all(rec[key] == value for key, value in rec["eras"]["legacy"].items())
    assert rec["eras"]["modern"]["goal_met"] is False  # 1.333x the SDK
    assert rec["goal_met_all_eras"] is False


def test_roundtrip_unavailable_client_is_null_in_its_era_only() -> None:
    rates = {(c, e): [100.0] for c in roundtrip.CLIENTS for e in roundtrip.ERAS}
    rec = roundtrip.build_record(_opts(), ["legacy", "modern"], rates, {("sdk", "modern"): "failed: boom"})
    assert rec["eras"]["modern"]["sdk_calls_per_s_median"] is None
    assert rec["eras"]["modern"]["unavailable"] == {"sdk": "failed: boom"}
    assert rec["eras"]["modern"]["goal_met"] is None and rec["goal_met_all_eras"] is None
    assert rec["sdk_calls_per_s_median"] == 100.0 and rec["unavailable"] == {}


def test_roundtrip_modern_only_leaves_the_legacy_keys_null() -> None:
    rates = {(c, "modern"): [100.0] for c in roundtrip.CLIENTS}
    rec = roundtrip.build_record(_opts(), ["modern"], rates, {})
    assert list(rec["eras"]) == ["modern"]
    assert rec["ours_calls_per_s_median"] is None and rec["goal_met"] is None
    assert rec["unavailable"] == {c: "not requested (--era)" for c in roundtrip.CLIENTS}


@pytest.mark.parametrize("era", ["legacy", "modern"])
def test_roundtrip_official_cli_argv_matches_the_era(era: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(roundtrip.nodetools, "official_inspector_cli", lambda: ["node", "cli.js", "--cli"])
    argv = roundtrip.official_argv(10, era)
    assert argv[argv.index("--protocol-era") + 1] == era
    assert argv[argv.index("--era") + 1] == era  # the server speaks only that era
    assert argv[argv.index("--load-requests") + 1] == "10"


# ------------------------------------------------------------------------------------- cli_oneshot
def test_oneshot_sides_use_the_matching_era_and_auto_against_a_legacy_server() -> None:
    sides = cli_oneshot.sides_for(["legacy", "modern"], ["mcp-inspect"], ["node", "cli.js", "--cli"])
    assert set(sides) == {(c, m) for c in ("ours", "official") for m in ("legacy", "modern", "auto")}
    for (cli, mode), argv in sides.items():
        assert argv[argv.index("--protocol-era") + 1] == mode
        assert argv[argv.index("--era") + 1] == ("legacy" if mode == "auto" else mode)
        assert argv[-2:] == ["--method", "tools/list"]
        if cli == "ours":
            assert argv[:2] == ["mcp-inspect", "--cli"]
    assert set(cli_oneshot.sides_for(["modern"], ["o"], ["n"])) == {("ours", "modern"), ("official", "modern")}


def test_oneshot_record() -> None:
    keys = [(c, m) for c in ("ours", "official") for m in ("legacy", "modern", "auto")]
    wall = {k: [100.0, 110.0, 120.0] for k in keys}
    wall["official", "legacy"] = [250.0, 250.0, 250.0]
    wall["official", "modern"] = [200.0, 210.0, 220.0]
    wall["ours", "auto"] = [103.0, 111.0, 125.0]
    cpu = {k: [50.0, 50.0, 50.0] for k in keys}
    rec = cli_oneshot.build_record(3, ["legacy", "modern"], wall, cpu)
    assert rec["ours_ms_median"] == 110.0 and rec["official_ms_median"] == 250.0
    assert rec["ratio"] == 0.44 and rec["goal_met"] is True and rec["goal"] == "<=0.5"
    assert rec["eras"]["modern"]["ratio"] == round(110 / 210, 3) and rec["eras"]["modern"]["goal_met"] is False
    assert rec["goal_met_all_eras"] is False
    assert rec["cpu_ratio"] == 1.0
    auto = rec["auto_vs_legacy_server"]
    assert auto["server_era"] == "legacy"
    assert auto["ours_fallback_cost_ms"] == 3.0  # median of the paired differences 3, 1, 5
    assert auto["ours_fallback_cost_cpu_ms"] == 0.0


def test_oneshot_child_env_turns_the_bytecode_cache_on(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PYTHONDONTWRITEBYTECODE", "1")
    env = cli_oneshot.child_env("/tmp/x")
    assert "PYTHONDONTWRITEBYTECODE" not in env and env["PYTHONPYCACHEPREFIX"] == "/tmp/x"


def test_bench_readme_names_the_options_and_goals() -> None:
    readme = (BENCH / "README.md").read_text(encoding="utf-8")
    for needle in ("--era", "ratio <= 0.5", "auto_vs_legacy_server", '"eras"'):
        assert needle in readme, needle
