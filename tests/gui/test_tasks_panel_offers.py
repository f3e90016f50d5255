"""How "Run as task" is offered per tool and era, why tasks/list is unavailable, and the progress a task's status
message states (``inspector.ui.explore.common.task_book``; pure functions, no window)."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from inspector.client.server_info import ServerInfo
from inspector.protocol.tasks import TASKS_EXTENSION, Flavour, TaskState
from inspector.protocol.versions import Era
from inspector.ui.explore.common.task_book import (
    TaskOutcome,
    TaskRecord,
    list_gap,
    progress_of,
    task_support_offer,
)

LEGACY_TASKS = {"tasks": {"list": {}, "cancel": {}, "requests": {"tools": {"call": {}}}}}


def conn(version: str, capabilities: dict[str, Any]) -> Any:
    era = Era.MODERN if version == "2026-07-28" else Era.HANDSHAKE
    return SimpleNamespace(server=ServerInfo(version, {}, capabilities, None, {}, 0.0, era))


def tool(support: str | None) -> dict[str, Any]:
    return {"name": "t", "inputSchema": {"type": "object"}} | (
        {} if support is None else {"execution": {"taskSupport": support}}
    )


@pytest.mark.parametrize(
    ("version", "caps", "support", "shown"),
    [
        ("2025-11-25", LEGACY_TASKS, "optional", (True, True, False)),
        ("2025-11-25", LEGACY_TASKS, "required", (True, False, True)),
        ("2025-11-25", LEGACY_TASKS, "forbidden", (False, False, False)),
        ("2025-11-25", LEGACY_TASKS, None, (False, False, False)),
        ("2025-11-25", {}, "required", (True, False, False)),  # the server cannot: shown, off, with the reason
        ("2025-06-18", LEGACY_TASKS, "required", (False, False, False)),  # no tasks before 2025-11-25
        ("2026-07-28", {"extensions": {TASKS_EXTENSION: {}}}, None, (True, True, False)),  # the server decides
        ("2026-07-28", {"extensions": {TASKS_EXTENSION: {}}}, "required", (True, False, True)),
        ("2026-07-28", {"extensions": {TASKS_EXTENSION: {}}}, "forbidden", (False, False, False)),
        ("2026-07-28", {}, None, (True, False, False)),
    ],
)
def test_the_toggle_follows_task_support_and_the_server(
    version: str, caps: dict[str, Any], support: str | None, shown: tuple[bool, bool, bool]
) -> None:
    offer = task_support_offer(tool(support), conn(version, caps))
    assert (offer.visible, offer.enabled, offer.checked) == shown
    assert bool(offer.reason) == offer.visible
    assert not task_support_offer(tool(support), None).visible


def test_tasks_list_gaps() -> None:
    assert list_gap(None) is not None
    assert list_gap(conn("2025-11-25", LEGACY_TASKS)) is None
    assert "tasks.list" in (list_gap(conn("2025-11-25", {"tasks": {"cancel": {}}})) or "")
    assert "does not exist in 2026-07-28" in (list_gap(conn("2026-07-28", {})) or "")
    assert "has no tasks" in (list_gap(conn("2025-06-18", {})) or "")


@pytest.mark.parametrize(
    ("message", "status", "shown"),
    [
        ("step 2/4", "working", "2/4 (50%)"),
        ("1.5s of 6s", "working", "1.5/6 (25%)"),
        ("about 40% done", "working", "40%"),
        ("Gathering sources...", "working", "—"),
        (None, "working", "—"),
        ("Done", "completed", "100%"),
    ],
)
def test_progress_read_from_the_status_message(message: str | None, status: str, shown: str) -> None:
    record = TaskRecord(1, "t", None, Flavour.AUGMENTED, outcome=TaskOutcome.RUNNING)
    record.state = TaskState("id", status, message)
    assert progress_of(record) == shown
