"""One-shot CLI wall time: `mcp-inspect --cli` vs the official inspector's `--cli`, tools/list on fast_server.py.

Each run starts the CLI process, which spawns `python bench/fast_server.py`, performs the handshake, lists
the tools, prints them and exits. Runs are interleaved (the order alternates every run) after one untimed
warm-up each. Prints one JSON line; exits 1 (with the reason on stderr) when a side cannot run.

    python bench/cli_oneshot.py --runs 15
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
FAST_SERVER = REPO_ROOT / "bench" / "fast_server.py"
sys.path.insert(0, str(REPO_ROOT / "tests"))  # tests/nodetools.py locates the Node tools
import nodetools  # noqa: E402

GOAL = 0.6  # ours <= 0.6x the official CLI's wall time


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


def _time_once(argv: list[str], label: str) -> float:
    start = time.perf_counter()
    proc = subprocess.run(argv, capture_output=True, stdin=subprocess.DEVNULL, timeout=120, check=False)
    elapsed_ms = (time.perf_counter() - start) * 1000.0
    if proc.returncode != 0 or b"echo" not in proc.stdout:
        tail = (proc.stderr or proc.stdout).decode("utf-8", "replace").strip().splitlines()[-5:]
        raise RuntimeError(
            f"{label} failed (exit {proc.returncode}): {' | '.join(tail) or 'no output'}\n  argv: {argv}"
        )
    return elapsed_ms


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15, help="timed runs per side (default 15)")
    opts = parser.parse_args()
    if opts.runs < 1:
        parser.error("--runs must be >= 1")

    target = [sys.executable, str(FAST_SERVER)]
    tail = ["--method", "tools/list"]
    ours_prefix = mcp_inspect_cmd()
    official_prefix = nodetools.official_inspector_cli()
    if ours_prefix is None:
        print("cli_oneshot: `mcp-inspect` is not installed (pip install -e .)", file=sys.stderr)
        return 1
    if official_prefix is None:
        print(f"cli_oneshot: official inspector CLI unavailable. {nodetools.MISSING_REASON}", file=sys.stderr)
        return 1
    sides = {
        "ours": [*ours_prefix, "--cli", *target, *tail],
        "official": [*official_prefix, *target, *tail],
    }

    times: dict[str, list[float]] = {name: [] for name in sides}
    try:
        for name, argv in sides.items():  # warm-up: page cache, .pyc files, node's compile cache
            _time_once(argv, name)
        for i in range(opts.runs):
            order = list(sides) if i % 2 == 0 else list(reversed(sides))
            for name in order:
                times[name].append(_time_once(sides[name], name))
    except (RuntimeError, OSError, subprocess.TimeoutExpired) as exc:
        print(f"cli_oneshot: {exc}", file=sys.stderr)
        return 1

    ours, official = median(times["ours"]), median(times["official"])
    result_ratio = ratio(ours, official)
    print(
        json.dumps(
            {
                "bench": "cli_oneshot",
                "runs": opts.runs,
                "method": "tools/list",
                "server": "bench/fast_server.py",
                "ours_ms_median": ours,
                "official_ms_median": official,
                "ours_ms_min": round(min(times["ours"]), 2),
                "official_ms_min": round(min(times["official"]), 2),
                "ratio": result_ratio,
                "goal": f"<={GOAL}",
                "goal_met": result_ratio is not None and result_ratio <= GOAL,
                "official_version": nodetools.official_inspector_version(),
            }
        ),
        flush=True,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
