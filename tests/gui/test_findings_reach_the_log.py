"""Issue 14 §5.5: what the Tools tab flags (a structuredContent that breaks its outputSchema) is a recorded
diagnostic on the response's row: the log's "Diagnostics only" filter shows it and the overview counts it."""

from __future__ import annotations

from guikit import AsyncRunner, MakeWindow
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from inspector.protocol.wire import Kind
from inspector.store.recording.query import RecordFilter
from inspector.ui.connection.controller import ConnectionState
from inspector.ui.viewers import ResultState


def test_an_output_schema_violation_reaches_the_log_and_the_overview_count(
    qtbot: QtBot, qasync_loop: AsyncRunner, make_window: MakeWindow
) -> None:
    window = make_window()
    tab = window.connect_demo()
    assert tab is not None
    qasync_loop.wait_state(tab.controller, ConnectionState.CONNECTED, ConnectionState.FAILED)
    assert tab.controller.state is ConnectionState.CONNECTED, tab.controller.failure
    qasync_loop.wait_until(lambda: tab.tools.browser.model.total() > 0, timeout=20)
    tab.inner_tabs.setCurrentWidget(tab.tools)
    counted_before = tab.controller.diagnostic_count
    page = tab.tools.select_tool("bad_structured")
    assert page is not None
    qtbot.waitUntil(lambda: page.run_button.isEnabled())
    qtbot.mouseClick(page.run_button, Qt.MouseButton.LeftButton)
    qasync_loop.wait_until(lambda: not page.running, timeout=30)
    assert page.result_view.state() is ResultState.SUCCESS
    issues = page.result_view.schema_issues()
    assert issues, "the Tools tab flags the result"

    # the same findings are diagnostics on the recorded response row
    recording = tab.controller.recording
    assert recording is not None
    recording.flush()
    flagged = recording.rows(RecordFilter(diagnostics_only=True, methods=["tools/call"]), 0, 100)
    responses = [row for row in flagged if row.kind is Kind.RESPONSE]
    assert len(responses) == 1
    messages = [str(d.get("message")) for d in responses[0].diagnostics]
    assert sum("outputSchema of bad_structured" in m for m in messages) == len(issues)

    # the overview counts them
    qasync_loop.wait_until(lambda: tab.controller.diagnostic_count >= counted_before + len(issues), timeout=10)
    assert f"{tab.controller.diagnostic_count} protocol diagnostic" in tab.overview.diagnostics_label.text()

    # and the log's "Diagnostics only" filter lists the response
    tab.log.refresh()
    tab.log.show_diagnostics_only()
    qasync_loop.wait_until(lambda: tab.log.model.settled, timeout=10)
    shown = [tab.log.model.seq_at(r) for r in range(tab.log.model.rowCount())]
    assert responses[0].seq in shown
