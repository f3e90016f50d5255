"""``--load`` side by side with the official inspector CLI: the same summary fields (ours add ``stoppedBy``), the
same counts and exit codes, the bounds (duration, request count, rate) respected alike, the same refusals.

The servers are server-everything (``echo``; ``echo`` without its argument answers ``isError``) and
tests/servers/load_tools.py (tools with known outcomes: JSON-RPC errors, isError, calls that take time).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import nodetools
import pytest
from sidebyside import Outcome, both

pytestmark = pytest.mark.node

LOAD_TOOLS = [sys.executable, str(Path(__file__).resolve().parents[1] / "servers" / "load_tools.py")]
OURS_ONLY = {"stoppedBy"}
LATENCY_KEYS = ["min", "mean", "p50", "p90", "p99", "max"]


def everything() -> list[str]:
    return nodetools.require_server_everything()


def load(*args: str) -> tuple[str, ...]:
    return ("--load", "--method", "tools/call", *args)


def summaries(theirs: Outcome, mine: Outcome, *, json_format: bool = False) -> tuple[dict[str, Any], dict[str, Any]]:
    """Both summaries, after checking both exited 0 and that ours has the official fields in their order."""
    assert (theirs.returncode, mine.returncode) == (0, 0), (theirs.stderr[-800:], mine.stderr[-800:])
    documents = []
    for outcome in (theirs, mine):
        document = json.loads(outcome.stdout)
        if json_format:
            assert list(document) == ["result"]
            assert len(outcome.stdout.strip().splitlines()) == 1  # one line
            document = document["result"]
        else:
            assert outcome.stdout.startswith("{\n  ")  # pretty, as the official
        documents.append(document)
    official, ours = documents
    assert [key for key in ours if key not in OURS_ONLY] == list(official)
    for summary in documents:
        assert summary["requests"] == summary["ok"] + summary["toolErrors"] + summary["errors"]
        assert sum(entry["count"] for entry in summary["errorMessages"]) == summary["errors"]
        if summary["latencyMs"] is not None:
            assert list(summary["latencyMs"]) == LATENCY_KEYS
            latency = summary["latencyMs"]
            assert latency["min"] <= latency["p50"] <= latency["p90"] <= latency["p99"] <= latency["max"]
    return official, ours


def counts(summary: dict[str, Any]) -> tuple[Any, ...]:
    keys = ("tool", "concurrency", "requestLimit", "durationMs", "rate", "requests", "ok", "toolErrors", "errors")
    return (*(summary.get(key) for key in keys), summary["errorRate"])


def test_echo_with_a_request_limit(tmp_path: Path) -> None:
    args = load("--tool-name", "echo", "--tool-arg", "message=hi", "--load-requests", "20", "--load-concurrency", "3")
    official, ours = summaries(*both(*everything(), *args, home=tmp_path))
    assert counts(ours) == counts(official) == ("echo", 3, 20, None, None, 20, 20, 0, 0, 0)
    assert ours["errorMessages"] == official["errorMessages"] == []
    assert ours["stoppedBy"] == "requestLimit"
    assert official["throughput"] > 0 and ours["throughput"] > 0


def test_json_format_wraps_the_summary_in_result(tmp_path: Path) -> None:
    args = load("--tool-name", "echo", "--tool-arg", "message=hi", "--load-requests", "5", "--format", "json")
    official, ours = summaries(*both(*everything(), *args, home=tmp_path), json_format=True)
    assert counts(ours) == counts(official) == ("echo", 10, 5, None, None, 5, 5, 0, 0, 0)


def test_is_error_results_are_counted_and_exit_0(tmp_path: Path) -> None:
    args = load("--tool-name", "echo", "--load-requests", "6", "--load-concurrency", "2")  # no message: isError
    official, ours = summaries(*both(*everything(), *args, home=tmp_path))
    assert counts(ours) == counts(official) == ("echo", 2, 6, None, None, 6, 0, 6, 0, 1)

    official, ours = summaries(*both(*LOAD_TOOLS, *load("--tool-name", "tool_error", "--load-requests", "4"),
                                     home=tmp_path / "2"))  # fmt: skip
    assert counts(ours) == counts(official) == ("tool_error", 10, 4, None, None, 4, 0, 4, 0, 1)


def test_errors_are_grouped_by_the_server_s_message(tmp_path: Path) -> None:
    official, ours = summaries(*both(*LOAD_TOOLS, *load("--tool-name", "mixed", "--load-requests", "15"),
                                     home=tmp_path))  # fmt: skip
    assert counts(ours) == counts(official) == ("mixed", 10, 15, None, None, 15, 7, 4, 4, 0.5333)
    assert ours["errorMessages"] == official["errorMessages"] == [{"message": "boom", "count": 4}]


def test_at_most_ten_messages_then_other(tmp_path: Path) -> None:
    args = load("--tool-name", "distinct", "--load-requests", "15", "--load-concurrency", "1")
    official, ours = summaries(*both(*LOAD_TOOLS, *args, home=tmp_path))
    assert counts(ours) == counts(official) == ("distinct", 1, 15, None, None, 15, 0, 0, 15, 1)
    expected = [{"message": f"failure {n}", "count": 1} for n in range(10)] + [{"message": "(other)", "count": 5}]
    assert ours["errorMessages"] == official["errorMessages"] == expected


def test_rate_within_a_duration(tmp_path: Path) -> None:
    args = load("--tool-name", "echo", "--tool-arg", "message=hi", "--load-duration", "1", "--load-rate", "5")
    official, ours = summaries(*both(*everything(), *args, home=tmp_path))
    assert counts(ours) == counts(official) == ("echo", 10, None, 1000, 5, 5, 5, 0, 0, 0)  # at 0, .2, .4, .6, .8 s
    for summary in (official, ours):
        # the fifth call starts at 0.8 s; the run ends when it answers, however long a loaded machine takes
        last_answer = 800 + summary["latencyMs"]["max"]
        assert 790 <= summary["elapsedMs"] <= last_answer + 150, summary
        assert summary["throughput"] == pytest.approx(5000 / summary["elapsedMs"], abs=0.01), summary
    assert ours["stoppedBy"] == "duration"


def test_duration_lets_the_calls_in_flight_finish(tmp_path: Path) -> None:
    args = load("--tool-name", "sleep", "--tool-arg", "ms=300", "--load-duration", "0.5", "--load-concurrency", "2")
    official, ours = summaries(*both(*LOAD_TOOLS, *args, home=tmp_path))
    # two calls at 0 s, two at 0.3 s; none at 0.6 s (past 0.5 s); the two in flight at 0.5 s finish
    assert counts(ours) == counts(official) == ("sleep", 2, None, 500, None, 4, 4, 0, 0, 0)
    for summary in (official, ours):
        assert 600 <= summary["elapsedMs"] < 900, summary
        assert summary["latencyMs"]["min"] >= 300


def test_a_tool_that_is_not_listed_exits_5_before_any_call(tmp_path: Path) -> None:
    theirs, mine = both(*everything(), *load("--tool-name", "nope", "--load-requests", "3"), home=tmp_path)
    assert (theirs.returncode, mine.returncode) == (5, 5)
    assert mine.stdout == theirs.stdout == ""
    codes = [json.loads(o.stderr.strip().splitlines()[-1])["error"]["code"] for o in (theirs, mine)]
    assert codes == ["tool_not_found", "tool_not_found"]


@pytest.mark.parametrize(
    "args",
    [
        ("--method", "tools/call", "--tool-name", "echo", "--load-rate", "5"),  # a bound without --load
        ("--method", "tools/call", "--tool-name", "echo", "--load-requests", "5"),
        ("--load", "--method", "tools/list"),
        ("--load", "--method", "tools/call", "--tool-name", "echo", "--output", "out.json"),
        ("--load", "--method", "tools/call", "--tool-name", "echo", "--load-requests", "0"),
        ("--load", "--method", "tools/call", "--tool-name", "echo", "--load-requests", "1.5"),
        ("--load", "--method", "tools/call", "--tool-name", "echo", "--load-concurrency", "0"),
        ("--load", "--method", "tools/call", "--tool-name", "echo", "--load-duration", "-1"),
        ("--load", "--method", "tools/call", "--tool-name", "echo", "--load-rate", "0"),
        ("--load", "--method", "tools/call", "--tool-name", "echo", "--load-rate", "fast"),
    ],
)
def test_the_same_refusals(tmp_path: Path, args: tuple[str, ...]) -> None:
    theirs, mine = both(*everything(), *args, home=tmp_path, cwd=tmp_path)
    assert (theirs.returncode, mine.returncode) == (1, 1), (theirs.stderr[-400:], mine.stderr[-400:])
    assert mine.stdout == theirs.stdout == ""
    assert not (tmp_path / "out.json").exists()
