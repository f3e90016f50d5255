"""Issue 14 §5.16: server-request dialogs open at the size of their content, up to the available screen: a
10-field elicitation form shows every field without scrolling on a 1280x800 screen, and no dialog is ever
larger than the screen."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtCore import QPoint, QRect
from PySide6.QtWidgets import QWidget
from pytestqt.qtbot import QtBot

from inspector.demo.tools_interactive import ELICIT_SCHEMA
from inspector.ui.server_requests import ElicitationDialog, SamplingDialog, UrlElicitationDialog
from inspector.ui.server_requests.base import FRAME_ALLOWANCE, RequestDialog, available_area

SCREEN = QRect(0, 0, 1280, 800)


def schema(fields: int) -> dict[str, Any]:
    """The demo's form (9 fields of every kind) and more: ``fields`` fields in all."""
    properties: dict[str, Any] = dict(ELICIT_SCHEMA["properties"])
    kinds: list[dict[str, Any]] = [
        {"type": "string", "description": "Anything else we should know?"},
        {"type": "integer", "minimum": 0},
        {"type": "boolean"},
        {"type": "string", "enum": ["a", "b", "c"]},
    ]
    for i in range(len(properties), fields):
        properties[f"field_{i + 1}"] = {"title": f"Field {i + 1}", **kinds[i % len(kinds)]}
    names = list(properties)[:fields]
    return {"type": "object", "properties": {n: properties[n] for n in names}, "required": ["name"]}


def elicitation(qtbot: QtBot, fields: int) -> ElicitationDialog:
    params = {"mode": "form", "message": f"Please fill in these {fields} fields.", "requestedSchema": schema(fields)}
    dialog = ElicitationDialog(params, label="Demo server")
    qtbot.addWidget(dialog)
    return dialog


def show_at(qtbot: QtBot, dialog: RequestDialog, area: QRect) -> None:
    dialog.fit_to_content(area)
    dialog.move(area.topLeft())
    dialog.show()
    qtbot.waitExposed(dialog)


def within(area: QRect, dialog: QWidget) -> bool:
    return dialog.width() <= area.width() - FRAME_ALLOWANCE.width() and (
        dialog.height() <= area.height() - FRAME_ALLOWANCE.height()
    )


def test_a_ten_field_form_shows_every_field_without_scrolling(qtbot: QtBot) -> None:
    dialog = elicitation(qtbot, 10)
    show_at(qtbot, dialog, SCREEN)
    assert within(SCREEN, dialog)
    form = dialog.form
    assert form is not None
    qtbot.waitUntil(lambda: form.scroll_area.viewport().height() > 0)
    assert form.scroll_area.verticalScrollBar().maximum() == 0, "the form scrolls at its initial size"
    viewport = form.scroll_area.viewport()
    names = list(schema(10)["properties"])
    assert len(names) == 10
    for name in names:
        slot = form.slot(name)
        assert slot is not None
        widget = slot.editor_widget()
        top_left = widget.mapTo(viewport, QPoint(0, 0))
        box = QRect(top_left, widget.size())
        inside = box.top() >= 0 and box.bottom() < viewport.height() and box.left() < viewport.width()
        assert inside, f"{name} is out of view: {box} not in {viewport.rect()}"
    # and the buttons are on screen too
    assert dialog.accept_button.isVisible()
    assert dialog.accept_button.mapTo(dialog, QPoint(0, 0)).y() + dialog.accept_button.height() <= dialog.height()


def test_a_form_taller_than_the_screen_is_capped_and_scrolls(qtbot: QtBot) -> None:
    dialog = elicitation(qtbot, 40)
    show_at(qtbot, dialog, SCREEN)
    assert within(SCREEN, dialog)
    assert dialog.height() >= SCREEN.height() - FRAME_ALLOWANCE.height() - 1  # it took what there is
    assert dialog.form is not None and dialog.form.scroll_area.verticalScrollBar().maximum() > 0


@pytest.mark.parametrize("area", [SCREEN, QRect(0, 0, 1024, 600), QRect(100, 50, 800, 500)])
def test_no_request_dialog_is_larger_than_the_screen(qtbot: QtBot, area: QRect) -> None:
    sampling = SamplingDialog(
        {"messages": [{"role": "user", "content": {"type": "text", "text": "Hello " * 200}}], "maxTokens": 100},
        label="Demo server",
    )
    url = UrlElicitationDialog(
        params={"mode": "url", "message": "Sign in", "url": "https://example.com/a", "elicitationId": "e"},
        label="Demo server",
    )
    for dialog in (sampling, url, elicitation(qtbot, 10)):
        qtbot.addWidget(dialog)
        size = dialog.fit_to_content(area)
        assert within(area, dialog) and size == dialog.size(), type(dialog).__name__


def test_the_default_area_is_the_dialogs_screen(qtbot: QtBot) -> None:
    dialog = elicitation(qtbot, 10)
    screen = dialog.screen().availableGeometry()
    assert available_area(dialog) == screen
    assert within(screen, dialog)  # the size it opened at, on this (offscreen) screen
