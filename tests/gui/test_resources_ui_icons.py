"""The window's icons come from the one SVG set (resources/icons/ui) in the theme's colours, not from emoji or
dingbat glyphs that depend on the system's fonts: the tool result's state, the banners' close button, the log's
"Diagnostics only" filter, the audio viewer, the history's outcomes; and they follow a theme change."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from pixels import colours_in, distance, ink
from PySide6.QtCore import QRect, QSize
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QApplication, QLabel
from pytestqt.qtbot import QtBot

from inspector.ui.log.filters import FilterBar
from inspector.ui.viewers import ResultState
from inspector.ui.viewers.audio_view import AudioView
from inspector.ui.viewers.tool_result import ToolResultView
from inspector.ui.widgets.banner import Banner
from inspector.ui.widgets.mark_label import MarkLabel
from inspector.ui.widgets.theme import ThemeMode, theme_manager
from inspector.ui.widgets.theme_colours import DARK, LIGHT

UI = Path(__file__).resolve().parents[2] / "inspector" / "ui"
# emoji (the pictographs' planes) and the glyphs this set replaced: none of them may come back as an icon
_FORBIDDEN = re.compile("[\U0001f000-\U0001faff\u23f1\u23f0\u231b\u266a\u2715\u2298\u2699\u2b50]")


def _shown_strings(path: Path) -> list[tuple[int, str]]:
    """The string constants of a module that can reach the screen (docstrings, which never do, left out)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    return [
        (node.lineno, node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings
    ]


def test_no_emoji_glyphs_in_the_ui_sources() -> None:
    found = [
        f"{path.relative_to(UI)}:{line}: {text!r}"
        for path in sorted(UI.rglob("*.py"))
        for line, text in _shown_strings(path)
        if _FORBIDDEN.search(text)
    ]
    assert found == []
    assert _FORBIDDEN.search("[\U0001f5bc logo]") and _FORBIDDEN.search("\u23f1 timed out")  # the check can fail


def test_tool_result_state_icons(qtbot: QtBot) -> None:
    view = ToolResultView("echo")
    qtbot.addWidget(view)
    view.show()
    assert view.state() is ResultState.EMPTY and view.state_icon.isHidden()
    view.set_running()
    assert view.state_icon.isHidden()
    view.set_result({"content": [{"type": "text", "text": "hi"}]}, duration=0.01)
    assert view.title_label.text() == "Result"
    assert view.state_icon.isVisible() and view.state_icon.property("icon_name") == "check"
    assert view.state_icon.property("tone") == "ok"
    view.set_result({"content": [], "isError": True}, duration=0.01)
    assert (view.title_label.text(), view.state_icon.property("icon_name")) == ("Tool error", "error")
    view.set_protocol_error(-32602, "nope", duration=0.01)
    assert (view.title_label.text(), view.state_icon.property("icon_name")) == ("Protocol error", "warning")
    schema = {"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]}
    view.set_result({"content": [], "structuredContent": {"n": "x"}}, schema, duration=0.01)
    assert view.title_label.text() == "Result · does not match outputSchema"
    assert (view.state_icon.property("icon_name"), view.state_icon.property("tone")) == ("warning", "warning")
    view.set_result({"content": [], "structuredContent": {"n": 1}}, schema, duration=0.01)
    assert view.schema_ok_label is not None and view.schema_ok_label.text() == (
        "structuredContent matches the outputSchema"
    )
    row = view.schema_ok_label.parentWidget()
    assert row is not None
    assert [w.property("icon_name") for w in row.findChildren(QLabel) if w.property("icon_name")] == ["check"]
    view.set_cancelled()
    assert view.state_icon.property("icon_name") == "cancelled"
    followers = len(view.state_icon.children())
    for _ in range(5):  # a long session shows many results: the label's theme hook is made once, not per result
        view.set_result({"content": []}, duration=0.01)
        view.set_protocol_error(-32602, "nope", duration=0.01)
    assert len(view.state_icon.children()) == followers <= 1


def test_close_button_and_diagnostics_filter_and_audio(qtbot: QtBot) -> None:
    banner = Banner("warning", "Heads up", dismissable=True)
    qtbot.addWidget(banner)
    assert banner.close_button is not None
    assert banner.close_button.text() == "" and banner.close_button.property("icon_name") == "close"
    assert not banner.close_button.icon().isNull() and banner.close_button.accessibleName() == "Dismiss"

    bar = FilterBar()
    qtbot.addWidget(bar)
    assert bar.diagnostics_button.text() == "Diagnostics only"
    assert bar.diagnostics_button.property("icon_name") == "warning" and not bar.diagnostics_button.icon().isNull()

    audio = AudioView("UklGRiQAAABXQVZF", "audio/wav")
    qtbot.addWidget(audio)
    assert audio.audio_icon.property("icon_name") == "audio" and audio.audio_icon.pixmap().width() == 20


def test_icons_follow_the_theme(qtbot: QtBot, qapp: QApplication) -> None:
    """Switching the theme repaints the icons in the other theme's colours (both variants are real)."""
    manager = theme_manager()
    view = ToolResultView("echo")
    qtbot.addWidget(view)
    view.set_result({"content": []}, duration=0.01)
    banner = Banner("info", "x", dismissable=True)
    qtbot.addWidget(banner)
    inks = {}
    for mode in (ThemeMode.LIGHT, ThemeMode.DARK):
        manager.set_mode(mode)
        table = DARK if mode is ThemeMode.DARK else LIGHT
        state = view.state_icon.pixmap().toImage()
        assert ink(state).name() == table.ok_fg
        assert banner.close_button is not None
        close = banner.close_button.icon().pixmap(QSize(16, 16)).toImage()
        assert ink(close).name() == table.text
        inks[mode] = ink(close)
        # drawn, not blank: the stroke covers a good part of the 16 px square
        drawn = colours_in(close, QRect(0, 0, 16, 16))
        assert sum(n for rgb, n in drawn.items() if distance(rgb, QColor(table.text)) < 40) >= 8
    assert inks[ThemeMode.LIGHT].lightness() < 100 < 160 < inks[ThemeMode.DARK].lightness()


def test_mark_label_paints_its_icon_before_the_text(qtbot: QtBot) -> None:
    label = MarkLabel("Secrets are kept for this session only")
    qtbot.addWidget(label)
    label.resize(400, 30)
    label.show()
    qtbot.waitExposed(label)
    assert label.text() == "Secrets are kept for this session only"  # still a plain QLabel's text
    rect = label.mark_rect()
    assert rect is not None and label.contentsMargins().left() >= rect.width()
    shot = label.grab().toImage()
    warning = QColor((DARK if label.palette().window().color().lightness() < 128 else LIGHT).warning_fg)
    inside = colours_in(shot, rect)
    assert sum(n for rgb, n in inside.items() if distance(rgb, warning) < 40) >= 6  # the icon, in its tone
    label.set_mark(None)
    assert label.mark_rect() is None and label.contentsMargins().left() == 0
    assert label.property("icon_name") == ""
    plain = colours_in(label.grab().toImage(), rect)
    assert sum(n for rgb, n in plain.items() if distance(rgb, warning) < 40) == 0


def test_filter_bar_error_count_is_marked_right_before_the_text(qtbot: QtBot) -> None:
    bar = FilterBar()
    qtbot.addWidget(bar)
    bar.resize(900, 40)
    bar.show()
    qtbot.waitExposed(bar)
    bar.set_counts(3, 10)
    assert bar.count_label.text() == "10 messages" and bar.count_label.mark_rect() is None
    bar.set_counts(0, 10, error="bad query")
    label = bar.count_label
    assert label.text() == "bad query" and label.property("icon_name") == "warning"
    rect = label.mark_rect()
    assert rect is not None
    text_left = label.contentsRect().right() + 1 - label.fontMetrics().horizontalAdvance(label.text())
    assert 0 < text_left - rect.right() <= 8  # the right-aligned text starts just after its icon
    bar.set_counts(3, 10)
    assert label.property("icon_name") == "" and label.mark_rect() is None


def test_no_style_standard_icons() -> None:
    """Qt's standard pixmaps differ by style and platform; the window uses its own set (arrows, trash, link...)."""
    found = [
        str(path.relative_to(UI)) for path in sorted(UI.rglob("*.py")) if "standardIcon(" in path.read_text("utf-8")
    ]
    assert found == []
