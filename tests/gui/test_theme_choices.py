"""View → Theme and View → Font size: the override is applied and saved (a new window starts with it), the system's
light/dark change is followed while the theme is System and ignored while it is overridden, the font size changes
the application's font (and the monospace one) and is saved; and a switch recolours what is already open: the JSON
highlighting, the JSON tree, the message log, badges."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

import pytest
from guikit import AsyncRunner, MakeWindow, connect_tab, tool_page
from pixels import colours_in, nearest
from pygments.styles import get_style_by_name
from pygments.token import Token
from PySide6.QtCore import QPoint, QRect, Qt
from PySide6.QtGui import QColor, QFontDatabase, QGuiApplication, QKeySequence, QPalette
from PySide6.QtWidgets import QApplication, QLabel, QTextBrowser
from pytestqt.qtbot import QtBot

from inspector.protocol.wire import Kind
from inspector.ui.log.model import Column, KindRole
from inspector.ui.viewers import ResultState
from inspector.ui.viewers.json_model import JsonTreeModel
from inspector.ui.widgets.style import badge_label, is_dark, monospace_font, tones
from inspector.ui.widgets.theme import ThemeMode, theme_manager
from inspector.ui.widgets.theme_colours import DARK, LIGHT, Tones
from inspector.ui.window.settings import UiSettings


def window_colour() -> str:
    return str(QGuiApplication.palette().color(QPalette.ColorRole.Window).name())


def string_colour(t: Tones) -> QColor:
    """The colour the theme's code style gives a JSON string."""
    return QColor("#" + get_style_by_name(t.code_style).style_for_token(Token.Literal.String.Double)["color"])


@pytest.fixture
def system_scheme(qapp: QApplication) -> Iterator[None]:
    """The test tells the window what the system's scheme is; the real one is told again afterwards."""
    yield
    hints = QGuiApplication.styleHints()
    hints.colorSchemeChanged.emit(hints.colorScheme())


def test_the_override_is_applied_and_saved(make_window: MakeWindow, ui_settings: UiSettings) -> None:
    window = make_window()
    menu = window.view_menu
    assert menu.theme_actions[ThemeMode.SYSTEM].isChecked()
    assert window_colour() == LIGHT.window  # offscreen, the system says nothing: light
    menu.theme_actions[ThemeMode.DARK].trigger()
    assert is_dark() and tones() is DARK
    assert window_colour() == DARK.window
    assert DARK.base in QApplication.instance().styleSheet()  # type: ignore[union-attr]
    assert menu.theme_actions[ThemeMode.DARK].isChecked()
    assert UiSettings(ui_settings.path).theme_mode == "dark"

    again = make_window(settings=UiSettings(ui_settings.path))  # the next start
    assert again.view_menu.theme_actions[ThemeMode.DARK].isChecked()
    assert window_colour() == DARK.window
    again.view_menu.theme_actions[ThemeMode.LIGHT].trigger()
    assert window_colour() == LIGHT.window
    assert UiSettings(ui_settings.path).theme_mode == "light"


@pytest.mark.usefixtures("system_scheme")
def test_the_system_is_followed_only_while_the_theme_is_system(make_window: MakeWindow) -> None:
    window = make_window()
    hints = QGuiApplication.styleHints()
    manager = theme_manager()
    changes: list[bool] = []
    manager.changed.connect(lambda: changes.append(manager.dark))

    hints.colorSchemeChanged.emit(Qt.ColorScheme.Dark)
    assert window_colour() == DARK.window and changes == [True]
    hints.colorSchemeChanged.emit(Qt.ColorScheme.Light)
    assert window_colour() == LIGHT.window and changes == [True, False]

    window.view_menu.set_mode(ThemeMode.LIGHT)  # overridden: the system's change is ignored
    hints.colorSchemeChanged.emit(Qt.ColorScheme.Dark)
    assert window_colour() == LIGHT.window and not is_dark()

    window.view_menu.set_mode(ThemeMode.SYSTEM)  # following again: the system is dark by now
    assert window_colour() == DARK.window and is_dark()


