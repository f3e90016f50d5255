"""Issue 14 §5.7: an image opens at 100 % when it fits the view, and fitted (scaled down) when it does not."""

from __future__ import annotations

import base64
from collections.abc import Iterator

import pytest
from PySide6.QtCore import QBuffer, QByteArray, QIODevice
from PySide6.QtGui import QColor, QImage
from PySide6.QtWidgets import QVBoxLayout, QWidget
from pytestqt.qtbot import QtBot

from inspector.ui.viewers.image_view import ImageView


def png(width: int, height: int) -> str:
    image = QImage(width, height, QImage.Format.Format_ARGB32)
    image.fill(QColor("#3366cc"))
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    assert image.save(buffer, "PNG")  # type: ignore[call-overload]
    return base64.b64encode(bytes(data.data())).decode()


_hosts: list[QWidget] = []


@pytest.fixture(autouse=True)
def _keep_hosts() -> Iterator[None]:
    yield
    _hosts.clear()


def shown(qtbot: QtBot, width: int, height: int, *, fit: bool) -> ImageView:
    host = QWidget()
    _hosts.append(host)
    qtbot.addWidget(host)
    layout = QVBoxLayout(host)
    view = ImageView(png(width, height), "image/png", fit=fit)
    layout.addWidget(view)
    host.resize(800, 600)
    host.show()
    qtbot.waitExposed(host)
    return view


@pytest.mark.parametrize("fit", [True, False])
def test_small_image_opens_at_actual_size(qtbot: QtBot, fit: bool) -> None:
    view = shown(qtbot, 48, 48, fit=fit)
    qtbot.waitUntil(lambda: view.area.viewport().height() > 48)
    assert view.zoom() == 1.0
    assert view.zoom_label.text() == "100%"
    assert view.canvas.pixmap().size().width() == 48


@pytest.mark.parametrize("fit", [True, False])
def test_large_image_opens_fitted_to_the_view(qtbot: QtBot, fit: bool) -> None:
    view = shown(qtbot, 3000, 2000, fit=fit)
    viewport = view.area.viewport()
    qtbot.waitUntil(lambda: viewport.width() > 400)
    assert 0 < view.zoom() < 1.0
    assert view.is_fitted()
    shown_size = view.canvas.pixmap().size()
    # the whole image is visible: it fits the viewport in both directions, and fills one of them
    assert shown_size.width() <= viewport.width() and shown_size.height() <= viewport.height()
    assert max(viewport.width() - shown_size.width(), viewport.height() - shown_size.height()) > 0
    assert shown_size.width() >= viewport.width() - 8 or shown_size.height() >= viewport.height() - 8


def test_fitted_image_follows_a_taller_view(qtbot: QtBot) -> None:
    view = shown(qtbot, 3000, 3000, fit=False)
    qtbot.waitUntil(lambda: view.area.viewport().width() > 400)
    before = view.zoom()
    view.window().resize(800, 900)
    qtbot.waitUntil(lambda: view.zoom() > before)
    assert view.canvas.pixmap().height() <= view.area.viewport().height()
