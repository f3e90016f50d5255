"""A result with every content type fits the result pane's width at 1280x800: no sideways scrolling (the audio
block's facts used to be one unbreakable line, 600 px wide, wider than the pane)."""

from __future__ import annotations

from guikit import AsyncRunner, MakeWindow, connect_tab, tool_page
from PySide6.QtCore import QPoint
from pytestqt.qtbot import QtBot

from inspector.ui.viewers.audio_view import AudioView


def test_every_content_type_fits_the_result_width(
    qtbot: QtBot, qasync_loop: AsyncRunner, make_window: MakeWindow
) -> None:
    window = make_window()
    window.resize(1280, 800)
    tab = connect_tab(window, qasync_loop)
    page = tool_page(tab, "mixed_content")
    qasync_loop.wait_until(lambda: page._form is not None, timeout=5)
    qtbot.wait(50)
    page.run_button.click()
    qasync_loop.wait_until(lambda: not page.running, timeout=30)
    qtbot.wait(100)
    view = page.result_view
    viewport = view.scroll_area.viewport()
    assert view.scroll_area.horizontalScrollBar().maximum() == 0, (
        view.body.minimumSizeHint().width(),
        viewport.width(),
    )
    audio = view.findChildren(AudioView)
    assert audio, "the demo's mixed_content result has an audio block"
    for clip in audio:
        label = clip.info_label
        assert label.text() == clip.info_text()  # every fact is still there, wrapped, not cut
        assert label.height() >= label.heightForWidth(label.width())
        right = label.mapTo(viewport, QPoint(label.width(), 0)).x()
        assert right <= viewport.width()
