"""Sequential tools/call throughput against bench/fast_server.py, three clients measured in the same run.

  ours          inspector.client.connection.Connection over inspector.transports.stdio.StdioTransport
  sdk           the official Python SDK: mcp.client.stdio.stdio_client + mcp.ClientSession
  official_cli  the official inspector CLI's load mode:
                --method tools/call --tool-name echo --load --load-concurrency 1 --load-requests N

Every round starts each client afresh (its own server process), does the handshake and one tools/list
(the SDK and the official CLI list tools before calling anyway), then times `--calls` sequential calls of
`echo`; only that loop is timed (the official CLI reports the same span as `elapsedMs`/`throughput`).
Rounds are interleaved and the order of the clients rotates every round. Prints one JSON line; a client
that cannot run reports null with a reason under "unavailable". Exit status 1 when ours could not run.

    python bench/roundtrip.py --runs 5 --calls 2000
"""

from __future__ import annotations

import argparse
import asyncio
import importlib
import json
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

REPO_ROOT = Path(__file__).resolve().parent.parent
FAST_SERVER = REPO_ROOT / "bench" / "fast_server.py"
sys.path.insert(0, str(REPO_ROOT / "tests"))  # tests/nodetools.py locates the Node tools
import nodetools  # noqa: E402

GOAL_VS_SDK = 1.5
ARGS = {"message": "hello"}


def median(values: list[float]) -> float | None:
    return round(statistics.median(values), 1) if values else None


def ratio(a: float | None, b: float | None) -> float | None:
    return None if a is None or not b else round(a / b, 3)


# --------------------------------------------------------------------------------------------- ours
async def _ours_round(calls: int) -> float:
    from inspector.client.connection import Connection
    from inspector.transports.stdio import StdioTransport

    transport = StdioTransport(sys.executable, [str(FAST_SERVER)])
    async with Connection(transport) as conn:
        await conn.list_tools()
        start = time.perf_counter()
        for _ in range(calls):
            result = await conn.call_tool("echo", ARGS)
            if result.get("isError"):
                raise RuntimeError(f"echo returned isError: {result}")
        elapsed = time.perf_counter() - start
    return calls / elapsed


def ours_round(calls: int) -> float:
    return asyncio.run(_ours_round(calls))


# ---------------------------------------------------------------------------------------------- sdk
async def _sdk_round(calls: int) -> float:
    from mcp.client.session import ClientSession
    from mcp.client.stdio import StdioServerParameters, stdio_client

    params = StdioServerParameters(command=sys.executable, args=[str(FAST_SERVER)])
    async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        await session.list_tools()
        start = time.perf_counter()
        for _ in range(calls):
            result = await session.call_tool("echo", ARGS)
            if result.is_error:  # type: ignore[union-attr]
                raise RuntimeError(f"echo returned isError: {result}")
        elapsed = time.perf_counter() - start
    return calls / elapsed


def sdk_round(calls: int) -> float:
    return asyncio.run(_sdk_round(calls))


# ------------------------------------------------------------------------------------- official CLI
def official_round(calls: int) -> float:
    prefix = nodetools.official_inspector_cli()
    assert prefix is not None
    argv = [
        *prefix,
        sys.executable,
        str(FAST_SERVER),
        "--method",
        "tools/call",
        "--tool-name",
        "echo",
        "--tool-arg",
        f"message={ARGS['message']}",
        "--load",
        "--load-concurrency",
        "1",
        "--load-requests",
        str(calls),
        "--format",
        "json",
        "-q",
    ]
    proc = subprocess.run(argv, capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=600, check=False)
    if proc.returncode != 0:
        raise RuntimeError(f"official CLI exit {proc.returncode}: {proc.stderr.strip()[-300:]}")
    summary = json.loads(proc.stdout)["result"]
    if summary.get("ok") != calls:
        raise RuntimeError(f"official CLI load summary: {summary}")
    return float(summary["throughput"])


# ------------------------------------------------------------------------------------------- driver
def _availability() -> dict[str, str | None]:
    """None when the client can run, else the reason it cannot."""
    reasons: dict[str, str | None] = {"ours": None, "sdk": None, "official_cli": None}
    try:
        importlib.import_module("inspector.client.connection")
        importlib.import_module("inspector.transports.stdio")
    except ImportError as exc:
        reasons["ours"] = f"inspector Connection/StdioTransport not importable: {exc}"
    try:
        importlib.import_module("mcp.client.stdio")
    except ImportError as exc:
        reasons["sdk"] = f"official Python SDK (mcp) not importable: {exc}"
    if nodetools.official_inspector_cli() is None:
        reasons["official_cli"] = f"official inspector CLI unavailable. {nodetools.MISSING_REASON}"
    return reasons


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="rounds per client (default 5)")
    parser.add_argument("--calls", type=int, default=2000, help="sequential calls per round (default 2000)")
    parser.add_argument(
        "--clients", default="ours,sdk,official_cli", help="comma-separated subset of ours,sdk,official_cli"
    )
    opts = parser.parse_args()
    if opts.runs < 1 or opts.calls < 1:
        parser.error("--runs and --calls must be >= 1")
    wanted = [c.strip() for c in opts.clients.split(",") if c.strip()]
    runners: dict[str, Callable[[int], float]] = {
        "ours": ours_round,
        "sdk": sdk_round,
        "official_cli": official_round,
    }
    unknown = set(wanted) - set(runners)
    if unknown:
        parser.error(f"unknown client(s): {', '.join(sorted(unknown))}")

    unavailable: dict[str, str] = {}
    for name, reason in _availability().items():
        if name not in wanted:
            unavailable[name] = "not requested (--clients)"
        elif reason is not None:
            unavailable[name] = reason
    active = [name for name in wanted if name not in unavailable]
    rates: dict[str, list[float]] = {name: [] for name in runners}

    # One short untimed warm-up per client (imports, .pyc files, node's compile cache).
    for name in list(active):
        try:
            runners[name](min(opts.calls, 50))
        except Exception as exc:
            unavailable[name] = f"failed: {type(exc).__name__}: {exc}"
            active.remove(name)
    for i in range(opts.runs):
        shift = i % len(active) if active else 0
        for name in active[shift:] + active[:shift]:
            if name in unavailable:
                continue
            try:
                rates[name].append(runners[name](opts.calls))
            except Exception as exc:
                unavailable[name] = f"failed in round {i + 1}: {type(exc).__name__}: {exc}"

    med: dict[str, float | None] = {
        name: (median(values) if name not in unavailable else None) for name, values in rates.items()
    }
    vs_sdk = ratio(med["ours"], med["sdk"])
    vs_cli = ratio(med["ours"], med["official_cli"])
    record: dict[str, Any] = {
        "bench": "roundtrip",
        "runs": opts.runs,
        "calls_per_round": opts.calls,
        "tool": "echo",
        "server": "bench/fast_server.py",
        "ours_calls_per_s_median": med["ours"],
        "sdk_calls_per_s_median": med["sdk"],
        "official_cli_calls_per_s_median": med["official_cli"],
        "ratios": {"ours_vs_sdk": vs_sdk, "ours_vs_official_cli": vs_cli},
        "goal": f"ours >= {GOAL_VS_SDK}x sdk and > official_cli",
        "goal_met": None if vs_sdk is None or vs_cli is None else (vs_sdk >= GOAL_VS_SDK and vs_cli > 1.0),
        "official_version": nodetools.official_inspector_version(),
        "unavailable": unavailable,
    }
    print(json.dumps(record), flush=True)
    return 1 if "ours" in unavailable and "ours" in wanted else 0


if __name__ == "__main__":
    sys.exit(main())
