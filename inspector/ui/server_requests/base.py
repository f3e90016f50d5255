"""What every server-request dialog shares: a header saying who asks what, flags, the queue count, an outcome.

A dialog never answers the server itself. It records ``outcome`` (a result dict, or a ``HandlerError`` for an
error answer) and closes; the handler that opened it (with ``open()``, never ``exec()``) turns the outcome into
the answer. ``withdraw(reason)`` closes it without an outcome (the server cancelled, or the connection dropped).
"""

from __future__ import annotations

import time
from typing import Any

from PySide6.QtCore import QRect, QSize, Qt, Signal
from PySide6.QtGui import QGuiApplication, QKeyEvent, QShowEvent
from PySide6.QtWidgets import (
    QDialog,
    QFrame,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from inspector.client.handlers import HandlerError, RequestInfo
from inspector.protocol.mrtr import MAX_INPUT_ROUNDS
from inspector.ui.widgets.banner import Banner
from inspector.ui.widgets.style import badge_label
from inspector.ui.widgets.theme import follow_font, make_primary, small_font_size, themed_style

__all__ = [
    "FRAME_ALLOWANCE",
    "Outcome",
    "RequestDialog",
    "available_area",
    "danger_button",
    "plain_button",
    "primary_button",
    "round_text",
]

Outcome = dict[str, Any] | HandlerError | None


def round_text(info: RequestInfo | None) -> str | None:
    """2026-07-28: what a dialog answering an ``input_required`` round says about it ("Round 2 of a
    multi-round tools/call of ask_twice …"); None for a server request of the handshake era."""
    if info is None or info.input_key is None:
        return None
    what = info.asked_by or "request"
    if info.subject:
        what += f" of {info.subject}"
    number = f"Round {info.round}" if info.round is not None else "A later round"
    return (
        f"{number} of a multi-round {what} (at most {MAX_INPUT_ROUNDS} rounds): the server needs this answer, "
        f"input {info.input_key!r}, before it goes on"
    )


FRAME_ALLOWANCE = QSize(16, 48)
"""Room left around a dialog on the screen for the window manager's frame and title bar."""


def available_area(widget: QWidget) -> QRect:
    """The available geometry of the screen ``widget`` (or its parent window) is on; the primary screen's
    when it is on none yet."""
    parent = widget.parentWidget()
    screen = (parent.window().screen() if parent is not None else None) or widget.screen()
    screen = screen or QGuiApplication.primaryScreen()
    return screen.availableGeometry() if screen is not None else QRect(0, 0, 1280, 800)


def primary_button(text: str, parent: QWidget | None = None) -> QPushButton:
    button = QPushButton(text, parent)
    button.setObjectName("primaryButton")
    button.setDefault(True)
    button.setAutoDefault(True)
    button.setMinimumWidth(110)
    return make_primary(button)


def plain_button(text: str, tooltip: str = "", parent: QWidget | None = None) -> QPushButton:
    button = QPushButton(text, parent)
    button.setAutoDefault(False)
    button.setMinimumWidth(96)
    button.setToolTip(tooltip)
    return button


def danger_button(text: str, parent: QWidget | None = None) -> QPushButton:
    button = QPushButton(text, parent)
    button.setObjectName("dangerButton")
    button.setAutoDefault(False)
    button.setMinimumWidth(96)
    themed_style(
        button,
        lambda t: (
            f"QPushButton#dangerButton {{ color: {t.error_fg}; border: 1px solid {t.error_border};"
            f" border-radius: 6px; padding: 4px 14px; background: {t.card_bg}; }}"
            f" QPushButton#dangerButton:hover {{ background: {t.error_bg}; }}"
            f" QPushButton#dangerButton:focus {{ border: 2px solid {t.error_fg}; padding: 3px 13px; }}"
        ),
    )
    return button


class RequestDialog(QDialog):
    """Header + body + button row. Subclasses fill ``body`` and ``buttons`` and call ``finish(outcome)``.

    ``answered(outcome)`` fires once, when the person decided; closing the dialog without deciding only
    emits ``finished`` (the handler then sends the default answer). A dialog whose ``linger`` is true stays
    open after answering (the URL dialog keeps tracking completion) and deletes itself when closed.
    """

    answered = Signal(object)

    def __init__(
        self,
        *,
        title: str,
        question: str,
        method: str,
        info: RequestInfo | None = None,
        label: str = "",
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.info = info
        self.method = method
        self.outcome: Outcome = None
        self.decided = False
        self.linger = False
        self.withdrawn: str | None = None
        self.primary: QPushButton | None = None
        """The button Ctrl+Enter clicks."""
        self.received = time.time()
        self.min_width = 560
        self._fit_pending = False
        self._fit_area: QRect | None = None
        """The narrowest ``fit_to_content`` makes the dialog (the screen permitting)."""
        self.setWindowTitle(f"{title} — {label}" if label else title)
        self.setSizeGripEnabled(True)

        self.header = QFrame(self)
        self.header.setObjectName("requestHeader")
        themed_style(
            self.header,
            lambda t: f"QFrame#requestHeader {{ background: {t.card_bg}; border-bottom: 1px solid {t.card_border}; }}",
        )
        self.title_label = QLabel(title, self.header)
        follow_font(self.title_label, "request_title")
        self.question_label = QLabel(question, self.header)
        self.question_label.setWordWrap(True)
        self.question_label.setTextFormat(Qt.TextFormat.PlainText)
        themed_style(self.question_label, lambda t: f"color: {t.muted};")
        nonstandard = info is not None and info.non_standard
        self.method_badge = badge_label(
            info.wire_method if info else method,
            "warning" if nonstandard else "info",
            "JSON-RPC method (non-standard name)" if nonstandard else "JSON-RPC method",
            self.header,
        )
        self.id_badge = badge_label(f"id {info.id!r}" if info else "id ?", "neutral", "request id", self.header)
        self.queue_label = badge_label("", "warning", "Requests waiting behind this one", self.header)
        self.queue_label.hide()
        top = QHBoxLayout()
        top.setSpacing(8)
        top.addWidget(self.title_label)
        top.addWidget(self.method_badge)
        top.addWidget(self.id_badge)
        top.addStretch(1)
        top.addWidget(self.queue_label)
        head = QVBoxLayout(self.header)
        head.setContentsMargins(16, 12, 16, 12)
        head.setSpacing(4)
        head.addLayout(top)
        who = f"{label} · " if label else ""
        self.source_label = QLabel(f"{who}received {time.strftime('%H:%M:%S', time.localtime(self.received))}")
        themed_style(self.source_label, lambda t: f"color: {t.muted}; font-size: {small_font_size()};")
        head.addWidget(self.question_label)
        self.round_label: QLabel | None = None
        """2026-07-28: which round of which multi-round request this input is for (None: a server request)."""
        about_round = round_text(info)
        if about_round is not None:
            self.round_label = QLabel(about_round, self.header)
            self.round_label.setObjectName("roundLabel")
            self.round_label.setWordWrap(True)
            self.round_label.setTextFormat(Qt.TextFormat.PlainText)
            themed_style(self.round_label, lambda t: f"color: {t.accent}; font-weight: 600;")
            head.addWidget(self.round_label)
        head.addWidget(self.source_label)

        self.nonstandard_banner: Banner | None = None
        self.diagnostics_banner: Banner | None = None
        self.body = QVBoxLayout()
        self.body.setContentsMargins(16, 10, 16, 6)
        self.body.setSpacing(10)
        self._add_flags(info)

        self.problem_label = QLabel(self)
        self.problem_label.setObjectName("problemLabel")
        self.problem_label.setWordWrap(True)
        themed_style(self.problem_label, lambda t: f"color: {t.error_fg};")
        self.problem_label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.problem_label.hide()
        self.buttons = QHBoxLayout()
        self.buttons.setContentsMargins(16, 8, 16, 14)
        self.buttons.setSpacing(8)

        footer = QFrame(self)
        footer.setObjectName("requestFooter")
        themed_style(footer, lambda t: f"QFrame#requestFooter {{ border-top: 1px solid {t.card_border}; }}")
        footer_layout = QVBoxLayout(footer)
        footer_layout.setContentsMargins(0, 0, 0, 0)
        footer_layout.setSpacing(0)
        problems = QHBoxLayout()
        problems.setContentsMargins(16, 6, 16, 0)
        problems.addWidget(self.problem_label)
        footer_layout.addLayout(problems)
        footer_layout.addLayout(self.buttons)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        layout.addWidget(self.header)
        layout.addLayout(self.body, 1)
        layout.addWidget(footer)

    def _add_flags(self, info: RequestInfo | None) -> None:
        if info is None:
            return
        if info.non_standard:
            self.nonstandard_banner = Banner(
                "warning",
                f"Non-standard method: {info.wire_method}",
                [
                    f"The server sent {info.wire_method}, which is not an MCP method; the specification calls it "
                    f"{info.method}. The inspector answers it as {info.method}."
                ],
                self,
            )
            self.body.addWidget(self.nonstandard_banner)
        others = [d for d in info.diagnostics if not (info.non_standard and d.code.value == "non-standard-method")]
        if others:
            lines = [str(d) for d in others[:6]] + ([f"… and {len(others) - 6} more"] if len(others) > 6 else [])
            self.diagnostics_banner = Banner("warning", "This request breaks the protocol", lines, self)
            self.body.addWidget(self.diagnostics_banner)

    # -- size ------------------------------------------------------------------------------------

    def wanted_size(self) -> QSize:
        """The size that shows all of the content without scrolling (subclasses add what scrolls inside)."""
        return self.sizeHint()

    def overflow(self) -> int:
        """Pixels of content that do not fit at the current size (what a scroll area inside hides); 0 here."""
        return 0

    def fit_to_content(self, available: QRect | None = None) -> QSize:
        """Resize to the content (``wanted_size``, then grown by any ``overflow`` once laid out), at least
        ``min_width`` wide, but never beyond the available screen area (``available``; the dialog's screen when
        None): what does not fit then scrolls. A hidden dialog is measured again when it is shown (only then do
        word-wrapped texts know their height)."""
        area = available if available is not None else available_area(self)
        self._fit_area = area
        limit = self._fit_limit(area)
        wanted = self.wanted_size()
        size = QSize(max(self.min_width, wanted.width()), wanted.height()).boundedTo(limit)
        self.resize(size)
        if self.isVisible():
            return self._grow_to_content(limit)
        self._fit_pending = True
        return size

    @staticmethod
    def _fit_limit(area: QRect) -> QSize:
        return QSize(
            max(200, area.width() - FRAME_ALLOWANCE.width()), max(200, area.height() - FRAME_ALLOWANCE.height())
        )

    def _grow_to_content(self, limit: QSize) -> QSize:
        """Laid out: grow by what still scrolls (``overflow``), up to ``limit``."""
        size = self.size()
        layout = self.layout()
        for _ in range(4):
            if layout is None:
                break
            layout.activate()
            extra = self.overflow()
            if extra <= 0 or size.height() >= limit.height():
                break
            size = QSize(size.width(), min(limit.height(), size.height() + extra))
            self.resize(size)
        return size

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        if self._fit_pending:
            self._fit_pending = False
            self._grow_to_content(self._fit_limit(self._fit_area or available_area(self)))

    # -- state -----------------------------------------------------------------------------------

    def set_waiting(self, count: int) -> None:
        """How many more server requests wait behind this one."""
        self.queue_label.setText(f"{count} more waiting" if count else "")
        self.queue_label.setVisible(count > 0)

    def show_problems(self, problems: list[str]) -> None:
        self.problem_label.setText("\n".join(problems))
        self.problem_label.setVisible(bool(problems))

    def finish(self, outcome: Outcome) -> None:
        """Record the answer and close (the handler sends it); a lingering dialog stays open."""
        if self.decided:
            return
        self.outcome = outcome
        self.decided = True
        self.answered.emit(outcome)
        if not self.linger:
            self.accept()

    def withdraw(self, reason: str) -> None:
        """Close without answering: the request is gone (server cancelled it, connection dropped)."""
        self.withdrawn = reason
        self.outcome = None
        if self.isVisible():
            self.done(QDialog.DialogCode.Rejected)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        # Enter in a field must not answer the server by accident: Ctrl+Enter is the primary action.
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            if event.modifiers() & Qt.KeyboardModifier.ControlModifier and self.primary is not None:
                self.primary.click()
            event.accept()
            return
        super().keyPressEvent(event)
