"""View → Font size reaches the explicitly sized fonts too (headers, pills, monospace views, the empty state, the
command palette), live: each one scales with the application's font and comes back on Reset. And no font size is
written anywhere in ``inspector/ui`` but in the one helper (``widgets/theme``: ``FONT_ROLES``, ``scaled_font``,
``font_size_css``, ``follow_font``)."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

from guikit import AsyncRunner, MakeWindow, connect_tab, tool_page
from PySide6.QtCore import Qt
from PySide6.QtGui import QFont
from PySide6.QtWidgets import QApplication, QLabel, QWidget
from pytestqt.qtbot import QtBot

import inspector.ui
from inspector.ui.log.model import Column
from inspector.ui.viewers.text_view import JsonView
from inspector.ui.viewers.tool_result import ResultState


def _points(widget: QWidget) -> float:
    """The size ``widget`` draws its text in (a style sheet's font-size included), in points."""
    widget.ensurePolished()
    font = widget.font()
    if font.pointSizeF() > 0:
        return font.pointSizeF()
    return font.pixelSize() * 72 / widget.logicalDpiY()


def test_explicit_font_sizes_follow_the_font_size_live(
    qtbot: QtBot, qasync_loop: AsyncRunner, make_window: MakeWindow
) -> None:
    window = make_window()
    window.resize(1280, 800)
    window.show()
    heading = next(label for label in window.welcome.findChildren(QLabel) if "<h1>" in label.text())
    palette = window.keyboard.open_palette()
    qtbot.waitUntil(palette.isVisible, timeout=3000)
    assert palette.model.rowCount() > 0

    tab = connect_tab(window, qasync_loop)
    page = tool_page(tab, "get_weather")
    qtbot.waitUntil(page.run_button.isEnabled, timeout=10000)
    page.form.set_value({"city": "Lisbon"})
    qtbot.mouseClick(page.run_button, Qt.MouseButton.LeftButton)
    qasync_loop.wait_until(lambda: page.result_view.state() is ResultState.SUCCESS, timeout=20)
    json_views = page.result_view.findChildren(JsonView)
    assert json_views, "the result shows no JSON"
    log = tab.log.model
    qasync_loop.wait_until(lambda: log.rowCount() > 0, timeout=10)
    badges = [label for label in window.findChildren(QLabel) if label.objectName() == "badge"]
    assert badges, "no badge (pill) in the window"

    def log_font() -> QFont:
        font = log.data(log.index(0, int(Column.SUMMARY)), Qt.ItemDataRole.FontRole)
        assert isinstance(font, QFont)
        return font

    sizes: dict[str, Callable[[], float]] = {
        "connection header": lambda: _points(tab.state_label),
        "tool title": lambda: _points(page.header.title_label),
        "badge": lambda: _points(badges[0]),
        "JSON view": lambda: _points(json_views[0]),
        "log (monospace)": lambda: log_font().pointSizeF(),
        "empty state heading": lambda: _points(heading),
        "palette entries": lambda: _points(palette.view),
    }
    before = {name: size() for name, size in sizes.items()}
    app_before = QApplication.font().pointSizeF()
    mono_before = log_font()

    window.view_menu.change_font(+3)
    window.view_menu.change_font(+1)
    qtbot.wait(20)
    ratio = QApplication.font().pointSizeF() / app_before
    assert ratio > 1.3
    after = {name: size() for name, size in sizes.items()}
    for name, size in after.items():
        assert abs(size - before[name] * ratio) <= 0.06 * ratio + 0.01, f"{name}: {before[name]} -> {size}"
    assert log_font().fixedPitch() or log_font().family() == mono_before.family()  # still monospace

    window.view_menu.change_font(None)
    qtbot.wait(20)
    back = {name: size() for name, size in sizes.items()}
    assert back == before


UI = Path(inspector.ui.__file__).parent
HELPER = UI / "widgets" / "theme.py"
RAW_SIZE = re.compile(r"\.setPointSizeF?\(|\.setPixelSize\(|font-size:\s*[0-9.]+\s*(?:px|pt|em|%)", re.IGNORECASE)
ALLOWED: dict[tuple[str, str], str] = {
    ("connection/overview.py", "font.setPixelSize(int(size * 0.5))"): (
        "the letter painted into a server's stand-in icon: sized by the icon's pixels, not by the text"
    ),
    ("explore/common/support.py", "font-size: 15px;"): (
        "the letter standing for a missing tool or prompt icon, in a fixed 32x32 box like the icons"
    ),
}


def test_no_font_size_is_written_outside_the_theme_helper() -> None:
    found: list[str] = []
    used: set[tuple[str, str]] = set()
    for path in sorted(UI.rglob("*.py")):
        if path == HELPER:
            continue
        relative = path.relative_to(UI).as_posix()
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if not RAW_SIZE.search(line):
                continue
            allowed = [key for key in ALLOWED if key[0] == relative and key[1] in line]
            if allowed:
                used.update(allowed)
            else:
                found.append(f"{relative}:{number}: {line.strip()}")
    assert not found, (
        "explicit font sizes outside widgets/theme.py (use scaled_font / follow_font / font_size_css and a"
        " FONT_ROLES entry, so View → Font size reaches them):\n" + "\n".join(found)
    )
    assert used == set(ALLOWED), f"allow-list entries that no longer match anything: {set(ALLOWED) - used}"
