"""Small shared pieces of the form's look: help and error labels, field labels, icons, the wheel guard."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QFont, QIcon, QPainter, QPalette, QPen, QPixmap
from PySide6.QtWidgets import QLabel, QLineEdit, QSizePolicy, QWidget

from inspector.schema import Node, constraint_text
from inspector.ui.widgets.theme import follow_font, scaled_font, themed_style

__all__ = [
    "WheelGuard",
    "calendar_icon",
    "clear_icon",
    "error_label",
    "field_label",
    "field_tooltip",
    "help_label",
    "line_height",
    "small_font",
]

SPACING = 6


def small_font(widget: QWidget) -> QFont:
    """The help and error text's font: ``widget``'s, a tenth smaller (``theme.FONT_ROLES`` "help")."""
    return scaled_font("help", widget.font())


def help_label(text: str, parent: QWidget | None = None) -> QLabel:
    """Grey, slightly smaller description text under a field."""
    label = QLabel(text, parent)
    label.setObjectName("schemaFormHelp")
    label.setWordWrap(True)
    label.setTextFormat(Qt.TextFormat.PlainText)
    follow_font(label, "help")
    label.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Minimum)
    palette = label.palette()
    # The Active group: a label created inside a disabled (null) field must not come out lighter.
    active = QPalette.ColorGroup.Active
    fg, bg = palette.color(active, QPalette.ColorRole.WindowText), palette.color(active, QPalette.ColorRole.Window)
    grey = QColor(
        (fg.red() * 11 + bg.red() * 9) // 20,
        (fg.green() * 11 + bg.green() * 9) // 20,
        (fg.blue() * 11 + bg.blue() * 9) // 20,
    )
    palette.setColor(QPalette.ColorRole.WindowText, grey)
    label.setPalette(palette)
    return label


def error_label(parent: QWidget | None = None) -> QLabel:
    """Red validation text under a field; hidden while empty."""
    label = QLabel(parent)
    label.setObjectName("schemaFormError")
    label.setWordWrap(True)
    label.setTextFormat(Qt.TextFormat.PlainText)
    follow_font(label, "help")
    label.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Minimum)
    palette = label.palette()
    label.setPalette(palette)
    themed_style(label, lambda t: f"QLabel#schemaFormError {{ color: {t.error_fg}; }}")
    label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    label.hide()
    return label


def field_tooltip(name: str, node: Node) -> str:
    lines = [f"{name}: {constraint_text(node)}"]
    if node.description:
        lines.append(node.description)
    return "\n".join(lines)


def field_label(text: str, *, required: bool, tooltip: str, parent: QWidget | None = None) -> QLabel:
    """A row label: required fields get an asterisk and bold text."""
    label = QLabel(f"{text} *" if required else text, parent)
    label.setObjectName("schemaFormLabel")
    label.setTextFormat(Qt.TextFormat.PlainText)
    label.setToolTip(tooltip)
    label.setProperty("required", required)
    if required:
        font = QFont(label.font())
        font.setBold(True)
        label.setFont(font)
    return label


def line_height() -> int:
    """The height of a one-line input; small buttons beside inputs use it so rows stay aligned."""
    return QLineEdit().sizeHint().height()


def calendar_icon(color: QColor) -> QIcon:
    """A small drawn calendar (no icon theme is needed)."""
    pixmap = QPixmap(32, 32)
    pixmap.fill(Qt.GlobalColor.transparent)
    painter = QPainter(pixmap)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    pen = QPen(color)
    pen.setWidthF(2.5)
    painter.setPen(pen)
    painter.drawRoundedRect(QRectF(4, 6, 24, 22), 3, 3)
    painter.fillRect(QRectF(4, 6, 24, 7), color)
    for x in (9.0, 23.0):
        painter.drawLine(QPointF(x, 3), QPointF(x, 8))
    painter.setPen(Qt.PenStyle.NoPen)
    painter.setBrush(color)
    for row in range(2):
        for col in range(3):
            painter.drawRect(QRectF(8 + col * 6.5, 16 + row * 5.5, 3.5, 3.5))
    painter.end()
    return QIcon(pixmap)


def clear_icon(color: QColor) -> QIcon:
    """A light cross for the button that leaves an optional field out."""
    pixmap = QPixmap(32, 32)
    pixmap.fill(Qt.GlobalColor.transparent)
    painter = QPainter(pixmap)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    pen = QPen(color)
    pen.setWidthF(3.0)
    pen.setCapStyle(Qt.PenCapStyle.RoundCap)
    painter.setPen(pen)
    painter.drawLine(QPointF(9, 9), QPointF(23, 23))
    painter.drawLine(QPointF(23, 9), QPointF(9, 23))
    painter.end()
    return QIcon(pixmap)


class WheelGuard(QObject):
    """Ignores wheel events on a widget without focus, so scrolling a long form never changes a value."""

    def __init__(self, widget: QWidget) -> None:
        super().__init__(widget)
        widget.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        widget.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Wheel and isinstance(watched, QWidget) and not watched.hasFocus():
            event.ignore()
            return True
        return False
