"""The window's look: Fusion, a palette and a small style sheet per theme, light or dark following the system.

One ``ThemeManager`` per application (``theme_manager()``) applies a theme (``ThemeMode``: follow the system, or
light, or dark) and a font size (points above or below the platform's) to the whole application, and emits
``changed`` afterwards. Widgets whose colours are not the palette's (badges, banners, cards, state dots, the JSON
tree, the logs) follow it with ``follow_theme(widget, apply)`` or ``themed_style(widget, build)``: called now and on
every change, as long as the widget lives. The colours themselves are in ``theme_colours`` (nowhere else). Fonts
drawn larger or smaller than the text are ``FONT_ROLES`` entries (nowhere else), scaled with the chosen font size
(``scaled_font``, ``font_size_css``, ``follow_font``): the same size as the platform's at the default one.
"""

from __future__ import annotations

import atexit
import shutil
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import Final

from PySide6.QtCore import QObject, QPointF, Qt, Signal, Slot
from PySide6.QtGui import (
    QColor,
    QFont,
    QFontDatabase,
    QGuiApplication,
    QImage,
    QPainter,
    QPainterPath,
    QPalette,
    QPen,
)
from PySide6.QtWidgets import QApplication, QPushButton, QStyleFactory, QWidget

from inspector.ui.widgets.theme_colours import DARK, LIGHT, Tones

__all__ = [
    "FONT_DELTA_RANGE",
    "FONT_ROLES",
    "FontRole",
    "ThemeManager",
    "ThemeMode",
    "app_palette",
    "app_stylesheet",
    "contrast_ratio",
    "current_font_delta",
    "follow_font",
    "follow_theme",
    "font_scale",
    "font_size_css",
    "make_primary",
    "restore_look",
    "scaled_font",
    "small_font_size",
    "theme_manager",
    "themed_style",
]

FONT_DELTA_RANGE: Final = (-4, 12)
"""How far (in points) the font size may go below and above the platform's."""


class ThemeMode(StrEnum):
    SYSTEM = "system"
    LIGHT = "light"
    DARK = "dark"