def test_the_font_size_changes_the_application_font_and_is_saved(
    make_window: MakeWindow, ui_settings: UiSettings
) -> None:
    base = QApplication.font().pointSizeF()
    fixed = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont).pointSizeF()
    window = make_window()
    menu = window.view_menu
    assert QKeySequence("Ctrl+=") in menu.bigger_action.shortcuts()
    assert QKeySequence("Ctrl+-") in menu.smaller_action.shortcuts()
    assert QKeySequence("Ctrl+0") in menu.reset_font_action.shortcuts()
    assert not menu.reset_font_action.isEnabled()

    menu.bigger_action.trigger()
    menu.bigger_action.trigger()
    assert QApplication.font().pointSizeF() == base + 2
    assert window.status_label.font().pointSizeF() == base + 2  # the open widgets follow
    assert monospace_font().pointSizeF() == fixed + 2
    assert menu.reset_font_action.isEnabled()
    assert UiSettings(ui_settings.path).font_delta == 2

    again = make_window(settings=UiSettings(ui_settings.path))
    assert QApplication.font().pointSizeF() == base + 2
    again.view_menu.reset_font_action.trigger()
    assert QApplication.font().pointSizeF() == base
    again.view_menu.smaller_action.trigger()
    assert QApplication.font().pointSizeF() == base - 1
    assert UiSettings(ui_settings.path).font_delta == -1


def test_a_switch_recolours_what_is_open(qtbot: QtBot, qasync_loop: AsyncRunner, make_window: MakeWindow) -> None:
    window = make_window()
    window.resize(1280, 800)
    tab = connect_tab(window, qasync_loop)
    page = tool_page(tab, "get_weather")
    qtbot.waitUntil(page.run_button.isEnabled)
    page.form.set_value({"city": "Lisbon"})
    qtbot.mouseClick(page.run_button, Qt.MouseButton.LeftButton)
    qasync_loop.wait_until(lambda: page.result_view.state() is ResultState.SUCCESS, timeout=20)
    browsers = [b for b in page.result_view.findChildren(QTextBrowser) if b.isVisible() and "Lisbon" in b.toPlainText()]
    assert browsers, "the result's JSON is not shown highlighted"
    browser = browsers[0]
    badge = badge_label("read-only", "ok", parent=window)
    tree = JsonTreeModel({"city": "Lisbon", "n": 1})
    log = tab.log.model
    qasync_loop.wait_until(lambda: log.rowCount() > 0, timeout=10)
    request_row = next(r for r in range(log.rowCount()) if log.data(log.index(r, 0), KindRole) == Kind.REQUEST.value)

    def shown() -> tuple[set[tuple[int, int, int]], QColor, QColor, str]:
        qtbot.wait(50)
        top_left = browser.viewport().mapTo(window, QPoint(0, 0))
        image = window.grab().toImage()
        scale = image.devicePixelRatio()
        rect = QRect(
            round(top_left.x() * scale),
            round(top_left.y() * scale),
            round(browser.viewport().width() * scale),
            round(browser.viewport().height() * scale),
        )
        value = tree.index(0, JsonTreeModel.VALUE_COLUMN)
        return (
            set(colours_in(image, rect)),
            tree.data(value, Qt.ItemDataRole.ForegroundRole),
            log.data(log.index(request_row, int(Column.KIND)), Qt.ItemDataRole.ForegroundRole),
            badge.styleSheet(),
        )

    light_colours, light_tree, light_log, light_badge = shown()
    window.view_menu.set_mode(ThemeMode.DARK)
    dark_colours, dark_tree, dark_log, dark_badge = shown()

    assert nearest(Counter(light_colours), string_colour(LIGHT)) <= 12, "no JSON string in the light code style"
    assert nearest(Counter(dark_colours), string_colour(DARK)) <= 12, "the JSON was not highlighted again"
    assert nearest(Counter(dark_colours), string_colour(LIGHT)) > 40, "the light style's strings are still drawn"
    assert light_tree == QColor(LIGHT.json_tokens["string"]) and dark_tree == QColor(DARK.json_tokens["string"])
    assert light_log != dark_log and dark_log == QColor(DARK.log_kinds["request"])
    assert LIGHT.ok_fg in light_badge and DARK.ok_fg in dark_badge
    assert isinstance(badge, QLabel)
