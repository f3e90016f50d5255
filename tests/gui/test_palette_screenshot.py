"""What the command palette draws over the window (1280 x 800): the search field with the query, the current row in
the highlight colour, a disabled action's row in the disabled text colour, the shortcut column filled, and the
window around the palette unchanged. Saved as /tmp/palette.png."""

from __future__ import annotations

from guikit import SCREENSHOTS, MakeWindow, activate
from pixels import colours_in, nearest, saved_grab
from PySide6.QtCore import QPoint, QRect
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QWidget
from pytestqt.qtbot import QtBot


def _rect_in(window: QWidget, widget: QWidget, rect: QRect, scale: float) -> QRect:
    top_left = widget.mapTo(window, rect.topLeft())
    return QRect(
        round(top_left.x() * scale), round(top_left.y() * scale), round(rect.width() * scale),
        round(rect.height() * scale),
    )  # fmt: skip


def test_the_palette_as_drawn(qtbot: QtBot, make_window: MakeWindow) -> None:
    window = make_window()
    window.resize(1280, 800)
    activate(qtbot, window)
    before = window.grab().toImage()
    palette = window.keyboard.open_palette()
    qtbot.keyClicks(palette.search, "connect")
    run = next(r for r, e in enumerate(palette.model.entries()) if not e.enabled)  # no tab: Run etc. are disabled
    assert palette.model.entry(0) is not None and palette.model.entry(0).enabled  # type: ignore[union-attr]
    qtbot.wait(50)
    image, scale = saved_grab(window, SCREENSHOTS / "palette.png")
    assert len(colours_in(image, image.rect(), step=3)) > 30, "the screenshot is (nearly) uniform"

    view = palette.view
    viewport = view.viewport()
    colours = palette.palette()
    first = view.visualRect(palette.model.index(0, 0))
    row = _rect_in(window, viewport, QRect(0, first.top(), viewport.width(), first.height()), scale)
    highlight = colours.color(QPalette.ColorGroup.Active, QPalette.ColorRole.Highlight)
    assert nearest(colours_in(image, row), highlight) <= 24, "the current row is not highlighted"

    view.scrollTo(palette.model.index(run, 0))
    qtbot.wait(20)
    image = window.grab().toImage()
    grey_rect = view.visualRect(palette.model.index(run, 0))
    grey_row = _rect_in(window, viewport, grey_rect, scale)
    grey = colours.color(QPalette.ColorGroup.Disabled, QPalette.ColorRole.Text)
    normal = colours.color(QPalette.ColorGroup.Active, QPalette.ColorRole.Text)
    drawn = colours_in(image, grey_row)
    assert nearest(drawn, grey) <= 24, "the disabled action is not greyed out"
    assert nearest(drawn, normal) > nearest(drawn, grey)

    keys = view.visualRect(palette.model.index(0, 2))
    assert palette.model.entry(0).shortcut  # type: ignore[union-attr]
    key_cell = _rect_in(window, viewport, keys, scale)
    assert len(colours_in(image, key_cell)) > 3, "the shortcut column is empty"

    corner = QPoint(round(5 * scale), round((window.height() - 40) * scale))  # outside the palette
    assert image.pixel(corner) == before.pixel(corner)
    box = _rect_in(window, palette, palette.rect(), scale)
    assert not box.contains(corner)
    assert palette.search.hasFocus() and palette.search.text() == "connect"
    palette.hide()
