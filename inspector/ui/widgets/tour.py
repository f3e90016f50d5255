"""A short guided tour: an overlay over a window that dims it, rings one area and explains it in a bubble.

``Tour(host, steps)`` covers ``host`` (a window; it follows its size). Each ``TourStep`` names what to ring through
``target()``, asked when the step is shown (the window may have changed meanwhile): a widget, a widget and a
rectangle inside it (one tab of a tab bar, one menu's title), or None for a bubble in the middle. The bubble has
Back / Next (Done on the last step) / Skip; Esc skips, the arrow keys walk. ``finished(completed)`` is emitted
once when it closes (True: walked to the end). The overlay deletes itself when it closes.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Final

from PySide6.QtCore import QEvent, QObject, QPoint, QRect, QRectF, QSize, Qt, Signal
from PySide6.QtGui import (
    QKeyEvent,
    QKeySequence,
    QPainter,
    QPainterPath,
    QPaintEvent,
    QPalette,
    QPen,
    QShortcut,
)
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from inspector.ui.widgets.style import tones
from inspector.ui.widgets.theme import follow_font
from inspector.ui.widgets.theme_colours import translucent

__all__ = ["Anchor", "Tour", "TourStep"]

Anchor = QWidget | tuple[QWidget, QRect] | None
"""What a step rings: a widget, a rectangle in a widget's coordinates, or nothing (a centred bubble)."""

RING_MARGIN: Final = 6
BUBBLE_GAP: Final = 14
BUBBLE_WIDTH: Final = 340
DIM_ALPHA: Final = 120


@dataclass(frozen=True)
class TourStep:
    title: str
    text: str
    target: Callable[[], Anchor] = lambda: None


