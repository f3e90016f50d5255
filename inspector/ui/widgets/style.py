"""Shared look of the content viewers: the theme's colours, badges, section headers, monospace font.

Colours come from one table per theme (``theme_colours``; which one from the application's palette, which the
``theme.ThemeManager`` sets), so every viewer agrees on what "error", "warning" and "ok" look like, and tests can
read a widget's ``tone`` property instead of pixels. Badges and section labels follow theme changes live.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QFont, QGuiApplication, QPalette
from PySide6.QtWidgets import QHBoxLayout, QLabel, QLayout, QWidget

from inspector.content.blocks import Badge
from inspector.ui.widgets.theme import scaled_font, small_font_size, themed_style
from inspector.ui.widgets.theme_colours import DARK, LIGHT, Tones

__all__ = [
    "DARK",
    "LIGHT",
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


def monospace_font(small: bool = False) -> QFont:
    """The system's fixed-width font at the chosen font size (View → Font size), a point smaller if ``small``
    (``theme.FONT_ROLES`` "mono" and "mono_small"). A widget that keeps it uses ``theme.follow_font``."""
    return scaled_font("mono_small" if small else "mono")


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

    def build(t: Tones) -> str:
        fg, bg, border = tone_colors(t, tone)
        return (
            f"QLabel#badge {{ color: {fg}; background: {bg}; border: 1px solid {border}; border-radius: 8px;"
            f" padding: 0px 7px; font-size: {small_font_size()}; }}"
        )

    themed_style(label, build)
    return label


def badge_row(badges: list[Badge], parent: QWidget | None = None) -> list[QLabel]:
    """Labels for annotation badges (tones by badge kind)."""
    return [badge_label(b.text, _BADGE_TONES.get(b.kind, "neutral"), b.tooltip, parent) for b in badges]


def section_label(text: str, parent: QWidget | None = None) -> QLabel:
    label = QLabel(text, parent)
    label.setObjectName("sectionLabel")
    themed_style(
        label,
        lambda t: f"QLabel#sectionLabel {{ color: {t.muted}; font-weight: 600; font-size: {small_font_size()}; }}",
    )
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
