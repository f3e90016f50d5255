"""The app's bundled icons as Qt icons: the app icon and the UI's stroke icons, in the theme's colours.

Every file comes through ``inspector.resource_files`` (the one locator). The UI icons are one set of 24-unit stroke
SVGs drawn in ``currentColor``; ``ui_icon(name)`` paints one in the theme's text colour (light or dark, from the
application palette) or in a tone's colour (``tone="error"``, ``"warning"``, ``"ok"``, ``"info"``, ``"muted"``), so
no icon depends on the system's fonts or icon theme.
"""

from __future__ import annotations

from pathlib import Path
from typing import Final

from PySide6.QtCore import QByteArray, QRectF, QSize, Qt
from PySide6.QtGui import QIcon, QImage, QPainter, QPixmap
from PySide6.QtSvg import QSvgRenderer
from PySide6.QtWidgets import QAbstractButton, QLabel, QWidget

from inspector.resource_files import APP_ICON_SIZES, app_icon_png, ui_icon_svg
from inspector.ui.widgets.theme import follow_theme
from inspector.ui.widgets.theme_colours import DARK, LIGHT, Tones

__all__ = [
    "TONES",
    "app_icon",
    "icon_button",
    "icon_color",
    "icon_label",
    "render_svg",
    "set_label_icon",
    "ui_icon",
    "ui_pixmap",
]

TONES: Final = ("text", "muted", "error", "warning", "ok", "info", "diagnostic")
_PIXMAPS: dict[tuple[str, str, int, float], QPixmap] = {}


def render_svg(svg: bytes | Path, size: int) -> QImage:
    """The SVG drawn into a transparent ``size`` x ``size`` image (its aspect ratio kept, centred)."""
    data = svg.read_bytes() if isinstance(svg, Path) else svg
    renderer = QSvgRenderer(QByteArray(data))
    if not renderer.isValid():
        raise ValueError("not a valid SVG")
    image = QImage(size, size, QImage.Format.Format_ARGB32_Premultiplied)
    image.fill(Qt.GlobalColor.transparent)
    renderer.setAspectRatioMode(Qt.AspectRatioMode.KeepAspectRatio)
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    renderer.render(painter, QRectF(0, 0, size, size))
    painter.end()
    return image


def icon_color(tone: str = "text", *, dark: bool | None = None) -> str:
    """The colour (``#rrggbb``) a UI icon of this tone is drawn in, in the given theme (default: the app's)."""
    if tone not in TONES:
        raise KeyError(f"no icon tone {tone!r} (one of {', '.join(TONES)})")
    table: Tones = _table(dark)
    color: str = getattr(table, tone if tone in ("text", "muted", "diagnostic") else f"{tone}_fg")
    return color


def _table(dark: bool | None) -> Tones:
    if dark is None:
        from inspector.ui.widgets.style import tones

        return tones()
    return DARK if dark else LIGHT


def ui_pixmap(
    name: str, size: int = 16, *, tone: str = "text", dark: bool | None = None, ratio: float = 1.0
) -> QPixmap:
    """The UI icon ``name`` at ``size`` logical pixels (``ratio``: the device pixel ratio), in the tone's colour."""
    color = icon_color(tone, dark=dark)
    key = (name, color, size, ratio)
    pixmap = _PIXMAPS.get(key)
    if pixmap is None:
        svg = ui_icon_svg(name).read_bytes().replace(b"currentColor", color.encode())
        pixmap = QPixmap.fromImage(render_svg(svg, round(size * ratio)))
        pixmap.setDevicePixelRatio(ratio)
        _PIXMAPS[key] = pixmap
    return pixmap


def ui_icon(name: str, *, tone: str = "text", dark: bool | None = None) -> QIcon:
    """The UI icon ``name`` as a QIcon (16, 24 and 32 px, and their 2x), in the tone's colour of the theme."""
    icon = QIcon()
    for size in (16, 24, 32):
        for ratio in (1.0, 2.0):
            icon.addPixmap(ui_pixmap(name, size, tone=tone, dark=dark, ratio=ratio))
    return icon


def icon_label(name: str, tone: str = "text", size: int = 16, parent: QWidget | None = None) -> QLabel:
    """A label showing one UI icon (in place of a glyph before a line of text), repainted when the theme changes;
    its ``icon_name`` and ``tone`` properties say which."""
    label = QLabel(parent)
    label.setFixedSize(QSize(size, size))
    set_label_icon(label, name, tone)
    return label


def set_label_icon(label: QLabel, name: str, tone: str = "text", size: int | None = None) -> None:
    """Show the UI icon ``name`` in ``label`` at ``size`` (default: the label's fixed square size, else 16), in the
    tone's colour of the current theme."""
    if size is None:
        size = label.width() if label.width() == label.height() else 16
    label.setProperty("icon_name", name)
    label.setProperty("tone", tone)
    label.setProperty("icon_size", size)
    if label.property("icon_follows_theme"):  # one follower per label, however often its icon changes
        _paint_label(label, _table(None))
        return
    label.setProperty("icon_follows_theme", True)
    follow_theme(label, lambda t: _paint_label(label, t))


def _paint_label(label: QLabel, t: Tones) -> None:
    name, tone, size = label.property("icon_name"), label.property("tone"), label.property("icon_size")
    label.setPixmap(ui_pixmap(name, int(size), tone=tone, dark=t.dark, ratio=label.devicePixelRatioF()))


def icon_button(button: QAbstractButton, name: str, tone: str = "text") -> QAbstractButton:
    """``button`` with the UI icon ``name`` (its ``icon_name`` property), repainted when the theme changes."""
    button.setProperty("icon_name", name)
    follow_theme(button, lambda t: button.setIcon(ui_icon(name, tone=tone, dark=t.dark)))
    return button


def app_icon() -> QIcon:
    """The app's icon: the committed PNG renders of its SVG, every size (Qt scales the nearest for any other)."""
    icon = QIcon()
    for size in APP_ICON_SIZES:
        icon.addFile(str(app_icon_png(size)), QSize(size, size))
    return icon
