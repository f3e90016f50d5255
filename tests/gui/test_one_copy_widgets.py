"""The one Banner (in place and dismissable across the window), the one ``is_dark`` every view reads, and the
limits table showing sizes through the one size formatter."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from PySide6.QtGui import QColor, QGuiApplication, QPalette
from PySide6.QtWidgets import QApplication, QHBoxLayout, QPushButton
from pytestqt.qtbot import QtBot

from inspector.protocol.sizes import KiB, MiB
from inspector.protocol.wire import Kind
from inspector.ui.log.palette import kind_colour, kind_colours
from inspector.ui.profiles.views import LimitsTable
from inspector.ui.widgets.banner import Banner
from inspector.ui.widgets.style import DARK, LIGHT, is_dark, tones


def test_a_banner_in_place_has_a_title_lines_and_room_for_a_row(qtbot: QtBot) -> None:
    banner = Banner("error", "JSON-RPC error -32602", ["Bad arguments"])
    qtbot.addWidget(banner)
    assert banner.tone == "error" and banner.property("tone") == "error" and banner.close_button is None
    assert banner.text() == "JSON-RPC error -32602\nBad arguments"
    row = QHBoxLayout()
    row.addWidget(QPushButton("Show all", banner))
    banner.body.addLayout(row)
    banner.set_lines(["first", "second"])  # lines stay between the title and the added row
    assert banner.lines() == ["first", "second"]
    items = [banner.body.itemAt(i) for i in range(4)]
    assert [item.widget() for item in items[:3] if item is not None] == [banner.title_label, *banner.line_labels]
    assert items[3] is not None and items[3].layout() is row


def test_a_dismissable_banner_waits_for_messages_and_hides_on_dismiss(qtbot: QtBot) -> None:
    banner = Banner("warning", dismissable=True)
    qtbot.addWidget(banner)
    banner.show_messages([])
    assert not banner.isVisible() and banner.close_button is not None
    banner.show_messages(["profiles.json is not valid JSON", "secrets are kept for this session only"])
    assert banner.isVisible() and not banner.title_label.isVisible()
    assert banner.text() == "profiles.json is not valid JSON\nsecrets are kept for this session only"
    banner.close_button.click()
    assert not banner.isVisible()


@pytest.fixture
def dark_window_light_base(qapp: QApplication) -> Iterator[None]:
    """A theme whose window is dark while its text fields stay light (the two copies disagreed on it)."""
    saved = QGuiApplication.palette()
    palette = QPalette(saved)
    palette.setColor(QPalette.ColorRole.Window, QColor("#202020"))
    palette.setColor(QPalette.ColorRole.Base, QColor("#ffffff"))
    QGuiApplication.setPalette(palette)
    yield
    QGuiApplication.setPalette(saved)


@pytest.mark.usefixtures("dark_window_light_base")
def test_the_log_and_the_viewers_agree_on_the_theme() -> None:
    assert is_dark() and tones() is DARK
    assert kind_colour(Kind.REQUEST.value) == kind_colours(dark=True)[Kind.REQUEST.value]
    assert kind_colour(Kind.REQUEST.value) != kind_colours(dark=False)[Kind.REQUEST.value]
    assert tones() is not LIGHT


@pytest.mark.parametrize(
    ("value", "shown"),
    [(4 * KiB, "4 KiB"), (256 * MiB, "256 MiB"), (MiB + 1, str(MiB + 1)), (1500, "1500"), (512, "512")],
)
def test_the_limits_table_shows_a_size_only_when_it_reads_back_exactly(value: int, shown: str) -> None:
    assert LimitsTable.shown("message_bytes", value) == shown
    assert LimitsTable.shown("reconnects_per_minute", 30) == "30"
