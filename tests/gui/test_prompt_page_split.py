"""The prompt page's form/transcript split: fitted to the form until the user drags it, then the dragged split is
kept for every prompt and across sessions (as on the tools page)."""

from __future__ import annotations

from guikit import AsyncRunner, MakeWindow, connect_tab, prompt_page
from PySide6.QtCore import QPoint, Qt
from pytestqt.qtbot import QtBot

from inspector.ui.explore.prompts.page import PromptPage
from inspector.ui.window.connection_tab import ConnectionTab
from inspector.ui.window.settings import UiSettings


def _shown_page(qtbot: QtBot, tab: ConnectionTab, name: str) -> PromptPage:
    page = prompt_page(tab, name)
    qtbot.waitUntil(page.isVisible, timeout=5000)
    qtbot.wait(50)  # the split is fitted once the page has its size
    return page


def _drag(qtbot: QtBot, page: PromptPage, dy: int) -> None:
    handle = page.splitter.handle(1)
    start = QPoint(handle.width() // 2, handle.height() // 2)
    end = QPoint(start.x(), start.y() + dy)
    qtbot.mousePress(handle, Qt.MouseButton.LeftButton, pos=start)
    qtbot.mouseMove(handle, end)
    qtbot.mouseRelease(handle, Qt.MouseButton.LeftButton, pos=end)


def test_the_form_part_fits_the_form(qtbot: QtBot, qasync_loop: AsyncRunner, make_window: MakeWindow) -> None:
    window = make_window()
    window.resize(1280, 800)
    tab = connect_tab(window, qasync_loop, show="prompts")
    for name in ("greeting", "code_review"):
        page = _shown_page(qtbot, tab, name)
        form_height, transcript_height = page.splitter.sizes()
        top = page.inputs_box
        needed = max(top.minimumSizeHint().height(), page.fitting_height())
        assert form_height <= needed + 2, (name, page.splitter.sizes(), needed)  # no mostly empty form
        assert form_height >= top.minimumSizeHint().height()  # and nothing of it cut off
        assert transcript_height >= 0.3 * (form_height + transcript_height), (name, page.splitter.sizes())


def test_the_dragged_split_is_kept_across_prompts_and_sessions(
    qtbot: QtBot, qasync_loop: AsyncRunner, make_window: MakeWindow, ui_settings: UiSettings
) -> None:
    window = make_window()
    window.resize(1280, 800)
    tab = connect_tab(window, qasync_loop, show="prompts")
    first = _shown_page(qtbot, tab, "greeting")
    _drag(qtbot, first, 160)  # below what any demo prompt's form needs at least
    dragged = first.splitter.sizes()
    assert tab.prompts.result_split.chosen, "dragging the handle was not remembered"

    second = _shown_page(qtbot, tab, "code_review")
    assert abs(second.splitter.sizes()[0] - dragged[0]) <= 2, (second.splitter.sizes(), dragged)
    assert abs(_shown_page(qtbot, tab, "greeting").splitter.sizes()[0] - dragged[0]) <= 2

    tab.save_layout(ui_settings)
    assert ui_settings.splitter("prompt_result") is not None
    later = make_window(settings=UiSettings(ui_settings.path))
    later.resize(1280, 800)
    tab2 = connect_tab(later, qasync_loop, show="prompts")
    assert tab2.prompts.result_split.chosen
    again = _shown_page(qtbot, tab2, "code_review")
    assert abs(again.splitter.sizes()[0] - dragged[0]) <= 2, (again.splitter.sizes(), dragged)
