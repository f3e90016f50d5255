"""The one banner: a coloured box with a bold title and detail lines, optionally dismissable.

Viewers and panels show it in place (``Banner(tone, title, lines)``); the window shows it across the top,
hidden until there is something to say (``Banner("warning", dismissable=True)`` + ``show_messages``).
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QToolButton, QVBoxLayout, QWidget

from inspector.ui.widgets.resources import icon_button
from inspector.ui.widgets.style import Tones, tone_colors
from inspector.ui.widgets.theme import themed_style

__all__ = ["Banner"]


class Banner(QFrame):
    """``tone`` is error, warning, ok or info (also kept as the ``tone`` property, for tests and style sheets).

    A ``dismissable`` banner has a close button (the "close" icon) that hides it and starts hidden; ``show_messages``
    fills and shows it.
    """

    def __init__(
        self,
        tone: str,
        title: str = "",
        lines: list[str] | None = None,
        parent: QWidget | None = None,
        *,
        dismissable: bool = False,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("banner")
        self.tone = tone
        self.setProperty("tone", tone)
        themed_style(self, self._style)
        outer = QHBoxLayout(self)
        outer.setContentsMargins(10, 6, 6 if dismissable else 10, 6)
        self.body = QVBoxLayout()
        """The title, the lines, then whatever a caller adds (a row of buttons)."""
        self.body.setSpacing(2)
        outer.addLayout(self.body, 1)
        self.title_label = QLabel(title, self)
        self.title_label.setWordWrap(True)
        self.title_label.setTextFormat(Qt.TextFormat.PlainText)
        font = self.title_label.font()
        font.setBold(True)
        self.title_label.setFont(font)
        self.title_label.setVisible(bool(title))
        self.body.addWidget(self.title_label)
        self.line_labels: list[QLabel] = []
        self.set_lines(lines or [])
        self.close_button: QToolButton | None = None
        if dismissable:
            self.close_button = QToolButton(self)
            icon_button(self.close_button, "close")
            self.close_button.setAccessibleName("Dismiss")
            self.close_button.setAutoRaise(True)
            self.close_button.setToolTip("Dismiss")
            self.close_button.clicked.connect(self.hide)
            outer.addWidget(self.close_button, 0, Qt.AlignmentFlag.AlignTop)
            self.hide()

    def _style(self, t: Tones) -> str:
        fg, bg, border = tone_colors(t, self.tone)
        return (
            f"QFrame#banner {{ background: {bg}; border: 1px solid {border}; border-radius: 6px; }}"
            f" QFrame#banner QLabel {{ color: {fg}; background: transparent; border: none; }}"
        )

    def set_title(self, title: str) -> None:
        self.title_label.setText(title)
        self.title_label.setVisible(bool(title))

    def set_lines(self, lines: list[str]) -> None:
        """Replace the detail lines (plain text, selectable)."""
        for label in self.line_labels:
            self.body.removeWidget(label)
            label.deleteLater()
        self.line_labels = []
        for row, line in enumerate(lines, start=1):  # below the title, above anything a caller added
            label = QLabel(line, self)
            label.setWordWrap(True)
            label.setTextFormat(Qt.TextFormat.PlainText)
            label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            self.body.insertWidget(row, label)
            self.line_labels.append(label)

    def lines(self) -> list[str]:
        return [label.text() for label in self.line_labels]

    def text(self) -> str:
        """The title and the lines, one per line (what a reader sees)."""
        return "\n".join(part for part in (self.title_label.text(), *self.lines()) if part)

    def show_messages(self, messages: list[str]) -> None:
        """Show ``messages`` as the lines (nothing happens without any)."""
        if messages:
            self.set_lines(messages)
            self.show()
