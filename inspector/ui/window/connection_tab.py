"""One tab per connected profile: a status header with Cancel / Reconnect / Disconnect, then inner tabs: Overview,
the Explore panels (Tools, Resources, Prompts, Utilities; see ``inspector.ui.explore.area``), Log, Stderr.

The tab only reads the controller's plain state and listens to its signals; every command goes to the
controller, which runs it as an asyncio task, so no button ever blocks the window. ``ConnectionTab._wire`` is the
one place a tab's signals are connected: the header, the connection-level views (overview, log, stderr,
notifications, roots, the requests indicator) and every Explore panel (``ExplorePanel`` hooks and content signals).
"""

from __future__ import annotations

import time
from typing import Final

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QColor, QFont, QIcon, QPainter, QPixmap
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSizePolicy,
    QSplitter,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from inspector.store.recording import Recording
from inspector.ui.connection.auth_view import AuthView
from inspector.ui.connection.controller import ConnectionController, ConnectionSettings, ConnectionState
from inspector.ui.connection.notifications import NotificationsView
from inspector.ui.connection.overview import OverviewPanel
from inspector.ui.connection.roots import ConnectionRootsPanel
from inspector.ui.connection.stderr_console import StderrConsole
from inspector.ui.explore.area import Explore
from inspector.ui.explore.catalog.split_memory import SplitMemory
from inspector.ui.log import LogPanel
from inspector.ui.regression.collections_panel import CollectionsPanel
from inspector.ui.server_requests import RequestsIndicator
from inspector.ui.widgets.mark_label import MarkLabel
from inspector.ui.widgets.style import tones
from inspector.ui.widgets.theme import follow_font, theme_manager, themed_style
from inspector.ui.window.settings import UiSettings

__all__ = ["ConnectionTab", "state_colour", "state_icon"]


def state_colour(state: ConnectionState) -> str:
    """The theme's colour of a connection state (the tab's dot): connected, connecting, failed or idle."""
    t = tones()
    if state is ConnectionState.CONNECTED:
        return t.connected
    if state is ConnectionState.CONNECTING:
        return t.connecting
    if state in (ConnectionState.FAILED, ConnectionState.EXITED):
        return t.error_fg
    return t.idle


STATE_TITLES: Final[dict[ConnectionState, str]] = {
    ConnectionState.IDLE: "Not connected",
    ConnectionState.CONNECTING: "Connecting…",
    ConnectionState.CONNECTED: "Connected",
    ConnectionState.FAILED: "Connection failed",
    ConnectionState.EXITED: "Server exited",
    ConnectionState.CLOSED: "Disconnected",
}
STDERR_LINES_SHOWN: Final = 6


def state_icon(state: ConnectionState, size: int = 12) -> QIcon:
    """A coloured dot for the state (tab icons)."""
    pixmap = QPixmap(size, size)
    pixmap.fill(Qt.GlobalColor.transparent)
    painter = QPainter(pixmap)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setBrush(QColor(state_colour(state)))
    painter.setPen(Qt.PenStyle.NoPen)
    painter.drawEllipse(1, 1, size - 2, size - 2)
    painter.end()
    return QIcon(pixmap)


