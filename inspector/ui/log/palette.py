"""Colours of the message log, readable on light and dark palettes."""

from __future__ import annotations

from typing import Final

from PySide6.QtGui import QColor

from inspector.protocol.wire import Kind
from inspector.ui.widgets.style import is_dark

__all__ = ["SEVERITY_COLOURS", "kind_colour", "kind_colours", "severity_colour"]

_LIGHT: Final = {
    Kind.REQUEST.value: "#1d4ed8",
    Kind.RESPONSE.value: "#15803d",
    Kind.ERROR.value: "#b91c1c",
    Kind.NOTIFICATION.value: "#7c3aed",
    Kind.INVALID.value: "#c2410c",
    Kind.TRANSPORT.value: "#4b5563",
    Kind.STDERR.value: "#92400e",
    "http": "#0f766e",
}
_DARK: Final = {
    Kind.REQUEST.value: "#93c5fd",
    Kind.RESPONSE.value: "#86efac",
    Kind.ERROR.value: "#fca5a5",
    Kind.NOTIFICATION.value: "#c4b5fd",
    Kind.INVALID.value: "#fdba74",
    Kind.TRANSPORT.value: "#d1d5db",
    Kind.STDERR.value: "#fcd34d",
    "http": "#5eead4",
}
SEVERITY_COLOURS: Final = {"violation": "#dc2626", "warning": "#d97706", "info": "#2563eb"}
_GREY: Final = "#6b7280"


def kind_colours(dark: bool) -> dict[str, QColor]:
    return {kind: QColor(colour) for kind, colour in (_DARK if dark else _LIGHT).items()}


def kind_colour(kind: str) -> QColor:
    return QColor((_DARK if is_dark() else _LIGHT).get(kind, _GREY))


def severity_colour(severity: str | None) -> QColor:
    return QColor(SEVERITY_COLOURS.get(severity or "", _GREY))
