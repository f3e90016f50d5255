"""Tasks, sans-I/O (inspector.protocol.tasks): shapes of both flavours, the lifecycle, what to send next."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from inspector.protocol.diagnostics import DiagnosticCode, Severity
from inspector.protocol.mrtr import InputCall
from inspector.protocol.tasks import (
    MAX_POLL_INTERVAL,
    MIN_POLL_INTERVAL,
    STATUSES,
    TERMINAL_STATUSES,
    Answer,
    Cancelled,
    Complete,
    Fail,
    FetchResult,
    Flavour,
    Poll,
    TaskState,
    TaskTracker,
    augmented_call_params,
    capability_for,
    check_ack,
    check_related_task,
    extension_declared,
    flavour_for,
    is_create_task_result,
    parse_create_task_result,
    parse_status_notification,
    parse_task,
    parse_task_list,
    plan_tool_call,
    task_id_params,
    tool_task_support,
    transition_allowed,
    update_params,
    with_extension,
)

A, E = Flavour.AUGMENTED, Flavour.EXTENSION
T0 = "2025-11-25T10:30:00Z"
T1 = "2025-11-25T10:40:00Z"
T2 = "2025-11-25T10:50:00Z"
ELICIT: dict[str, Any] = {
    "method": "elicitation/create",
    "params": {"message": "name?", "requestedSchema": {"type": "object"}},
}
TASK_CAPS: dict[str, Any] = {"tools": {}, "tasks": {"list": {}, "cancel": {}, "requests": {"tools": {"call": {}}}}}
EXT_CAPS: dict[str, Any] = {"tools": {}, "extensions": {"io.modelcontextprotocol/tasks": {}}}


def task25(**fields: Any) -> dict[str, Any]:
    body: dict[str, Any] = {"taskId": "t1", "status": "working", "createdAt": T0, "lastUpdatedAt": T1, "ttl": 60000}
    body.update(fields)
    return {k: v for k, v in body.items() if v is not _DROP}


def task26(**fields: Any) -> dict[str, Any]:
    body: dict[str, Any] = {"taskId": "t1", "status": "working", "createdAt": T0, "lastUpdatedAt": T1, "ttlMs": 60000}
    body.update(fields)
    return {k: v for k, v in body.items() if v is not _DROP}


_DROP = object()


def state(status: str | None = "working", updated: str = T1, task_id: str = "t1", **kw: Any) -> TaskState:
    return TaskState(task_id, status, kw.pop("message", None), T0, updated, 60000, kw.pop("poll", None), **kw)


# --- parsing ------------------------------------------------------------------------------------------

PARSE_CASES: list[tuple[str, Flavour, Any, str | None, list[str]]] = [
    # (case, flavour, value, expected status (or "NONE" for no state), problems as "severity:path")
    ("2025 minimal", A, task25(), "working", []),
    ("2025 full", A, task25(statusMessage="busy", pollInterval=5000), "working", []),
    ("2025 ttl null is unlimited", A, task25(ttl=None), "working", []),
    ("2025 missing ttl", A, task25(ttl=_DROP), "working", ["violation:$.result.ttl"]),
    ("2025 uses the 2026 names", A, task25(ttl=_DROP, ttlMs=5), "working",
     ["violation:$.result.ttlMs", "violation:$.result.ttl"]),
    ("2025 negative pollInterval", A, task25(pollInterval=-1), "working", ["violation:$.result.pollInterval"]),
    ("2025 pollInterval null", A, task25(pollInterval=None), "working", ["violation:$.result.pollInterval"]),
    ("2025 ttl boolean", A, task25(ttl=True), "working", ["violation:$.result.ttl"]),
    ("missing taskId", A, task25(taskId=_DROP), None, ["violation:$.result.taskId"]),
    ("empty taskId", A, task25(taskId=""), None, ["violation:$.result.taskId"]),
    ("numeric taskId", E, task26(taskId=7), None, ["violation:$.result.taskId"]),
    ("not an object", E, ["t1"], None, ["violation:$.result"]),
    ("bad status", A, task25(status="running"), "NONE", ["violation:$.result.status"]),
    ("missing createdAt", A, task25(createdAt=_DROP), "working", ["violation:$.result.createdAt"]),
    ("not ISO 8601", A, task25(lastUpdatedAt="yesterday"), "working", ["warning:$.result.lastUpdatedAt"]),
    ("statusMessage number", A, task25(statusMessage=3), "working", ["violation:$.result.statusMessage"]),
    ("2026 minimal", E, task26(pollIntervalMs=200), "working", []),
    ("2026 fractional ms", E, task26(pollIntervalMs=2.5), "working", ["violation:$.result.pollIntervalMs"]),
    ("2026 uses the 2025 name", E, task26(ttlMs=_DROP, ttl=1), "working",
     ["violation:$.result.ttl", "violation:$.result.ttlMs"]),
    ("2026 completed", E, task26(status="completed", result={"content": []}), "completed", []),
    ("2026 completed without result", E, task26(status="completed"), "completed", ["violation:$.result.result"]),
    ("2026 failed", E, task26(status="failed", error={"code": -32603, "message": "boom"}), "failed", []),
    ("2026 failed without error", E, task26(status="failed"), "failed", ["violation:$.result.error"]),
    ("2026 failed, bad code", E, task26(status="failed", error={"code": "x", "message": "m"}), "failed",
     ["violation:$.result.error.code"]),
    ("2026 input_required", E, task26(status="input_required", inputRequests={"k": ELICIT}), "input_required", []),
    ("2026 input_required without requests", E, task26(status="input_required"), "input_required",
     ["violation:$.result.inputRequests"]),
    ("2026 input request of another method", E,
     task26(status="input_required", inputRequests={"k": {"method": "tools/call", "params": {}}}), "input_required",
     ["violation:$.result.inputRequests.k"]),
    ("2026 input request params not an object", E,
     task26(status="input_required", inputRequests={"k": {"method": "roots/list", "params": []}}), "input_required",
     ["violation:$.result.inputRequests.k.params"]),
    ("2025 ignores the 2026 payload fields", A, task25(status="completed", result=3), "completed", []),
]  # fmt: skip


@pytest.mark.parametrize(
    ("case", "flavour", "value", "status", "problems"), PARSE_CASES, ids=[c[0] for c in PARSE_CASES]
)
def test_parse_task(case: str, flavour: Flavour, value: Any, status: str | None, problems: list[str]) -> None:
    parsed, diags = parse_task(value, flavour)
    assert sorted(f"{d.severity.value}:{d.path}" for d in diags) == sorted(problems)
    assert all(d.code is DiagnosticCode.SCHEMA for d in diags)
    if status is None:
        assert parsed is None
    else:
        assert parsed is not None and parsed.task_id == "t1"
        assert parsed.status == (None if status == "NONE" else status)


def test_parsed_fields() -> None:
    parsed, _ = parse_task(task25(statusMessage="busy", pollInterval=5000, ttl=None), A)
    assert parsed == TaskState("t1", "working", "busy", T0, T1, None, 5000.0)
    assert parsed.describe() == "working: busy" and not parsed.terminal
    parsed, _ = parse_task(task26(status="input_required", inputRequests={"k": ELICIT}, pollIntervalMs=200), E)
    assert parsed is not None
    assert parsed.input_calls == (InputCall("k", "elicitation/create", ELICIT["params"]),)
    assert parsed.poll_interval_ms == 200
    parsed, _ = parse_task(task26(status="failed", error={"code": -1, "message": "m"}), E)
    assert parsed is not None and parsed.error == {"code": -1, "message": "m"} and parsed.terminal


CREATE_CASES: list[tuple[str, Flavour, Any, bool, bool]] = [
    # (case, flavour, result, is a task handle, parses to a state)
    ("2025 handle", A, {"task": task25()}, True, True),
    ("2025 handle with _meta", A, {"task": task25(), "_meta": {"x": 1}}, True, True),
    ("2025 plain result", A, {"content": [{"type": "text", "text": "hi"}]}, False, False),
    ("2025 result that also has task", A, {"content": [], "task": task25()}, False, True),
    ("2025 task not an object", A, {"task": "t1"}, False, False),
    ("2026 handle", E, {"resultType": "task", **task26()}, True, True),
    ("2026 complete", E, {"resultType": "complete", "content": []}, False, False),
    ("2026 no resultType", E, {"content": []}, False, False),
    ("2026 input_required", E, {"resultType": "input_required", "inputRequests": {}}, False, False),
    ("not an object", E, [1], False, False),
]


@pytest.mark.parametrize(
    ("case", "flavour", "result", "is_handle", "parses"), CREATE_CASES, ids=[c[0] for c in CREATE_CASES]
)
def test_create_task_result(case: str, flavour: Flavour, result: Any, is_handle: bool, parses: bool) -> None:
    assert is_create_task_result(result, flavour) is is_handle
    parsed, diags = parse_create_task_result(result, flavour)
    assert (parsed is not None) is parses
    if is_handle:
        assert diags == []


def test_create_task_result_paths() -> None:
    _, diags = parse_create_task_result({"task": task25(ttl=_DROP)}, A)
    assert [d.path for d in diags] == ["$.result.task.ttl"]
    _, diags = parse_create_task_result({}, A)
    assert [d.path for d in diags] == ["$.result.task"]
    _, diags = parse_create_task_result({"resultType": "complete", **task26()}, E)
    assert [d.path for d in diags] == ["$.result.resultType"]


def test_task_list_and_notifications() -> None:
    states, diags = parse_task_list({"tasks": [task25(), task25(taskId=_DROP), task25(taskId="t2", status="done")]})
    assert [s.task_id for s in states] == ["t1", "t2"] and states[1].status is None
    assert sorted(d.path or "" for d in diags) == ["$.result.tasks[1].taskId", "$.result.tasks[2].status"]
    assert parse_task_list({"tasks": "x"})[1][0].path == "$.result.tasks"
    parsed, diags = parse_status_notification("notifications/tasks/status", task25(status="completed"), A)
    assert parsed is not None and parsed.status == "completed" and diags == []
    parsed, diags = parse_status_notification("notifications/tasks", task26(status="cancelled"), E)
    assert parsed is not None and parsed.status == "cancelled" and diags == []
    assert parse_status_notification("notifications/tasks", task25(), A) == (None, [])
    assert parse_status_notification("notifications/tasks/status", task26(), E) == (None, [])
    _, diags = parse_status_notification("notifications/tasks/status", task25(taskId=_DROP), A)
    assert [d.path for d in diags] == ["$.params.taskId"]


@pytest.mark.parametrize(
    ("result", "paths"),
    [
        ({"_meta": {"io.modelcontextprotocol/related-task": {"taskId": "t1"}}, "content": []}, []),
        ({"content": []}, ["$.result._meta[\"io.modelcontextprotocol/related-task\"]"]),
        ({"_meta": {"io.modelcontextprotocol/related-task": "t1"}},
         ["$.result._meta[\"io.modelcontextprotocol/related-task\"]"]),
        ({"_meta": {"io.modelcontextprotocol/related-task": {"taskId": "t2"}}},
         ["$.result._meta[\"io.modelcontextprotocol/related-task\"].taskId"]),
    ],
)  # fmt: skip
def test_related_task(result: Any, paths: list[str]) -> None:
    assert [d.path for d in check_related_task(result, "t1")] == paths


@pytest.mark.parametrize(
    ("result", "bad"),
    [({}, False), ({"resultType": "complete"}, False), ({"resultType": "task"}, True), ([], True), (None, True)],
)
def test_ack(result: Any, bad: bool) -> None:
    assert bool(check_ack(result, "tasks/update")) is bad


# --- the lifecycle ------------------------------------------------------------------------------------

TRANSITIONS = {
    ("working", "working"): True,
    ("working", "input_required"): True,
    ("working", "completed"): True,
    ("working", "failed"): True,
    ("working", "cancelled"): True,
    ("input_required", "working"): True,
    ("input_required", "input_required"): True,
    ("input_required", "completed"): True,
    ("input_required", "failed"): True,
    ("input_required", "cancelled"): True,
}


@pytest.mark.parametrize(("old", "new"), [(o, n) for o in STATUSES for n in STATUSES])
def test_transition_table(old: str, new: str) -> None:
    expected = TRANSITIONS.get((old, new), old == new)  # a terminal status may only repeat itself
    assert transition_allowed(old, new) is expected
    assert (old in TERMINAL_STATUSES and old != new) is not expected


# --- negotiation --------------------------------------------------------------------------------------


def tool(support: Any = None, *, execution: Any = None) -> dict[str, Any]:
    entry: dict[str, Any] = {"name": "t", "inputSchema": {"type": "object"}}
    if execution is not None:
        entry["execution"] = execution
    elif support is not None:
        entry["execution"] = {"taskSupport": support}
    return entry


PLAN_CASES: list[tuple[str, dict[str, Any] | None, dict[str, Any], str, bool, bool, list[str]]] = [
    # (case, tool, server caps, version, prefer_task, as_task, diagnostic codes)
    ("required + capability", tool("required"), TASK_CAPS, "2025-11-25", False, True, []),
    ("optional, plain by default", tool("optional"), TASK_CAPS, "2025-11-25", False, False, []),
    ("optional, preferred", tool("optional"), TASK_CAPS, "2025-11-25", True, True, []),
    ("forbidden", tool("forbidden"), TASK_CAPS, "2025-11-25", True, False, []),
    ("absent means forbidden", tool(), TASK_CAPS, "2025-11-25", True, False, []),
    ("unknown tool", None, TASK_CAPS, "2025-11-25", True, False, []),
    ("required without capability", tool("required"), {"tools": {}}, "2025-11-25", False, False,
     ["undeclared-capability"]),
    ("capability without tools.call", tool("required"), {"tasks": {"list": {}}}, "2025-11-25", False, False,
     ["undeclared-capability"]),
    ("bad taskSupport", tool("always"), TASK_CAPS, "2025-11-25", False, False, ["schema"]),
    ("execution not an object", tool(execution="x"), TASK_CAPS, "2025-11-25", False, False, ["schema"]),
    ("older versions have no tasks", tool("required"), TASK_CAPS, "2025-06-18", False, False, []),
    ("2026: the server decides", tool("required"), EXT_CAPS, "2026-07-28", True, False, []),
]  # fmt: skip


@pytest.mark.parametrize(
    ("case", "entry", "caps", "version", "prefer", "as_task", "codes"), PLAN_CASES, ids=[c[0] for c in PLAN_CASES]
)
def test_plan_tool_call(
    case: str, entry: Any, caps: dict[str, Any], version: str, prefer: bool, as_task: bool, codes: list[str]
) -> None:
    plan = plan_tool_call(entry, caps, version, prefer_task=prefer)
    assert plan.as_task is as_task
    assert [d.code.value for d in plan.diagnostics] == codes


def test_capabilities_and_flavours() -> None:
    assert flavour_for("2025-11-25") is A and flavour_for("2026-07-28") is E and flavour_for("2025-06-18") is None
    assert plan_tool_call(tool(), EXT_CAPS, "2026-07-28").server_allows
    assert not plan_tool_call(tool(), TASK_CAPS, "2026-07-28").server_allows
    assert capability_for("tasks/list", A) == "tasks.list"
    assert capability_for("tasks/cancel", A) == "tasks.cancel"
    assert capability_for("tasks/get", A) == "tasks"
    assert capability_for("tasks/cancel", E) is None
    caps = with_extension({"roots": {}, "extensions": {"io.modelcontextprotocol/ui": {"x": 1}}})
    assert caps == {
        "roots": {},
        "extensions": {"io.modelcontextprotocol/ui": {"x": 1}, "io.modelcontextprotocol/tasks": {}},
    }
    assert extension_declared(caps) and not extension_declared({"extensions": {"io.modelcontextprotocol/tasks": True}})
    assert tool_task_support(None) == ("forbidden", [])
    assert augmented_call_params("t", {"a": 1}, ttl_ms=60000) == {
        "name": "t",
        "arguments": {"a": 1},
        "task": {"ttl": 60000},
    }
    assert augmented_call_params("t") == {"name": "t", "task": {}}
    assert task_id_params("t1") == {"taskId": "t1"}
    responses = {"k": {"action": "decline"}}
    assert update_params("t1", responses) == {"taskId": "t1", "inputResponses": responses}


# --- the tracker --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("poll", "expected"),
    [(None, 1.0), (5000, 5.0), (0, MIN_POLL_INTERVAL), (10, MIN_POLL_INTERVAL), (10**9, MAX_POLL_INTERVAL)],
)
def test_poll_interval_is_bounded(poll: float | None, expected: float) -> None:
    assert TaskTracker(A, state(poll=poll)).next_step() == Poll(expected)


AUGMENTED_STEPS: list[tuple[str, str, bool, type]] = [
    # (case, status, tasks/result already open, next step)
    ("working polls", "working", False, Poll),
    ("input_required opens tasks/result", "input_required", False, FetchResult),
    ("completed opens tasks/result", "completed", False, FetchResult),
    ("failed opens tasks/result (the error, or the isError result)", "failed", False, FetchResult),
    ("cancelled ends", "cancelled", False, Cancelled),
    ("input_required with tasks/result open polls", "input_required", True, Poll),
    ("completed with tasks/result open waits", "completed", True, Poll),
]


@pytest.mark.parametrize(("case", "status", "open_", "step"), AUGMENTED_STEPS, ids=[c[0] for c in AUGMENTED_STEPS])
def test_augmented_next_step(case: str, status: str, open_: bool, step: type) -> None:
    tracker = TaskTracker(A, state(status))
    tracker.result_requested = open_
    assert isinstance(tracker.next_step(), step)


def test_extension_next_steps() -> None:
    calls = (InputCall("a", "elicitation/create", {}), InputCall("b", "roots/list", {}))
    tracker = TaskTracker(E, state("input_required", input_calls=calls))
    assert tracker.next_step() == Answer(calls)
    tracker.mark_answered(["a"])
    assert tracker.next_step() == Answer(calls[1:])
    tracker.mark_answered(["b"])
    assert isinstance(tracker.next_step(), Poll)  # the same keys polled again are never answered twice
    tracker.observe(state("completed", T2, result={"content": []}))
    assert tracker.next_step() == Complete({"content": []})
    failed = TaskTracker(E, state("failed", error={"code": -32603, "message": "boom", "data": 1}))
    assert failed.next_step() == Fail("boom", {"code": -32603, "message": "boom", "data": 1})
    assert TaskTracker(E, state("failed", message="why")).next_step() == Fail("why", None)
    assert TaskTracker(E, state("cancelled", message="stop")).next_step() == Cancelled("stop")


def test_observe() -> None:
    tracker = TaskTracker(A, state("working", T0))
    assert tracker.observe(state("working", T1, message="step 2")) == [] and tracker.changed
    assert tracker.observe(state("working", T1, message="step 2")) == [] and not tracker.changed
    # overtaken on the way (older lastUpdatedAt): ignored, not wrong
    assert tracker.observe(state("input_required", T0)) == [] and tracker.status == "working"
    # another task's snapshot
    diags = tracker.observe(state("completed", T2, task_id="t2"))
    assert [d.path for d in diags] == ["$.result.taskId"] and tracker.status == "working"
    # a bad status keeps the last known one
    assert tracker.observe(state(None, T2, message="?")) == [] and tracker.status == "working"
    assert tracker.state.status_message == "?"
    assert tracker.observe(state("completed", T2)) == [] and tracker.status == "completed"
    diags = tracker.observe(state("working", T2), source="notifications/tasks/status", path="$.params")
    assert len(diags) == 1 and diags[0].path == "$.params.status" and diags[0].severity is Severity.VIOLATION
    assert "terminal" in diags[0].message and tracker.status == "completed"
    assert tracker.statuses == ["working", "completed"]


@given(st.lists(st.sampled_from(STATUSES), max_size=30))
def test_terminal_is_final(sequence: list[str]) -> None:
    tracker = TaskTracker(A, state("working", T0))
    for status in sequence:
        before = tracker.status
        assert before is not None
        diags = tracker.observe(state(status, T1))
        assert len(diags) == (0 if transition_allowed(before, status) else 1)
    terminal_at = next((i for i, s in enumerate(tracker.statuses) if s in TERMINAL_STATUSES), None)
    if terminal_at is not None:
        assert tracker.statuses[terminal_at:] == [tracker.statuses[terminal_at]]
        assert tracker.status == tracker.statuses[terminal_at]
