"""The Authorization view of an OAuth connection: each step of the flow and the HTTP exchanges it made.

Steps (challenge, discovery, registration, authorization, token, refresh, notices) arrive through an
``AuthStepFeed`` (or ``show_step``) as ``inspector.auth.AuthStep`` objects; a step that changes comes
again with the same index and replaces its row. A new OAuth provider (a new connection attempt) starts
a new list. Selecting a step shows its exchanges (method, URL, status, headers, already masked by the auth
module) and details. "Clear stored authorization" forgets the server's tokens and client registration.
``inspector.auth`` is imported only when the button is used (it is slow to import).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtGui import QColor
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QSplitter,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from inspector.ui.widgets.style import tones

if TYPE_CHECKING:
    from inspector.auth import AuthStep

__all__ = ["AuthStepFeed", "AuthView"]


class AuthStepFeed(QObject):
    """Where an OAuth profile's authorization steps go: ``stepChanged(generation, step)``.

    Each transport the factory builds has its own OAuth provider (a new ``generation``); its steps keep
    their index when they change, so a view replaces the row of that index.
    """

    stepChanged = Signal(int, object)

    def __init__(self, server_url: str, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.server_url = server_url
        self.generation = 0

    def next_generation(self) -> Callable[[AuthStep], None]:
        self.generation += 1
        generation = self.generation
        return lambda step: self.stepChanged.emit(generation, step)


class AuthView(QWidget):
    cleared = Signal()
    """The stored authorization was cleared."""

    def __init__(self, server_url: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.server_url = server_url
        self.steps: list[AuthStep | None] = []
        """The latest version of each step, by index."""
        self._generation: int | None = None
        self._feed: AuthStepFeed | None = None

        self.url_label = QLabel()
        self.url_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.clear_button = QPushButton("Clear stored authorization")
        self.clear_button.setToolTip("Forget this server's tokens and client registration (kept in the keyring)")
        self.status_label = QLabel()
        top = QHBoxLayout()
        top.addWidget(self.url_label, 1)
        top.addWidget(self.clear_button)

        self.step_tree = QTreeWidget()
        self.step_tree.setAccessibleName("Authorization steps")
        self.step_tree.setHeaderLabels(["#", "Step", "Status", "Summary"])
        self.step_tree.setRootIsDecorated(False)
        self.step_tree.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        header = self.step_tree.header()
        for column in (0, 1, 2):
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(3, QHeaderView.ResizeMode.Stretch)

        self.exchange_tree = QTreeWidget()
        self.exchange_tree.setAccessibleName("Authorization HTTP exchanges")
        self.exchange_tree.setHeaderLabels(["Method", "URL", "Status", "Time"])
        self.exchange_tree.header().setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        self.detail_label = QLabel()
        self.detail_label.setWordWrap(True)
        self.detail_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        lower = QWidget()
        lower_layout = QVBoxLayout(lower)
        lower_layout.setContentsMargins(0, 0, 0, 0)
        lower_layout.addWidget(self.detail_label)
        lower_layout.addWidget(self.exchange_tree, 1)

        self.splitter = QSplitter(Qt.Orientation.Vertical)
        self.splitter.addWidget(self.step_tree)
        self.splitter.addWidget(lower)

        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addWidget(self.splitter, 1)
        layout.addWidget(self.status_label)

        self.step_tree.currentItemChanged.connect(lambda _item, _prev: self._show_selected())
        self.clear_button.clicked.connect(self.clear_stored)
        self.set_server_url(server_url)

    # -- input -----------------------------------------------------------------------------------

    def set_server_url(self, url: str) -> None:
        self.server_url = url
        self.url_label.setText(f"Authorization for <b>{url}</b>" if url else "")

    def bind(self, feed: AuthStepFeed | None) -> None:
        """Follow ``feed`` (replacing any earlier one)."""
        if self._feed is not None:
            self._feed.stepChanged.disconnect(self._on_feed)
        self._feed = feed
        if feed is not None:
            self.set_server_url(feed.server_url)
            feed.stepChanged.connect(self._on_feed)

    def _on_feed(self, generation: int, step: AuthStep) -> None:
        if generation != self._generation:
            self._generation = generation
            self.clear_steps()
        self.show_step(step)

    def clear_steps(self) -> None:
        self.steps = []
        self.step_tree.clear()
        self.exchange_tree.clear()
        self.detail_label.clear()

    def show_steps(self, steps: list[AuthStep]) -> None:
        """Show a whole list of steps (replacing what is shown)."""
        self.clear_steps()
        for step in steps:
            self.show_step(step)

    def show_step(self, step: AuthStep) -> None:
        """Add a step, or replace the row of a step with the same index."""
        index = int(step.index)
        while len(self.steps) <= index:
            self.steps.append(None)
            self.step_tree.addTopLevelItem(QTreeWidgetItem([str(len(self.steps)), "", "", ""]))
        self.steps[index] = step
        item = self.step_tree.topLevelItem(index)
        assert item is not None
        status = str(step.status)
        item.setText(1, str(step.kind))
        item.setText(2, status)
        item.setText(3, step.summary + (f" — {step.error}" if step.error else ""))
        t = tones()
        colours = {"running": t.connecting, "ok": t.ok_fg, "failed": t.error_fg, "info": t.info_fg}
        item.setForeground(2, QColor(colours.get(status, t.muted)))
        item.setToolTip(3, step.error or step.summary)
        if self.step_tree.currentItem() is None:
            self.step_tree.setCurrentItem(item)
        elif self.step_tree.currentItem() is item:
            self._show_selected()

    # -- output ----------------------------------------------------------------------------------

    def selected_step(self) -> AuthStep | None:
        item = self.step_tree.currentItem()
        if item is None:
            return None
        index = self.step_tree.indexOfTopLevelItem(item)
        return self.steps[index] if 0 <= index < len(self.steps) else None

    def _show_selected(self) -> None:
        self.exchange_tree.clear()
        step = self.selected_step()
        if step is None:
            self.detail_label.clear()
            return
        lines = [f"{key}: {value}" for key, value in dict(step.details).items()]
        if step.error:
            lines.append(f"error: {step.error}")
        self.detail_label.setText("\n".join(lines))
        for exchange in step.exchanges:
            status = "—" if exchange.status is None else str(exchange.status)
            elapsed = "" if exchange.elapsed is None else f"{exchange.elapsed * 1000:.0f} ms"
            row = QTreeWidgetItem([exchange.method, exchange.url, status, elapsed])
            row.setToolTip(1, exchange.url)
            for title, headers in (("Request headers", exchange.request_headers),
                                   ("Response headers", exchange.response_headers)):  # fmt: skip
                if headers:
                    group = QTreeWidgetItem([title, "", "", ""])
                    for name, value in headers:
                        group.addChild(QTreeWidgetItem([name, value, "", ""]))
                    row.addChild(group)
            self.exchange_tree.addTopLevelItem(row)

    def clear_stored(self) -> None:
        """Forget the stored tokens and client registration of the server."""
        from inspector import auth  # slow import: only when used

        try:
            auth.clear_stored_authorization(self.server_url)
        except Exception as exc:  # the keyring may refuse
            self.status_label.setText(f"Could not clear the stored authorization: {exc}")
            return
        self.status_label.setText("Stored authorization cleared; the next connection authorizes again.")
        self.cleared.emit()
