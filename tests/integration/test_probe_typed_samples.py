"""The probe's prompt arguments are typed by what the server says about them, and its report keeps the text of
``isError`` tool results (issue 14, section 5, item 20): real servers over stdio."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import nodetools

REPO = Path(__file__).resolve().parents[2]
TYPED_PROMPTS = [sys.executable, str(REPO / "tests" / "servers" / "typed_prompts.py")]
DEMO = [sys.executable, "-m", "inspector.demo"]


def probe(*target: str) -> dict[str, Any]:
    proc = subprocess.run(
        [sys.executable, "-m", "inspector", "--cli", "--probe", *target],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=REPO,
        env=dict(os.environ),
        check=False,
    )
    assert "Traceback" not in proc.stderr, proc.stderr
    report: dict[str, Any] = json.loads(proc.stdout)
    return report


def steps(report: dict[str, Any], method: str) -> dict[str | None, dict[str, Any]]:
    return {step.get("name"): step for step in report["steps"] if step["method"] == method}


def test_typed_prompt_arguments_get_typed_samples() -> None:
    report = probe(*TYPED_PROMPTS)
    gets = steps(report, "prompts/get")
    assert gets["repeat"]["outcome"] == "ok", gets["repeat"]  # "example" for an int argument is an error
    assert gets["repeat"]["arguments"] == {"word": "example", "times": "1"}
    assert any("times: sent '1'" in note for note in gets["repeat"]["notes"])
    assert gets["toggle"]["outcome"] == "ok", gets["toggle"]
    assert gets["toggle"]["arguments"] == {"enabled": "yes"}
    assert report["exitCode"] == 0


def test_is_error_results_keep_their_text() -> None:
    report = probe(*DEMO)
    calls = steps(report, "tools/call")
    failed = calls["business_error"]
    assert failed["outcome"] == "isError"
    assert "Insufficient funds" in failed["resultText"]
    assert all("resultText" not in step for step in calls.values() if step["outcome"] == "ok")


def test_server_everything_integer_prompt_argument() -> None:
    report = probe(*nodetools.require_server_everything("stdio"))
    gets = steps(report, "prompts/get")
    resource_prompt = gets["resource-prompt"]
    assert resource_prompt["arguments"]["resourceId"] == "1"  # its completion offers nothing for ""
    assert resource_prompt["outcome"] == "ok", resource_prompt
