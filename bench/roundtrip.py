"""Sequential tools/call throughput against bench/fast_server.py, three clients in each era, in the same run.

  ours          inspector.client.connection.Connection over inspector.transports.stdio.StdioTransport,
                with ``protocol_era`` set to the era measured
  sdk           the official Python SDK: mcp.client.stdio.stdio_client + mcp.ClientSession, opened with
                ``initialize()`` (legacy) or ``discover()`` (modern: probes server/discover and adopts 2026-07-28,
                which is what ``mcp.Client(mode="auto")`` does against a modern server)
  official_cli  the official inspector CLI's load mode, ``--protocol-era legacy|modern``:
                --method tools/call --tool-name echo --load --load-concurrency 1 --load-requests N

Eras (``--era``, default both): ``legacy`` is the handshake era (``initialize``, 2025-11-25) against
``fast_server.py --era legacy``; ``modern`` is 2026-07-28 (``server/discover``, the ``_meta`` envelope on every
request, ``resultType`` on every result) against ``fast_server.py --era modern``. Each server speaks only its
era, so a client that opened the other era fails instead of being measured in the wrong one.

Every round starts each client afresh (its own server process), opens the session, lists the tools once
(the SDK and the official CLI list tools before calling anyway), then times ``--calls`` sequential calls of
``echo``; only that loop is timed (the official CLI reports the same span as ``elapsedMs``/``throughput``).
All (client, era) contenders are interleaved and their order rotates every round. Prints one JSON line:
the top-level keys are those of the legacy era (as before eras existed), ``"eras"`` holds the same fields
per era. A contender that cannot run reports null with a reason under "unavailable". Exit status 1 when
ours could not run in an era that was asked for.

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
CLIENTS = ("ours", "sdk", "official_cli")
ERAS = ("legacy", "modern")
MODERN_VERSION = "2026-07-28"

Runner = Callable[[int, str], float]
"""(calls, era) -> calls per second."""


def median(values: list[float]) -> float | None:
    return round(statistics.median(values), 1) if values else None


def ratio(a: float | None, b: float | None) -> float | None:
    return None if a is None or not b else round(a / b, 3)


def server_args(era: str) -> list[str]:
    """fast_server.py's arguments for a client measured in ``era``: a server that speaks only that era."""
    return [str(FAST_SERVER), "--era", era]


def _check_version(client: str, era: str, version: str | None) -> None:
    if (version == MODERN_VERSION) != (era == "modern"):
        raise RuntimeError(f"{client} opened protocol version {version!r}, not the {era} era")


# --------------------------------------------------------------------------------------------- ours
async def _ours_round(calls: int, era: str) -> float:
    from inspector.client.connection import Connection
    from inspector.transports.stdio import StdioTransport

    transport = StdioTransport(sys.executable, server_args(era))
    async with Connection(transport, protocol_era=era) as conn:
        assert conn.server is not None
        _check_version("ours", era, conn.server.protocol_version)
        await conn.list_tools()
        start = time.perf_counter()
        for _ in range(calls):
            result = await conn.call_tool("echo", ARGS)
            if result.get("isError"):
                raise RuntimeError(f"echo returned isError: {result}")
        elapsed = time.perf_counter() - start
    return calls / elapsed


def ours_round(calls: int, era: str) -> float:
    return asyncio.run(_ours_round(calls, era))


# ---------------------------------------------------------------------------------------------- sdk
async def _sdk_round(calls: int, era: str) -> float:
    from mcp.client.session import ClientSession
    from mcp.client.stdio import StdioServerParameters, stdio_client

    params = StdioServerParameters(command=sys.executable, args=server_args(era))
    async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
        if era == "modern":
            await session.discover()
        else:
            await session.initialize()
        _check_version("sdk", era, session.protocol_version)
        await session.list_tools()
        start = time.perf_counter()
        for _ in range(calls):
            result = await session.call_tool("echo", ARGS)
            if result.is_error:
                raise RuntimeError(f"echo returned isError: {result}")
        elapsed = time.perf_counter() - start
    return calls / elapsed


def sdk_round(calls: int, era: str) -> float:
    return asyncio.run(_sdk_round(calls, era))


