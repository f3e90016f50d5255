"""The official MCP client conformance suite against ``mcp-inspect --cli --probe --auto-approve``.

Runs ``conformance client --command "mcp-inspect --cli --probe --auto-approve" --suite all --spec-version
2025-11-25`` (``@modelcontextprotocol/conformance``, pinned in ``.ci/node/package.json``) with Node 22 and
requires every scenario to pass: no failed check, no warning, and (which the suite's own summary does not
check) a probe report on stdout whose exit status is 0. There is no expected-failures file. The harness appends
each scenario's server URL to the command and passes scenario data in ``MCP_CONFORMANCE_*`` variables; the
probe does not look at scenario names.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import nodetools
import pytest

pytestmark = pytest.mark.node

COMMAND = "mcp-inspect --cli --probe --auto-approve"
SPEC_VERSION = "2025-11-25"
MIN_SCENARIOS = 19
CLIENT_TIMEOUT_MS = 120_000
"""Per scenario (the harness's default is 30 s): 19 probes start at once, which a loaded CI machine feels."""


def suite_env() -> dict[str, str]:
    """Our environment with the venv's ``mcp-inspect`` first on PATH and no stale harness variables."""
    bin_dir = Path(sys.executable).parent
    if shutil.which("mcp-inspect", path=str(bin_dir)) is None:
        nodetools.unavailable(f"mcp-inspect is not installed next to {sys.executable} (pip install -e .)")
    env = {key: value for key, value in os.environ.items() if not key.startswith("MCP_CONFORMANCE_")}
    env["PATH"] = os.pathsep.join([str(bin_dir), env.get("PATH", "")])
    return env


def scenario_results(results: Path) -> dict[str, Path]:
    """Scenario name -> its result directory (``<name>-<timestamp>``; auth scenarios under ``auth/``)."""
    found: dict[str, Path] = {}
    for checks in results.rglob("checks.json"):
        directory = checks.parent
        name = re.sub(r"-\d{4}-\d{2}-\d{2}T[\d-]+Z$", "", directory.relative_to(results).as_posix())
        found[name] = directory
    return found


def problems_of(directory: Path) -> list[str]:
    problems: list[str] = []
    checks: list[dict[str, Any]] = json.loads((directory / "checks.json").read_text(encoding="utf-8"))
    for check in checks:
        if check.get("status") in ("FAILURE", "WARNING"):
            problems.append(
                f"{check['status']} {check.get('id')}: {check.get('errorMessage') or check.get('description')}"
            )
    stdout = (directory / "stdout.txt").read_text(encoding="utf-8")
    try:
        report = json.loads(stdout)
    except ValueError:
        problems.append(f"the probe printed no JSON report: {stdout[:300]!r}")
    else:
        if report.get("exitCode") != 0:
            problems.append(f"the probe ended with exit status {report.get('exitCode')}: {report.get('totals')}")
    stderr = (directory / "stderr.txt").read_text(encoding="utf-8")
    if "Traceback" in stderr:
        problems.append(f"traceback on stderr: {stderr[-800:]}")
    return problems


@pytest.mark.timeout(900)
def test_client_conformance_suite(tmp_path: Path) -> None:
    argv = nodetools.require_conformance()
    env = suite_env()
    listed = subprocess.run(
        [*argv, "list", "--client", "--spec-version", SPEC_VERSION],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
        check=False,
    )
    expected = set(re.findall(r"^\s+- (\S+) \[", listed.stdout, flags=re.MULTILINE))
    assert len(expected) >= MIN_SCENARIOS, listed.stdout + listed.stderr

    results = tmp_path / "results"
    proc = subprocess.run(
        [
            *argv,
            "client",
            "--command",
            COMMAND,
            "--suite",
            "all",
            "--spec-version",
            SPEC_VERSION,
            "--timeout",
            str(CLIENT_TIMEOUT_MS),
            "-o",
            str(results),
        ],
        capture_output=True,
        text=True,
        timeout=840,
        env=env,
        cwd=tmp_path,
        check=False,
    )
    output = f"--- conformance stdout ---\n{proc.stdout}\n--- conformance stderr ---\n{proc.stderr}"
    summary = proc.stdout[proc.stdout.find("=== SUITE SUMMARY ===") :]
    passed = set(re.findall(r"^✓ (\S+):", summary, flags=re.MULTILINE))
    failed = set(re.findall(r"^✗ (\S+):", summary, flags=re.MULTILINE))

    ran = scenario_results(results)
    problems = {name: found for name, directory in sorted(ran.items()) if (found := problems_of(directory))}
    assert not problems, "\n".join(f"{name}:\n  " + "\n  ".join(found) for name, found in problems.items()) + output
    assert proc.returncode == 0, output
    assert not failed, output
    assert passed == expected, f"passed {sorted(passed)}, expected {sorted(expected)}\n{output}"
    assert set(ran) == expected, output
