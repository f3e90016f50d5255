"""Prompt arguments that are long text (code, a message body, a query...) get multi-line fields by one documented
rule (``is_long_text``); Enter there adds a line, Ctrl+Enter still gets the prompt, and the lines reach the server."""

from __future__ import annotations

import pytest
from guikit import AsyncRunner, MakeWindow, activate, connect_tab, prompt_page
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLineEdit, QPlainTextEdit
from pytestqt.qtbot import QtBot

from inspector.content.catalog import PromptArgument
from inspector.ui.explore.prompts.page import LONG_DESCRIPTION_CHARS, is_long_text


@pytest.mark.parametrize(
    ("argument", "long"),
    [
        (PromptArgument("code"), True),
        (PromptArgument("sourceCode"), True),
        (PromptArgument("email_body"), True),
        (PromptArgument("search-query"), True),
        (PromptArgument("x", title="Commit message"), True),
        (PromptArgument("notes_for_reviewer"), True),
        (PromptArgument("extra", description="A multi-line explanation of the change"), True),
        (PromptArgument("extra", description="word " * (LONG_DESCRIPTION_CHARS // 5 + 1)), True),
        (PromptArgument("language", description="Programming language (required, completes)"), False),
        (PromptArgument("name", description="Who to greet"), False),
        (PromptArgument("tone"), False),
        (PromptArgument("codename"), False),  # words, not substrings
        (PromptArgument("context_id"), False),
    ],
)
def test_the_rule(argument: PromptArgument, long: bool) -> None:
    assert is_long_text(argument) is long


def test_code_is_multi_line_and_ctrl_enter_gets_the_prompt(
    qtbot: QtBot, qasync_loop: AsyncRunner, make_window: MakeWindow
) -> None:
    window = make_window()
    tab = connect_tab(window, qasync_loop, show="prompts")
    activate(qtbot, window)
    page = prompt_page(tab, "code_review")
    assert set(page.text_fields) == {"code"}
    code = page.text_fields["code"]
    assert isinstance(code, QPlainTextEdit) and isinstance(page.fields["language"], QLineEdit)
    assert code.height() >= 3 * code.fontMetrics().lineSpacing()  # several lines show at once
    assert "language" in page.completers and "code" not in page.completers

    page.set_values({"language": "python"})
    code.setFocus()
    qtbot.waitUntil(code.hasFocus, timeout=2000)
    qtbot.keyClicks(code, "def f():")
    qtbot.keyClick(code, Qt.Key.Key_Return)  # a new line, not Get
    qtbot.keyClicks(code, "    return 1")
    assert not page.running and page.result is None
    assert page.text_of("code") == "def f():\n    return 1"
    assert page.values() == {"language": "python", "code": "def f():\n    return 1"}

    with qtbot.waitSignal(page.finished, timeout=20000) as outcome:
        qtbot.keyClick(code, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    assert outcome.args == [True]
    assert page.result is not None
    embedded = page.result["messages"][1]["content"]["resource"]
    assert embedded["text"] == "def f():\n    return 1"


def test_a_required_multi_line_field_left_empty_stops_get(
    qtbot: QtBot, qasync_loop: AsyncRunner, make_window: MakeWindow
) -> None:
    window = make_window()
    tab = connect_tab(window, qasync_loop, show="prompts")
    page = prompt_page(tab, "code_review")
    page.set_values({"language": "python"})
    assert not page.get()
    assert page.missing() == ["code"]
    assert page.field_errors["code"].isVisibleTo(page)
    assert page.status_label.text() == "Fill in the required argument: code"
