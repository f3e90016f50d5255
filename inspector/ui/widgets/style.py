"""Shared look of the content viewers: a light/dark palette, badges, section headers, monospace font.

Colours come from one small table per theme (chosen from the widget's palette), so every viewer agrees on what
"error", "warning" and "ok" look like, and tests can read a widget's ``tone`` property instead of pixels.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import Qt
from PySide6.QtGui import QFont, QFontDatabase, QGuiApplication, QPalette
from PySide6.QtWidgets import QHBoxLayout, QLabel, QLayout, QWidget

from inspector.content.blocks import Badge

__all__ = [
    "Tones",
    "badge_label",
    "badge_row",
    "clear_layout",
    "hbox",
    "is_dark",
    "monospace_font",
    "section_label",
    "tone_colors",
    "tones",
]


@dataclass(frozen=True, slots=True)
class Tones:
    """Colours (CSS strings) of one theme."""

    text: str
    muted: str
    card_bg: str
    card_border: str
    accent: str
    error_fg: str
    error_bg: str
    error_border: str
    warning_fg: str
    warning_bg: str
    warning_border: str
    ok_fg: str
    ok_bg: str
    ok_border: str
    info_fg: str
    info_bg: str
    info_border: str
    badge_bg: str
    user_bubble: str
    user_border: str
    assistant_bubble: str
    assistant_border: str
    added_bg: str
    removed_bg: str
    hunk_fg: str


LIGHT = Tones(
    text="#1f2328",
    muted="#59636e",
    card_bg="#ffffff",
    card_border="#d1d9e0",
    accent="#0969da",
    error_fg="#d1242f",
    error_bg="#ffebe9",
    error_border="#ff8182",
    warning_fg="#9a6700",
    warning_bg="#fff8c5",
    warning_border="#d4a72c",
    ok_fg="#1a7f37",
    ok_bg="#dafbe1",
    ok_border="#4ac26b",
    info_fg="#0969da",
    info_bg="#ddf4ff",
    info_border="#54aeff",
    badge_bg="#eff2f5",
    user_bubble="#ddf4ff",
    user_border="#b6e3ff",
    assistant_bubble="#f6f8fa",
    assistant_border="#d1d9e0",
    added_bg="#dafbe1",
    removed_bg="#ffebe9",
    hunk_fg="#8250df",
)

DARK = Tones(
    text="#e6edf3",
    muted="#9198a1",
    card_bg="#151b23",
    card_border="#3d444d",
    accent="#4493f8",
    error_fg="#ff7b72",
    error_bg="#3c1618",
    error_border="#da3633",
    warning_fg="#d29922",
    warning_bg="#3a2d12",
    warning_border="#9e6a03",
    ok_fg="#3fb950",
    ok_bg="#12261e",
    ok_border="#238636",
    info_fg="#4493f8",
    info_bg="#121d2f",
    info_border="#1f6feb",
    badge_bg="#262c36",
    user_bubble="#121d2f",
    user_border="#1f6feb",
    assistant_bubble="#151b23",
    assistant_border="#3d444d",
    added_bg="#12261e",
    removed_bg="#3c1618",
    hunk_fg="#d2a8ff",
)

_BADGE_TONES = {
    "audience": "info",
    "priority": "info",
    "modified": "neutral",
    "other": "neutral",
    "warning": "warning",
    "error": "error",
    "ok": "ok",
    "neutral": "neutral",
    "info": "info",
}


def is_dark(widget: QWidget | None = None) -> bool:
    """Whether the application's theme is dark (the app palette: a widget's own may be made transparent)."""
    del widget  # kept for call sites that pass one; the theme is application-wide
    return QGuiApplication.palette().color(QPalette.ColorRole.Window).lightness() < 128


def tones(widget: QWidget | None = None) -> Tones:
    return DARK if is_dark(widget) else LIGHT


def monospace_font(point_delta: int = 0) -> QFont:
    font = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)
    if point_delta and font.pointSize() > 0:
        font.setPointSize(font.pointSize() + point_delta)
    return font


def tone_colors(t: Tones, tone: str) -> tuple[str, str, str]:
    """(foreground, background, border) of a tone name."""
    return {
        "error": (t.error_fg, t.error_bg, t.error_border),
        "warning": (t.warning_fg, t.warning_bg, t.warning_border),
        "ok": (t.ok_fg, t.ok_bg, t.ok_border),
        "info": (t.info_fg, t.info_bg, t.info_border),
    }.get(tone, (t.muted, t.badge_bg, t.card_border))


def badge_label(text: str, tone: str = "neutral", tooltip: str = "", parent: QWidget | None = None) -> QLabel:
    """A small rounded pill. ``tone`` is neutral, info, ok, warning or error (also kept as the ``tone`` property)."""
    label = QLabel(text, parent)
    label.setObjectName("badge")
    label.setProperty("tone", tone)
    label.setToolTip(tooltip)
    label.setTextFormat(Qt.TextFormat.PlainText)
    fg, bg, border = tone_colors(tones(parent), tone)
    label.setStyleSheet(
        f"QLabel#badge {{ color: {fg}; background: {bg}; border: 1px solid {border}; border-radius: 8px;"
        " padding: 0px 7px; font-size: 11px; }"
    )
    return label


def badge_row(badges: list[Badge], parent: QWidget | None = None) -> list[QLabel]:
    """Labels for annotation badges (tones by badge kind)."""
    return [badge_label(b.text, _BADGE_TONES.get(b.kind, "neutral"), b.tooltip, parent) for b in badges]


def section_label(text: str, parent: QWidget | None = None) -> QLabel:
    label = QLabel(text, parent)
    label.setObjectName("sectionLabel")
    label.setStyleSheet(f"QLabel#sectionLabel {{ color: {tones(parent).muted}; font-weight: 600; font-size: 11px; }}")
    return label


def hbox(
    parent: QWidget | None = None, spacing: int = 6, margins: tuple[int, int, int, int] = (0, 0, 0, 0)
) -> QHBoxLayout:
    layout = QHBoxLayout(parent) if parent is not None else QHBoxLayout()
    layout.setContentsMargins(*margins)
    layout.setSpacing(spacing)
    return layout


def clear_layout(layout: QLayout) -> None:
    """Remove and delete every widget (and nested layout) of ``layout``."""
    while layout.count():
        item = layout.takeAt(0)
        if item is None:
            break
        widget = item.widget()
        if widget is not None:
            widget.hide()
            widget.setParent(None)
            widget.deleteLater()
        child = item.layout()
        if child is not None:
            clear_layout(child)
