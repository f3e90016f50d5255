"""``ToolResultView``: one tools/call as it runs and ends — progress, cancel, result, tool error or protocol error.

The view's ``state()`` (also the ``resultState`` property of its frame, which the stylesheet keys on) tells the
outcomes apart: a tool's own failure (``isError: true``, red "Tool error" frame) is not a protocol failure
(amber "Protocol error" frame with the JSON-RPC code, message and data). structuredContent is shown as a tree and
checked against the tool's outputSchema; every violation is listed with its path and marked in the tree.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from enum import StrEnum
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QFrame,
    QLabel,
    QPushButton,
    QScrollArea,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from inspector.client.rounds import RoundNote
from inspector.content.plural import plural
from inspector.content.text import format_duration
from inspector.content.validation import SchemaIssue, validate_tool_result
from inspector.ui.viewers.blocks import ContentListView, forward_content_signals
from inspector.ui.viewers.error_banner import RemoteErrorBanner
from inspector.ui.viewers.json_view import JsonTreeView
from inspector.ui.viewers.progress_panel import ProgressPanel
from inspector.ui.viewers.text_view import JsonView, TextMode
from inspector.ui.widgets.banner import Banner
from inspector.ui.widgets.resources import icon_label, set_label_icon
from inspector.ui.widgets.style import Tones, badge_label, clear_layout, hbox, section_label
from inspector.ui.widgets.theme import font_size_css, small_font_size, themed_style

__all__ = ["ResultState", "ToolResultView"]


class ResultState(StrEnum):
    EMPTY = "empty"
    RUNNING = "running"
    SUCCESS = "success"
    TOOL_ERROR = "tool-error"
    PROTOCOL_ERROR = "protocol-error"
    CANCELLED = "cancelled"


_TITLES = {
    ResultState.EMPTY: "No result yet",
    ResultState.RUNNING: "Running…",
    ResultState.SUCCESS: "Result",
    ResultState.TOOL_ERROR: "Tool error",
    ResultState.PROTOCOL_ERROR: "Protocol error",
    ResultState.CANCELLED: "Cancelled",
}
_STATE_ICONS = {  # the header's icon (resources/icons/ui) and its tone, before the title
    ResultState.SUCCESS: ("check", "ok"),
    ResultState.TOOL_ERROR: ("error", "error"),
    ResultState.PROTOCOL_ERROR: ("warning", "warning"),
    ResultState.CANCELLED: ("cancelled", "muted"),
}


def _frame_style(t: Tones) -> str:
    return (
        f"QFrame#toolResultFrame {{ border: 1px solid {t.card_border}; border-radius: 8px; background: {t.card_bg}; }}"
        f' QFrame#toolResultFrame[resultState="tool-error"] {{ border: 2px solid {t.error_border}; }}'
        f' QFrame#toolResultFrame[resultState="protocol-error"] {{ border: 2px dashed {t.warning_border}; }}'
        f' QFrame#toolResultFrame[resultState="running"] {{ border: 1px solid {t.info_border}; }}'
        f" QFrame#resultHeader {{ border: none; border-top-left-radius: 7px; border-top-right-radius: 7px;"
        f" border-bottom: 1px solid {t.card_border}; background: {t.badge_bg}; }}"
        f' QFrame#resultHeader[resultState="success"] {{ background: {t.ok_bg}; }}'
        f' QFrame#resultHeader[resultState="tool-error"] {{ background: {t.error_bg}; }}'
        f' QFrame#resultHeader[resultState="protocol-error"] {{ background: {t.warning_bg}; }}'
        f' QFrame#resultHeader[resultState="running"] {{ background: {t.info_bg}; }}'
        f" QLabel#resultTitle {{ font-weight: 700; font-size: {font_size_css('result_title')}; color: {t.text}; }}"
        f' QLabel#resultTitle[resultState="success"] {{ color: {t.ok_fg}; }}'
        f' QLabel#resultTitle[resultState="tool-error"] {{ color: {t.error_fg}; }}'
        f' QLabel#resultTitle[resultState="protocol-error"] {{ color: {t.warning_fg}; }}'
        f' QLabel#resultTitle[resultState="running"] {{ color: {t.info_fg}; }}'
        f' QFrame#resultHeader[schemaMismatch="true"] {{ background: {t.warning_bg}; }}'
        f' QLabel#resultTitle[schemaMismatch="true"] {{ color: {t.warning_fg}; }}'
    )


class ToolResultView(QWidget):
    """Progress and outcome of one tool call. ``clock`` (monotonic seconds) is injectable for tests."""

    cancelRequested = Signal()
    readResourceRequested = Signal(str)
    openUrlRequested = Signal(str)
    openFileRequested = Signal(str)
    retryAfterRelistingRequested = Signal()
    """The "Retry after re-listing" action of a -32020 (header mismatch) error was clicked."""

    def __init__(
        self,
        tool_name: str = "",
        *,
        clock: Callable[[], float] = time.monotonic,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self._state = ResultState.EMPTY
        self._duration: float | None = None
        self._issues: list[SchemaIssue] = []
        self.result: dict[str, Any] | None = None
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        self.frame = QFrame(self)
        self.frame.setObjectName("toolResultFrame")
        themed_style(self.frame, _frame_style)
        outer.addWidget(self.frame)
        column = QVBoxLayout(self.frame)
        column.setContentsMargins(1, 1, 1, 1)
        column.setSpacing(0)

        self.header = QFrame(self.frame)
        self.header.setObjectName("resultHeader")
        row = hbox(self.header, spacing=8, margins=(12, 8, 12, 8))
        self.state_icon = icon_label("check", "ok", 16, self.header)
        self.state_icon.hide()
        row.addWidget(self.state_icon)
        self.title_label = QLabel(self.header)
        self.title_label.setObjectName("resultTitle")
        row.addWidget(self.title_label)
        self.tool_label = QLabel(self.header)
        themed_style(self.tool_label, lambda t: f"color: {t.muted}; font-family: monospace;")
        row.addWidget(self.tool_label)
        self.is_error_badge = badge_label("isError: true", "error", "The tool reported a failure", self.header)
        self.is_error_badge.hide()
        row.addWidget(self.is_error_badge)
        row.addStretch(1)
        self.duration_label = QLabel(self.header)
        themed_style(self.duration_label, lambda t: f"color: {t.muted};")
        row.addWidget(self.duration_label)
        self.raw_button = QToolButton(self.header)
        self.raw_button.setText("Raw JSON")
        self.raw_button.setCheckable(True)
        self.raw_button.setAutoRaise(True)
        self.raw_button.setToolTip("Show the result exactly as received")
        self.raw_button.toggled.connect(self.set_raw_visible)
        row.addWidget(self.raw_button)
        column.addWidget(self.header)

        self.running_panel = ProgressPanel(clock=clock, parent=self.frame)
        self.running_panel.cancelRequested.connect(self.cancelRequested)
        self.progress_bar = self.running_panel.progress_bar
        self.progress_label = self.running_panel.progress_label
        self.elapsed_label = self.running_panel.elapsed_label
        self.cancel_button = self.running_panel.cancel_button
        column.addWidget(self.running_panel)

        self.scroll_area = QScrollArea(self.frame)
        self.scroll_area.setAccessibleName("Result")
        self.scroll_area.setWidgetResizable(True)
        self.scroll_area.setFrameShape(QFrame.Shape.NoFrame)
        self.body = QWidget()
        self.body.setObjectName("resultBody")
        self.body.setStyleSheet("QWidget#resultBody { background: transparent; }")
        self._body_layout = QVBoxLayout(self.body)
        self._body_layout.setContentsMargins(12, 10, 12, 12)
        self._body_layout.setSpacing(8)
        self.scroll_area.setWidget(self.body)
        self.scroll_area.viewport().setAutoFillBackground(False)
        column.addWidget(self.scroll_area, 1)

        self.content_view: ContentListView | None = None
        self.structured_view: JsonTreeView | None = None
        self.schema_banner: Banner | None = None
        self.schema_ok_label: QLabel | None = None
        self.protocol_error_banner: Banner | None = None
        self.retry_relisting_button: QPushButton | None = None
        self.raw_view: JsonView | None = None
        self._reset_parts()
        self.set_tool_name(tool_name)
        self._set_state(ResultState.EMPTY)

    # --- public API -----------------------------------------------------------------------------------------

    def state(self) -> ResultState:
        return self._state

    def schema_issues(self) -> list[SchemaIssue]:
        return list(self._issues)

    def duration(self) -> float | None:
        return self._duration

    def set_tool_name(self, name: str) -> None:
        self.tool_label.setText(name)
        self.tool_label.setVisible(bool(name))

    def set_running(self, started_at: float | None = None) -> None:
        """Show the call as running since ``started_at`` (the clock's seconds; now when None)."""
        self._clear_body()
        self._duration = None
        self._set_state(ResultState.RUNNING)
        self.running_panel.start(started_at)

    def set_progress(self, progress: float, total: float | None = None, message: str | None = None) -> None:
        """Apply a notifications/progress: determinate with a total, indeterminate (busy) without."""
        self.running_panel.set_progress(progress, total, message)

    def set_waiting_for_person(self, waiting: bool) -> None:
        """While running: the server's request waits for the person (the timeout is held)."""
        self.running_panel.set_waiting_for_person(waiting)

    def set_round(self, note: RoundNote) -> None:
        """While running: the call is in a later round of a multi-round-trip request (2026-07-28)."""
        self.running_panel.set_round(note)

    def set_result(
        self, result: dict[str, Any], output_schema: dict[str, Any] | None = None, *, duration: float | None = None
    ) -> None:
        """Show a tools/call result, validating structuredContent against ``output_schema`` when given."""
        self._finish(duration)
        self._clear_body()
        self.result = result
        is_error = result.get("isError") is True
        self._issues = validate_tool_result(result, output_schema)
        self.is_error_badge.setVisible(is_error)
        if is_error:
            self._add(
                Banner(
                    "error",
                    "The tool reported an error",
                    ["The call itself succeeded; the tool returned isError: true. Its content explains the failure."],
                    self.body,
                )
            )
        self._show_schema_check(output_schema)
        content = result.get("content")
        if not isinstance(content, list):
            self._add(Banner("warning", 'The result has no "content" array', [], self.body))
            content = []
        self._add(section_label(f"Content · {plural(len(content), 'block')}", self.body))
        self.content_view = ContentListView(content, parent=self.body)
        forward_content_signals(self.content_view, self)
        self._add(self.content_view)
        if "structuredContent" in result:
            self._add(section_label("structuredContent", self.body))
            self.structured_view = JsonTreeView(result["structuredContent"], self.body, fit=True, max_height=420)
            errors: dict[str, list[str]] = {}
            for issue in self._issues:
                errors.setdefault(issue.path, []).append(issue.message)
            self.structured_view.set_error_paths(errors)
            self._add(self.structured_view)
        if isinstance(result.get("_meta"), dict):
            self._add_meta(result["_meta"])
        self._body_layout.addStretch(1)
        self._set_state(ResultState.TOOL_ERROR if is_error else ResultState.SUCCESS)
        if self._issues:
            self.title_label.setText("Result · does not match outputSchema")
            set_label_icon(self.state_icon, "warning", "warning")
            self._set_mismatch(True)

    def set_protocol_error(self, code: int, message: str, data: Any = None, *, duration: float | None = None) -> None:
        """Show a JSON-RPC error response to the tools/call (no result at all)."""
        self._finish(duration)
        self._clear_body()
        self.result = {"code": code, "message": message, **({"data": data} if data is not None else {})}
        # -32020/-32021/-32022 and the other codes with an MCP meaning explained from their data; after a -32020
        # the client already listed the tools again and retried once; a person may do so after fixing things
        banner = RemoteErrorBanner(
            code,
            message,
            data,
            "tools/call",
            self.body,
            tone="warning",
            with_data=False,  # shown in full below
            extra=["The request failed at the protocol level: the server sent no tool result."],
        )
        banner.retryAfterRelistingRequested.connect(self.retryAfterRelistingRequested)
        self.protocol_error_banner = banner
        self.retry_relisting_button = banner.retry_relisting_button
        self._add(banner)
        if data is not None:
            self._add(section_label("error.data", self.body))
            self._add(
                JsonView(data, mode=TextMode.TREE if isinstance(data, dict | list) else TextMode.JSON, parent=self.body)
            )
        self._body_layout.addStretch(1)
        self._set_state(ResultState.PROTOCOL_ERROR)

    def set_cancelled(self, reason: str | None = None) -> None:
        """The call was cancelled (notifications/cancelled sent); any late result is not expected."""
        self._finish(None)
        self._clear_body()
        self._add(Banner("info", "The request was cancelled", [reason] if reason else [], self.body))
        self._body_layout.addStretch(1)
        self._set_state(ResultState.CANCELLED)

    def clear(self) -> None:
        self.running_panel.stop()
        self._clear_body()
        self._duration = None
        self._set_state(ResultState.EMPTY)

    def set_raw_visible(self, visible: bool) -> None:
        """Swap the rendered body for the raw result JSON (and back)."""
        if visible and self.result is not None:
            self.raw_view = JsonView(self.result, mode=TextMode.JSON, fit=False, parent=self.frame)
            layout = self.frame.layout()
            assert isinstance(layout, QVBoxLayout)
            layout.addWidget(self.raw_view, 1)
            self.raw_view.show()
        elif self.raw_view is not None:
            self.raw_view.hide()
            self.raw_view.deleteLater()
            self.raw_view = None
        self.scroll_area.setVisible(not visible or self.result is None)

    # --- internals ------------------------------------------------------------------------------------------

    def _reset_parts(self) -> None:
        self.content_view = None
        self.structured_view = None
        self.schema_banner = None
        self.schema_ok_label = None
        self.protocol_error_banner = None
        self.retry_relisting_button = None
        self.raw_view = None

    def _show_schema_check(self, output_schema: dict[str, Any] | None) -> None:
        if self._issues:
            count = len(self._issues)
            self.schema_banner = Banner(
                "error",
                f"structuredContent does not match the tool's outputSchema ({plural(count, 'problem')})",
                [f"• {issue.path}: {issue.message}" for issue in self._issues],
                self.body,
            )
            self._add(self.schema_banner)
        elif output_schema is not None and self.result is not None and self.result.get("isError") is not True:
            line = QWidget(self.body)
            row = hbox(line, spacing=4)
            row.addWidget(icon_label("check", "ok", 16, line))
            self.schema_ok_label = QLabel("structuredContent matches the outputSchema", line)
            themed_style(self.schema_ok_label, lambda t: f"color: {t.ok_fg};")
            row.addWidget(self.schema_ok_label, 1)
            self._add(line)

    def _add_meta(self, meta: dict[str, Any]) -> None:
        """``_meta`` collapsed behind a toggle (SDKs put bulky server info there)."""
        toggle = QToolButton(self.body)
        toggle.setText(f"_meta ({plural(len(meta), 'key')})")
        toggle.setCheckable(True)
        toggle.setAutoRaise(True)
        toggle.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        toggle.setArrowType(Qt.ArrowType.RightArrow)
        themed_style(
            toggle, lambda t: f"QToolButton {{ color: {t.muted}; font-weight: 600; font-size: {small_font_size()}; }}"
        )
        view = JsonView(meta, parent=self.body)
        view.hide()

        def flip(shown: bool) -> None:
            view.setVisible(shown)
            toggle.setArrowType(Qt.ArrowType.DownArrow if shown else Qt.ArrowType.RightArrow)

        toggle.toggled.connect(flip)
        self.meta_toggle = toggle
        self._add(toggle)
        self._add(view)

    def _add(self, widget: QWidget) -> None:
        self._body_layout.addWidget(widget)
        explicitly_hidden = widget.testAttribute(Qt.WidgetAttribute.WA_WState_ExplicitShowHide) and widget.isHidden()
        if not explicitly_hidden:
            widget.show()  # now, not at the next event-loop turn: the state is complete when set_* returns

    def _clear_body(self) -> None:
        if self.raw_button.isChecked():
            self.raw_button.setChecked(False)
        clear_layout(self._body_layout)
        self._reset_parts()
        self._issues = []
        self.result = None
        self.is_error_badge.hide()

    def _finish(self, duration: float | None) -> None:
        elapsed = self.running_panel.stop()
        self._duration = duration if duration is not None else elapsed

    def _set_mismatch(self, mismatch: bool) -> None:
        for widget in (self.header, self.title_label):
            widget.setProperty("schemaMismatch", mismatch)
            widget.style().unpolish(widget)
            widget.style().polish(widget)

    def _set_state(self, state: ResultState) -> None:
        self._state = state
        self._set_mismatch(False)
        for widget in (self.frame, self.header, self.title_label):
            widget.setProperty("resultState", state.value)
            widget.style().unpolish(widget)
            widget.style().polish(widget)
        self.title_label.setText(_TITLES[state])
        if state in _STATE_ICONS:
            set_label_icon(self.state_icon, *_STATE_ICONS[state])
        self.state_icon.setVisible(state in _STATE_ICONS)
        self.running_panel.setVisible(state is ResultState.RUNNING)
        self.raw_button.setVisible(state in (ResultState.SUCCESS, ResultState.TOOL_ERROR, ResultState.PROTOCOL_ERROR))
        if self._duration is not None and state is not ResultState.RUNNING:
            verb = {ResultState.SUCCESS: "Completed in", ResultState.CANCELLED: "Cancelled after"}.get(
                state, "Failed after"
            )
            self.duration_label.setText(f"{verb} {format_duration(self._duration)}")
        else:
            self.duration_label.setText("")
