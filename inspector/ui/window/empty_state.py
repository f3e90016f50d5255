"""What the tab area shows while no connection is open (first run, and whenever the last tab is closed).

Four ways in: open the bundled demo server, import the servers other clients have (the config files of Claude
Desktop, VS Code, Cursor and Claude Code found on this machine, each with its path and number of servers; see
``inspector.store.client_configs``), paste an ``mcpServers`` snippet, or make a new connection. The page only
asks: the window does the work through ``demo_button`` and the signals. The files are looked for each time the
page is shown (``refresh()``), so a config written meanwhile appears.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import (
    QFrame,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QScrollArea,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from inspector.content.plural import plural
from inspector.store.client_configs import CLIENT_LABELS, FoundConfig, find_client_configs

__all__ = ["EmptyState"]


def _muted(text: str) -> QLabel:
    label = QLabel(text)
    label.setWordWrap(True)
    label.setObjectName("mutedText")
    palette = label.palette()
    palette.setColor(label.foregroundRole(), palette.color(palette.ColorRole.PlaceholderText))
    label.setPalette(palette)
    return label


class _Card(QFrame):
    """One way in: a heading, a line of explanation, and what to press."""

    def __init__(self, title: str, text: str) -> None:
        super().__init__()
        self.setObjectName("emptyStateCard")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        heading = QLabel(f"<b>{title}</b>")
        heading.setTextFormat(Qt.TextFormat.RichText)
        self.body = QVBoxLayout(self)
        self.body.setContentsMargins(14, 10, 14, 12)
        self.body.setSpacing(6)
        self.body.addWidget(heading)
        self.body.addWidget(_muted(text))


class EmptyState(QScrollArea):
    importFileRequested = Signal(str)
    """Open the import dialog on this config file ("" for the dialog's own file picker)."""
    pasteRequested = Signal()
    newRequested = Signal()

    def __init__(self, parent: QWidget | None = None, *, cwd: Path | None = None) -> None:
        """``cwd``: the folder whose project files (``.vscode/mcp.json``…) are looked for (the current one)."""
        super().__init__(parent)
        self.setObjectName("emptyState")
        self.setAccessibleName("Get started")
        self.setWidgetResizable(True)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self._cwd = cwd
        self.found: list[FoundConfig] = []
        self.import_buttons: dict[Path, QPushButton] = {}

        title = QLabel("<h1>MCP Inspector</h1>")
        title.setTextFormat(Qt.TextFormat.RichText)
        subtitle = _muted(
            "Connect to a Model Context Protocol server, try its tools, resources and prompts, and see every "
            "message. Each connection opens in a tab here; saved ones are listed on the left."
        )

        demo = _Card("Open the demo server", "A bundled server that exercises every MCP feature.")
        self.demo_button = QPushButton("Open the demo server")
        self.demo_button.setDefault(True)
        demo.body.addWidget(self.demo_button, 0, Qt.AlignmentFlag.AlignLeft)

        labels = " / ".join(dict.fromkeys(CLIENT_LABELS.values()))
        self.import_card = _Card(f"Import from {labels}", "Servers you already set up in other MCP clients.")
        self.found_grid = QGridLayout()
        self.found_grid.setHorizontalSpacing(12)
        self.found_grid.setColumnStretch(1, 1)
        self.import_card.body.addLayout(self.found_grid)
        self.none_found = _muted("No config files of those clients were found on this machine.")
        self.import_card.body.addWidget(self.none_found)
        self.import_file_button = QPushButton("Import a file…")
        self.import_file_button.setToolTip("Pick any mcpServers-style config file and preview its servers")
        self.import_card.body.addWidget(self.import_file_button, 0, Qt.AlignmentFlag.AlignLeft)

        paste = _Card("Paste an mcpServers JSON snippet", "The JSON a server's README tells you to add to a config.")
        self.paste_button = QPushButton("Paste a snippet…")
        paste.body.addWidget(self.paste_button, 0, Qt.AlignmentFlag.AlignLeft)

        new = _Card("New connection", "A command to run (stdio) or a URL (Streamable HTTP or SSE), saved as a profile.")
        self.new_button = QPushButton("New connection…")
        new.body.addWidget(self.new_button, 0, Qt.AlignmentFlag.AlignLeft)

        column = QVBoxLayout()
        column.setSpacing(12)
        column.addStretch(1)
        column.addWidget(title)
        column.addWidget(subtitle)
        column.addSpacing(6)
        for card in (demo, self.import_card, paste, new):
            column.addWidget(card)
        column.addStretch(2)
        holder = QWidget()
        holder.setMaximumWidth(860)
        holder.setLayout(column)
        holder.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Preferred)
        page = QWidget()
        outer = QHBoxLayout(page)
        outer.setContentsMargins(24, 16, 24, 16)
        outer.addStretch(1)
        outer.addWidget(holder, 4)
        outer.addStretch(1)
        self.setWidget(page)

        self.import_file_button.clicked.connect(lambda: self.importFileRequested.emit(""))
        self.paste_button.clicked.connect(self.pasteRequested)
        self.new_button.clicked.connect(self.newRequested)

    def showEvent(self, event: QShowEvent) -> None:
        if not event.spontaneous():  # shown by the window (not the window system's exposing it again)
            self.refresh()
        super().showEvent(event)

    def refresh(self) -> list[FoundConfig]:
        """Look for the clients' config files again and list them."""
        self.found = find_client_configs(self._cwd)
        while self.found_grid.count():
            item = self.found_grid.takeAt(0)
            widget = item.widget() if item is not None else None
            if widget is not None:
                widget.deleteLater()
        self.import_buttons = {}
        for row, found in enumerate(self.found):
            self._add_row(row, found)
        self.none_found.setVisible(not self.found)
        return self.found

    def _add_row(self, row: int, found: FoundConfig) -> None:
        name = QLabel(found.label)
        path = QLabel(str(found.path))
        path.setObjectName("configPath")
        path.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        path.setToolTip(str(found.path))
        path.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        result = found.result
        if result.entries:
            count = plural(found.count, "server")
        else:
            count = "cannot be read" if result.errors else plural(0, "server")
        counted = QLabel(count)
        counted.setObjectName("configCount")
        if result.errors:
            counted.setToolTip("\n".join(result.errors))
        button = QPushButton("Import…")
        button.setAccessibleName(f"Import from {found.label}: {found.path}")
        button.setToolTip(f"Preview the servers of {found.path} and pick what to import")
        button.setEnabled(bool(result.entries))
        button.clicked.connect(lambda: self.importFileRequested.emit(str(found.path)))
        self.import_buttons[found.path] = button
        for column, widget in enumerate((name, path, counted, button)):
            self.found_grid.addWidget(widget, row, column)
            widget.show()  # now, not on the layout's queued show (a grab right after must see it)

    def rows(self) -> list[tuple[str, str, str]]:
        """(client, path, count) as shown, top to bottom."""
        shown: list[tuple[str, str, str]] = []
        for row in range(self.found_grid.rowCount()):
            cells = [self.found_grid.itemAtPosition(row, column) for column in range(3)]
            widgets = [c.widget() for c in cells if c is not None]
            texts = [w.text() for w in widgets if isinstance(w, QLabel)]
            if len(texts) == 3:
                shown.append((texts[0], texts[1], texts[2]))
        return shown
