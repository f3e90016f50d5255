"""The Collections panel (a connection tab's "Collections" tab): saved calls with assertions.

It holds one collection (new and untitled, or opened from a file): the calls on the left (``CallsModel``: name,
request, number of checks, last result), the selected call's assertions on the right (``AssertionsModel``: each
one's last result and actual value) with Add / Edit / Remove (``AssertionDialog``), and the request and the last
outcome below them. "Run" runs the selected call, "Run all" every call, against this tab's connection
(``inspector.regression.runner``: the connection's own handlers answer server requests and input rounds);
every report is shown as it comes. Open / Save / Save As read and write the collection file
(``inspector.regression.collection``). ``add_call(method, params)`` is what "Save to collection" on the Tools,
Prompts and Resources pages and the log's request rows end in (wired in ``ConnectionTab._wire``).

The calls themselves are edited too: renamed in place (F2, a double-click on the name, "Rename…"; a clash or an
empty name is refused in the status line, the last run's result moves with the call), their request changed
("Edit request…", ``RequestDialog``), duplicated, and moved up / down in the run order (Ctrl+Up / Ctrl+Down in
the table). New and Open ask first (Save / Discard / Cancel, ``unsaved_box``) while there are unsaved changes;
the title shows "•" then.
"""

from __future__ import annotations

import asyncio
import html
import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any, TypeVar

from PySide6.QtCore import QAbstractItemModel, QItemSelectionModel, QModelIndex, QPersistentModelIndex, Qt, Signal
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QFileDialog,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QMessageBox,
    QPlainTextEdit,
    QPushButton,
    QSplitter,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from inspector.content.plural import plural
from inspector.regression.assertions import Assertion
from inspector.regression.collection import (
    Collection,
    CollectionError,
    SavedCall,
    call_for,
    load_collection,
    save_collection,
)
from inspector.regression.runner import CallReport, run_collection
from inspector.ui.connection.controller import ConnectionController, live_connection
from inspector.ui.regression.collections_assertion_dialog import AssertionDialog
from inspector.ui.regression.collections_model import AssertionsModel, CallsModel
from inspector.ui.regression.collections_request_dialog import RequestDialog

__all__ = ["CollectionsPanel"]

_FILTER = "Collections (*.collection.json *.json);;All files (*)"


def _column(
    parent: QWidget, title: str, view: QTableView, stretch: int, buttons: tuple[QPushButton, ...]
) -> tuple[QWidget, QVBoxLayout]:
    """A titled column of the panel: the title, ``view`` and a row of ``buttons`` (left-aligned)."""
    column = QWidget(parent)
    layout = QVBoxLayout(column)
    layout.setContentsMargins(0, 0, 0, 0)
    layout.addWidget(QLabel(title, column))
    layout.addWidget(view, stretch)
    row = QHBoxLayout()
    for button in buttons:
        row.addWidget(button)
    row.addStretch(1)
    layout.addLayout(row)
    return column, layout


class _CallsTable(QTableView):
    """The calls table: Ctrl+Up / Ctrl+Down move the selected call (``moveRequested(delta)``), F2 edits its name
    whichever cell is current."""

    moveRequested = Signal(int)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        key, modifiers = event.key(), event.modifiers()
        if modifiers == Qt.KeyboardModifier.ControlModifier and key in (Qt.Key.Key_Up, Qt.Key.Key_Down):
            self.moveRequested.emit(-1 if key == Qt.Key.Key_Up else 1)
            event.accept()
            return
        current = self.currentIndex()
        if key == Qt.Key.Key_F2 and modifiers == Qt.KeyboardModifier.NoModifier and current.isValid():
            self.edit(current.siblingAtColumn(0))
            event.accept()
            return
        super().keyPressEvent(event)


class _NameDelegate(QStyledItemDelegate):
    """The in-place editor of a call's name, named for assistive technology."""

    def createEditor(
        self, parent: QWidget, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex
    ) -> QWidget:
        editor = super().createEditor(parent, option, index)
        editor.setAccessibleName("New name of the call")
        editor.setToolTip("Enter renames the call (names are unique in the collection); Escape keeps the name")
        return editor


