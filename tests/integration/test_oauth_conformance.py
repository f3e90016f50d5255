"""The official conformance suite's auth extension scenarios against ``mcp-inspect --cli --probe --auto-approve``.

DPoP, DPoP with nonces, workload identity (jwt-bearer), client credentials (private_key_jwt and
client_secret_basic) and enterprise-managed authorization are extension scenarios, on no spec timeline: the
harness runs them with ``--force``. Run at 2025-11-25 (they test authorization, which is the same in both eras;
the harness's 2025-11-25 MCP server completes the session), and the authorization-server change scenario at
2026-07-28 (the only version it exists for). Each must pass every check with no warning, and the probe must end
with exit status 0 and no traceback (helpers from test_conformance.py).
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import nodetools
import pytest
from test_conformance import COMMAND, problems_of, scenario_results, suite_env

pytestmark = pytest.mark.node

EXTENSIONS = (
    "auth/dpop",
    "auth/dpop-nonce",
    "auth/wif-jwt-bearer",
    "auth/client-credentials-jwt",
    "auth/client-credentials-basic",
    "auth/enterprise-managed-authorization",
)
CASES = [(name, "2025-11-25") for name in EXTENSIONS] + [("auth/authorization-server-migration", "2026-07-28")]


@pytest.mark.timeout(300)
@pytest.mark.parametrize(("scenario", "version"), CASES, ids=[f"{name}@{version}" for name, version in CASES])
def test_scenario(scenario: str, version: str, tmp_path: Path) -> None:
    argv = nodetools.require_conformance()
    results = tmp_path / "results"
    command = [*argv, "client", "--command", COMMAND, "--scenario", scenario, "--spec-version", version]
    proc = subprocess.run(
        [*command, "--force", "--timeout", "120000", "-o", str(results)],
        capture_output=True,
        text=True,
        timeout=280,
        env=suite_env(),
        cwd=tmp_path,
        check=False,
    )
    output = f"--- conformance stdout ---\n{proc.stdout[-4000:]}\n--- conformance stderr ---\n{proc.stderr[-2000:]}"
    ran = scenario_results(results)
    assert set(ran) == {scenario}, output
    problems = problems_of(ran[scenario])
    assert not problems, "\n".join(problems) + output
    assert "0 failed, 0 warnings" in proc.stdout + proc.stderr, output
