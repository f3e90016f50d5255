"""The log's filter bar: kinds, direction, method, payload search (debounced), diagnostics only."""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QAction, QKeySequence, QMouseEvent, QShortcut
from PySide6.QtWidgets import QComboBox, QHBoxLayout, QLabel, QLineEdit, QMenu, QToolButton, QWidget

from inspector.protocol.wire import Kind
from inspector.store.recording import RecordFilter

__all__ = ["KIND_LABELS", "SEARCH_DEBOUNCE_MS", "FilterBar"]

SEARCH_DEBOUNCE_MS: Final = 250
_LABELS: Final = {
    "request": "Requests",
    "response": "Responses",
    "error": "Errors",
    "notification": "Notifications",
    "invalid": "Invalid frames",
    "transport": "Transport events",
    "stderr": "Stderr lines",
    "http": "HTTP exchanges",
}
KIND_LABELS: Final = {
    k.value: _LABELS.get(k.value, k.value.title())
    for k in sorted(Kind, key=lambda k: list(_LABELS).index(k.value) if k.value in _LABELS else len(_LABELS))
}
"""Every row kind the recording knows, in menu order."""
_ALL_METHODS: Final = "All methods"


class _StickyMenu(QMenu):
    """A menu whose checkable entries toggle without closing it (several kinds are picked at once)."""

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:
        action = self.activeAction()
        if action is not None and action.isCheckable() and action.isEnabled():
            action.trigger()
            return
        super().mouseReleaseEvent(event)


