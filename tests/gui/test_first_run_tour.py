"""The tour: shown once on the first run, walked forward and back, Esc dismisses, Help → Tour brings it back, and
each step rings its area (what the overlay draws is checked in a screenshot)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Protocol

import pytest
from guikit import AsyncRunner, connect_tab
from pixels import saved_grab
from PySide6.QtCore import QPoint, QRect, Qt
from PySide6.QtGui import QColor, QImage
from PySide6.QtWidgets import QWidget
from pytestqt.qtbot import QtBot

from inspector.store.profiles import ProfileStore
from inspector.ui.widgets.tour import RING_MARGIN, Tour
from inspector.ui.window.main_window import MainWindow
from inspector.ui.window.settings import UiSettings


class Start(Protocol):
    def __call__(self, settings_path: Path | None = None) -> MainWindow: ...


@pytest.fixture(autouse=True)
def _home(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", str(tmp_path_factory.mktemp("home")))
    monkeypatch.delenv("XDG_CONFIG_HOME", raising=False)


@pytest.fixture
def start(qtbot: QtBot, qasync_loop: AsyncRunner, store: ProfileStore, tmp_path: Path) -> Iterator[Start]:
    """Start the app's window as the app does (with its first-run tour), painted; shut down after the test."""
    windows: list[MainWindow] = []

    def make(settings_path: Path | None = None) -> MainWindow:
        settings = UiSettings(settings_path or tmp_path / "window.ini")
        window = MainWindow(store, settings, first_run_tour=True)
        window.resize(1280, 800)
        windows.append(window)
        with qtbot.waitSignal(window.firstPainted, timeout=10000):
            window.show()
        return window

    yield make
    for window in windows:
        qasync_loop.run(window.shutdown(), timeout=30)
        window.close()
        window.deleteLater()
    qtbot.wait(10)


def ring_of(widget: QWidget, window: MainWindow, rect: QRect | None = None) -> QRect:
    area = rect if rect is not None else widget.rect()
    ring = QRect(widget.mapTo(window, area.topLeft()), area.size())
    return ring.adjusted(-RING_MARGIN, -RING_MARGIN, RING_MARGIN, RING_MARGIN) & window.rect()


def open_tour(window: MainWindow) -> Tour:
    tour = window.tour
    assert isinstance(tour, Tour) and tour.isVisible()
    return tour


def test_first_run_walk_forward_and_back(qtbot: QtBot, start: Start) -> None:
    window = start()
    tour = open_tour(window)
    assert tour.geometry() == window.rect()
    assert (tour.index, tour.counter_label.text()) == (0, "1 of 6")
    assert tour.title_label.text() == "Connections and profiles"
    assert tour.ring == ring_of(window.profiles, window)
    assert not tour.back_button.isEnabled()
    assert not tour.bubble.geometry().intersects(tour.ring), "the bubble hides what it explains"
    titles = [tour.title_label.text()]
    for _ in range(5):
        qtbot.mouseClick(tour.next_button, Qt.MouseButton.LeftButton)
        titles.append(tour.title_label.text())
    assert titles == [
        "Connections and profiles", "Explore", "The message log", "Server requests", "Command palette",
        "Settings and theme",
    ]  # fmt: skip
    assert tour.next_button.text() == "Done" and not tour.skip_button.isVisible()
    bar = window.menuBar()
    view = next(a for a in bar.actions() if a.text() == "&View")
    assert tour.ring == ring_of(bar, window, bar.actionGeometry(view))
    qtbot.mouseClick(tour.back_button, Qt.MouseButton.LeftButton)
    assert (tour.index, tour.title_label.text(), tour.next_button.text()) == (4, "Command palette", "Next")
    qtbot.mouseClick(tour.next_button, Qt.MouseButton.LeftButton)
    with qtbot.waitSignal(tour.finished, timeout=2000) as done:
        qtbot.mouseClick(tour.next_button, Qt.MouseButton.LeftButton)
    assert done.args == [True]
    qtbot.waitUntil(lambda: window.tour is None, timeout=2000)


