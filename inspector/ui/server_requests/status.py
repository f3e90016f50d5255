"""The connection header's indicator of server requests: "N pending" and the sampling auto-reply switch.

``RequestsIndicator(controller)`` follows the controller's live handlers (``GuiRequestHandlers``; the connection
tab wires ``on_state`` to the controller and calls ``rebind`` when the settings change). The pending
pill appears while requests wait for the person (click it to bring the dialog forward); the auto-reply pill
is amber while sampling requests are being answered automatically, and toggles that for this connection.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QHBoxLayout, QInputDialog, QMenu, QToolButton, QWidget

from inspector.ui.connection.controller import ConnectionController, ConnectionState
from inspector.ui.server_requests.gui_handlers import GuiRequestHandlers
from inspector.ui.widgets.style import Tones, tone_colors
from inspector.ui.widgets.theme import themed_style

__all__ = ["RequestsIndicator"]


def _pill(button: QToolButton, tone: str) -> None:
    button.setProperty("tone", tone)

    def build(t: Tones) -> str:
        fg, bg, border = tone_colors(t, tone if tone in ("warning", "info") else "neutral")
        return (
            f"QToolButton {{ color: {fg}; background: {bg}; border: 1px solid {border}; border-radius: 10px;"
            " padding: 2px 10px; font-weight: 600; }"
            " QToolButton::menu-indicator { image: none; width: 0px; }"
        )

    themed_style(button, build)


class RequestsIndicator(QWidget):
    """Test handles: ``pending_button`` (text "N pending"), ``auto_button`` (checked while auto-reply is on)."""

    def __init__(self, controller: ConnectionController, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.controller = controller
        self.handlers: GuiRequestHandlers | None = None
        self.pending_button = QToolButton(self)
        self.pending_button.setToolTip("Server requests waiting for you — click to show the current one")
        self.pending_button.hide()
        self.auto_button = QToolButton(self)
        self.auto_button.setCheckable(True)
        self.auto_button.setPopupMode(QToolButton.ToolButtonPopupMode.MenuButtonPopup)
        menu = QMenu(self.auto_button)
        self.text_action = menu.addAction("Auto-reply text…")
        self.auto_button.setMenu(menu)
        self.text_dialog: QInputDialog | None = None
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(6)
        layout.addWidget(self.pending_button)
        layout.addWidget(self.auto_button)
        self.pending_button.clicked.connect(self.show_current)
        self.auto_button.toggled.connect(self._on_auto_toggled)
        self.text_action.triggered.connect(self.ask_text)
        self.rebind()

    def on_state(self, _state: ConnectionState) -> None:
        """The controller's ``stateChanged`` (wired by the connection tab)."""
        self.rebind()

    def rebind(self) -> None:
        """Follow the handlers the controller uses now (they change when the profile is edited)."""
        c = self.controller
        handlers = c.connection.handlers if c.connection is not None else c.settings.handlers
        found = handlers if isinstance(handlers, GuiRequestHandlers) else None
        if found is self.handlers:
            return
        if self.handlers is not None:
            for signal, slot in (
                (self.handlers.pendingChanged, self._on_pending),
                (self.handlers.autoReplyChanged, self._on_auto),
                (self.handlers.autoReplied, self._on_auto_count),
            ):
                signal.disconnect(slot)
        self.handlers = found
        if found is not None:
            found.pendingChanged.connect(self._on_pending)
            found.autoReplyChanged.connect(self._on_auto)
            found.autoReplied.connect(self._on_auto_count)
            found.parent_provider = self._dialog_parent
        self.setVisible(found is not None)
        self._refresh()

    def _dialog_parent(self) -> QWidget | None:
        """Dialogs belong to the window showing this connection (when it is shown)."""
        return self.window() if self.isVisible() else None

    def _refresh(self) -> None:
        h = self.handlers
        self._on_pending(h.pending if h is not None else 0)
        self._on_auto(h.auto_reply_active if h is not None else False)

    def _on_pending(self, count: int) -> None:
        self.pending_button.setText(f"{count} pending")
        _pill(self.pending_button, "warning")
        self.pending_button.setVisible(count > 0)

    def _on_auto(self, active: bool) -> None:
        self.auto_button.blockSignals(True)
        self.auto_button.setChecked(active)
        self.auto_button.blockSignals(False)
        h = self.handlers
        answered = h.auto_replied if h is not None else 0
        if active:
            self.auto_button.setText(f"Auto-reply ON · {answered}" if answered else "Auto-reply ON")
            text = h.auto_reply.text if h is not None else ""
            self.auto_button.setToolTip(
                "Sampling requests are answered automatically, without a dialog, with:\n"
                f"“{text or 'Automatic reply from MCP Inspector.'}”\nClick to turn off for this connection."
            )
        else:
            self.auto_button.setText("Auto-reply off")
            self.auto_button.setToolTip("Click to answer sampling requests automatically (for repeated testing)")
        _pill(self.auto_button, "warning" if active else "neutral")

    def _on_auto_count(self, _count: int) -> None:
        self._on_auto(self.handlers.auto_reply_active if self.handlers is not None else False)

    def _on_auto_toggled(self, checked: bool) -> None:
        if self.handlers is not None:
            self.handlers.set_auto_reply(checked)

    def ask_text(self) -> QInputDialog | None:
        if self.handlers is None:
            return None
        dialog = QInputDialog(self)
        dialog.setWindowTitle("Sampling auto-reply")
        dialog.setLabelText("Text sent as the assistant's reply to every sampling request:")
        dialog.setOption(QInputDialog.InputDialogOption.UsePlainTextEditForTextInput, True)
        dialog.setTextValue(self.handlers.auto_reply.text)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        handlers = self.handlers
        dialog.textValueSelected.connect(lambda text: handlers.set_auto_reply(handlers.auto_reply.enabled, text))
        self.text_dialog = dialog
        dialog.open()
        return dialog

    def show_current(self) -> None:
        current = self.handlers.current if self.handlers is not None else None
        if current is not None and current.dialog is not None:
            current.dialog.show()
            current.dialog.raise_()
            current.dialog.activateWindow()
