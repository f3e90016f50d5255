"""Accessible names for a form's fields: ``name_fields(root)`` gives each field's input its label and JSON path as
``accessibleName`` ("City (address.city)", "tags[0]") and the schema's description as ``accessibleDescription``; the
field's other controls (the null toggle, the ✕ that leaves it out, an editor's own buttons and inner inputs) get
names that say which field they belong to. Run again after the form's shape changes (items added, a variant picked).
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QAccessible
from PySide6.QtWidgets import QAbstractButton, QLineEdit, QPlainTextEdit, QWidget

from inspector.protocol.jsonpath import format_path
from inspector.schema import PathPart
from inspector.ui.schema_form.slot import Slot

__all__ = ["field_name", "name_fields"]

_OURS = "accessibleNameFromForm"
_ROLE_WORDS = {"QTableWidget": "entries", "QListWidget": "items", "QComboBox": "choice", "QLineEdit": "text"}


def field_name(path: tuple[PathPart, ...], slot: Slot) -> str:
    """The field's label and path: its title (or property name) with the path when that says more."""
    where = format_path(path, root="")
    last = path[-1] if path else None
    label = slot.node.title or (last if isinstance(last, str) else "")
    if not where:
        return label or "Arguments"
    return f"{label} ({where})" if label and label != where else where


def _spoken(widget: QWidget) -> str:
    """What assistive technology says for ``widget`` now (its own text, a buddy label's, or the name set)."""
    face = QAccessible.queryAccessibleInterface(widget)
    return face.text(QAccessible.Text.Name) if face is not None else widget.accessibleName()


def _focusables_by_slot(root: Slot) -> dict[int, list[QWidget]]:
    """The widgets Tab reaches under ``root``, by the innermost slot each belongs to (``id`` of the slot)."""
    found: dict[int, list[QWidget]] = {}
    for widget in root.findChildren(QWidget):
        if not widget.focusPolicy() & Qt.FocusPolicy.TabFocus:
            continue
        owner = widget.parentWidget()
        while owner is not None and not isinstance(owner, Slot):
            owner = owner.parentWidget()
        if owner is not None:
            found.setdefault(id(owner), []).append(widget)
    return found


def _set(widget: QWidget, name: str, description: str) -> None:
    if widget.accessibleName() != name:
        widget.setAccessibleName(name)
    if description and widget.accessibleDescription() != description:
        widget.setAccessibleDescription(description)


def name_fields(root: Slot) -> None:
    """Name every field of the form under ``root`` (see the module docstring); cheap when nothing changed."""
    focusables = _focusables_by_slot(root)
    for path, slot in root.walk():
        name = field_name(path, slot)
        description = slot.node.description or ""
        main = slot.editor_widget()
        if path:
            _set(main, name, description)
        if slot.null_toggle is not None:
            _set(slot.null_toggle, f"{name}: send null", "")
        if slot.clear_button is not None:
            _set(slot.clear_button, f"Leave {name} out", slot.clear_button.toolTip())
        for widget in focusables.get(id(slot), []):
            if widget is main or widget is slot.null_toggle or widget is slot.clear_button:
                continue
            ours = bool(widget.property(_OURS))  # named here before: follows the field's path (items move)
            if not ours and _spoken(widget):
                continue  # a button's text, a buddy label: already says what it is
            text = widget.text().replace("&", "").strip() if isinstance(widget, QAbstractButton) else ""
            placeholder = widget.placeholderText() if isinstance(widget, QLineEdit | QPlainTextEdit) else ""
            what = text or widget.toolTip() or placeholder or _ROLE_WORDS.get(type(widget).__name__, "value")
            _set(widget, f"{what} ({name})" if path else what, "" if text else description)
            widget.setProperty(_OURS, True)