def _button(parent: QWidget, text: str, tip: str, accessible: str) -> QPushButton:
    button = QPushButton(text, parent)
    button.setToolTip(tip)
    button.setAccessibleName(accessible)
    return button


_View = TypeVar("_View", bound=QTableView)


def _table(model: QAbstractItemModel, parent: QWidget, kind: type[_View]) -> _View:
    view = kind(parent)
    view.setTabKeyNavigation(False)  # Tab leaves the table; the arrows move in it
    view.setModel(model)
    view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    view.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
    view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    view.verticalHeader().hide()
    view.horizontalHeader().setStretchLastSection(True)
    view.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
    view.setWordWrap(False)
    return view


class CollectionsPanel(QWidget):
    """See the module docstring."""

    runFinished = Signal(object)
    """A run ended; the argument is its ``CollectionReport``."""
    callAdded = Signal(str)
    """A call was saved into the collection (its name)."""

    def __init__(self, controller: ConnectionController, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.controller = controller
        self.path: Path | None = None
        self.dirty = False
        self._task: asyncio.Task[None] | None = None
        self.unsaved_box: QMessageBox | None = None
        """The open "unsaved changes" question of New / Open (None when none is asked)."""
        self.request_box: RequestDialog | None = None

        self.title_label = QLabel(self)
        self.new_button = QPushButton("New", self)
        self.open_button = QPushButton("Open…", self)
        self.save_button = QPushButton("Save", self)
        self.save_as_button = QPushButton("Save As…", self)
        self.run_button = QPushButton("Run", self)
        self.run_button.setToolTip("Run the selected call against this connection and check its assertions")
        self.run_all_button = QPushButton("Run all", self)
        self.run_all_button.setToolTip("Run every call of the collection against this connection")
        self.status_label = QLabel(self)
        self.status_label.setWordWrap(True)
        self.status_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        top = QHBoxLayout()
        top.addWidget(self.title_label, 1)
        for button in (self.new_button, self.open_button, self.save_button, self.save_as_button):
            top.addWidget(button)
        top.addSpacing(12)
        top.addWidget(self.run_button)
        top.addWidget(self.run_all_button)

        self.calls_model = CallsModel(self)
        self.calls_view = _table(self.calls_model, self, _CallsTable)
        self.calls_view.setAccessibleName("Calls of the collection")
        self.calls_view.setToolTip("The calls in run order: F2 renames, Ctrl+Up / Ctrl+Down move the selected call")
        self.calls_view.setEditTriggers(
            QAbstractItemView.EditTrigger.DoubleClicked | QAbstractItemView.EditTrigger.EditKeyPressed
        )
        self.calls_view.setItemDelegateForColumn(0, _NameDelegate(self.calls_view))
        self.remove_call_button = QPushButton("Remove call", self)
        self.rename_button = _button(
            self, "Rename…", "Rename the selected call in place (F2); names are unique in the collection", "Rename call"
        )
        self.edit_request_button = _button(
            self, "Edit request…", "Edit the selected call's method and params (JSON)", "Edit the call's request"
        )
        self.duplicate_button = _button(
            self, "Duplicate", "Add a copy of the selected call right after it", "Duplicate call"
        )
        self.move_up_button = _button(
            self, "Move up", "Run the selected call one place earlier (Ctrl+Up)", "Move call up"
        )
        self.move_down_button = _button(
            self, "Move down", "Run the selected call one place later (Ctrl+Down)", "Move call down"
        )
        edit_row = (self.rename_button, self.edit_request_button, self.duplicate_button)
        left, left_layout = _column(self, "Calls", self.calls_view, 1, edit_row)
        order_row = QHBoxLayout()
        for button in (self.move_up_button, self.move_down_button, self.remove_call_button):
            order_row.addWidget(button)
        order_row.addStretch(1)
        left_layout.addLayout(order_row)

        self.assertions_model = AssertionsModel(self)
        self.assertions_view = _table(self.assertions_model, self, QTableView)
        self.assertions_view.horizontalHeader().resizeSection(0, 280)
        self.assertions_view.horizontalHeader().resizeSection(1, 240)
        self.calls_view.horizontalHeader().resizeSection(0, 180)
        self.assertions_view.setAccessibleName("Assertions of the selected call")
        self.add_assertion_button = QPushButton("Add…", self)
        self.edit_assertion_button = QPushButton("Edit…", self)
        self.remove_assertion_button = QPushButton("Remove", self)
        self.detail = QPlainTextEdit(self)
        self.detail.setAccessibleName("The selected call")
        self.detail.setReadOnly(True)
        self.detail.setPlaceholderText("The selected call's request and its last outcome show here.")
        buttons = (self.add_assertion_button, self.edit_assertion_button, self.remove_assertion_button)
        right, right_layout = _column(self, "Assertions", self.assertions_view, 2, buttons)
        right_layout.addWidget(self.detail, 1)

        self.splitter = QSplitter(Qt.Orientation.Horizontal, self)
        self.splitter.addWidget(left)
        self.splitter.addWidget(right)
        self.splitter.setStretchFactor(0, 1)
        self.splitter.setStretchFactor(1, 1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 8, 8, 8)
        layout.addLayout(top)
        layout.addWidget(self.status_label)
        layout.addWidget(self.splitter, 1)

        self.new_button.clicked.connect(lambda: self.ask_unsaved(self.new_collection))
        self.open_button.clicked.connect(lambda: self.ask_unsaved(self.open_dialog))
        self.save_button.clicked.connect(self.save)
        self.save_as_button.clicked.connect(self.save_as_dialog)
        self.run_button.clicked.connect(self.run_selected)
        self.run_all_button.clicked.connect(self.run_all)
        self.remove_call_button.clicked.connect(self.remove_selected_call)
        self.rename_button.clicked.connect(self.start_rename)
        self.edit_request_button.clicked.connect(self.request_dialog)
        self.duplicate_button.clicked.connect(self.duplicate_selected)
        self.move_up_button.clicked.connect(lambda: self.move_selected(-1))
        self.move_down_button.clicked.connect(lambda: self.move_selected(1))
        self.calls_view.moveRequested.connect(self.move_selected)
        self.calls_view.doubleClicked.connect(self._on_call_double_clicked)
        self.calls_model.renamed.connect(self._on_renamed)
        self.calls_model.renameRefused.connect(self._on_rename_refused)
        self.add_assertion_button.clicked.connect(self.add_assertion_dialog)
        self.edit_assertion_button.clicked.connect(self.edit_assertion_dialog)
        self.remove_assertion_button.clicked.connect(self.remove_selected_assertion)
        self.assertions_view.doubleClicked.connect(lambda _index: self.edit_assertion_dialog())
        self.calls_view.selectionModel().currentRowChanged.connect(lambda *_: self._show_selected())
        self.assertions_view.selectionModel().currentRowChanged.connect(lambda *_: self._update())
        self._update()

    # -- the collection ------------------------------------------------------------------------------------

    @property
    def collection(self) -> Collection:
        return self.calls_model.collection

    def _set(self, collection: Collection, *, dirty: bool, select: str | None = None) -> None:
        keep = self.selected_call()
        self.calls_model.set_collection(collection, keep_reports=True)
        self.dirty = dirty
        wanted = select if select is not None else (keep.name if keep is not None else None)
        row = self.calls_model.row_of(wanted) if wanted is not None else None
        if row is None and collection.calls:
            row = 0
        if row is not None:
            self.select_row(row)
        self._show_selected()
        self._update()

    def new_collection(self) -> None:
        self.path = None
        self.calls_model.clear_reports()
        self._set(Collection("Untitled"), dirty=False)
        self.status_label.setText("")

    def open_file(self, path: str | Path) -> bool:
        try:
            collection = load_collection(path)
        except CollectionError as exc:
            self.status_label.setText(f"Cannot open the collection: {exc}")
            return False
        self.path = Path(path)
        self.calls_model.clear_reports()
        self._set(collection, dirty=False)
        self.status_label.setText(f"Opened {plural(len(collection.calls), 'call')} from {path}")
        return True

    def save_file(self, path: str | Path) -> bool:
        target = Path(path)
        collection = self.collection
        if collection.name == "Untitled" and target.name:
            collection = replace(collection, name=target.name.removesuffix(".json").removesuffix(".collection"))
        try:
            save_collection(collection, target)
        except OSError as exc:
            self.status_label.setText(f"Cannot save the collection: {exc.strerror or exc}")
            return False
        self.path = target
        self._set(replace(collection, source=str(target)), dirty=False)
        self.status_label.setText(f"Saved {plural(len(collection.calls), 'call')} to {target}")
        return True

    def open_dialog(self) -> None:
        start = str(self.path.parent if self.path is not None else Path.home())
        path, _ = QFileDialog.getOpenFileName(self, "Open collection", start, _FILTER)
        if path:
            self.open_file(path)

    def save(self) -> None:
        if self.path is None:
            self.save_as_dialog()
        else:
            self.save_file(self.path)

    def save_as_dialog(self) -> None:
        start = str(self.path if self.path is not None else Path.home() / "calls.collection.json")
        path, _ = QFileDialog.getSaveFileName(self, "Save collection", start, _FILTER)
        if path:
            self.save_file(path)

    def add_call(self, method: str, params: object) -> SavedCall:
        """Save a request (as sent, without ``_meta``) as a new call, starting with the assertion: outcome ok."""
        fresh = call_for(method, params if isinstance(params, Mapping) else None)
        saved = replace(fresh, name=self.collection.unique_name(fresh.name))
        self._set(self.collection.with_call(saved), dirty=True, select=saved.name)
        self.status_label.setText(f"Saved {saved.name!r} to the collection (not written to a file yet)")
        self.callAdded.emit(saved.name)
        return saved

    def remove_selected_call(self) -> None:
        saved = self.selected_call()
        if saved is not None:
            self._set(self.collection.without_call(saved.name), dirty=True)

    # -- editing the calls ---------------------------------------------------------------------------------

    def rename_call(self, old: str, new: str) -> bool:
        """Rename a call (refused in the status line for an empty or taken name; not while a run uses the calls)."""
        return not self.running and self.calls_model.rename(old, new)

    def start_rename(self) -> None:
        """Edit the selected call's name in place (what "Rename…" and F2 do)."""
        index = self.calls_view.selectionModel().currentIndex()
        if index.isValid() and not self.running:
            self.calls_view.setFocus()
            self.calls_view.edit(index.siblingAtColumn(0))

    def _on_renamed(self, old: str, new: str) -> None:
        self.dirty = True
        self.status_label.setText(f"Renamed {old!r} to {new!r} (not written to a file yet)")
        self._show_selected()

    def _on_rename_refused(self, old: str, reason: str) -> None:
        self.status_label.setText(f"Cannot rename {old!r}: {reason}; the name stays {old!r}")

    def _on_call_double_clicked(self, index: QModelIndex) -> None:
        if index.column() == 1:  # the Request column: edit the request (the Name column edits in place)
            self.request_dialog()

    def set_request(self, name: str, method: str, params: Mapping[str, Any] | None) -> bool:
        """Change the request of the call ``name`` (its last result is dropped); False with the reason if refused."""
        if self.running:
            return False
        try:
            collection = self.collection.with_request(name, method, params)
        except (CollectionError, KeyError) as exc:
            self.status_label.setText(f"Cannot change the request of {name!r}: {exc}")
            return False
        self.calls_model.reports.pop(name, None)
        self._set(collection, dirty=True, select=name)
        self.status_label.setText(f"Changed the request of {name!r} (not written to a file yet)")
        return True

    def request_dialog(self) -> RequestDialog | None:
        """The request editor of the selected call, opened window-modal; a valid Apply changes the call."""
        saved = self.selected_call()
        if saved is None or self.running:
            return None
        dialog = RequestDialog(saved, self)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)

        def apply() -> None:
            made = dialog.call()
            if made is not None:
                self.set_request(saved.name, made.method, made.params)

        dialog.accepted.connect(apply)
        dialog.finished.connect(lambda _result: setattr(self, "request_box", None))
        self.request_box = dialog
        dialog.open()
        return dialog

    def duplicate_selected(self) -> SavedCall | None:
        saved = self.selected_call()
        if saved is None or self.running:
            return None
        collection, copy = self.collection.duplicated(saved.name)
        self._set(collection, dirty=True, select=copy.name)
        self.status_label.setText(f"Added {copy.name!r}, a copy of {saved.name!r} (not written to a file yet)")
        return copy

    def move_selected(self, delta: int) -> bool:
        """Move the selected call ``delta`` places in the run order; False at either end (or while running)."""
        saved = self.selected_call()
        if saved is None or self.running:
            return False
        moved = self.collection.moved(saved.name, delta)
        if moved == self.collection:
            return False
        self._set(moved, dirty=True, select=saved.name)
        return True

    def ask_unsaved(self, then: Callable[[], object]) -> QMessageBox | None:
        """Run ``then`` (New, Open…) now, or, with unsaved changes, after asking: Save (then ``then`` if it was
        saved), Discard, Cancel (nothing happens). The question is non-blocking, kept in ``unsaved_box``."""
        if not self.dirty:
            then()
            return None
        box = QMessageBox(
            QMessageBox.Icon.Question,
            "Unsaved changes",
            f"The collection {self.collection.name!r} has unsaved changes. Save them first?",
            QMessageBox.StandardButton.Save | QMessageBox.StandardButton.Discard | QMessageBox.StandardButton.Cancel,
            self,
        )
        box.setDefaultButton(QMessageBox.StandardButton.Save)
        box.setEscapeButton(QMessageBox.StandardButton.Cancel)
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)

        def answered(button: QAbstractButton) -> None:
            choice = box.standardButton(button)
            if choice == QMessageBox.StandardButton.Save:
                self.save()
                if not self.dirty:
                    then()
            elif choice == QMessageBox.StandardButton.Discard:
                then()

        box.buttonClicked.connect(answered)
        box.finished.connect(lambda _result: setattr(self, "unsaved_box", None))
        self.unsaved_box = box
        box.open()
        return box

    # -- selection -----------------------------------------------------------------------------------------

    def select_row(self, row: int) -> None:
        index = self.calls_model.index(row, 0)
        flags = QItemSelectionModel.SelectionFlag.ClearAndSelect | QItemSelectionModel.SelectionFlag.Rows
        self.calls_view.selectionModel().setCurrentIndex(index, flags)

    def selected_call(self) -> SavedCall | None:
        index = self.calls_view.selectionModel().currentIndex()
        return self.calls_model.call_at(index.row()) if index.isValid() else None

    def selected_assertion_row(self) -> int | None:
        index = self.assertions_view.selectionModel().currentIndex()
        return index.row() if index.isValid() else None

    def _show_selected(self) -> None:
        saved = self.selected_call()
        report = self.calls_model.reports.get(saved.name) if saved is not None else None
        self.assertions_model.set_call(saved, report)
        if saved is None:
            self.detail.clear()
        else:
            lines = [f"{saved.method}", json.dumps(saved.params or {}, indent=2, ensure_ascii=False)]
            if report is not None:
                lines += ["", f"last run: {report.status}, {report.observed.describe()}"]
                lines.append(f"latency: {report.observed.latency_ms:.0f} ms")
                if report.failing is not None:
                    lines.append(f"failing: {report.failure_line()}")
            self.detail.setPlainText("\n".join(lines))
        self._update()

    # -- assertions ----------------------------------------------------------------------------------------

    def set_assertions(self, assertions: Sequence[Assertion]) -> None:
        """Replace the selected call's assertions."""
        saved = self.selected_call()
        if saved is not None:
            self._set(self.collection.with_call(replace(saved, assertions=tuple(assertions))), dirty=True)

    def add_assertion(self, assertion: Assertion) -> None:
        saved = self.selected_call()
        if saved is not None:
            self.set_assertions([*saved.assertions, assertion])

    def replace_assertion(self, row: int, assertion: Assertion) -> None:
        saved = self.selected_call()
        if saved is not None and 0 <= row < len(saved.assertions):
            items = list(saved.assertions)
            items[row] = assertion
            self.set_assertions(items)

    def remove_selected_assertion(self) -> None:
        saved, row = self.selected_call(), self.selected_assertion_row()
        if saved is not None and row is not None and 0 <= row < len(saved.assertions):
            self.set_assertions([a for i, a in enumerate(saved.assertions) if i != row])

    def assertion_dialog(self, row: int | None = None) -> AssertionDialog | None:
        """The dialog for a new assertion (``row`` None) or the one at ``row``, opened window-modal; OK applies it."""
        saved = self.selected_call()
        if saved is None:
            return None
        current = saved.assertions[row] if row is not None and 0 <= row < len(saved.assertions) else None
        dialog = AssertionDialog(saved.method, current, self)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)

        def apply() -> None:
            made = dialog.assertion()
            if made is None:
                return
            if current is None or row is None:
                self.add_assertion(made)
            else:
                self.replace_assertion(row, made)

        dialog.accepted.connect(apply)
        dialog.open()
        return dialog

    def add_assertion_dialog(self) -> AssertionDialog | None:
        return self.assertion_dialog(None)

    def edit_assertion_dialog(self) -> AssertionDialog | None:
        row = self.selected_assertion_row()
        return self.assertion_dialog(row) if row is not None else None

    # -- running -------------------------------------------------------------------------------------------

    @property
    def running(self) -> bool:
        return self._task is not None and not self._task.done()

    def run_selected(self) -> bool:
        saved = self.selected_call()
        return saved is not None and self._start([saved.name])

    def run_all(self) -> bool:
        return bool(self.collection.calls) and self._start(None)

    def _start(self, only: list[str] | None) -> bool:
        if self.running:
            return False
        connection = live_connection(self.controller)
        if connection is None:
            self.status_label.setText("Not connected: connect to run the collection.")
            return False
        count = len(only) if only is not None else len(self.collection.calls)
        self.status_label.setText(f"Running {plural(count, 'call')}…")
        timeout = self.controller.settings.timeouts.request or 30.0
        self._task = asyncio.get_event_loop().create_task(self._run(connection, only, timeout))
        self._update()
        return True

    async def _run(self, connection: Any, only: list[str] | None, timeout: float) -> None:
        try:
            report = await run_collection(connection, self.collection, only, timeout=timeout, on_call=self._on_call)
        except Exception as exc:  # a failure of the run itself must reach the user, not the event loop
            self.status_label.setText(f"The run failed: {type(exc).__name__}: {exc}")
        else:
            counts = report.counts()
            text = f"{plural(counts['passed'], 'call')} passed, {counts['failed']} failed"
            if counts["error"]:
                text += f", {counts['error']} without an answer"
            self.status_label.setText(f"{text} ({report.duration_ms / 1000:.1f} s)")
            self.runFinished.emit(report)
        finally:
            self._task = None
            self._update()

    def _on_call(self, report: CallReport) -> None:
        self.calls_model.set_report(report)
        selected = self.selected_call()
        if selected is not None and selected.name == report.call.name:
            self._show_selected()

    def shutdown(self) -> None:
        if self._task is not None and not self._task.done():
            self._task.cancel()

    def _update(self) -> None:
        name = self.collection.name or "Untitled"
        where = f" — {self.path}" if self.path is not None else ""
        unsaved = " (unsaved changes)" if self.dirty else ""
        marker = "• " if self.dirty else ""
        self.title_label.setText(f"<b>{marker}{html.escape(name)}</b>{unsaved}{html.escape(where)}")
        self.title_label.setTextFormat(Qt.TextFormat.RichText)
        has_call = self.selected_call() is not None
        idle = not self.running
        self.run_button.setEnabled(has_call and idle)
        self.run_all_button.setEnabled(bool(self.collection.calls) and idle)
        self.remove_call_button.setEnabled(has_call and idle)
        self.calls_model.editable = idle
        for button in (self.rename_button, self.edit_request_button, self.duplicate_button):
            button.setEnabled(has_call and idle)
        index = self.calls_view.selectionModel().currentIndex()
        row = index.row() if has_call else -1
        self.move_up_button.setEnabled(has_call and idle and row > 0)
        self.move_down_button.setEnabled(has_call and idle and 0 <= row < len(self.collection.calls) - 1)
        self.add_assertion_button.setEnabled(has_call)
        has_assertion = self.selected_assertion_row() is not None and has_call
        self.edit_assertion_button.setEnabled(has_assertion)
        self.remove_assertion_button.setEnabled(has_assertion)
