"""The official MCP client conformance suite against ``mcp-inspect --cli --probe --auto-approve``, both eras.

Runs ``conformance client --command "mcp-inspect --cli --probe --auto-approve"`` (``@modelcontextprotocol/
conformance``, pinned in ``.ci/node/package.json``) with Node 22, twice:

* ``--suite all --spec-version 2025-11-25``: every scenario of the handshake era (19);
* ``--requirements 2026-07-28``: exactly what the 2026-07-28 revision requires of a client (32, frozen at its
  release), plus the client scenarios it runs without scoring: the authorization extensions (DPoP, client
  credentials, workload identity, enterprise-managed) and json-schema-2020-12-preservation.

Every scenario must pass: no failed check, no warning, and (which the suite's own summary does not check) a
probe report on stdout whose exit status is 0 — except where the scenario's server is wrong on purpose
(``DELIBERATE``): there the probe must say exactly that, with the exit status of that finding (1: it could not
inspect the server, refusing what the scenario tests it refuses; 5: the server violated the protocol) and the
finding named. There is no expected-failures file. The harness appends
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
MIN_SCENARIOS = {"2025-11-25": 19, "2026-07-28": 32 + 7}
DELIBERATE: dict[str, tuple[int, str]] = {
    # the client must refuse (exit 1, the refusal on stderr)
    "auth/scope-retry-limit": (1, 'error="insufficient_scope"'),  # 403 to every request whatever the scope
    "auth/iss-supported-missing": (1, "missing iss"),
    "auth/iss-wrong-issuer": (1, "iss mismatch"),
    "auth/iss-unexpected": (1, "iss mismatch"),
    "auth/iss-normalized": (1, "iss mismatch"),  # RFC 9207: compared as strings, no normalising
    "auth/metadata-issuer-mismatch": (1, "issuer mismatch"),
    "auth/resource-mismatch": (1, "does not match"),
    # the server breaks the protocol (exit 6, the violation in the report)
    "sep-2322-client-request-state": (6, "$.result.resultType"),  # a result without the required resultType
    "http-invalid-tool-headers": (6, "invalid x-mcp-header annotation"),  # the tools the client must drop
}
"""2026-07-28 scenarios whose server is wrong on purpose -> the probe's exit status and what it must name."""
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


def _refusal(stderr: str) -> str:
    """The refusal on stderr: its error envelope's message (JSON-decoded: quotes in it are escaped on the wire)."""
    lines = stderr.strip().splitlines()
    try:
        error = json.loads(lines[-1])["error"] if lines else {}
    except (ValueError, KeyError, TypeError):
        return stderr
    return stderr + "\n" + " ".join(str(error.get(key, "")) for key in ("message", "cause"))


def problems_of(directory: Path, deliberate: tuple[int, str] | None = None) -> list[str]:
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
        stderr = (directory / "stderr.txt").read_text(encoding="utf-8")
        if deliberate is not None:
            status, finding = deliberate
            if report.get("exitCode") != status or finding not in (_refusal(stderr) if status == 1 else stdout):
                problems.append(f"expected exit status {status} naming {finding!r}, got {report.get('exitCode')}")
        elif report.get("exitCode") != 0:
            problems.append(f"the probe ended with exit status {report.get('exitCode')}: {report.get('totals')}")
    stderr = (directory / "stderr.txt").read_text(encoding="utf-8")
    if "Traceback" in stderr:
        problems.append(f"traceback on stderr: {stderr[-800:]}")
    return problems


def expected_scenarios(argv: list[str], env: dict[str, str], spec: str) -> set[str]:
    """The client scenarios the run must pass, as the suite lists them."""
    if spec == "2025-11-25":
        listed = subprocess.run(
            [*argv, "list", "--client", "--spec-version", spec],
            capture_output=True, text=True, timeout=120, env=env, check=False,
        )  # fmt: skip
        return set(re.findall(r"^\s+- (\S+) \[", listed.stdout, flags=re.MULTILINE))
    listed = subprocess.run(
        [*argv, "list", "--client", "--requirements", spec],
        capture_output=True, text=True, timeout=120, env=env, check=False,
    )  # fmt: skip
    out = listed.stdout
    required_part = out[out.find("Client scenarios") : out.find("Run and reported")]
    required = set(re.findall(r"^\s+- (\S+)\s*$", required_part, flags=re.MULTILINE))
    unscored_clients = set(re.findall(r"^\s+- (\S+) \[client\]", out, flags=re.MULTILINE))
    return required | unscored_clients


def run_args(spec: str) -> list[str]:
    if spec == "2025-11-25":
        return ["--suite", "all", "--spec-version", spec]
    return ["--requirements", spec]


@pytest.mark.timeout(900)
@pytest.mark.parametrize("spec", ["2025-11-25", "2026-07-28"])
def test_client_conformance_suite(tmp_path: Path, spec: str) -> None:
    argv = nodetools.require_conformance()
    env = suite_env()
    expected = expected_scenarios(argv, env, spec)
    assert len(expected) >= MIN_SCENARIOS[spec], expected

    results = tmp_path / "results"
    proc = subprocess.run(
        [
            *argv,
            "client",
            "--command",
            COMMAND,
            *run_args(spec),
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
    problems = {
        name: found
        for name, directory in sorted(ran.items())
        if (found := problems_of(directory, DELIBERATE.get(name) if spec != "2025-11-25" else None))
    }
    assert not problems, "\n".join(f"{name}:\n  " + "\n  ".join(found) for name, found in problems.items()) + output
    assert proc.returncode == 0, output
    assert not failed, output
    assert passed >= expected, f"passed {sorted(passed)}, expected {sorted(expected)}\n{output}"
    assert set(ran) >= expected, output
