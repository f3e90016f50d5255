"""The Utilities panel: Ping with round-trip time and a short history, the logging level (``logging/setLevel``),
and the server log of ``notifications/message``.

2026-07-28 has neither ping nor logging/setLevel: there Ping measures a ``server/discover`` round trip and the
level selector sets the level every request asks for in its ``_meta`` (the engine's ``set_logging_level``); the
tooltips and the status line say so (``gating.era_note``).

Reconnect-aware: the widgets are re-gated on every state change, and a level the user chose is sent again to
the new session (a server starts every session at its own default level). Log entries are kept across
reconnects.
"""

from __future__ import annotations

import time
from typing import Final

from PySide6.QtGui import QColor
from PySide6.QtWidgets import (
    QComboBox,
    QFrame,
    QGridLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from inspector.client.errors import ClientError
from inspector.content.plural import plural
from inspector.content.utilities import PingHistory, format_rtt, parse_log_message
from inspector.protocol.envelope import LOG_LEVEL_KEY
from inspector.protocol.events import NotificationReceived
from inspector.protocol.methods import LOG_LEVELS
from inspector.protocol.versions import Era
from inspector.ui.connection.controller import ConnectionController, ConnectionState
from inspector.ui.explore.common.gating import era_note, method_gap
from inspector.ui.explore.common.panel import ExplorePanel
from inspector.ui.explore.common.panel_tasks import (
    PanelTasks,
    describe_failure,
    failure_line,
    gate,
    live_connection,
    live_server,
    require_connection,
)
from inspector.ui.explore.utilities.server_log import ServerLogView
from inspector.ui.widgets.style import hbox, section_label, tones
from inspector.ui.widgets.theme import follow_font, small_font_size, themed_style

__all__ = ["UtilitiesPanel"]

HISTORY_SHOWN: Final = 20
_PING_TIP: Final = "Send ping and measure the round-trip time"
_LEVEL_TIP: Final = "The least severe level the server should send (logging/setLevel)"
_RTT_SAMPLES: Final = ("—", "failed", "8.88 ms", "888 ms", "88.88 s")
"""The widest texts the round-trip label shows (``format_rtt``), for its fixed width."""


def _clock(at: float | None = None) -> str:
    return time.strftime("%H:%M:%S", time.localtime(at))


def _card(parent: QWidget) -> QFrame:
    t = tones(parent)
    frame = QFrame(parent)
    frame.setObjectName("utilityCard")
    frame.setStyleSheet(
        f"QFrame#utilityCard {{ background: {t.card_bg}; border: 1px solid {t.card_border}; border-radius: 6px; }}"
    )
    return frame


class UtilitiesPanel(ExplorePanel):
    """An ``ExplorePanel`` (wired by the connection tab); ``refresh()`` re-gates."""

    def __init__(self, controller: ConnectionController, parent: QWidget | None = None) -> None:
        super().__init__(controller, parent)
        self.history = PingHistory(size=50)
        self.tasks = PanelTasks(self, lambda error: self._show_internal_error(describe_failure(error)))
        self.chosen_level: str | None = None
        """The level the user set (sent again after a reconnect)."""
        self.applied_level: str | None = None
        self._build()

    # --- layout ---------------------------------------------------------------------------------------------

    def _build(self) -> None:
        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 8, 8, 8)
        layout.setSpacing(8)
        cards = hbox(spacing=8)

        ping_card = _card(self)
        grid = QGridLayout(ping_card)
        grid.setContentsMargins(10, 8, 10, 8)
        grid.addWidget(section_label("PING", ping_card), 0, 0, 1, 2)
        self.ping_button = QPushButton("Ping", ping_card)
        self.rtt_label = QLabel("—", ping_card)
        follow_font(self.rtt_label, "figure")
        self.rtt_label.setToolTip("Round-trip time of the last ping")
        # room for the widest result from the start: the card keeps its width after the first ping
        metrics = self.rtt_label.fontMetrics()
        self.rtt_label.setFixedWidth(max(metrics.horizontalAdvance(text) for text in _RTT_SAMPLES) + 8)
        self.stats_label = QLabel("No pings yet", ping_card)
        self.stats_label.setWordWrap(True)
        self.stats_label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        themed_style(self.stats_label, lambda t: f"color: {t.muted}; font-size: {small_font_size()};")
        self.history_list = QListWidget(ping_card)
        self.history_list.setAccessibleName("Ping history")
        self.history_list.setMaximumHeight(96)
        self.history_list.setAlternatingRowColors(True)
        grid.addWidget(self.ping_button, 1, 0)
        grid.addWidget(self.rtt_label, 1, 1)
        grid.addWidget(self.stats_label, 2, 0, 1, 2)
        grid.addWidget(self.history_list, 0, 2, 3, 1)
        grid.setColumnStretch(2, 1)
        cards.addWidget(ping_card, 1)

        level_card = _card(self)
        box = QVBoxLayout(level_card)
        box.setContentsMargins(10, 8, 10, 8)
        box.addWidget(section_label("LOGGING LEVEL", level_card))
        row = hbox(spacing=6)
        self.level_combo = QComboBox(level_card)
        self.level_combo.setAccessibleName("Server log level")
        for level in LOG_LEVELS:
            self.level_combo.addItem(level)
        self.level_combo.setPlaceholderText("not set")  # shown until the user picks a level (current index -1)
        self.level_combo.setCurrentIndex(-1)
        row.addWidget(self.level_combo)
        row.addStretch(1)
        box.addLayout(row)
        self.level_status = QLabel("Not set in this session (the server uses its default)", level_card)
        self.level_status.setWordWrap(True)
        themed_style(self.level_status, lambda t: f"color: {t.muted}; font-size: {small_font_size()};")
        box.addWidget(self.level_status)
        box.addStretch(1)
        cards.addWidget(level_card, 1)
        layout.addLayout(cards)

        self.server_log = ServerLogView(self)
        layout.addWidget(self.server_log, 1)

        self.ping_button.clicked.connect(self.ping)
        self.level_combo.activated.connect(lambda index: self.set_level(LOG_LEVELS[index]))

    # --- public API -----------------------------------------------------------------------------------------

    def refresh(self) -> None:
        """Re-gate the widgets by the current connection (called on every state change)."""
        self._apply_gating()

    def shutdown(self) -> None:
        """The tab is closing: stop every request this panel started."""
        self.tasks.cancel_all()

    def ping(self) -> None:
        self.tasks.spawn(self._ping(), key="ping")

    def set_level(self, level: str) -> None:
        if level not in LOG_LEVELS:
            raise ValueError(f"unknown logging level {level!r}")
        self.chosen_level = level
        self.level_combo.setCurrentIndex(LOG_LEVELS.index(level))
        self.tasks.spawn(self._set_level(level), key="level")

    # --- state ----------------------------------------------------------------------------------------------

    def on_state(self, state: ConnectionState) -> None:
        connected = live_connection(self.controller) is not None
        if not connected:
            self.tasks.cancel_all()
            self.applied_level = None
        self._apply_gating()
        if (
            connected
            and self.chosen_level is not None
            and method_gap(live_server(self.controller), "logging/setLevel") is None
        ):
            self.set_level(self.chosen_level)

    def _apply_gating(self) -> None:
        server = live_server(self.controller)
        gate(self.ping_button, method_gap(server, "ping"), era_note(server, "ping") or _PING_TIP)
        level_gap = method_gap(server, "logging/setLevel")
        gate(self.level_combo, level_gap, era_note(server, "logging/setLevel") or _LEVEL_TIP)
        if level_gap is not None and server is not None:
            self.level_status.setText(level_gap)
            self.server_log.set_note(
                "The server did not declare logging: it should send no notifications/message; any it sends anyway "
                "are shown here (and flagged in the traffic log)."
            )
        else:
            self.server_log.set_note("")
            if server is None:
                self.level_status.setText("Not connected")
            elif self.applied_level is None:
                self.level_status.setText(self._unset_status())

    # --- ping -----------------------------------------------------------------------------------------------

    async def _ping(self) -> None:
        self.ping_button.setEnabled(False)
        started = time.perf_counter()
        try:
            await require_connection(self.controller).ping()
        except ClientError as exc:
            failure = failure_line(exc, "ping")  # a server's error with what it means (-32022 on server/discover)
            sample = self.history.add(None, failure)
            self.rtt_label.setText("failed")
            themed_style(self.rtt_label, lambda t: f"color: {t.error_fg};")
            self.rtt_label.setToolTip(failure)
        else:
            sample = self.history.add(time.perf_counter() - started)
            assert sample.rtt is not None
            self.rtt_label.setText(format_rtt(sample.rtt))
            themed_style(self.rtt_label, lambda t: f"color: {t.ok_fg};")
            self.rtt_label.setToolTip(f"Round-trip time of the ping sent at {_clock(sample.time)}")
        finally:
            self._apply_gating()
        outcome = format_rtt(sample.rtt) if sample.rtt is not None else f"failed: {sample.error}"
        item = QListWidgetItem(f"{_clock(sample.time)}   {outcome}")
        if sample.rtt is None:
            item.setForeground(QColor(tones().error_fg))
        self.history_list.insertItem(0, item)
        while self.history_list.count() > HISTORY_SHOWN:
            self.history_list.takeItem(self.history_list.count() - 1)
        stats = self.history.stats()
        count = len(self.history.samples)
        failures = self.history.failures()
        if stats is None:
            self.stats_label.setText(f"{plural(count, 'ping')}, all failed")
        else:
            low, mean, high = stats
            self.stats_label.setText(
                f"min {format_rtt(low)} · avg {format_rtt(mean)} · max {format_rtt(high)} · {plural(count, 'ping')}"
                + (f", {failures} failed" if failures else "")
            )

    # --- logging --------------------------------------------------------------------------------------------

    def _modern(self) -> bool:
        server = live_server(self.controller)
        return server is not None and server.era is Era.MODERN

    def _unset_status(self) -> str:
        conn = live_connection(self.controller)
        if conn is not None and conn.era is Era.MODERN:
            current = conn.session.log_level
            asked = f"every request asks for {current} in its _meta ({LOG_LEVEL_KEY})" if current else "none asked"
            return f"Not chosen in this session: {asked}; 2026-07-28 has no logging/setLevel"
        return "Not set in this session (the server uses its default)"

    async def _set_level(self, level: str) -> None:
        modern = self._modern()
        self.level_status.setText(f"Setting {level}…")
        started = time.perf_counter()
        try:
            await require_connection(self.controller).set_logging_level(level)
        except ClientError as exc:
            what = "the _meta log level" if modern else "logging/setLevel"
            self.level_status.setText(f"{what} {level} failed: {exc}")
            themed_style(self.level_status, lambda t: f"color: {t.error_fg}; font-size: {small_font_size()};")
            return
        self.applied_level = level
        if modern:  # nothing was sent: the level rides in the _meta of the requests from now on
            self.level_status.setText(
                f"Level {level} chosen at {_clock()}: every request from now on asks for {level} and above in its "
                f"_meta ({LOG_LEVEL_KEY}); 2026-07-28 has no logging/setLevel"
            )
            themed_style(self.level_status, lambda t: f"color: {t.ok_fg}; font-size: {small_font_size()};")
            return
        elapsed = format_rtt(time.perf_counter() - started)
        self.level_status.setText(f"Level set to {level} at {_clock()} ({elapsed}); the server sends {level} and above")
        themed_style(self.level_status, lambda t: f"color: {t.ok_fg}; font-size: {small_font_size()};")

    def on_notification(self, event: NotificationReceived) -> None:
        if event.method == "notifications/message":
            self.server_log.add(parse_log_message(event.params, self.server_log.model.next_seq()))

    def _show_internal_error(self, message: str) -> None:
        self.level_status.setText(message)
        themed_style(self.level_status, lambda t: f"color: {t.error_fg}; font-size: {small_font_size()};")