def test_escape_dismisses_and_it_is_not_shown_on_the_second_start(qtbot: QtBot, start: Start, tmp_path: Path) -> None:
    window = start()
    tour = open_tour(window)
    qtbot.mouseClick(tour.next_button, Qt.MouseButton.LeftButton)
    with qtbot.waitSignal(tour.finished, timeout=2000) as done:
        qtbot.keyClick(tour.next_button, Qt.Key.Key_Escape)
    assert done.args == [False]
    qtbot.waitUntil(lambda: window.tour is None, timeout=2000)
    assert UiSettings(tmp_path / "window.ini").tour_seen  # written at once, not only when the window closes
    again = start()
    qtbot.wait(50)
    assert again.tour is None
    again.tour_action.trigger()  # Help → Tour
    assert open_tour(again).index == 0


def test_steps_ring_the_connections_areas(qtbot: QtBot, start: Start, qasync_loop: AsyncRunner) -> None:
    window = start()
    open_tour(window).skip()
    qtbot.waitUntil(lambda: window.tour is None, timeout=2000)
    tab = connect_tab(window, qasync_loop)
    tour = window.start_tour()
    bar = tab.inner_tabs.tabBar()
    labels = [tab.inner_tabs.tabText(i) for i in range(bar.count())]
    tour.go(1)
    explore = [bar.tabRect(labels.index(name)) for name in ("Tools", "Resources", "Prompts", "Utilities")]
    ring = tour.ring
    assert ring is not None and all(ring.contains(ring_of(bar, window, r).adjusted(6, 6, -6, -6)) for r in explore)
    tour.go(2)
    assert tour.ring == ring_of(bar, window, bar.tabRect(labels.index("Log")))
    tour.go(3)
    target = tab.requests_indicator if tab.requests_indicator.isVisible() else tab.header
    assert tour.ring == ring_of(target, window)
    window.resize(1100, 700)  # the overlay follows the window
    qtbot.waitUntil(lambda: tour.geometry() == window.rect(), timeout=2000)
    assert tour.ring == ring_of(target, window)
    tour.skip()


def _luma(colour: QColor) -> int:
    return colour.red() + colour.green() + colour.blue()


def test_screenshot_dims_all_but_the_ring(qtbot: QtBot, start: Start, tmp_path: Path) -> None:
    window = start()
    tour = open_tour(window)
    tour.hide()
    qtbot.wait(20)
    plain = window.grab().toImage()
    tour.show()
    qtbot.wait(20)
    shot, scale = saved_grab(window, tmp_path / "tour.png")
    ring = tour.ring
    assert ring is not None

    def at(image: QImage, point: QPoint) -> QColor:
        return image.pixelColor(round(point.x() * scale), round(point.y() * scale))

    inside = window.profiles.mapTo(window, QPoint(window.profiles.width() // 2, window.profiles.height() // 2))
    assert ring.contains(inside)
    assert abs(_luma(at(shot, inside)) - _luma(at(plain, inside))) < 12, "the ringed area is dimmed"
    outside = QPoint(window.width() - 30, window.height() // 2)
    assert not ring.contains(outside) and not tour.bubble.geometry().contains(outside)
    assert _luma(at(shot, outside)) < _luma(at(plain, outside)) - 60, "the rest of the window is not dimmed"
    edge = QPoint(ring.right() - 1, ring.center().y())  # the ring's outline, in the highlight colour
    highlight = window.palette().color(window.palette().ColorRole.Highlight)
    drawn = at(shot, edge)
    assert max(abs(drawn.red() - highlight.red()), abs(drawn.blue() - highlight.blue())) < 40
    title = tour.title_label
    text_area = QRect(title.mapTo(window, QPoint(0, 0)), title.size())
    colours = {at(shot, QPoint(x, text_area.center().y())).rgb() for x in range(text_area.left(), text_area.right())}
    assert len(colours) > 3, "the bubble's title is not drawn"
