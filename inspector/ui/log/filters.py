"""The log's filter bar: kinds, direction, method, payload search (debounced), diagnostics only."""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QAction, QKeySequence, QMouseEvent, QShortcut
from PySide6.QtWidgets import QComboBox, QHBoxLayout, QLabel, QLineEdit, QMenu, QToolButton, QWidget

from inspector.protocol.wire import Kind
from inspector.store.recording import RecordFilter
from inspector.ui.widgets.mark_label import MarkLabel
from inspector.ui.widgets.resources import icon_button
from inspector.ui.widgets.timers import coalescer

__all__ = ["KIND_LABELS", "SEARCH_DEBOUNCE_MS", "FilterBar", "describe_filter"]

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


def describe_filter(f: RecordFilter) -> str:
    """``search "foo", diagnostics only`` — the active parts of a filter, in words."""
    parts: list[str] = []
    if f.has_text():
        parts.append(f'search "{(f.text or "").strip()}"')
    if f.kinds is not None:
        kinds = [KIND_LABELS.get(str(k), str(k)).lower() for k in f.kinds]
        parts.append(("only " + ", ".join(kinds)) if kinds else "no kinds")
    if f.directions is not None:
        names = {"out": "client to server", "in": "server to client"}
        parts.append("only " + " and ".join(names.get(str(d), str(d)) for d in f.directions))
    if f.methods is not None:
        parts.append("method " + ", ".join(f.methods))
    if f.diagnostics_only:
        parts.append("diagnostics only")
    return ", ".join(parts)


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
        self.direction_combo.setAccessibleName("Direction")
        self.direction_combo.addItem("Both directions", None)
        self.direction_combo.addItem("→ Client to server", "out")
        self.direction_combo.addItem("← Server to client", "in")
        self.direction_combo.currentIndexChanged.connect(self._changed)

        self.method_combo = _MethodCombo(self)
        self.method_combo.setToolTip("Show one method (requests, their responses, notifications)")
        self.method_combo.currentIndexChanged.connect(self._changed)

        self.search_edit = QLineEdit(self)
        self.search_edit.setPlaceholderText("Search payloads…")
        self.search_edit.setAccessibleName("Search the log's payloads")
        self.search_edit.setClearButtonEnabled(True)
        self.search_edit.setToolTip(
            "Full-text search over payloads: every word must occur (word prefixes match, case-insensitive)"
        )
        self.search_edit.setMinimumWidth(220)
        self._debounce = coalescer(self, SEARCH_DEBOUNCE_MS, self._changed)
        self.search_edit.textChanged.connect(lambda _text: self._debounce.start())
        self.search_edit.returnPressed.connect(self._search_now)
        find = QShortcut(QKeySequence.StandardKey.Find, self, self.focus_search)
        find.setWhatsThis("Search the log (in the log)")  # listed in Help → Keyboard shortcuts

        self.diagnostics_button = QToolButton(self)
        self.diagnostics_button.setText("Diagnostics only")
        icon_button(self.diagnostics_button, "warning", "diagnostic")
        self.diagnostics_button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.diagnostics_button.setCheckable(True)
        self.diagnostics_button.setToolTip("Show only frames with protocol diagnostics")
        self.diagnostics_button.toggled.connect(self._changed)

        self.reset_button = QToolButton(self)
        self.reset_button.setText("Reset")
        self.reset_button.setToolTip("Clear every filter")
        self.reset_button.setAutoRaise(True)
        self.reset_button.clicked.connect(self.reset)

        self.count_label = MarkLabel(mark=None, parent=self)
        self.count_label.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        self.count_label.setMinimumWidth(160)

        self.notice_label = QLabel(self)
        self.notice_label.setObjectName("filterNotice")
        self.notice_label.setWordWrap(False)
        self.notice_label.hide()
        self.restore_button = QToolButton(self)
        self.restore_button.setText("Restore filters")
        self.restore_button.setToolTip("Put back the filters that were cleared")
        self.restore_button.setAutoRaise(True)
        self.restore_button.clicked.connect(self.restore_filters)
        self.restore_button.hide()
        self._cleared: RecordFilter | None = None
        """The filters a jump cleared (``restore_filters`` puts them back)."""

        layout = QHBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.setSpacing(6)
        for widget in (self.search_edit, self.kinds_button, self.direction_combo, self.method_combo):
            layout.addWidget(widget)
        layout.addWidget(self.diagnostics_button)
        layout.addWidget(self.reset_button)
        layout.addWidget(self.notice_label)
        layout.addWidget(self.restore_button)
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

    def apply_filter(self, f: RecordFilter) -> None:
        """Show ``f`` in the bar's controls (one ``filterChanged``)."""

        def put() -> None:
            for kind, action in self.kind_actions.items():
                action.setChecked(f.kinds is None or kind in {str(k) for k in f.kinds})
            directions = list(f.directions or [])
            self.direction_combo.setCurrentIndex(
                max(0, self.direction_combo.findData(str(directions[0]))) if len(directions) == 1 else 0
            )
            methods = list(f.methods or [])
            self.set_method(methods[0] if len(methods) == 1 else None)
            self.search_edit.setText(f.text or "")
            self.diagnostics_button.setChecked(f.diagnostics_only)

        self._batch(put)

    def clear_for_jump(self, target: str) -> None:
        """Clear every filter to show ``target`` (a row they hide), and say so: the notice names what was
        cleared and offers to restore it."""
        before = self.current_filter()
        self.reset()
        if before.is_empty():
            return
        self._cleared = before
        self.notice_label.setText(f"ⓘ Filters cleared to show {target} ({describe_filter(before)})")
        self.notice_label.setToolTip("The row was hidden by the filters; Restore filters puts them back")
        self.notice_label.show()
        self.restore_button.show()

    def restore_filters(self) -> None:
        cleared = self._cleared
        self.clear_notice()
        if cleared is not None:
            self.apply_filter(cleared)

    def clear_notice(self) -> None:
        self._cleared = None
        self.notice_label.clear()
        self.notice_label.hide()
        self.restore_button.hide()

    @property
    def notice(self) -> str:
        """The notice shown in the bar ("" when none)."""
        return self.notice_label.text() if not self.notice_label.isHidden() else ""

    def set_counts(self, shown: int, total: int, *, building: bool = False, error: str | None = None) -> None:
        if error:
            self.count_label.set_mark("warning", "warning")
            self.count_label.setText(error)
            return
        self.count_label.set_mark(None)
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
        if self._cleared is not None and not self.current_filter().is_empty():
            self.clear_notice()  # the person filters again: the notice about the cleared filters is stale
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
