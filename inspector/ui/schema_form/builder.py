"""Which editor shows which kind of node."""

from __future__ import annotations

from PySide6.QtWidgets import QWidget

from inspector.schema import Kind, Node
from inspector.ui.schema_form.arrays import ArrayEditor, MultiEnumEditor
from inspector.ui.schema_form.base import Editor
from inspector.ui.schema_form.jsonedit import JsonEditor
from inspector.ui.schema_form.maps import MapEditor
from inspector.ui.schema_form.objects import ObjectEditor, VariantEditor
from inspector.ui.schema_form.scalars import BooleanEditor, EnumEditor, NullEditor, NumberEditor, StringEditor

__all__ = ["build_editor"]

_EDITORS: dict[Kind, type[Editor]] = {
    Kind.STRING: StringEditor,
    Kind.INTEGER: NumberEditor,
    Kind.NUMBER: NumberEditor,
    Kind.BOOLEAN: BooleanEditor,
    Kind.NULL: NullEditor,
    Kind.ENUM: EnumEditor,
    Kind.MULTI_ENUM: MultiEnumEditor,
    Kind.ARRAY: ArrayEditor,
    Kind.MAP: MapEditor,
    Kind.VARIANTS: VariantEditor,
    Kind.JSON: JsonEditor,
}


def build_editor(node: Node, parent: QWidget | None = None, *, flat: bool = False) -> Editor:
    """The editor for ``node``; ``flat`` objects (the form's root) have no frame of their own."""
    if node.kind is Kind.OBJECT:
        return ObjectEditor(node, parent, flat=flat)
    return _EDITORS[node.kind](node, parent)
