"""The probe explains a refused opening request like every other step (issue 15 item 4): a 2026-07-28 server that
answers ``server/discover`` with -32022 gives the opening step its code and the one-line explanation (from
``inspector.protocol.error_codes``), as ``--method`` output already does."""

from __future__ import annotations

import json

import pytest
from clikit import run_inspector
from servers.refusals_http import RefusalsServer

EXPLANATION = "the server does not support protocol version 2026-07-28; it supports 2025-11-25"


@pytest.mark.parametrize("fmt", ["json", "text"])
def test_the_opening_step_carries_the_code_and_what_it_means(fmt: str) -> None:
    with RefusalsServer() as server:
        server.refuse_discover = True
        proc = run_inspector("--cli", "--probe", "--format", fmt, "--protocol-version", "2026-07-28", server.url())
    assert proc.returncode == 1, proc.stderr
    report = json.loads(proc.stdout)
    [opening] = report["steps"]
    assert opening["outcome"] == "error"
    assert opening["error"]["code"] == -32022
    assert opening["error"]["explanation"] == EXPLANATION
    envelope = json.loads(proc.stderr.strip().splitlines()[-1])["error"]  # the failure line says the same
    assert envelope["jsonrpcCode"] == -32022 and envelope["explanation"] == EXPLANATION