class _MethodCombo(QComboBox):
    """Lists the recording's methods, refreshed each time the list opens."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.provider: Callable[[], list[str]] = list
        self.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        self.setMinimumContentsLength(14)
        self.addItem(_ALL_METHODS)

    def reload(self) -> None:
        current = self.currentText()
        methods = self.provider()
        self.blockSignals(True)
        self.clear()
        self.addItem(_ALL_METHODS)
        self.addItems(methods)
        if current != _ALL_METHODS and current not in methods:
            self.addItem(current)
        self.setCurrentText(current)
        self.blockSignals(False)

    def showPopup(self) -> None:
        self.reload()
        super().showPopup()


class FilterBar(QWidget):
    """Emits ``filterChanged(RecordFilter)`` whenever the user changes a filter."""

    filterChanged = Signal(object)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.kinds_button = QToolButton(self)
        self.kinds_button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        self.kinds_button.setToolTip("Show only some kinds of rows")
        menu = _StickyMenu(self.kinds_button)
        self.all_kinds_action = menu.addAction("All kinds")
        self.all_kinds_action.triggered.connect(self._all_kinds)
        menu.addSeparator()
        self.kind_actions: dict[str, QAction] = {}
        for kind, label in KIND_LABELS.items():
            action = menu.addAction(label)
            action.setCheckable(True)
            action.setChecked(True)
            action.toggled.connect(self._changed)
            self.kind_actions[kind] = action
        self.kinds_button.setMenu(menu)

        self.direction_combo = QComboBox(self)
        self.direction_combo.addItem("Both directions", None)
        self.direction_combo.addItem("→ Client to server", "out")
        self.direction_combo.addItem("← Server to client", "in")
        self.direction_combo.currentIndexChanged.connect(self._changed)

        self.method_combo = _MethodCombo(self)
        self.method_combo.setToolTip("Show one method (requests, their responses, notifications)")
        self.method_combo.currentIndexChanged.connect(self._changed)

        self.search_edit = QLineEdit(self)
        self.search_edit.setPlaceholderText("Search payloads…")
        self.search_edit.setClearButtonEnabled(True)
        self.search_edit.setToolTip(
            "Full-text search over payloads: every word must occur (word prefixes match, case-insensitive)"
        )
        self.search_edit.setMinimumWidth(220)
        self._debounce = QTimer(self)
        self._debounce.setSingleShot(True)
        self._debounce.setInterval(SEARCH_DEBOUNCE_MS)
        self._debounce.timeout.connect(self._changed)
        self.search_edit.textChanged.connect(lambda _text: self._debounce.start())
        self.search_edit.returnPressed.connect(self._search_now)
        QShortcut(QKeySequence.StandardKey.Find, self, self.focus_search)

        self.diagnostics_button = QToolButton(self)
        self.diagnostics_button.setText("⚠ Diagnostics only")
        self.diagnostics_button.setCheckable(True)
        self.diagnostics_button.setToolTip("Show only frames with protocol diagnostics")
        self.diagnostics_button.toggled.connect(self._changed)

        self.reset_button = QToolButton(self)
        self.reset_button.setText("Reset")
        self.reset_button.setToolTip("Clear every filter")
        self.reset_button.setAutoRaise(True)
        self.reset_button.clicked.connect(self.reset)

        self.count_label = QLabel(self)
        self.count_label.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        self.count_label.setMinimumWidth(160)

        layout = QHBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.setSpacing(6)
        for widget in (self.search_edit, self.kinds_button, self.direction_combo, self.method_combo):
            layout.addWidget(widget)
        layout.addWidget(self.diagnostics_button)
        layout.addWidget(self.reset_button)
        layout.addStretch(1)
        layout.addWidget(self.count_label)
        self._quiet = False
        self._update_kinds_label()

    # ------------------------------------------------------------------ API

    def set_methods_provider(self, provider: Callable[[], list[str]]) -> None:
        self.method_combo.provider = provider

    def current_filter(self) -> RecordFilter:
        kinds = [k for k, a in self.kind_actions.items() if a.isChecked()]
        method = self.method_combo.currentText()
        text = self.search_edit.text().strip()
        return RecordFilter(
            kinds=None if len(kinds) == len(self.kind_actions) else kinds,
            directions=None if self.direction_combo.currentData() is None else [self.direction_combo.currentData()],
            methods=None if method == _ALL_METHODS or not method else [method],
            text=text or None,
            diagnostics_only=self.diagnostics_button.isChecked(),
        )

    def set_kinds(self, kinds: list[str] | None) -> None:
        def check() -> None:
            for kind, action in self.kind_actions.items():
                action.setChecked(kinds is None or kind in kinds)

        self._batch(check)

    def set_direction(self, direction: str | None) -> None:
        self.direction_combo.setCurrentIndex(max(0, self.direction_combo.findData(direction)))

    def set_method(self, method: str | None) -> None:
        if method is None:
            self.method_combo.setCurrentIndex(0)
            return
        if self.method_combo.findText(method) < 0:
            self.method_combo.reload()
        if self.method_combo.findText(method) < 0:
            self.method_combo.addItem(method)
        self.method_combo.setCurrentText(method)

    def set_search_text(self, text: str, *, immediate: bool = True) -> None:
        """Type into the search field; ``immediate`` skips the debounce."""
        self.search_edit.setText(text)
        if immediate:
            self._search_now()

    def set_diagnostics_only(self, on: bool) -> None:
        self.diagnostics_button.setChecked(on)

    def focus_search(self) -> None:
        self.search_edit.setFocus(Qt.FocusReason.ShortcutFocusReason)
        self.search_edit.selectAll()

    def reset(self) -> None:
        def clear() -> None:
            for action in self.kind_actions.values():
                action.setChecked(True)
            self.direction_combo.setCurrentIndex(0)
            self.method_combo.setCurrentIndex(0)
            self.search_edit.clear()
            self.diagnostics_button.setChecked(False)

        self._batch(clear)

    def set_counts(self, shown: int, total: int, *, building: bool = False, error: str | None = None) -> None:
        if error:
            self.count_label.setText(f"⚠ {error}")
            return
        filtered = not self.current_filter().is_empty()
        if building:
            self.count_label.setText(f"Filtering… {shown:,} of {total:,}")
        elif filtered:
            self.count_label.setText(f"{shown:,} of {total:,}")
        else:
            self.count_label.setText(f"{total:,} message{'s' if total != 1 else ''}")

    # ------------------------------------------------------------------ internals

    def _batch(self, change: Callable[[], object]) -> None:
        self._quiet = True
        try:
            change()
        finally:
            self._quiet = False
        self._changed()

    def _all_kinds(self) -> None:
        self.set_kinds(None)

    def _search_now(self) -> None:
        self._debounce.stop()
        self._changed()

    def _changed(self, *_: object) -> None:
        if self._quiet:
            return
        self._update_kinds_label()
        self._debounce.stop()
        self.filterChanged.emit(self.current_filter())

    def _update_kinds_label(self) -> None:
        checked = [k for k, a in self.kind_actions.items() if a.isChecked()]
        if len(checked) == len(self.kind_actions):
            self.kinds_button.setText("All kinds")
        elif len(checked) == 1:
            self.kinds_button.setText(KIND_LABELS[checked[0]])
        else:
            self.kinds_button.setText(f"{len(checked)} kinds")
