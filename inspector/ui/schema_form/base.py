"""The editor interface every field widget implements."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QWidget

from inspector.schema import Node, PathPart, accepts

if TYPE_CHECKING:
    from inspector.ui.schema_form.slot import Slot

__all__ = ["Editor", "LocalError"]

LocalError = tuple[tuple[PathPart, ...], str]
"""A problem found before validation (text that is not a number, invalid JSON), at a relative path."""


class Editor(QWidget):
    """Edits one value of one schema node.

    ``value()`` returns the value, or ``MISSING`` when nothing usable is entered. ``set_value`` and ``clear``
    never emit ``changed``; user edits do. Containers expose their child slots through ``child`` and
    ``slots`` (the latter with relative path parts; an empty tuple means "same path").
    """

    changed = Signal()

    def __init__(self, node: Node, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.node = node
        self._quiet = 0

    # --- to implement -------------------------------------------------------------------------------------
    def value(self) -> Any:
        raise NotImplementedError

    def _set(self, value: Any) -> None:
        raise NotImplementedError

    def _clear(self) -> None:
        raise NotImplementedError

    # --- optional overrides --------------------------------------------------------------------------------
    def _reset(self, prefill: bool) -> None:
        """Show the node's own starting state (children at their defaults); ``prefill`` for required fields."""
        self._clear()

    def accepts(self, value: Any) -> bool:
        return accepts(self.node, value)

    def is_blank(self) -> bool:
        """True when the user emptied the editor (an optional field then leaves the arguments)."""
        return False

    def focus_widget(self) -> QWidget:
        """The widget a person (or a test) types into or clicks."""
        return self

    def child(self, part: PathPart) -> Slot | None:
        return None

    def slots(self) -> list[tuple[tuple[PathPart, ...], Slot]]:
        return []

    def local_errors(self) -> list[LocalError]:
        """Problems of the children (containers) plus, in overrides, the editor's own."""
        found: list[LocalError] = []
        for relative, slot in self.slots():
            found.extend(((*relative, *path), message) for path, message in slot.local_errors())
        return found

    # --- shared ------------------------------------------------------------------------------------------------
    def set_value(self, value: Any) -> None:
        with self.quiet():
            self._set(value)

    def clear(self) -> None:
        with self.quiet():
            self._clear()

    def reset(self, prefill: bool = False) -> None:
        with self.quiet():
            self._reset(prefill)

    @contextmanager
    def quiet(self) -> Iterator[None]:
        self._quiet += 1
        try:
            yield
        finally:
            self._quiet -= 1

    def emit_changed(self) -> None:
        if not self._quiet:
            self.changed.emit()
