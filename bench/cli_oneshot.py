"""One-shot CLI wall time: `mcp-inspect --cli` vs the official inspector's `--cli`, tools/list, in each era.

Each run starts the CLI process, which spawns ``python bench/fast_server.py --era E``, opens the session,
lists the tools, prints them and exits. Both CLIs get the matching ``--protocol-era`` (``legacy``: the
``initialize`` handshake; ``modern``: 2026-07-28, ``server/discover``), against a server that speaks only that
era. Besides, ``auto`` (our default: ``server/discover`` first, ``initialize`` when it is refused) is timed
against the legacy-only server, which costs the refused probe's round trip; the official CLI's ``auto`` is
timed beside it.

All the sides are interleaved (the order rotates every run) after one untimed warm-up each. The goal is on
wall time; the CPU time (user + system of the CLI and the children it reaped, i.e. with the server) is
reported beside it, as it is far less sensitive to a busy machine. Python's bytecode cache is on for every
side, in a private directory (see ``child_env``). Prints one JSON line: the top-level keys are those of the
legacy era (as before eras existed), ``"eras"`` holds the same fields per era and ``"auto_vs_legacy_server"``
the fallback figures. Exits 1 (with the reason on stderr) when a side cannot run.

    python bench/cli_oneshot.py --runs 15
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO_ROOT = Path(__file__).resolve().parent.parent
FAST_SERVER = REPO_ROOT / "bench" / "fast_server.py"
sys.path.insert(0, str(REPO_ROOT / "tests"))  # tests/nodetools.py locates the Node tools
import nodetools  # noqa: E402

GOAL = 0.5  # ours <= 0.5x the official CLI's wall time
ERAS = ("legacy", "modern")
AUTO = "auto"
"""The key of the sides that run ``--protocol-era auto`` against the legacy-only server."""


def median(values: list[float]) -> float | None:
    return round(statistics.median(values), 2) if values else None


def ratio(a: float | None, b: float | None) -> float | None:
    return None if a is None or not b else round(a / b, 3)


def mcp_inspect_cmd() -> list[str] | None:
    """argv of our console script: beside this interpreter (a venv), else on PATH."""
    beside = Path(sys.executable).with_name("mcp-inspect")
    if beside.is_file():
        return [str(beside)]
    found = shutil.which("mcp-inspect")
    return [found] if found else None


def sides_for(eras: list[str], ours_prefix: list[str], official_prefix: list[str]) -> dict[tuple[str, str], list[str]]:
    """argv of every side, keyed (cli, mode) with cli in ours/official and mode an era or ``auto``."""
    tail = ["--method", "tools/list"]
    sides: dict[tuple[str, str], list[str]] = {}
    modes = [*eras, AUTO] if "legacy" in eras else list(eras)
    for mode in modes:
        target = [sys.executable, str(FAST_SERVER), "--era", "legacy" if mode == AUTO else mode]
        sides["ours", mode] = [*ours_prefix, "--cli", "--protocol-era", mode, *target, *tail]
        sides["official", mode] = [*official_prefix, *target, "--protocol-era", mode, *tail]
    return sides


def child_env(pycache: str) -> dict[str, str]:
    """The environment of every side: bytecode caching on, into ``pycache`` (a private directory).

    An installed ``mcp-inspect`` runs from .pyc files (pip compiles them at install); with
    PYTHONDONTWRITEBYTECODE set (as in some CI shells) an editable checkout would compile every module on
    every run instead. The private prefix keeps the checkout's own ``__pycache__`` folders untouched; the
    warm-up run fills it. Node ignores both variables.
    """
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["PYTHONPYCACHEPREFIX"] = pycache
    return env


def _time_once(argv: list[str], label: str, env: dict[str, str]) -> tuple[float, float]:
    """(wall ms, CPU ms) of one run; CPU is user + system time of the CLI and the children it reaped."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    proc = subprocess.run(argv, capture_output=True, stdin=subprocess.DEVNULL, timeout=120, check=False, env=env)
    elapsed_ms = (time.perf_counter() - start) * 1000.0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu_ms = (after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime) * 1000.0
    if proc.returncode != 0 or b"echo" not in proc.stdout:
        tail = (proc.stderr or proc.stdout).decode("utf-8", "replace").strip().splitlines()[-5:]
        raise RuntimeError(
            f"{label} failed (exit {proc.returncode}): {' | '.join(tail) or 'no output'}\n  argv: {argv}"
        )
    return elapsed_ms, cpu_ms