class Tour(QWidget):
    finished = Signal(bool)
    """True when the last step's Done closed it, False when skipped (Skip, Esc)."""
    stepChanged = Signal(int)

    def __init__(self, host: QWidget, steps: Sequence[TourStep]) -> None:
        super().__init__(host)
        if not steps:
            raise ValueError("a tour needs at least one step")
        self.setObjectName("tourOverlay")
        self.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.setAttribute(Qt.WidgetAttribute.WA_NoSystemBackground)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.host = host
        self.steps = list(steps)
        self.index = 0
        self.ring: QRect | None = None
        """The ringed area in the overlay's coordinates (None: nothing ringed)."""
        self._done = False

        self.bubble = QFrame(self)
        self.bubble.setObjectName("tourBubble")
        self.bubble.setFrameShape(QFrame.Shape.StyledPanel)
        self.bubble.setAutoFillBackground(True)
        self.bubble.setBackgroundRole(QPalette.ColorRole.ToolTipBase)
        self.bubble.setForegroundRole(QPalette.ColorRole.ToolTipText)
        self.bubble.setFixedWidth(BUBBLE_WIDTH)
        self.title_label = QLabel()
        follow_font(self.title_label, "bubble_title")
        self.text_label = QLabel()
        self.text_label.setWordWrap(True)
        self.text_label.setTextFormat(Qt.TextFormat.RichText)
        self.counter_label = QLabel()
        self.skip_button = QPushButton("Skip tour")
        self.back_button = QPushButton("Back")
        self.next_button = QPushButton("Next")
        self.next_button.setDefault(True)
        buttons = QHBoxLayout()
        buttons.addWidget(self.counter_label)
        buttons.addStretch(1)
        for button in (self.skip_button, self.back_button, self.next_button):
            button.setAutoDefault(False)
            buttons.addWidget(button)
        layout = QVBoxLayout(self.bubble)
        layout.setContentsMargins(14, 12, 14, 12)
        layout.setSpacing(8)
        layout.addWidget(self.title_label)
        layout.addWidget(self.text_label)
        layout.addLayout(buttons)

        self.skip_button.clicked.connect(self.skip)
        self.back_button.clicked.connect(self.back)
        self.next_button.clicked.connect(self.next)
        self._escape = QShortcut(QKeySequence(Qt.Key.Key_Escape), self)
        self._escape.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        self._escape.activated.connect(self.skip)
        host.installEventFilter(self)

    # -- walking -----------------------------------------------------------------------------------

    def start(self) -> None:
        self.setGeometry(self.host.rect())
        self.show()
        self.raise_()
        self.go(0)
        self.next_button.setFocus(Qt.FocusReason.OtherFocusReason)

    def go(self, index: int) -> None:
        self.index = max(0, min(index, len(self.steps) - 1))
        step = self.steps[self.index]
        self.title_label.setText(step.title)
        self.text_label.setText(step.text)
        self.counter_label.setText(f"{self.index + 1} of {len(self.steps)}")
        self.back_button.setEnabled(self.index > 0)
        last = self.index == len(self.steps) - 1
        self.next_button.setText("Done" if last else "Next")
        self.skip_button.setVisible(not last)
        self._place()
        self.stepChanged.emit(self.index)

    def next(self) -> None:
        if self.index == len(self.steps) - 1:
            self._finish(True)
        else:
            self.go(self.index + 1)

    def back(self) -> None:
        if self.index > 0:
            self.go(self.index - 1)

    def skip(self) -> None:
        self._finish(False)

    def _finish(self, completed: bool) -> None:
        if self._done:
            return
        self._done = True
        self.host.removeEventFilter(self)
        self.finished.emit(completed)
        self.close()

    # -- geometry ----------------------------------------------------------------------------------

    def _target_rect(self) -> QRect | None:
        anchor = self.steps[self.index].target()
        if anchor is None:
            return None
        widget, rect = anchor if isinstance(anchor, tuple) else (anchor, anchor.rect())
        if not widget.isVisible() or rect.isEmpty() or not self.host.isAncestorOf(widget):
            return None
        top_left = widget.mapTo(self.host, rect.topLeft())
        return QRect(top_left, rect.size()).adjusted(-RING_MARGIN, -RING_MARGIN, RING_MARGIN, RING_MARGIN) & self.rect()

    def _place(self) -> None:
        self.ring = self._target_rect()
        self.bubble.adjustSize()
        size = self.bubble.sizeHint().expandedTo(QSize(BUBBLE_WIDTH, 0))
        self.bubble.resize(size)
        self.bubble.move(self._bubble_position(size))
        self.update()

    def _bubble_position(self, size: QSize) -> QPoint:
        area = self.rect()
        ring = self.ring
        if ring is None:
            return area.center() - QPoint(size.width() // 2, size.height() // 2)
        middle_y = ring.center().y() - size.height() // 2
        middle_x = ring.center().x() - size.width() // 2
        candidates = [
            QPoint(ring.right() + BUBBLE_GAP, middle_y),  # right of it
            QPoint(middle_x, ring.bottom() + BUBBLE_GAP),  # below
            QPoint(ring.left() - BUBBLE_GAP - size.width(), middle_y),  # left
            QPoint(middle_x, ring.top() - BUBBLE_GAP - size.height()),  # above
        ]
        for point in candidates:
            box = QRect(point, size)
            if area.contains(box.topLeft()) and area.contains(box.bottomRight()) and not box.intersects(ring):
                return point
        # no room outside it (a large area): inside, at its top left corner, kept on screen
        point = ring.topLeft() + QPoint(BUBBLE_GAP, BUBBLE_GAP)
        x = max(0, min(point.x(), area.width() - size.width()))
        y = max(0, min(point.y(), area.height() - size.height()))
        return QPoint(x, y)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.host and event.type() == QEvent.Type.Resize:
            self.setGeometry(self.host.rect())
            self._place()
        return super().eventFilter(watched, event)

    # -- drawing and keys --------------------------------------------------------------------------

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        shade = QPainterPath()
        shade.addRect(QRectF(self.rect()))
        if self.ring is not None:
            hole = QPainterPath()
            hole.addRoundedRect(QRectF(self.ring), 6, 6)
            shade = shade.subtracted(hole)
        painter.fillPath(shade, translucent(tones().scrim, DIM_ALPHA))
        if self.ring is not None:
            pen = QPen(self.palette().color(QPalette.ColorRole.Highlight), 3)
            painter.setPen(pen)
            painter.drawRoundedRect(QRectF(self.ring).adjusted(1.5, 1.5, -1.5, -1.5), 6, 6)
        painter.end()

    def keyPressEvent(self, event: QKeyEvent) -> None:
        key = event.key()
        if key == Qt.Key.Key_Right:
            self.next()
        elif key == Qt.Key.Key_Left:
            self.back()
        elif key == Qt.Key.Key_Escape:
            self.skip()
        else:
            super().keyPressEvent(event)