class ConnectionTab(QWidget):
    stateChanged = Signal(object)
    """Re-emitted from the controller (a ``ConnectionState``), after the tab updated itself."""

    def __init__(self, profile_id: str, controller: ConnectionController, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.profile_id = profile_id
        self.controller = controller
        self._connect_started: float | None = None
        self._attached: Recording | None = controller.recording
        self._target: tuple[ConnectionSettings, str] | None = None

        self.state_dot = QLabel()
        self.state_label = QLabel()
        follow_font(self.state_label, "header")
        self.detail_label = QLabel()
        self.detail_label.setWordWrap(True)
        self.detail_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.detail_label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.stderr_label = QLabel()
        self.stderr_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        mono = QFont("monospace")
        mono.setStyleHint(QFont.StyleHint.Monospace)
        self.stderr_label.setFont(mono)
        self.stderr_label.setWordWrap(True)
        self.stderr_label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.stderr_label.hide()
        self.storage_label = MarkLabel()
        """Shown while the session's recording is kept in memory only (the data dir cannot be written)."""
        self.storage_label.setObjectName("storageNote")
        themed_style(
            self.storage_label,
            lambda t: f"#storageNote {{ background: {t.warning_bg}; color: {t.text}; padding: 3px 6px; }}",
        )
        self.storage_label.setWordWrap(True)
        self.storage_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.storage_label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.storage_label.hide()

        self.cancel_button = QPushButton("Cancel")
        self.reconnect_button = QPushButton("Reconnect")
        self.reconnect_button.setToolTip("Close the connection (if any) and connect again")
        self.disconnect_button = QPushButton("Disconnect")
        self.disconnect_button.setToolTip("Close the connection (the server process is stopped)")

        self.requests_indicator = RequestsIndicator(controller)  # "N pending" + the auto-reply pill
        title_row = QHBoxLayout()
        title_row.setSpacing(8)
        title_row.addWidget(self.state_dot)
        title_row.addWidget(self.state_label)
        title_row.addWidget(self.requests_indicator)
        title_row.addStretch(1)
        title_row.addWidget(self.cancel_button)
        title_row.addWidget(self.reconnect_button)
        title_row.addWidget(self.disconnect_button)

        self.header = QFrame()
        self.header.setObjectName("connectionHeader")
        self.header.setFrameShape(QFrame.Shape.StyledPanel)
        header_layout = QVBoxLayout(self.header)
        header_layout.setContentsMargins(10, 8, 10, 8)
        header_layout.setSpacing(4)
        header_layout.addLayout(title_row)
        header_layout.addWidget(self.detail_label)
        header_layout.addWidget(self.stderr_label)
        header_layout.addWidget(self.storage_label)

        self.overview = OverviewPanel()
        self.log = LogPanel(controller.recording)
        self.stderr_console = StderrConsole()
        self.notifications = NotificationsView()
        self.roots_panel = ConnectionRootsPanel(controller)
        self.explore = Explore(controller, profile_id)
        self.tools = self.explore.tools
        self.resources = self.explore.resources
        self.prompts = self.explore.prompts
        self.utilities = self.explore.utilities
        self.inner_tabs = QTabWidget()
        self.inner_tabs.setDocumentMode(True)
        self.inner_tabs.addTab(self.overview, "Overview")
        self.inner_tabs.addTab(self.log, "Log")
        self.inner_tabs.addTab(self.stderr_console, "Stderr")
        self.inner_tabs.addTab(self.notifications, "Notifications")
        self.inner_tabs.addTab(self.roots_panel, "Roots")
        self.collections = CollectionsPanel(controller)
        """Saved calls with assertions, run against this connection ("Save to collection" ends here)."""
        self.inner_tabs.addTab(self.collections, "Collections")
        self.explore.add_to(self.inner_tabs, 1)
        self.auth_view: AuthView | None = None
        self._sync_auth_view()

        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.setSpacing(6)
        layout.addWidget(self.header)
        layout.addWidget(self.inner_tabs, 1)

        self._ticker = QTimer(self)
        self._ticker.setInterval(200)
        self._ticker.timeout.connect(self._update_header)
        self._wire()

    def _wire(self) -> None:
        """Every signal of this tab, in one place (slots are methods: disconnected when their widget goes)."""
        c = self.controller
        self.cancel_button.clicked.connect(self.cancel)
        self.reconnect_button.clicked.connect(self.reconnect)
        self.disconnect_button.clicked.connect(c.stop)
        c.messagesAdded.connect(self._on_messages)
        c.stderrLine.connect(self.stderr_console.append_line)
        c.diagnosticsChanged.connect(self.overview.set_diagnostic_count)
        self.overview.diagnosticsRequested.connect(self.show_diagnostics)
        # connection-level views
        c.notificationReceived.connect(self.notifications.add)
        c.stateChanged.connect(self.roots_panel.on_state)
        c.stateChanged.connect(self.requests_indicator.on_state)
        # the Explore panels: hooks, then content actions; then the tab gates
        explore = self.explore
        for panel in explore.panels.values():
            c.stateChanged.connect(panel.on_state)
            c.notificationReceived.connect(panel.on_notification)
            panel.readResourceRequested.connect(explore.open_resource)
            panel.openUrlRequested.connect(explore.open_url)
            panel.openFileRequested.connect(explore.open_file)
            panel.saveCallRequested.connect(self.collections.add_call)
            panel.on_state(c.state)
        c.stateChanged.connect(explore.apply_gates)
        self.log.saveCallRequested.connect(self.collections.add_call)  # a request row's "Save to Collection"
        self.overview.era_section.cacheRefreshed.connect(explore.show_fresh)  # the lists re-read at once
        c.stateChanged.connect(self._on_state)  # last: the tab re-emits once everything followed
        theme_manager().changed.connect(self._show_state_dot)  # the dot in the new theme's colours
        self._on_state(c.state)

    # -- commands --------------------------------------------------------------------------------

    def connect_server(self) -> None:
        """Connect (when not connected or connecting already)."""
        if self.controller.state in (ConnectionState.CONNECTED, ConnectionState.CONNECTING):
            return
        self.controller.start()
        self._attach_recording()

    def reconnect(self) -> None:
        """Connect again (a tab that never connected just connects)."""
        if self.controller.state is ConnectionState.IDLE and not self.controller.busy:
            self.connect_server()
        else:
            self.controller.reconnect()

    def cancel(self) -> None:
        """The header's Cancel: stops a connection attempt, else every request of this connection in flight."""
        if self.controller.busy:
            self.controller.cancel()
        else:
            self.controller.cancel_requests()
        self._update_cancel()

    def show_diagnostics(self) -> None:
        self.inner_tabs.setCurrentWidget(self.log)
        self.log.show_diagnostics_only()

    async def aclose(self) -> None:
        """Close the connection and the recording for good (the tab is going away)."""
        self._ticker.stop()
        self.explore.shutdown()
        self.collections.shutdown()
        self.log.release()  # the panel's reader lets go of the file before the recording closes
        await self.controller.aclose()

    def restore_layout(self, settings: UiSettings) -> None:
        """Splitter positions as last saved (shared by all tabs)."""
        for name, splitter in self._splitters():
            state = settings.splitter(name)
            if state is not None:
                splitter.restoreState(state)

    def save_layout(self, settings: UiSettings) -> None:
        for name, splitter in self._splitters():
            settings.set_splitter(name, splitter.saveState())

    def _splitters(self) -> list[tuple[str, QSplitter | SplitMemory]]:
        return [("overview", self.overview.splitter), ("log", self.log.splitter),
                ("tools", self.tools.splitter), ("prompts", self.prompts.splitter),
                ("tool_result", self.tools.result_split), ("prompt_result", self.prompts.result_split),
                ("notifications", self.notifications.splitter)]  # fmt: skip

    @staticmethod
    def connect_label(state: ConnectionState) -> str:
        """The text of the header's connect button in ``state`` (messages that name the button use it)."""
        return "Connect" if state is ConnectionState.IDLE else "Reconnect"

    @property
    def title(self) -> str:
        return self.controller.settings.label

    # -- updates ---------------------------------------------------------------------------------

    def _attach_recording(self) -> None:
        recording = self.controller.recording
        if recording is not None and self._attached is not recording:
            self._attached = recording
            self.log.set_recording(recording)
        note = self.controller.storage_note
        if note:
            text = f"{note[0].upper()}{note[1:]}"
            if self.storage_label.text() != text:
                self.storage_label.setText(text)
                self.storage_label.setToolTip(
                    "This session's messages are not saved to disk; they are lost when the tab closes."
                )
            self.storage_label.show()
        else:
            self.storage_label.hide()

    def _on_messages(self) -> None:
        self._attach_recording()
        self.log.refresh()
        self._update_cancel()

    def _update_cancel(self) -> None:
        """Cancel is enabled while there is something to cancel: the connection attempt, or requests in flight."""
        c = self.controller
        if c.state is ConnectionState.CONNECTING:
            enabled, tip = True, "Stop the connection attempt"
        else:
            n = len(c.requests_in_flight())
            enabled = n > 0
            tip = (
                f"Cancel the {n} request{'s' if n != 1 else ''} in flight (the server gets notifications/cancelled)"
                if n
                else "Nothing to cancel: no connection attempt and no request in flight"
            )
        self.cancel_button.setEnabled(enabled)
        self.cancel_button.setToolTip(tip)

    def _on_state(self, state: ConnectionState) -> None:
        c = self.controller
        self._attach_recording()
        action = self.connect_label(state)  # every message that names the button says what it says
        self.reconnect_button.setText(action)
        self.reconnect_button.setToolTip(
            "Start the server and connect" if state is ConnectionState.IDLE
            else "Close the connection (if any) and connect again"
        )  # fmt: skip
        if state is ConnectionState.CONNECTING:
            self._connect_started = time.monotonic()
            self._ticker.start()
            self.overview.show_message(f"Connecting to {c.settings.label}…")
        else:
            self._ticker.stop()
        if state is ConnectionState.CONNECTED and c.server is not None:
            self.overview.show_server(c.server, c.settings.capabilities, c)
            self.overview.set_diagnostic_count(c.diagnostic_count)
        elif state is ConnectionState.FAILED:
            self.overview.show_message(f"Not connected.\n\n{c.failure or ''}\n\nPress {action} to try again.")
        elif state is ConnectionState.IDLE:
            self.overview.show_message(f"Not connected. Press {action} to start the server.")
        elif state in (ConnectionState.CLOSED, ConnectionState.EXITED):  # the overview stays, frozen (no actions)
            self.overview.era_section.update_cache()
        self._update_cancel()
        self.disconnect_button.setEnabled(state in (ConnectionState.CONNECTED, ConnectionState.CONNECTING))
        self._show_state_dot()
        self._update_header()
        self.stateChanged.emit(state)

    def _show_state_dot(self) -> None:
        self.state_dot.setPixmap(state_icon(self.controller.state, 14).pixmap(14, 14))

    def _describe_target(self) -> str:
        settings = self.controller.settings
        if self._target is None or self._target[0] is not settings:
            try:
                text = settings.transport_factory().describe()
            except Exception:  # a description is only decoration
                text = settings.label
            self._target = (settings, text)
        return self._target[1]

    def use_settings(self, settings: ConnectionSettings) -> None:
        """The profile was edited: the next (re)connect uses the new settings."""
        self.controller.settings = settings
        self.requests_indicator.rebind()
        self._sync_auth_view()
        self._update_header()

    def _sync_auth_view(self) -> None:
        """An "Authorization" tab while the settings use OAuth (they carry an auth step feed)."""
        feed = self.controller.settings.auth_feed
        if feed is None:
            if self.auth_view is not None:
                self.inner_tabs.removeTab(self.inner_tabs.indexOf(self.auth_view))
                self.auth_view.bind(None)
                self.auth_view.deleteLater()
                self.auth_view = None
            return
        if self.auth_view is None:
            self.auth_view = AuthView(feed.server_url)
            self.inner_tabs.insertTab(1, self.auth_view, "Authorization")
        self.auth_view.bind(feed)

    def _update_header(self) -> None:
        c = self.controller
        state = c.state
        self.state_label.setText(STATE_TITLES[state])
        self.stderr_label.hide()
        if state is ConnectionState.CONNECTING:
            elapsed = time.monotonic() - (self._connect_started or time.monotonic())
            limit = c.settings.timeouts.request
            bound = f" (gives up after {limit:g} s)" if limit else ""
            self.detail_label.setText(f"Starting {self._describe_target()} — {elapsed:.1f} s{bound}")
        elif state is ConnectionState.CONNECTED and c.server is not None:
            name = c.server.server_info.get("name") if isinstance(c.server.server_info, dict) else None
            self.detail_label.setText(
                f"{name or 'server'} · protocol {c.server.protocol_version} · "
                f"connected in {c.server.elapsed * 1000:.0f} ms"
            )
        elif state is ConnectionState.FAILED:
            self.detail_label.setText(c.failure or "unknown reason")
            self._show_stderr()
        elif state is ConnectionState.EXITED:
            info = c.exit_info
            if info is not None and info.signal is not None:
                how = f"killed by signal {info.signal}"
            elif info is not None and info.exit_code is not None:
                how = f"exit code {info.exit_code}"
            else:
                how = "the connection closed"
            self.detail_label.setText(f"{how} — {info.reason if info else ''}".rstrip(" —"))
            self._show_stderr()
        elif state is ConnectionState.CLOSED:
            self.detail_label.setText(
                f"The connection was closed. {self.connect_label(state)} starts the server again."
            )
        else:
            self.detail_label.setText(self._describe_target())

    def _stderr_tail(self) -> list[str]:
        c = self.controller
        lines: list[str] = list(c.exit_info.stderr_tail) if c.exit_info is not None else []
        if not lines and c.connection is not None:
            lines = list(c.connection.stderr_tail)
        return lines[-STDERR_LINES_SHOWN:]

    def _show_stderr(self) -> None:
        lines = self._stderr_tail()
        if lines:
            self.stderr_label.setText("Last stderr lines:\n" + "\n".join(lines))
            self.stderr_label.show()