# ------------------------------------------------------------------------------------- official CLI
def official_argv(calls: int, era: str) -> list[str]:
    prefix = nodetools.official_inspector_cli()
    assert prefix is not None
    return [
        *prefix,
        sys.executable,
        *server_args(era),
        "--protocol-era",
        era,
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


def official_round(calls: int, era: str) -> float:
    argv = official_argv(calls, era)
    proc = subprocess.run(argv, capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=600, check=False)
    if proc.returncode != 0:
        raise RuntimeError(f"official CLI exit {proc.returncode}: {proc.stderr.strip()[-300:]}")
    summary = json.loads(proc.stdout)["result"]
    if summary.get("ok") != calls:
        raise RuntimeError(f"official CLI load summary: {summary}")
    return float(summary["throughput"])


RUNNERS: dict[str, Runner] = {"ours": ours_round, "sdk": sdk_round, "official_cli": official_round}


# ------------------------------------------------------------------------------------------- report
def era_record(rates: dict[str, list[float]], unavailable: dict[str, str]) -> dict[str, Any]:
    """Medians, ratios and the goal check of one era (``rates`` and ``unavailable`` keyed by client)."""
    med = {name: (median(rates.get(name, [])) if name not in unavailable else None) for name in CLIENTS}
    vs_sdk = ratio(med["ours"], med["sdk"])
    vs_cli = ratio(med["ours"], med["official_cli"])
    return {
        "ours_calls_per_s_median": med["ours"],
        "sdk_calls_per_s_median": med["sdk"],
        "official_cli_calls_per_s_median": med["official_cli"],
        "ratios": {"ours_vs_sdk": vs_sdk, "ours_vs_official_cli": vs_cli},
        "goal": f"ours >= {GOAL_VS_SDK}x sdk and > official_cli",
        "goal_met": None if vs_sdk is None or vs_cli is None else (vs_sdk >= GOAL_VS_SDK and vs_cli > 1.0),
        "unavailable": dict(unavailable),
    }


def build_record(
    opts: argparse.Namespace,
    eras: list[str],
    rates: dict[tuple[str, str], list[float]],
    unavailable: dict[tuple[str, str], str],
) -> dict[str, Any]:
    """The JSON line: the legacy era's fields at the top level (null when not measured), all eras under "eras"."""
    per_era: dict[str, dict[str, Any]] = {}
    for era in ERAS:
        if era not in eras:
            continue
        per_era[era] = era_record(
            {c: rates.get((c, era), []) for c in CLIENTS},
            {c: why for (c, e), why in unavailable.items() if e == era},
        )
    legacy = per_era.get("legacy") or era_record({}, {c: "not requested (--era)" for c in CLIENTS})
    checks = [rec["goal_met"] for rec in per_era.values()]
    return {
        "bench": "roundtrip",
        "runs": opts.runs,
        "calls_per_round": opts.calls,
        "tool": "echo",
        "server": "bench/fast_server.py",
        **legacy,
        "eras": per_era,
        "goal_met_all_eras": None if not checks or None in checks else all(checks),
        "official_version": nodetools.official_inspector_version(),
    }


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
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--runs", type=int, default=5, help="rounds per client and era (default 5)")
    parser.add_argument("--calls", type=int, default=2000, help="sequential calls per round (default 2000)")
    parser.add_argument(
        "--clients", default="ours,sdk,official_cli", help="comma-separated subset of ours,sdk,official_cli"
    )
    parser.add_argument(
        "--era", choices=[*ERAS, "both"], default="both", help="protocol era(s) to measure (default both)"
    )
    opts = parser.parse_args()
    if opts.runs < 1 or opts.calls < 1:
        parser.error("--runs and --calls must be >= 1")
    wanted = [c.strip() for c in opts.clients.split(",") if c.strip()]
    unknown = set(wanted) - set(CLIENTS)
    if unknown:
        parser.error(f"unknown client(s): {', '.join(sorted(unknown))}")
    eras = list(ERAS) if opts.era == "both" else [opts.era]

    unavailable: dict[tuple[str, str], str] = {}
    reasons = _availability()
    for era in eras:
        for name in CLIENTS:
            if name not in wanted:
                unavailable[name, era] = "not requested (--clients)"
            elif reasons[name] is not None:
                unavailable[name, era] = str(reasons[name])
    active = [(name, era) for era in eras for name in wanted if (name, era) not in unavailable]
    rates: dict[tuple[str, str], list[float]] = {key: [] for key in active}

    # One short untimed warm-up per contender (imports, .pyc files, node's compile cache).
    for key in list(active):
        name, era = key
        try:
            RUNNERS[name](min(opts.calls, 50), era)
        except Exception as exc:
            unavailable[key] = f"failed: {type(exc).__name__}: {exc}"
            active.remove(key)
    for i in range(opts.runs):
        shift = i % len(active) if active else 0
        for key in active[shift:] + active[:shift]:
            if key in unavailable:
                continue
            name, era = key
            try:
                rates[key].append(RUNNERS[name](opts.calls, era))
            except Exception as exc:
                unavailable[key] = f"failed in round {i + 1}: {type(exc).__name__}: {exc}"

    print(json.dumps(build_record(opts, eras, rates, unavailable)), flush=True)
    ours_failed = any(("ours", era) in unavailable for era in eras) and "ours" in wanted
    return 1 if ours_failed else 0


if __name__ == "__main__":
    sys.exit(main())