Samples = dict[tuple[str, str], list[float]]
"""Milliseconds per run, keyed (cli, mode)."""


def mode_record(
    ours: list[float], official: list[float], ours_cpu: list[float], official_cpu: list[float]
) -> dict[str, Any]:
    """Medians, minima, the ratio and the goal check of one mode (wall times decide; CPU times inform)."""
    ours_med, official_med = median(ours), median(official)
    result_ratio = ratio(ours_med, official_med)
    ours_cpu_med, official_cpu_med = median(ours_cpu), median(official_cpu)
    return {
        "ours_ms_median": ours_med,
        "official_ms_median": official_med,
        "ours_ms_min": round(min(ours), 2) if ours else None,
        "official_ms_min": round(min(official), 2) if official else None,
        "ratio": result_ratio,
        "goal": f"<={GOAL}",
        "goal_met": result_ratio is not None and result_ratio <= GOAL,
        "ours_cpu_ms_median": ours_cpu_med,
        "official_cpu_ms_median": official_cpu_med,
        "cpu_ratio": ratio(ours_cpu_med, official_cpu_med),
    }


def paired_difference(a: list[float], b: list[float]) -> float | None:
    """Median over runs of ``a[i] - b[i]`` (both measured in the same round, so load changes cancel better)."""
    return median([x - y for x, y in zip(a, b, strict=True)]) if a and len(a) == len(b) else None


def build_record(runs: int, eras: list[str], wall: Samples, cpu: Samples) -> dict[str, Any]:
    """The JSON line: the legacy era's fields at the top level (null when not measured), all eras under "eras"."""

    def of(mode: str) -> dict[str, Any]:
        return mode_record(wall["ours", mode], wall["official", mode], cpu["ours", mode], cpu["official", mode])

    per_era = {era: of(era) for era in eras}
    legacy = per_era.get("legacy") or {**mode_record([], [], [], []), "goal_met": None}
    record: dict[str, Any] = {
        "bench": "cli_oneshot",
        "runs": runs,
        "method": "tools/list",
        "server": "bench/fast_server.py",
        **legacy,
        "eras": per_era,
        "goal_met_all_eras": all(rec["goal_met"] for rec in per_era.values()),
    }
    if ("ours", AUTO) in wall:
        auto = of(AUTO)
        auto["server_era"] = "legacy"
        auto["ours_fallback_cost_ms"] = paired_difference(wall["ours", AUTO], wall["ours", "legacy"])
        auto["ours_fallback_cost_cpu_ms"] = paired_difference(cpu["ours", AUTO], cpu["ours", "legacy"])
        record["auto_vs_legacy_server"] = auto
    record["official_version"] = nodetools.official_inspector_version()
    return record


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--runs", type=int, default=15, help="timed runs per side (default 15)")
    parser.add_argument(
        "--era",
        choices=[*ERAS, "both"],
        default="both",
        help="protocol era(s) to measure (default both; auto against a legacy server comes with legacy)",
    )
    opts = parser.parse_args()
    if opts.runs < 1:
        parser.error("--runs must be >= 1")
    eras = list(ERAS) if opts.era == "both" else [opts.era]

    ours_prefix = mcp_inspect_cmd()
    official_prefix = nodetools.official_inspector_cli()
    if ours_prefix is None:
        print("cli_oneshot: `mcp-inspect` is not installed (pip install -e .)", file=sys.stderr)
        return 1
    if official_prefix is None:
        print(f"cli_oneshot: official inspector CLI unavailable. {nodetools.MISSING_REASON}", file=sys.stderr)
        return 1
    sides = sides_for(eras, ours_prefix, official_prefix)

    wall: Samples = {key: [] for key in sides}
    cpu: Samples = {key: [] for key in sides}
    order = list(sides)
    with tempfile.TemporaryDirectory(prefix="cli_oneshot-pycache-") as pycache:
        env = child_env(pycache)
        try:
            for key, argv in sides.items():  # warm-up: page cache, .pyc files, node's compile cache
                _time_once(argv, " ".join(key), env)
            for i in range(opts.runs):
                shift = i % len(order)
                for key in order[shift:] + order[:shift]:
                    wall_ms, cpu_ms = _time_once(sides[key], " ".join(key), env)
                    wall[key].append(wall_ms)
                    cpu[key].append(cpu_ms)
        except (RuntimeError, OSError, subprocess.TimeoutExpired) as exc:
            print(f"cli_oneshot: {exc}", file=sys.stderr)
            return 1

    print(json.dumps(build_record(opts.runs, eras, wall, cpu)), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