def contrast_ratio(foreground: str, background: str) -> float:
    """The WCAG 2 contrast ratio of two ``#rrggbb`` colours (1 to 21; AA text needs 4.5)."""

    def luminance(colour: str) -> float:
        c = QColor(colour)
        channels = [value / 255 for value in (c.red(), c.green(), c.blue())]
        r, g, b = (v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4 for v in channels)
        return 0.2126 * r + 0.7152 * g + 0.0722 * b

    high, low = sorted((luminance(foreground), luminance(background)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def app_palette(t: Tones) -> QPalette:
    """The QPalette of a theme (every group; disabled text greyed)."""
    role = QPalette.ColorRole
    colours = {
        role.Window: t.window,
        role.WindowText: t.text,
        role.Base: t.base,
        role.AlternateBase: t.alt_base,
        role.ToolTipBase: t.tooltip_bg,
        role.ToolTipText: t.text,
        role.PlaceholderText: t.muted,
        role.Text: t.text,
        role.Button: t.button,
        role.ButtonText: t.text,
        role.BrightText: t.error_fg,
        role.Light: t.base,
        role.Midlight: t.hover,
        role.Mid: t.border,
        role.Dark: t.border,
        role.Shadow: t.border,
        role.Highlight: t.highlight,
        role.HighlightedText: t.highlight_text,
        role.Link: t.link,
        role.LinkVisited: t.hunk_fg,
        role.Accent: t.accent,
    }
    palette = QPalette()
    for colour_role, colour in colours.items():
        palette.setColor(colour_role, QColor(colour))
    disabled = QPalette.ColorGroup.Disabled
    for colour_role in (role.WindowText, role.Text, role.ButtonText):
        palette.setColor(disabled, colour_role, QColor(t.disabled_text))
    palette.setColor(disabled, role.Base, QColor(t.alt_base))
    palette.setColor(disabled, role.Highlight, QColor(t.border))
    return palette


@dataclass(frozen=True)
class FontRole:
    """An explicitly sized font, as it is at the platform's font size; every size is scaled by ``font_scale()``.

    The size is ``base * factor + offset`` points (at least ``floor``), ``base`` being the application's font (or
    the system's fixed-width one, ``mono``), or ``pixels`` pixels (style sheets written in px) or ``points``
    points (fixed sizes in rich text), all at the platform's font size."""

    factor: float = 1.0
    offset: float = 0.0
    floor: float = 4.0
    mono: bool = False
    bold: bool = False
    weight: QFont.Weight | None = None
    pixels: float = 0.0
    points: float = 0.0


FONT_ROLES: Final[dict[str, FontRole]] = {
    "body": FontRole(),
    "small": FontRole(offset=-1.5, floor=6.0),  # badges, captions, section labels (small_font_size)
    "tiny": FontRole(offset=-2.0, floor=6.0),  # the catalog rows' badges
    "fine": FontRole(offset=-1.0, floor=6.0),  # second lines of list rows
    "caption": FontRole(factor=0.9, floor=6.0),  # the profiles list's detail line
    "help": FontRole(factor=0.9, floor=7.0),  # the schema form's help and error text
    "mono": FontRole(mono=True),  # JSON, logs, raw messages, editors
    "mono_small": FontRole(mono=True, offset=-1.0),
    "message": FontRole(factor=1.1),  # an elicitation's message
    "bubble_title": FontRole(factor=1.1, bold=True),  # the tour's step titles
    "header": FontRole(factor=1.15, bold=True),  # the connection tab's state line
    "heading": FontRole(factor=1.25, bold=True),  # a catalog item's title
    "request_title": FontRole(factor=1.3, bold=True),  # a server request's title
    "server_name": FontRole(factor=1.5, bold=True),  # the connection overview's server name
    "detail_title": FontRole(offset=3.0, weight=QFont.Weight.DemiBold),  # a resource's title
    "figure": FontRole(offset=6.0, weight=QFont.Weight.DemiBold),  # the ping's round-trip time
    "result_title": FontRole(pixels=13),  # a tool result's title (style sheet)
    "placeholder": FontRole(pixels=13),  # an empty catalog's placeholder (style sheet)
    "host": FontRole(points=15),  # the host of a URL elicitation's link (rich text)
}
"""Every explicitly sized font of the window, by role: the one table (``scaled_font``, ``font_size_css``)."""


def _sizes() -> tuple[float, float]:
    """(the application's font size, the platform's) in points."""
    current = QGuiApplication.font().pointSizeF()
    base = _MANAGER[0].base_point_size if _MANAGER and _MANAGER[0].applied else current
    return (current, base) if current > 0 and base > 0 else (1.0, 1.0)


def font_scale() -> float:
    """The application's font size over the platform's: 1.0 at the default size (View → Font size → Reset)."""
    current, base = _sizes()
    return current / base


def _scaled(value: float) -> float:
    """``value`` (a size at the platform's font size) at the chosen one (exact at the default size)."""
    current, base = _sizes()
    return value * current / base


def scaled_font(role: str = "body", base: QFont | None = None) -> QFont:
    """A font of ``role`` (``FONT_ROLES``) at the chosen font size: ``base`` (a font at the current size, the
    application's by default; the system's fixed-width one for the monospace roles) resized."""
    spec = FONT_ROLES[role]
    if spec.mono:
        font = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)
        size = _scaled(font.pointSizeF())  # the platform's fixed font is not scaled by the application's
    else:
        font = QFont(base) if base is not None else QFont(QGuiApplication.font())
        size = font.pointSizeF()
    if spec.bold:
        font.setBold(True)
    if spec.weight is not None:
        font.setWeight(spec.weight)
    if spec.pixels:
        font.setPixelSize(max(round(_scaled(spec.pixels)), 1))
    elif spec.points:
        font.setPointSizeF(_scaled(spec.points))
    elif size > 0:
        font.setPointSizeF(max(size * spec.factor + _scaled(spec.offset), _scaled(spec.floor)))
    return font


def font_size_css(role: str) -> str:
    """The size of ``role`` (``FONT_ROLES``) in style-sheet units (``7.5pt``, ``13px``), at the chosen font size."""
    spec = FONT_ROLES[role]
    if spec.pixels:
        return f"{max(round(_scaled(spec.pixels)), 1)}px"
    if spec.points:
        return f"{_scaled(spec.points):.1f}pt"
    size = scaled_font(role).pointSizeF()
    return f"{size:.1f}pt" if size > 0 else "8pt"


def small_font_size() -> str:
    """The small text's size (badges, captions, section labels) in style-sheet units: a point and a half under the
    app's at the default size, scaled with it."""
    return font_size_css("small")


def app_stylesheet(t: Tones) -> str:
    """The application's style sheet: rounded line edits and buttons with a clear focus ring, check boxes and radio
    buttons outlined in both themes, flat tabs, readable table headers, menus and tooltips; primary buttons are the
    ``QPushButton[primary="true"]`` ones. Combo and spin boxes and scroll bars are Fusion's own, in the theme's
    palette (a style sheet would drop their arrows)."""
    return f"""
QToolTip {{ color: {t.text}; background: {t.tooltip_bg}; border: 1px solid {t.border}; padding: 4px 6px; }}
QLineEdit {{
    background: {t.base}; color: {t.text}; border: 1px solid {t.border}; border-radius: 6px; padding: 3px 6px;
    selection-background-color: {t.highlight}; selection-color: {t.highlight_text};
}}
QLineEdit:hover {{ border-color: {t.muted}; }}
QLineEdit:focus {{ border: 2px solid {t.accent}; padding: 2px 5px; }}
QLineEdit:read-only {{ background: {t.alt_base}; }}
QLineEdit:disabled {{ color: {t.disabled_text}; background: {t.alt_base}; }}
QPushButton {{
    background: {t.button}; color: {t.text}; border: 1px solid {t.border}; border-radius: 6px; padding: 4px 14px;
}}
QPushButton:hover {{ background: {t.hover}; }}
QPushButton:pressed {{ background: {t.border}; }}
QPushButton:focus {{ border: 2px solid {t.accent}; padding: 3px 13px; }}
QPushButton:disabled {{ color: {t.disabled_text}; background: {t.alt_base}; }}
{_primary_rules(t)}
{_indicator_rules(t)}
{_close_button_rules(t)}
QTabBar::tab {{
    background: transparent; color: {t.muted}; border: none; border-bottom: 2px solid transparent;
    padding: 5px 12px; margin-right: 2px;
}}
QTabBar::tab:hover {{ color: {t.text}; background: {t.hover}; }}
QTabBar::tab:selected {{ color: {t.text}; border-bottom: 2px solid {t.accent}; }}
QTabBar::tab:focus {{ color: {t.accent}; }}
QHeaderView::section {{
    background: {t.alt_base}; color: {t.muted}; border: none; border-right: 1px solid {t.border};
    border-bottom: 1px solid {t.border}; padding: 3px 6px; font-weight: 600;
}}
QTableView, QTreeView, QListView {{ gridline-color: {t.border}; }}
QMenuBar {{ background: {t.window}; color: {t.text}; }}
QMenuBar::item:selected {{ background: {t.hover}; border-radius: 4px; }}
QMenu {{ background: {t.base}; color: {t.text}; border: 1px solid {t.border}; padding: 4px; }}
QMenu::item {{ padding: 4px 24px 4px 22px; border-radius: 4px; }}
QMenu::item:selected {{ background: {t.highlight}; color: {t.highlight_text}; }}
QMenu::item:disabled {{ color: {t.disabled_text}; }}
QMenu::separator {{ height: 1px; background: {t.border}; margin: 4px 6px; }}
QStatusBar {{ background: {t.window}; color: {t.muted}; border-top: 1px solid {t.border}; }}
"""


def _image_dir() -> Path:
    """This process's own temporary directory for the style sheet's images (removed at exit)."""
    if not _IMAGE_DIR:
        folder = Path(tempfile.mkdtemp(prefix="mcp-inspector-theme-"))
        atexit.register(shutil.rmtree, folder, True)
        _IMAGE_DIR.append(folder)
    return _IMAGE_DIR[0]


def _indicator_image(t: Tones, kind: str) -> str:
    """A check mark or a radio dot in the theme's colours, drawn once per theme into this process's own temporary
    directory (a style sheet takes images by file name)."""
    path = _image_dir() / f"{kind}-{t.name}.png"
    if not path.exists():
        size = 32
        image = QImage(size, size, QImage.Format.Format_ARGB32_Premultiplied)
        image.fill(Qt.GlobalColor.transparent)
        painter = QPainter(image)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        if kind == "check":
            pen = QPen(QColor(t.on_accent), 4.5)
            pen.setCapStyle(Qt.PenCapStyle.RoundCap)
            pen.setJoinStyle(Qt.PenJoinStyle.RoundJoin)
            painter.setPen(pen)
            path_ = QPainterPath(QPointF(8, 16.5))
            path_.lineTo(13.5, 22)
            path_.lineTo(24, 10.5)
            painter.drawPath(path_)
        else:
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(QColor(t.on_accent))
            painter.drawEllipse(QPointF(16, 16), 6.5, 6.5)
        painter.end()
        image.save(str(path))
    return path.as_posix()


def _indicator_rules(t: Tones) -> str:
    """Check boxes and radio buttons with a visible outline in both themes, filled with the accent when on (Fusion
    draws their outline a shade darker than the window: invisible on a dark one)."""
    check, dot = _indicator_image(t, "check"), _indicator_image(t, "dot")
    box = "QCheckBox::indicator, QAbstractItemView::indicator"
    return (
        f"{box} {{ width: 14px; height: 14px; border: 1px solid {t.muted}; border-radius: 4px;"
        f" background: {t.base}; }}"
        f" QCheckBox::indicator:hover {{ border-color: {t.accent}; }}"
        f" QCheckBox::indicator:focus {{ border: 2px solid {t.accent}; width: 12px; height: 12px; }}"
        f" QCheckBox::indicator:checked, QAbstractItemView::indicator:checked {{ background: {t.primary};"
        f" border-color: {t.primary}; image: url({check}); }}"
        f" QCheckBox::indicator:disabled {{ background: {t.alt_base}; border-color: {t.border}; }}"
        f" QCheckBox::indicator:checked:disabled {{ background: {t.accent_disabled}; }}"
        f" QRadioButton::indicator {{ width: 14px; height: 14px; border: 1px solid {t.muted}; border-radius: 8px;"
        f" background: {t.base}; }}"
        f" QRadioButton::indicator:checked {{ background: {t.primary}; border-color: {t.primary}; image: url({dot}); }}"
        f" QRadioButton::indicator:focus {{ border: 2px solid {t.accent}; width: 12px; height: 12px; }}"
    )


_IMAGE_DIR: list[Path] = []


def _close_button_rules(t: Tones) -> str:
    """The tabs' close buttons: the bundled close icon in the theme's muted colour (not the platform's glyph)."""
    from inspector.ui.widgets.resources import ui_pixmap

    path = _image_dir() / f"close-{t.name}.png"
    if not path.exists():
        try:
            pixmap = ui_pixmap("close", 16, tone="muted", dark=t.dark, ratio=2.0)
        except (KeyError, OSError, ValueError):  # a build without the icons: the platform's button stays
            return ""
        pixmap.toImage().save(str(path))
    return (
        f"QTabBar::close-button {{ image: url({path.as_posix()}); subcontrol-position: right; border-radius: 3px; }}"
        f" QTabBar::close-button:hover {{ background: {t.hover}; }}"
    )


def _primary_rules(t: Tones) -> str:
    return (
        f'QPushButton[primary="true"] {{ background: {t.primary}; color: {t.on_accent}; border: 1px solid {t.primary};'
        " border-radius: 6px; font-weight: 600; padding: 4px 16px; }"
        f' QPushButton[primary="true"]:focus {{ border: 2px solid {t.text}; padding: 3px 15px; }}'
        f' QPushButton[primary="true"]:disabled {{ background: {t.accent_disabled}; border-color: {t.accent_disabled};'
        f" color: {t.on_accent}; }}"
    )


def make_primary(button: QPushButton) -> QPushButton:
    """``button`` as the accent-coloured main action of its page or dialog (Run, Get, Send), in every theme."""
    button.setProperty("primary", True)
    themed_style(button, _primary_rules)
    return button


class ThemeManager(QObject):
    """The application's theme and font size (see the module docstring)."""

    changed = Signal()
    """The theme or the font size changed (the palette, style sheet and font are already applied)."""

    def __init__(self, app: QApplication) -> None:
        super().__init__(app)
        self._app = app
        self._mode = ThemeMode.SYSTEM
        self._font_delta = 0
        self._applied = False
        self._original: tuple[str, QPalette, QFont, str] | None = None
        hints = QGuiApplication.styleHints()
        self._system = hints.colorScheme()
        hints.colorSchemeChanged.connect(self._on_system_scheme)

    # -- what is chosen ------------------------------------------------------------------------------------------

    @property
    def mode(self) -> ThemeMode:
        return self._mode

    @property
    def system_scheme(self) -> Qt.ColorScheme:
        """The system's colour scheme as last reported (Unknown reads as light)."""
        return self._system

    @property
    def dark(self) -> bool:
        if self._mode is ThemeMode.SYSTEM:
            return self._system is Qt.ColorScheme.Dark
        return self._mode is ThemeMode.DARK

    @property
    def tones(self) -> Tones:
        return DARK if self.dark else LIGHT

    @property
    def font_delta(self) -> int:
        return self._font_delta

    @property
    def base_point_size(self) -> float:
        """The platform's font size (before this manager changed it)."""
        font = self._original[2] if self._original is not None else self._app.font()
        return font.pointSizeF() if font.pointSizeF() > 0 else 9.0

    @property
    def applied(self) -> bool:
        return self._applied

    # -- changing it ---------------------------------------------------------------------------------------------

    def configure(self, mode: ThemeMode | str = ThemeMode.SYSTEM, font_delta: int = 0) -> None:
        """Apply ``mode`` and ``font_delta`` (the saved choices) at once."""
        self._mode = ThemeMode(mode) if mode in set(ThemeMode) else ThemeMode.SYSTEM
        self._font_delta = _clamp(font_delta)
        self.apply()

    def set_mode(self, mode: ThemeMode | str) -> None:
        self.configure(mode, self._font_delta)

    def set_font_delta(self, delta: int) -> None:
        self.configure(self._mode, delta)

    def bigger(self) -> None:
        self.set_font_delta(self._font_delta + 1)

    def smaller(self) -> None:
        self.set_font_delta(self._font_delta - 1)

    def apply(self) -> None:
        """Fusion, the theme's palette and style sheet, the chosen font size; then ``changed``."""
        app = self._app
        if self._original is None:
            self._original = (app.style().name(), QPalette(app.palette()), QFont(app.font()), app.styleSheet())
        if app.style().name().lower() != "fusion":
            style = QStyleFactory.create("Fusion")
            if style is not None:
                app.setStyle(style)
        font = QFont(self._original[2])
        font.setPointSizeF(self.base_point_size + self._font_delta)
        app.setFont(font)
        t = self.tones
        app.setPalette(app_palette(t))
        app.setStyleSheet(app_stylesheet(t))
        self._applied = True
        self.changed.emit()

    def restore(self) -> None:
        """Back to the application's look before the first ``apply`` (tests share one application)."""
        if self._original is None:
            return
        style_name, palette, font, sheet = self._original
        app = self._app
        app.setStyleSheet(sheet)
        if app.style().name().lower() != style_name.lower():
            style = QStyleFactory.create(style_name)
            if style is not None:
                app.setStyle(style)
        app.setPalette(palette)
        app.setFont(font)
        self._original = None
        self._applied = False
        self._system = QGuiApplication.styleHints().colorScheme()
        self._mode = ThemeMode.SYSTEM
        self._font_delta = 0
        self.changed.emit()

    @Slot(Qt.ColorScheme)
    def _on_system_scheme(self, scheme: Qt.ColorScheme) -> None:
        was_dark = self.dark
        self._system = scheme
        if self._applied and self._mode is ThemeMode.SYSTEM and self.dark != was_dark:
            self.apply()


def _clamp(delta: int) -> int:
    low, high = FONT_DELTA_RANGE
    return max(low, min(high, int(delta)))


_MANAGER: list[ThemeManager] = []


def theme_manager() -> ThemeManager:
    """The application's one ThemeManager (made on first use; it applies nothing until told to)."""
    app = QApplication.instance()
    if not isinstance(app, QApplication):
        raise RuntimeError("theme_manager() needs a QApplication")
    if _MANAGER and _MANAGER[0].parent() is app:
        return _MANAGER[0]
    _MANAGER[:] = [ThemeManager(app)]
    return _MANAGER[0]


def restore_look() -> None:
    """The application's look before any theme was applied (the test suite's one application, between tests)."""
    if _MANAGER:
        _MANAGER[0].restore()


def current_font_delta() -> int:
    """The chosen font size's points above (or below) the platform's; 0 before any theme is applied."""
    return _MANAGER[0].font_delta if _MANAGER and _MANAGER[0].applied else 0


class _Follower(QObject):
    """Calls ``apply(tones)`` on every theme change while its widget (its parent) lives."""

    def __init__(self, widget: QWidget, apply: Callable[[Tones], None]) -> None:
        super().__init__(widget)
        self.apply = apply
        theme_manager().changed.connect(self.reapply)

    @Slot()
    def reapply(self) -> None:
        from inspector.ui.widgets.style import tones

        self.apply(tones())


_STYLE_FOLLOWER: Final = "themedStyle"


def follow_theme(widget: QWidget, apply: Callable[[Tones], None]) -> None:
    """``apply(tones)`` now and after every theme or font change, for as long as ``widget`` lives."""
    from inspector.ui.widgets.style import tones

    apply(tones(widget))
    if isinstance(QApplication.instance(), QApplication):
        _Follower(widget, apply)


def themed_style(widget: QWidget, build: Callable[[Tones], str]) -> None:
    """``widget``'s style sheet from ``build(tones)``, rebuilt on every theme or font change. Calling it again for the
    same widget (a label changing tone) replaces the builder."""
    from inspector.ui.widgets.style import tones

    def apply(t: Tones) -> None:
        widget.setStyleSheet(build(t))

    apply(tones(widget))
    _keep_following(widget, _STYLE_FOLLOWER, apply)


_FONT_FOLLOWER: Final = "followFont"


def follow_font(widget: QWidget, role: str, base: Callable[[], QFont] | None = None) -> None:
    """``widget``'s font: ``scaled_font(role, base())`` now and after every font (or theme) change, while it lives.
    Calling it again for the same widget replaces the role."""

    def apply(_t: Tones) -> None:
        widget.setFont(scaled_font(role, base() if base is not None else None))

    apply(LIGHT)
    _keep_following(widget, _FONT_FOLLOWER, apply)


def _keep_following(widget: QWidget, name: str, apply: Callable[[Tones], None]) -> None:
    """Re-run ``apply`` on every theme or font change while ``widget`` lives: one follower per ``name`` and widget,
    a later call replacing its ``apply``. Nothing to follow without a QApplication."""
    if not isinstance(QApplication.instance(), QApplication):
        return
    follower = widget.findChild(_Follower, name, Qt.FindChildOption.FindDirectChildrenOnly)
    if follower is None:
        follower = _Follower(widget, apply)
        follower.setObjectName(name)
    else:
        follower.apply = apply
