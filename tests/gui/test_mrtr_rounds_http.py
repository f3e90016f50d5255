"""Multi-round-trip requests over Streamable HTTP: the demo (``--era both``, a real process on a free port) in a
window tab, ``ask_twice`` answered through the dialogs, each round named, the rounds grouped in the log."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from demowire import demo_http
from guikit import AsyncRunner, MakeWindow, connect_tab, tool_page
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from inspector.protocol.versions import Era
from inspector.protocol.wire import Direction, Kind
from inspector.store.profiles import HttpSettings, Profile, ProfileStore
from inspector.store.recording import RecordFilter
from inspector.transports.http import StreamableHttpTransport
from inspector.ui.server_requests.elicitation_dialog import ElicitationDialog
from inspector.ui.server_requests.gui_handlers import GuiRequestHandlers
from inspector.ui.viewers import ResultState


@pytest.fixture
def demo_both_url() -> Iterator[str]:
    """The demo over Streamable HTTP, both eras, on 127.0.0.1 (a free port; terminated after the test)."""
    with demo_http("--era", "both") as url:
        yield url


def test_ask_twice_over_http_names_each_round_and_the_log_groups_them(
    qtbot: QtBot,
    qasync_loop: AsyncRunner,
    make_window: MakeWindow,
    store: ProfileStore,
    demo_both_url: str,
) -> None:
    profile = store.create(Profile(name="demo over http", transport="http", http=HttpSettings(url=demo_both_url)))
    tab = connect_tab(make_window(), qasync_loop, profile.id)
    conn = tab.controller.connection
    assert conn is not None and isinstance(conn.transport, StreamableHttpTransport)
    assert conn.server is not None and conn.server.era is Era.MODERN  # auto, and the server speaks both
    handlers = tab.controller.settings.handlers
    assert isinstance(handlers, GuiRequestHandlers)
    page = tool_page(tab, "ask_twice")
    qtbot.mouseClick(page.run_button, Qt.MouseButton.LeftButton)
    seen: list[ElicitationDialog] = []
    for answer, number in (({"name": "Hedy"}, 2), ({"correct": False}, 3)):

        def shown() -> bool:
            current = handlers.current
            dialog = current.dialog if current is not None else None
            return isinstance(dialog, ElicitationDialog) and dialog.isVisible() and dialog not in seen

        qasync_loop.wait_until(shown, timeout=20)
        assert handlers.current is not None and isinstance(handlers.current.dialog, ElicitationDialog)
        dialog = handlers.current.dialog
        seen.append(dialog)
        assert dialog.round_label is not None
        assert dialog.round_label.text().startswith(f"Round {number} of a multi-round tools/call of ask_twice")
        status = f"Round {number} of at most"
        qasync_loop.wait_until(
            lambda s=status: page.result_view.running_panel.progress_label.text().startswith(s), timeout=10
        )
        assert dialog.form is not None
        dialog.form.set_value(answer)
        qtbot.mouseClick(dialog.accept_button, Qt.MouseButton.LeftButton)
    qasync_loop.wait_until(lambda: not page.running, timeout=20)
    assert page.result_view.state() is ResultState.SUCCESS

    recording = tab.controller.recording
    assert recording is not None
    recording.flush()
    f = RecordFilter(kinds=[Kind.REQUEST], directions=[Direction.OUT], methods=["tools/call"])
    calls = [row.seq for row in recording.rows(f, 0, 10)]
    assert len(calls) == 3
    log = tab.log
    tab.inner_tabs.setCurrentWidget(log)
    log.refresh()
    qasync_loop.wait_until(lambda: log.model.row_of(calls[2]) is not None, timeout=10)
    assert log.select_seq(calls[2])
    qasync_loop.wait_until(lambda: log.detail.rounds.isVisible(), timeout=10)
    assert log.detail.rounds.model.rowCount() == 3
    assert "this message is round 3" in log.detail.rounds.title.text()
    qasync_loop.run(tab.controller.aclose())  # the HTTP client's sockets closed on the loop, not by the GC
