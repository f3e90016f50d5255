"""The official conformance scenarios for the 2026-07-28 HTTP headers, judging inspector.protocol.mcp_headers.

tests/servers/headers_client.py is a bare client whose every header comes from ``request_headers`` and whose
tool list goes through ``filter_tools``; the suite's scenario servers check the headers they receive
(``http-standard-headers``: Mcp-Method/Mcp-Name; ``http-custom-headers``: Mcp-Param-* values and their
Base64 encoding, null omission; ``http-invalid-tool-headers``: invalid annotations dropped, valid tools kept).
Every check must pass: no failure, no warning.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import nodetools
import pytest

pytestmark = pytest.mark.node

REPO = Path(__file__).resolve().parents[2]
CLIENT = REPO / "tests" / "servers" / "headers_client.py"
SCENARIOS = ["http-standard-headers", "http-custom-headers", "http-invalid-tool-headers"]


@pytest.mark.timeout(300)
@pytest.mark.parametrize("scenario", SCENARIOS)
def test_header_scenario(scenario: str, tmp_path: Path) -> None:
    argv = nodetools.require_conformance()
    env = {key: value for key, value in os.environ.items() if not key.startswith("MCP_CONFORMANCE_")}
    command = f"{sys.executable} {CLIENT}"
    proc = subprocess.run(
        [*argv, "client", "--command", command, "--scenario", scenario, "--spec-version", "2026-07-28",
         "-o", str(tmp_path)],
        capture_output=True, text=True, timeout=240, env=env, cwd=tmp_path, check=False,
    )  # fmt: skip
    output = f"--- stdout ---\n{proc.stdout}\n--- stderr ---\n{proc.stderr}"
    found = list(tmp_path.rglob("checks.json"))
    assert len(found) == 1, output
    checks = json.loads(found[0].read_text(encoding="utf-8"))
    bad = [
        f"{c['status']} {c['name']}: {c.get('errorMessage')}" for c in checks if c["status"] in ("FAILURE", "WARNING")
    ]
    assert not bad, "\n".join(bad) + output
    assert sum(c["status"] == "SUCCESS" for c in checks) >= 9, output
    stderr = (found[0].parent / "stderr.txt").read_text(encoding="utf-8")
    assert "Traceback" not in stderr, stderr
    assert proc.returncode == 0, output
    if scenario == "http-invalid-tool-headers":
        assert stderr.count("was dropped: invalid x-mcp-header annotation") == 11, stderr
