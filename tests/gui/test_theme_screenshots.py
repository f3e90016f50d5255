"""Screenshots of the main window connected to the in-memory demo, at 1280x800 and 1920x1080, light and dark,
checked for what was drawn: the window's background is dark with light text in the dark theme and the reverse in
the light one, a tool's JSON result is drawn on the theme's card in its code style (its strings in the style's
colour), and the tab's state dot in the theme's "connected" colour. The PNGs go to the test's tmp dir and, when
``INSPECTOR_SCREENSHOT_DIR`` is set, there too (``theme-<light|dark>-<width>x<height>.png``, the README's)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from guikit import AsyncRunner, MakeWindow, connect_tab, tool_page
from pixels import RGB, colours_in, distance, nearest, rect_in
from pygments.styles import get_style_by_name
from pygments.token import Token
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QImage
from pytestqt.qtbot import QtBot

from inspector.ui.viewers import ResultState
from inspector.ui.widgets.style import DARK, LIGHT, tones
from inspector.ui.widgets.theme_colours import Tones

SIZES = [(1280, 800), (1920, 1080)]


def lightness(rgb: RGB) -> int:
    return QColor(*rgb).lightness()


def save_copies(image: QImage, name: str, tmp_path: Path) -> None:
    """Saved with a palette of the 256 colours drawn most (no alpha, no dithering: small, as the README wants) under
    tmp and the screenshot dir."""
    flags = Qt.ImageConversionFlag.ThresholdDither | Qt.ImageConversionFlag.AvoidDither
    rgb = image.convertToFormat(QImage.Format.Format_RGB888)
    common = [QColor(*c).rgb() for c, _ in colours_in(rgb, rgb.rect(), step=2).most_common(256)]
    small = rgb.convertToFormat(QImage.Format.Format_Indexed8, common, flags)  # the drawn colours, not a stock set
    assert small.save(str(tmp_path / name))
    wanted = os.environ.get("INSPECTOR_SCREENSHOT_DIR", "").strip()
    if wanted:
        Path(wanted).mkdir(parents=True, exist_ok=True)
        assert small.save(str(Path(wanted) / name))


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("theme", ["light", "dark"])
def test_main_window(
    theme: str, size: tuple[int, int], qtbot: QtBot, qasync_loop: AsyncRunner, make_window: MakeWindow, tmp_path: Path
) -> None:
    window = make_window()
    window.view_menu.set_mode(theme)
    expected: Tones = DARK if theme == "dark" else LIGHT
    assert tones() is expected
    window.resize(*size)
    tab = connect_tab(window, qasync_loop)
    page = tool_page(tab, "get_weather")
    qtbot.waitUntil(page.run_button.isEnabled)
    page.form.set_value({"city": "Lisbon"})
    qtbot.mouseClick(page.run_button, Qt.MouseButton.LeftButton)
    qasync_loop.wait_until(lambda: page.result_view.state() is ResultState.SUCCESS, timeout=20)
    qtbot.wait(100)

    shot = window.grab()
    scale = shot.devicePixelRatio()
    image = shot.toImage()
    save_copies(image, f"theme-{theme}-{size[0]}x{size[1]}.png", tmp_path)
    assert (image.width(), image.height()) == (round(size[0] * scale), round(size[1] * scale))
    everything = colours_in(image, image.rect(), step=3)
    assert len(everything) > 80, "the screenshot is (nearly) uniform"

    # the background: most of the window is the theme's window or base colour, dark or light
    background, _ = everything.most_common(1)[0]
    assert (
        nearest(type(everything)({background: 1}), QColor(expected.window)) <= 3
        or nearest(type(everything)({background: 1}), QColor(expected.base)) <= 3
    ), background
    assert (lightness(background) < 60) if theme == "dark" else (lightness(background) > 220)

    # text: the status bar's line is drawn in light text on dark (and the reverse)
    status = colours_in(image, rect_in(window.profiles, window, scale))
    ink = [c for c, n in status.items() if abs(lightness(c) - lightness(background)) > 120]
    assert ink, "no text drawn in the sidebar"
    text_like = max(ink, key=lambda c: abs(lightness(c) - lightness(background)))
    assert (lightness(text_like) > 180) if theme == "dark" else (lightness(text_like) < 80)

    # the tool's result: its JSON drawn on the theme's card, in the theme's code style
    result = colours_in(image, rect_in(page.result_view, window, scale))
    assert nearest(result, QColor(expected.text)) <= 40
    assert nearest(result, QColor(expected.card_bg)) <= 3 or nearest(result, QColor(expected.base)) <= 3
    style = get_style_by_name(expected.code_style)
    string = QColor("#" + style.style_for_token(Token.Literal.String.Double)["color"])
    other = get_style_by_name((LIGHT if expected is DARK else DARK).code_style)
    other_string = QColor("#" + other.style_for_token(Token.Literal.String.Double)["color"])
    ours, theirs = (sum(n for c, n in result.items() if distance(c, colour) <= 12) for colour in (string, other_string))
    assert ours > 100, "the JSON strings are not in the theme's code style"
    assert theirs < ours / 10, "the other theme's code style is drawn"

    # the connection tab's state dot
    dot = colours_in(image, rect_in(window.tabs.tabBar(), window, scale))
    assert nearest(dot, QColor(expected.connected)) <= 30, "no dot in the theme's connected colour"
