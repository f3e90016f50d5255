"""The benchmarks' server and scripts against the real clients: bench/fast_server.py in each ``--era`` with our
Connection and the official Python SDK client (no protocol violation seen, the era each one opens), and
bench/roundtrip.py / bench/cli_oneshot.py end to end in both eras (short runs: the figures are not checked,
the contenders and the JSON line are)."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

import nodetools
import pytest
from asynckit import run
from mcp.client.client import Client
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

from inspector.client.connection import Connection
from inspector.client.errors import ConnectFailed
from inspector.protocol.session import Timeouts
from inspector.protocol.versions import MODERN_VERSION, Era
from inspector.transports.stdio import StdioTransport

BENCH = nodetools.REPO_ROOT / "bench"
FAST_SERVER = str(BENCH / "fast_server.py")


def fast(era: str) -> StdioTransport:
    return StdioTransport(sys.executable, [FAST_SERVER, "--era", era])


@pytest.mark.parametrize(
    ("server", "asked", "chosen"),
    [
        ("both", "legacy", Era.HANDSHAKE),
        ("both", "modern", Era.MODERN),
        ("both", "auto", Era.MODERN),
        ("legacy", "legacy", Era.HANDSHAKE),
        ("legacy", "auto", Era.HANDSHAKE),  # server/discover refused (-32601): initialize
        ("modern", "modern", Era.MODERN),
        ("modern", "auto", Era.MODERN),
    ],
)
def test_ours_against_the_fast_server(server: str, asked: str, chosen: Era) -> None:
    async def body() -> None:
        async with Connection(fast(server), protocol_era=asked, timeouts=Timeouts(request=20)) as conn:
            assert conn.server is not None and conn.server.era is chosen
            assert (conn.server.protocol_version == MODERN_VERSION) is (chosen is Era.MODERN)
            assert conn.server.server_info["name"] == "bench-fast-server"
            assert [t["name"] for t in (await conn.list_tools())["tools"]] == ["echo", "add", "fail"]
            result = await conn.call_tool("echo", {"message": "hi"})
            assert result["content"] == [{"type": "text", "text": "hi"}]
            assert (await conn.call_tool("fail", {}))["isError"] is True
            assert conn.violations == [], conn.violations

    run(body)


@pytest.mark.parametrize(
    ("server", "asked", "opening"), [("modern", "legacy", "initialize"), ("legacy", "modern", "server/discover")]
)
def test_ours_in_the_wrong_era_fails_to_connect(server: str, asked: str, opening: str) -> None:
    async def body() -> None:
        conn = Connection(fast(server), protocol_era=asked, timeouts=Timeouts(request=20))
        with pytest.raises(ConnectFailed, match=opening):
            await conn.connect()
        await conn.close()

    run(body)


def _params(era: str) -> StdioServerParameters:
    return StdioServerParameters(command=sys.executable, args=[FAST_SERVER, "--era", era])


@pytest.mark.parametrize(("server", "version"), [("legacy", "2025-11-25"), ("modern", MODERN_VERSION)])
def test_the_sdk_session_opens_each_era_as_roundtrip_does(server: str, version: str) -> None:
    async def body() -> None:
        async with stdio_client(_params(server)) as (read, write), ClientSession(read, write) as session:
            await (session.discover() if server == "modern" else session.initialize())
            assert session.protocol_version == version
            result = await session.call_tool("echo", {"message": "hi"})
            assert result.content[0].text == "hi"  # type: ignore[union-attr]

    run(body)


@pytest.mark.parametrize(("server", "version"), [("legacy", "2025-11-25"), ("both", MODERN_VERSION)])
def test_the_sdk_client_in_auto_mode_picks_the_era_the_fast_server_offers(server: str, version: str) -> None:
    async def body() -> None:
        async with Client(_params(server), mode="auto") as client:
            assert client.session.protocol_version == version
            assert (await client.call_tool("echo", {"message": "hi"})).is_error is False

    run(body)


def _bench(script: str, *args: str) -> tuple[int, dict[str, Any], str]:
    proc = subprocess.run(
        [sys.executable, str(BENCH / script), *args],
        capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=300, check=False,
    )  # fmt: skip
    lines = proc.stdout.strip().splitlines()
    return proc.returncode, (json.loads(lines[-1]) if lines else {}), proc.stderr


def test_roundtrip_measures_ours_and_the_sdk_in_both_eras() -> None:
    code, rec, err = _bench("roundtrip.py", "--clients", "ours,sdk", "--runs", "1", "--calls", "20")
    assert code == 0, err
    assert set(rec["eras"]) == {"legacy", "modern"}
    for era in ("legacy", "modern"):
        figures = rec["eras"][era]
        assert figures["ours_calls_per_s_median"] > 0 and figures["sdk_calls_per_s_median"] > 0, figures
        assert figures["unavailable"] == {"official_cli": "not requested (--clients)"}
    assert rec["ours_calls_per_s_median"] == rec["eras"]["legacy"]["ours_calls_per_s_median"]


def test_roundtrip_measures_the_official_cli_in_both_eras() -> None:
    nodetools.require_official_inspector_cli()
    code, rec, err = _bench("roundtrip.py", "--clients", "official_cli", "--runs", "1", "--calls", "10")
    assert code == 0, err
    for era in ("legacy", "modern"):
        assert rec["eras"][era]["official_cli_calls_per_s_median"] > 0, rec["eras"][era]


def test_cli_oneshot_runs_every_side_once() -> None:
    nodetools.require_official_inspector_cli()
    code, rec, err = _bench("cli_oneshot.py", "--runs", "1")
    assert code == 0, err
    for figures in (*rec["eras"].values(), rec["auto_vs_legacy_server"]):
        assert figures["ours_ms_median"] > 0 and figures["official_ms_median"] > 0, figures
        assert figures["ours_cpu_ms_median"] > 0, figures
    assert set(rec["eras"]) == {"legacy", "modern"}
    assert rec["ratio"] == rec["eras"]["legacy"]["ratio"]
