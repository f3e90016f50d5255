"""resources/: the app icon's PNGs match a fresh render of its SVG (they cannot drift), the UI's stroke icons are one
consistent set and paint in both themes' colours, and everything loads through the one locator."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from pixels import ink
from PySide6.QtCore import QSize
from PySide6.QtGui import QColor, QImage, QPalette
from PySide6.QtWidgets import QApplication

from inspector import resource_files
from inspector.resource_files import APP_ICON_SIZES, APP_ID, app_icon_png, app_icon_svg, ui_icon_names, ui_icon_svg
from inspector.ui.widgets.resources import TONES, app_icon, icon_color, icon_label, render_svg, ui_icon, ui_pixmap
from inspector.ui.widgets.style import DARK, LIGHT

REPO = Path(__file__).resolve().parents[2]


def _pixel_difference(a: QImage, b: QImage) -> tuple[float, int]:
    """Mean and largest per-channel difference between two same-size images."""
    a = a.convertToFormat(QImage.Format.Format_ARGB32)
    b = b.convertToFormat(QImage.Format.Format_ARGB32)
    assert a.size() == b.size()
    total, largest = 0, 0
    for y in range(a.height()):
        for x in range(a.width()):
            pa, pb = a.pixel(x, y), b.pixel(x, y)
            for shift in (0, 8, 16, 24):
                d = abs(((pa >> shift) & 0xFF) - ((pb >> shift) & 0xFF))
                total += d
                largest = max(largest, d)
    return total / (a.width() * a.height() * 4), largest


def test_the_checkout_is_where_the_resources_are() -> None:
    # the tests run on the editable install: the locator finds the checkout's resources/
    assert resource_files.resources_dir() == REPO / "resources"
    assert app_icon_svg().is_file() and app_icon_svg().name == f"{APP_ID}.svg"


@pytest.mark.parametrize("size", APP_ICON_SIZES)
def test_app_icon_png_matches_a_fresh_render(qapp: QApplication, size: int) -> None:
    path = app_icon_png(size)
    assert path.is_file(), f"{path} missing: run packaging/render_icons.py"
    committed = QImage(str(path))
    assert committed.size() == QSize(size, size)
    fresh = render_svg(app_icon_svg(), size)
    if size > 64:  # compare the large ones at 64 px steps: same verdict, a fraction of the time
        committed, fresh = committed.scaled(64, 64), fresh.scaled(64, 64)
    mean, largest = _pixel_difference(committed, fresh)
    assert mean < 1.0 and largest <= 48, (size, mean, largest)
    # and it is the icon, not an empty or a solid square: transparent corners, the tile's blue inside
    image = committed.convertToFormat(QImage.Format.Format_ARGB32)
    assert QColor.fromRgba(image.pixel(0, 0)).alpha() == 0
    inner = QColor.fromRgba(image.pixel(int(image.width() * 0.2), int(image.height() * 0.85)))  # the tile, off the lens
    assert inner.alpha() == 255 and inner.blue() > inner.red() + 60


def test_an_edited_svg_would_be_caught(qapp: QApplication) -> None:
    """The comparison above is not blind: a changed SVG renders far from the committed PNG."""
    changed = app_icon_svg().read_bytes().replace(b"#4c6ef5", b"#f03e3e").replace(b"#2a3aa8", b"#a61e4d")
    mean, _ = _pixel_difference(QImage(str(app_icon_png(32))), render_svg(changed, 32))
    assert mean > 10


def test_app_icon_has_every_size(qapp: QApplication) -> None:
    icon = app_icon()
    assert not icon.isNull()
    sizes = {s.width() for s in icon.availableSizes()}
    assert set(APP_ICON_SIZES) <= sizes
    assert icon.pixmap(QSize(48, 48)).toImage().size() == QSize(48, 48)


_HEADER = re.compile(
    r'^<svg xmlns="http://www.w3.org/2000/svg" width="24" height="24" viewBox="0 0 24 24" fill="none" '
    r'stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round">'
)


def test_ui_icons_are_one_stroke_set() -> None:
    names = ui_icon_names()
    assert {"close", "check", "error", "warning", "info", "audio", "image", "diagnostics"} <= set(names)
    for name in names:
        text = ui_icon_svg(name).read_text(encoding="utf-8")
        assert _HEADER.match(text), f"{name}.svg is not on the 24-unit stroke grid"
        # one colour, the theme's: nothing hard-coded that would not follow light and dark
        assert not re.search(r"#[0-9a-fA-F]{3,6}\b|rgb\(", text), name
        assert "<text" not in text and "font" not in text, name  # no glyphs: they would depend on the fonts
    with pytest.raises(KeyError):
        ui_icon_svg("no-such-icon")


@pytest.mark.parametrize("name", ["close", "warning", "check", "audio", "diagnostics"])
def test_ui_icons_paint_in_each_themes_colour(qapp: QApplication, name: str) -> None:
    light = ui_pixmap(name, 24, dark=False).toImage()
    dark = ui_pixmap(name, 24, dark=True).toImage()
    assert ink(light).alpha() == 255 and ink(dark).alpha() == 255
    assert ink(light).name() == LIGHT.text and ink(dark).name() == DARK.text
    assert ink(light).lightness() < 80 < 180 < ink(dark).lightness()  # dark ink on light, light ink on dark
    warn = ink(ui_pixmap(name, 24, tone="warning", dark=True).toImage())
    assert warn.name() == DARK.warning_fg
    with pytest.raises(KeyError):
        icon_color("bogus")
    assert set(TONES) >= {"error", "warning", "ok"}


def test_ui_icon_follows_the_application_palette(qapp: QApplication) -> None:
    saved = QApplication.palette()
    try:
        for dark in (False, True):
            palette = QPalette(saved)
            palette.setColor(QPalette.ColorRole.Window, QColor("#101418" if dark else "#f6f8fa"))
            QApplication.setPalette(palette)
            close = ink(ui_icon("close").pixmap(QSize(24, 24)).toImage())
            assert close.name() == (DARK.text if dark else LIGHT.text)
            label = icon_label("warning", "warning")
            assert label.property("icon_name") == "warning" and label.pixmap().width() == 16
            assert ink(label.pixmap().toImage()).name() == (DARK if dark else LIGHT).warning_fg
            label.deleteLater()
    finally:
        QApplication.setPalette(saved)
