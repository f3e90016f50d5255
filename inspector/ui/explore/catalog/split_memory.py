"""``SplitMemory``: the split between a page's inputs and its result, as the user last dragged it, shared by every
page of a panel (one tool's page opens with the split chosen on another's) and kept between sessions.

It reads and writes like a ``QSplitter`` (``saveState`` / ``restoreState``), so the connection tab saves it with
the real splitters in the window settings. Until the user drags a splitter, nothing is remembered and each page
fits its own split (the form takes what it needs, the result the rest).
"""

from __future__ import annotations

from PySide6.QtCore import QByteArray
from PySide6.QtWidgets import QSplitter

__all__ = ["SplitMemory"]


class SplitMemory:
    def __init__(self) -> None:
        self._state: QByteArray | None = None

    @property
    def chosen(self) -> bool:
        """The user has dragged a splitter (in this session or a saved one)."""
        return self._state is not None

    def attach(self, splitter: QSplitter) -> None:
        """Remember ``splitter``'s sizes whenever the user drags it (programmatic resizes do not count)."""
        splitter.splitterMoved.connect(lambda _pos, _index: self.remember(splitter))

    def remember(self, splitter: QSplitter) -> None:
        self._state = splitter.saveState()

    def apply(self, splitter: QSplitter) -> bool:
        """Give ``splitter`` the remembered sizes; False when there are none (the page fits its own)."""
        return self._state is not None and splitter.restoreState(self._state)

    # -- QSplitter-like persistence (the connection tab's saved layout) --------------------------------------

    def saveState(self) -> QByteArray:
        return QByteArray(self._state) if self._state is not None else QByteArray()

    def restoreState(self, state: QByteArray) -> bool:
        self._state = QByteArray(state) if not state.isEmpty() else None
        return True
