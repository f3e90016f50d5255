"""The tool list's rows give the name priority over badges: at the list's usual width a 30-character name (and a
name beside a long title) is drawn whole, the description gets the full second line, and badges that do not fit
are counted in a "+N" pill instead of squeezing the text."""

from __future__ import annotations

from PySide6.QtCore import QRect
from PySide6.QtGui import QColor, QImage, QPainter
from PySide6.QtWidgets import QStyleOptionViewItem
from pytestqt.qtbot import QtBot

from inspector.content.catalog import CatalogEntry, parse_tools
from inspector.ui.explore.catalog.list_browser import ListBrowser
from inspector.ui.explore.catalog.model import CatalogDelegate

ALL_HINTS = {"readOnlyHint": True, "idempotentHint": True, "openWorldHint": True}
LONG_NAME = "get_weather_forecast_by_region"
TITLED_NAME = "business_error_with_reason"
DESCRIPTION = "Made-up but deterministic weather for any city, with a forecast of several days and the units you ask"


def _browser(qtbot: QtBot) -> ListBrowser:
    browser = ListBrowser("tool")
    qtbot.addWidget(browser)
    browser.resize(340, 600)  # the width the Tools panel gives its list (CatalogPanel's splitter)
    browser.set_entries(
        parse_tools(
            [
                {"name": LONG_NAME, "description": DESCRIPTION, "inputSchema": {"type": "object"},
                 "annotations": ALL_HINTS},
                {"name": TITLED_NAME, "title": "Business failure (isError)", "description": DESCRIPTION,
                 "inputSchema": {"type": "object"}, "annotations": ALL_HINTS},
            ]
        )
    )  # fmt: skip
    browser.show()
    qtbot.waitExposed(browser)
    return browser


def _row(browser: ListBrowser, row: int) -> tuple[CatalogDelegate, CatalogEntry, QStyleOptionViewItem]:
    view = browser.view
    delegate = view.itemDelegate()
    assert isinstance(delegate, CatalogDelegate)
    index = browser.model.index(row, 0)
    entry = browser.model.entry(row)
    assert entry is not None
    option = QStyleOptionViewItem()
    option.initFrom(view.viewport())
    option.rect = view.visualRect(index)
    option.font = view.font()
    return delegate, entry, option


def test_a_30_character_name_is_drawn_whole_with_the_description_on_the_full_line(qtbot: QtBot) -> None:
    assert len(LONG_NAME) == 30
    browser = _browser(qtbot)
    assert 280 <= browser.view.viewport().width() <= 340
    delegate, entry, option = _row(browser, 0)
    assert len(entry.badges) == 3
    layout = delegate.row_layout(entry, option.rect, option.font)
    assert layout.title == LONG_NAME
    # the description is not cut short by badges: it has the whole text column
    assert layout.description_rect.left() == layout.title_rect.left()
    assert layout.description_rect.right() >= option.rect.right() - delegate.PAD - 1
    assert len(layout.description.rstrip("…")) > 30
    # badges sit on the first line, after the name, never over it
    for _text, _kind, box in layout.badges:
        assert box.left() >= layout.title_rect.right() and box.right() <= option.rect.right()
    assert len([b for b in layout.badges if not b[0].startswith("+")]) + layout.hidden_badges == 3


def test_the_name_beside_a_title_wins_over_the_title_and_the_badges(qtbot: QtBot) -> None:
    browser = _browser(qtbot)
    delegate, entry, option = _row(browser, 1)
    layout = delegate.row_layout(entry, option.rect, option.font)
    assert layout.name == TITLED_NAME
    assert layout.title.startswith("Business")
    assert layout.name_rect.left() > layout.title_rect.left() and layout.name_rect.right() <= option.rect.right()
    # at a generous width everything is whole and all badges are drawn
    wide = QRect(0, 0, 900, option.rect.height())
    roomy = delegate.row_layout(entry, wide, option.font)
    assert roomy.title == "Business failure (isError)" and roomy.name == TITLED_NAME
    assert roomy.hidden_badges == 0 and [b[0] for b in roomy.badges] == [b.text for b in entry.badges]


def test_the_real_paint_draws_the_row(qtbot: QtBot) -> None:
    browser = _browser(qtbot)
    delegate, entry, option = _row(browser, 0)
    image = QImage(option.rect.width(), option.rect.height() * 2, QImage.Format.Format_ARGB32)
    image.fill(QColor("white"))
    painter = QPainter(image)
    option.rect = QRect(0, 0, option.rect.width(), option.rect.height())
    delegate.paint(painter, option, browser.model.index(0, 0))
    painter.end()
    layout = delegate.row_layout(entry, option.rect, option.font)
    inked = {
        x
        for x in range(layout.title_rect.left(), layout.title_rect.right())
        for y in range(layout.title_rect.top(), layout.title_rect.bottom())
        if image.pixelColor(x, y).lightness() < 128
    }
    # ink reaches the end of the whole name, not just its first ~15 characters
    assert inked and max(inked) > layout.title_rect.left() + 0.8 * (layout.title_rect.width() - 2)
