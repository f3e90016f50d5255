"""The rounds of a multi-round-trip request (2026-07-28) in the log's detail pane, grouped and collapsible.

Selecting any row of such a request (a round's request, or the answer to one) shows every round of it as a
tree: one top-level row per round (its request and answer rows, how it ended, the size of the
``requestState`` it echoed and of the one its answer asked to echo), and under it the inputs — those the
round sent (``inputResponses``, with what was answered) and those its ``input_required`` answer asked for
(``inputRequests``). Rounds expand and collapse; activating a row selects that message in the table
(``seqActivated``). In the table, the group's rows are tinted (``groupChanged``: their seqs) and "Fold rounds"
hides every row of the group but the one selected and the first round's request (``foldToggled``).

It stays fast on a big recording: nothing is read for rows outside multi-round requests but one indexed
lookup (``Recording.round_of``), and a group reads only its own rows (at most ``MAX_ROUNDS`` of them).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from enum import IntEnum
from typing import Any, Final

from PySide6.QtCore import QAbstractItemModel, QModelIndex, QObject, QPersistentModelIndex, Qt, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QToolButton,
    QTreeView,
    QVBoxLayout,
    QWidget,
)

from inspector.content.plural import plural
from inspector.protocol.sizes import format_size
from inspector.store.recording import LogicalRequest, Recording, RecordRow

__all__ = ["MAX_ROUNDS", "InputLine", "RoundColumn", "RoundSummary", "RoundsModel", "RoundsView", "summarize"]

MAX_ROUNDS: Final = 64
"""The most rounds of one group read and shown."""
SeqRole: Final = Qt.ItemDataRole.UserRole + 1
_Index = QModelIndex | QPersistentModelIndex


class RoundColumn(IntEnum):
    WHAT = 0
    MESSAGES = 1
    STATE = 2
    DETAIL = 3


_HEADERS: Final = ("Round / input", "Messages", "requestState", "Detail")


@dataclass(frozen=True, slots=True)
class InputLine:
    """One input of a round: sent with its request (``inputResponses``) or asked by its answer (``inputRequests``)."""

    key: str
    sent: bool
    method: str
    """Asked: the method the server asked to answer; sent: the method of the answer, when known."""
    detail: str
    seq: int


@dataclass(slots=True)
class RoundSummary:
    round: int
    request_seq: int
    response_seq: int | None
    outcome: str
    """``input_required``, ``complete``, ``error <code>`` or ``no answer recorded``."""
    echoed_state: int | None
    """Bytes of the ``requestState`` this round's request echoed (None: it carried none)."""
    asked_state: int | None
    """Bytes of the ``requestState`` its answer asked to echo (None: none)."""
    inputs: list[InputLine] = field(default_factory=list)


def _payload(row: RecordRow | None, key: str) -> dict[str, Any] | None:
    if row is None:
        return None
    try:
        message = json.loads(row.raw)
    except (ValueError, RecursionError):
        return None
    value = message.get(key) if isinstance(message, dict) else None
    return value if isinstance(value, dict) else None


def _size(value: Any) -> int | None:
    return len(value.encode("utf-8", "surrogatepass")) if isinstance(value, str) else None


def _answer_text(value: Any) -> tuple[str, str]:
    """(the method an input answer is for, a one-line description of it)."""
    if not isinstance(value, dict):
        return "?", "not an object"
    if "action" in value:
        content = value.get("content")
        fields = f", {plural(len(content), 'field')}" if isinstance(content, dict) else ""
        return "elicitation/create", f"action {value.get('action')}{fields}"
    if "roots" in value:
        roots = value.get("roots")
        return "roots/list", plural(len(roots) if isinstance(roots, list) else 0, "root")
    if "role" in value or "model" in value:
        return "sampling/createMessage", f"model {value.get('model', '?')}"
    return "?", ", ".join(sorted(value))[:80]


def summarize(rec: Recording, logical: LogicalRequest) -> list[RoundSummary]:
    """Every round of ``logical`` (at most ``MAX_ROUNDS``), read from ``rec``."""
    out: list[RoundSummary] = []
    for r in logical.rounds[:MAX_ROUNDS]:
        params = _payload(rec.get(r.request_seq), "params") or {}
        response = rec.get(r.response_seq) if r.response_seq is not None else None
        result = _payload(response, "result")
        error = _payload(response, "error")
        if response is None:
            outcome = "no answer recorded"
        elif error is not None:
            outcome = f"error {error.get('code')}"
        elif result is not None:
            outcome = str(result.get("resultType") or "complete")
        else:
            outcome = "not a result"
        summary = RoundSummary(
            r.round,
            r.request_seq,
            r.response_seq,
            outcome,
            _size(params.get("requestState")),
            _size(result.get("requestState")) if result is not None else None,
        )
        sent = params.get("inputResponses")
        for key, value in (sent if isinstance(sent, dict) else {}).items():
            method, detail = _answer_text(value)
            summary.inputs.append(InputLine(str(key), True, method, detail, r.request_seq))
        asked = result.get("inputRequests") if result is not None else None
        for key, value in (asked if isinstance(asked, dict) else {}).items():
            entry = value if isinstance(value, dict) else {}
            method = str(entry.get("method", "?"))
            entry_params = entry.get("params")
            message = entry_params.get("message") if isinstance(entry_params, dict) else None
            detail = str(message)[:120] if isinstance(message, str) else ""
            assert r.response_seq is not None
            summary.inputs.append(InputLine(str(key), False, method, detail, r.response_seq))
        out.append(summary)
    return out


