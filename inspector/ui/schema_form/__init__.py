"""Forms generated from JSON Schemas (tool inputSchemas, elicitation requestedSchemas).

``SchemaForm(schema)`` is the widget; the schema logic it relies on lives in the Qt-free ``inspector.schema``.
"""

from inspector.ui.schema_form.base import Editor
from inspector.ui.schema_form.form import SchemaForm
from inspector.ui.schema_form.slot import Slot

__all__ = ["Editor", "SchemaForm", "Slot"]