class RoundsModel(QAbstractItemModel):
    """Rounds (top level) and their inputs (children), in ``RoundColumn`` columns."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.rounds: list[RoundSummary] = []

    def set_rounds(self, rounds: list[RoundSummary]) -> None:
        self.beginResetModel()
        self.rounds = rounds
        self.endResetModel()

    def index(self, row: int, column: int, parent: _Index = QModelIndex()) -> QModelIndex:  # noqa: B008
        if not self.hasIndex(row, column, parent):
            return QModelIndex()
        if not parent.isValid():
            return self.createIndex(row, column, 0)  # a round: internal id 0
        return self.createIndex(row, column, parent.row() + 1)  # an input: its round's row + 1

    def parent(self, child: _Index = QModelIndex()) -> QModelIndex:  # type: ignore[override]  # noqa: B008
        if not child.isValid():
            return QModelIndex()
        owner = child.internalId()
        return QModelIndex() if owner == 0 else self.createIndex(owner - 1, 0, 0)

    def rowCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        if not parent.isValid():
            return len(self.rounds)
        if parent.internalId() == 0 and parent.column() == 0 and 0 <= parent.row() < len(self.rounds):
            return len(self.rounds[parent.row()].inputs)
        return 0

    def columnCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        return len(RoundColumn)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole and 0 <= section < 4:
            return _HEADERS[section]
        return None

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        owner = index.internalId()
        if owner == 0:
            summary = self.rounds[index.row()]
            if role == SeqRole:
                return summary.request_seq
            if role == Qt.ItemDataRole.DisplayRole:
                return _round_texts(summary)[index.column()]
            return None
        line = self.rounds[owner - 1].inputs[index.row()]
        if role == SeqRole:
            return line.seq
        if role == Qt.ItemDataRole.DisplayRole:
            what = f"{'sent' if line.sent else 'asked'} {line.key!r}"
            return (what, f"#{line.seq}", "", f"{line.method}: {line.detail}" if line.detail else line.method)[
                index.column()
            ]
        return None


def _round_texts(s: RoundSummary) -> tuple[str, str, str, str]:
    answer = f" → #{s.response_seq}" if s.response_seq is not None else ""
    states = []
    if s.echoed_state is not None:
        states.append(f"echoed {format_size(s.echoed_state)}")
    if s.asked_state is not None:
        states.append(f"new {format_size(s.asked_state)}")
    sent = sum(1 for i in s.inputs if i.sent)
    asked = len(s.inputs) - sent
    detail = ", ".join(
        part
        for part in (
            s.outcome,
            plural(sent, "input") + " sent" if sent else "",
            plural(asked, "input") + " asked" if asked else "",
        )
        if part
    )
    return f"Round {s.round}", f"#{s.request_seq}{answer}", ", ".join(states) or "—", detail


class RoundsView(QWidget):
    """The detail pane's group of a multi-round request's rounds (hidden for any other row)."""

    seqActivated = Signal(int)
    groupChanged = Signal(object)
    """The seqs (a ``frozenset``) of every request and answer of the group shown (empty: none)."""
    foldToggled = Signal(bool)
    """Fold (True) or unfold the group's other rows in the table."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.title = QLabel(self)
        self.title.setContentsMargins(6, 4, 6, 2)
        self.title.setWordWrap(True)
        self.fold_button = QToolButton(self)
        self.fold_button.setText("Fold rounds")
        self.fold_button.setCheckable(True)
        self.fold_button.setToolTip(
            "Hide the other rounds of this request in the table (its first request and this message stay)"
        )
        self.fold_button.toggled.connect(self.foldToggled)
        self.members: frozenset[int] = frozenset()
        self.model = RoundsModel(self)
        self.tree = QTreeView(self)
        self.tree.setAccessibleName("Rounds")
        self.tree.setModel(self.model)
        self.tree.setUniformRowHeights(True)
        self.tree.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.tree.header().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.tree.header().setStretchLastSection(True)
        self.tree.setMaximumHeight(180)
        self.tree.activated.connect(self._activated)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        top = QHBoxLayout()
        top.setContentsMargins(0, 0, 6, 0)
        top.addWidget(self.title, 1)
        top.addWidget(self.fold_button)
        layout.addLayout(top)
        layout.addWidget(self.tree)
        self.logical: LogicalRequest | None = None
        self.hide()

    def clear(self) -> None:
        self.logical = None
        self.model.set_rounds([])
        self.hide()
        if self.members:
            self.members = frozenset()
            self.groupChanged.emit(self.members)

    @property
    def first_seq(self) -> int | None:
        """The first round's request of the group shown."""
        return self.logical.rounds[0].request_seq if self.logical is not None and self.logical.rounds else None

    def show_row(self, rec: Recording | None, row: RecordRow) -> None:
        """Show the rounds of the request ``row`` belongs to, when it took more than one; else hide."""
        self.clear()
        if rec is None or rec.closed or rec.round_of(row.seq) is None:
            return
        logical = rec.logical_request(row.seq)
        if logical is None or not logical.multi_round:
            return
        self.logical = logical
        rounds = summarize(rec, logical)
        self.model.set_rounds(rounds)
        current = rec.round_of(row.seq)
        self.title.setText(
            f"{logical.method or 'request'} in {plural(len(logical.rounds), 'round')} (multi-round request, first id "
            f"{logical.origin!r}); this message is round {current}"
        )
        for number, summary in enumerate(rounds):
            if summary.round == current:
                self.tree.expand(self.model.index(number, 0))
                self.tree.setCurrentIndex(self.model.index(number, 0))
        self.members = frozenset(
            seq for r in logical.rounds for seq in (r.request_seq, r.response_seq) if seq is not None
        )
        self.groupChanged.emit(self.members)
        self.show()

    def _activated(self, index: QModelIndex) -> None:
        seq = index.data(SeqRole)
        if isinstance(seq, int):
            self.seqActivated.emit(seq)
