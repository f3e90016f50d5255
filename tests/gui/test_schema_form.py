"""SchemaForm (inspector.ui.schema_form), table-driven over many schemas, driven with pytest-qt (offscreen).

Qt warnings fail these tests (``qt_log_level_fail``), except two the offscreen platform prints by itself.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable, Iterator
from typing import Any

import anyio
import nodetools
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PySide6.QtCore import QDate, QPoint, QPointF, Qt
from PySide6.QtGui import QWheelEvent
from PySide6.QtWidgets import QApplication, QCheckBox, QComboBox, QLabel, QLineEdit, QListWidget, QPlainTextEdit
from pytestqt.qtbot import QtBot
from schemakit import json_values, schemas

from inspector.demo import build_server
from inspector.demo.schemas import ORDER_SCHEMA
from inspector.demo.tools_interactive import ELICIT_SCHEMA
from inspector.schema import Kind, to_json_text
from inspector.ui.schema_form import SchemaForm
from inspector.ui.schema_form.arrays import ArrayEditor, MultiEnumEditor
from inspector.ui.schema_form.maps import MapEditor
from inspector.ui.schema_form.objects import ObjectEditor, VariantEditor
from inspector.ui.schema_form.scalars import StringEditor
from inspector.ui.schema_form.spinbox import NumberSpinBox

pytestmark = [
    pytest.mark.qt_log_level_fail("WARNING"),
    pytest.mark.qt_log_ignore("does not support propagateSizeHints", "OpenType support missing"),
]

FormFactory = Callable[[dict[str, Any]], SchemaForm]


def obj(properties: dict[str, Any], required: tuple[str, ...] = (), **extra: Any) -> dict[str, Any]:
    return {"type": "object", "properties": properties, "required": list(required), **extra}


def exact(value: Any) -> str:
    """JSON text that tells 1 from 1.0 and True from 1 (plain == does not)."""
    return json.dumps(value, sort_keys=True)


@pytest.fixture
def make_form(qtbot: QtBot) -> Iterator[FormFactory]:
    forms: list[SchemaForm] = []  # qtbot keeps weak references only

    def make(schema: dict[str, Any]) -> SchemaForm:
        form = SchemaForm(schema)
        qtbot.addWidget(form)
        forms.append(form)
        form.resize(640, 480)
        form.show()
        return form

    yield make
    forms.clear()


def demo_tool_schemas() -> dict[str, dict[str, Any]]:
    async def collect() -> dict[str, dict[str, Any]]:
        return {tool.name: tool.input_schema for tool in await build_server().list_tools()}

    return anyio.run(collect)


DEMO = demo_tool_schemas()

DEFS = {
    "$defs": {
        "Address": obj({"city": {"type": "string", "minLength": 1}, "zip": {"type": "string"}}, ("city",)),
        "Tree": obj({"name": {"type": "string"}, "children": {"type": "array", "items": {"$ref": "#/$defs/Tree"}}}),
    }
}

# --- each construct gets the right widget ---------------------------------------------------------------------

WIDGET_CASES: list[tuple[str, dict[str, Any], type]] = [
    ("string", {"type": "string"}, QLineEdit),
    ("date", {"type": "string", "format": "date"}, QLineEdit),
    ("date-time", {"type": "string", "format": "date-time"}, QLineEdit),
    ("email", {"type": "string", "format": "email"}, QLineEdit),
    ("uri", {"type": "string", "format": "uri"}, QLineEdit),
    ("long text", {"type": "string", "maxLength": 5000}, QPlainTextEdit),
    ("boolean", {"type": "boolean"}, QCheckBox),
    ("integer", {"type": "integer", "minimum": 0}, NumberSpinBox),
    ("number", {"type": "number", "multipleOf": 0.5}, NumberSpinBox),
    ("enum", {"enum": ["a", "b"]}, QComboBox),
    ("titled oneOf", {"oneOf": [{"const": "a", "title": "A"}, {"const": "b", "title": "B"}]}, QComboBox),
    ("array of strings", {"type": "array", "items": {"type": "string"}}, ArrayEditor),
    ("array of enums", {"type": "array", "items": {"enum": ["x", "y"]}}, QListWidget),
    ("array of objects", {"type": "array", "items": obj({"a": {"type": "string"}})}, ArrayEditor),
    ("object", obj({"a": {"type": "string"}}), ObjectEditor),
    ("map", {"type": "object", "additionalProperties": {"type": "integer"}}, MapEditor),
    ("shape picker", {"oneOf": [obj({"a": {"type": "string"}}), obj({"b": {"type": "integer"}})]}, QComboBox),
    ("type list", {"type": ["string", "integer"]}, QComboBox),
    ("tuple fallback", {"type": "array", "prefixItems": [{"type": "number"}]}, QPlainTextEdit),
    ("any fallback", {}, QPlainTextEdit),
    ("nullable", {"type": ["integer", "null"]}, NumberSpinBox),
    ("$ref", {"$ref": "#/$defs/Address"}, ObjectEditor),
]


@pytest.mark.parametrize(("schema", "widget"), [c[1:] for c in WIDGET_CASES], ids=[c[0] for c in WIDGET_CASES])
def test_each_construct_gets_its_widget(make_form: FormFactory, schema: dict[str, Any], widget: type) -> None:
    form = make_form({**obj({"f": schema}), **DEFS})
    assert isinstance(form.field("f"), widget)
    label = form.root.typed.labels["f"]  # type: ignore[attr-defined]
    assert label.toolTip().startswith("f: ")


def test_required_fields_are_marked_and_descriptions_shown(make_form: FormFactory) -> None:
    form = make_form(
        obj(
            {
                "name": {"type": "string", "title": "Name", "description": "Your name"},
                "age": {"type": "integer"},
                "home": {"$ref": "#/$defs/Address"},
            },
            ("name", "home"),
            **DEFS,
        )
    )
    labels = form.root.typed.labels  # type: ignore[attr-defined]
    assert labels["name"].text() == "Name *" and labels["name"].font().bold()
    assert labels["age"].text() == "age" and not labels["age"].font().bold()
    assert labels["home"].title() == "home *" and labels["home"].font().bold()
    assert not form.field("home.zip").font().bold()  # the bold title does not leak into the sub-form
    slot = form.slot("name")
    assert slot is not None and slot.help_label is not None and slot.help_label.text() == "Your name"
    assert "Your name" in labels["name"].toolTip() and "Your name" in form.field("name").toolTip()
    assert form.legend.isVisible()


def test_choices_are_labelled_by_titles(make_form: FormFactory) -> None:
    form = make_form(DEMO["create_event"])
    priority = form.field("priority")
    assert isinstance(priority, QComboBox)
    assert [priority.itemText(i) for i in range(priority.count())][:2] == ["Low — whenever", "Normal"]
    topics = make_form(ELICIT_SCHEMA).field("topics")
    assert isinstance(topics, QListWidget)
    assert [topics.item(i).text() for i in range(topics.count())] == ["Tools", "Resources", "Prompts"]


# --- defaults ---------------------------------------------------------------------------------------------

DEFAULT_CASES: list[tuple[str, dict[str, Any], Any]] = [
    (
        "scalars",
        obj(
            {
                "s": {"type": "string", "default": "x"},
                "n": {"type": "number", "default": 1.5},
                "i": {"type": "integer", "default": 2**64},
                "b": {"type": "boolean", "default": False},
            }
        ),
        {"s": "x", "n": 1.5, "i": 2**64, "b": False},
    ),
    ("optional without default omitted", obj({"s": {"type": "string"}, "n": {"type": "integer"}}), {}),
    ("required string untouched", obj({"s": {"type": "string"}}, ("s",)), {}),
    ("required boolean shows false", obj({"b": {"type": "boolean"}}, ("b",)), {"b": False}),
    ("required const", obj({"k": {"const": "order"}}, ("k",)), {"k": "order"}),
    ("nullable default null", obj({"n": {"type": ["string", "null"], "default": None}}), {"n": None}),
    (
        "enum default via $ref",
        {**obj({"c": {"$ref": "#/$defs/C", "default": "b"}}), "$defs": {"C": {"enum": ["a", "b"]}}},
        {"c": "b"},
    ),
    ("nested defaults", obj({"o": obj({"x": {"type": "integer", "default": 1}})}, ("o",)), {"o": {"x": 1}}),
    ("object default", obj({"o": {**obj({"x": {"type": "integer", "default": 1}}), "default": {}}}), {"o": {}}),
    (
        "required array prefilled to minItems",
        obj({"a": {"type": "array", "items": obj({"q": {"type": "integer", "default": 1}}), "minItems": 2}}, ("a",)),
        {"a": [{"q": 1}, {"q": 1}]},
    ),
    (
        "array default",
        obj({"a": {"type": "array", "items": {"type": "string"}, "default": ["x", "y"]}}),
        {"a": ["x", "y"]},
    ),
    (
        "multi-select default",
        obj({"m": {"type": "array", "items": {"enum": [1, 2, 3]}, "default": [3, 1]}}),
        {"m": [3, 1]},
    ),
    (
        "map default",
        obj({"m": {"type": "object", "additionalProperties": {"type": "string"}, "default": {"k": "v"}}}),
        {"m": {"k": "v"}},
    ),
    (
        "elicitation",
        ELICIT_SCHEMA,
        {
            "name": "Ada Lovelace",
            "email": "ada@example.com",
            "birthday": "1815-12-10",
            "age": 36,
            "rating": 4.5,
            "subscribe": True,
            "color": "blue",
            "size": "M",
            "topics": ["tools"],
        },
    ),
]


@pytest.mark.parametrize(("schema", "expected"), [c[1:] for c in DEFAULT_CASES], ids=[c[0] for c in DEFAULT_CASES])
def test_defaults_are_prefilled(make_form: FormFactory, schema: dict[str, Any], expected: Any) -> None:
    form = make_form(schema)
    assert exact(form.value()) == exact(expected)
    form.set_value({"junk": 1})
    form.reset()
    assert exact(form.value()) == exact(expected)


# --- set_value / value round-trips --------------------------------------------------------------------------

KITCHEN = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "type": "object",
    "properties": {
        "s": {"type": "string", "minLength": 0},
        "when": {"type": "string", "format": "date"},
        "i": {"type": "integer"},
        "n": {"type": "number"},
        "b": {"type": "boolean"},
        "e": {"enum": ["a", 1, True, None, {"k": [1]}]},
        "tags": {"type": "array", "items": {"type": "string"}},
        "picks": {"type": "array", "items": {"enum": ["x", "y", "z"]}},
        "people": {"type": "array", "items": {"$ref": "#/$defs/Address"}},
        "home": {"$ref": "#/$defs/Address"},
        "maybe": {"anyOf": [{"$ref": "#/$defs/Address"}, {"type": "null"}]},
        "nums": {"type": "object", "additionalProperties": {"type": "number"}},
        "words": {"type": "object", "additionalProperties": {"type": "string"}},
        "shape": {
            "oneOf": [
                obj({"kind": {"const": "a"}, "x": {"type": "integer"}}, ("kind",)),
                obj({"kind": {"const": "b"}, "y": {"type": "string"}}, ("kind",)),
            ]
        },
        "mixed": {"type": ["string", "number", "boolean", "null"]},
        "tree": {"$ref": "#/$defs/Tree"},
        "free": {},
        "pair": {"type": "array", "prefixItems": [{"type": "integer"}, {"type": "string"}]},
        "nullable_int": {"type": ["integer", "null"]},
    },
    **DEFS,
}

ROUND_TRIPS: list[tuple[str, dict[str, Any], Any]] = [
    ("empty", KITCHEN, {}),
    ("scalars", KITCHEN, {"s": "", "when": "not a date", "i": -(2**70), "n": 0.1, "b": True}),
    ("floats stay floats", KITCHEN, {"n": 2.0, "i": 3}),
    ("tiny and huge floats", KITCHEN, {"n": 5e-324}),
    ("huge float", KITCHEN, {"n": 1.7976931348623157e308}),
    ("unicode and newlines", KITCHEN, {"s": "é€😀\nline 2\ttab"}),
    ("widget-unsafe characters", KITCHEN, {"s": "a\r\nb\u2028c\u00a0d", "tags": ["x\ry", "\u2029"]}),
    ("enum values of every type", KITCHEN, {"e": {"k": [1]}}),
    ("enum true is not 1", KITCHEN, {"e": True}),
    ("enum null", KITCHEN, {"e": None}),
    ("arrays", KITCHEN, {"tags": ["b", "a", "b", ""], "picks": ["z", "x", "z"]}),
    ("objects in arrays", KITCHEN, {"people": [{"city": "A"}, {"city": "B", "zip": "1", "extra": [1]}]}),
    ("nested and null", KITCHEN, {"home": {"city": "C"}, "maybe": None}),
    ("nullable object set", KITCHEN, {"maybe": {"city": "D"}}),
    ("maps", KITCHEN, {"nums": {"a": 1, "b": 2.5, "": -3}, "words": {"k": "5", "x.y": "", "z": "true"}}),
    ("shape b", KITCHEN, {"shape": {"kind": "b", "y": "why"}}),
    ("shape a", KITCHEN, {"shape": {"kind": "a", "x": 1}}),
    ("type list", KITCHEN, {"mixed": 1.5}),
    ("type list bool", KITCHEN, {"mixed": False}),
    ("type list null", KITCHEN, {"mixed": None}),
    (
        "recursion",
        KITCHEN,
        {
            "tree": {
                "name": "r",
                "children": [{"name": "c", "children": [{"name": "g", "children": [{"name": "deep"}]}]}],
            }
        },
    ),
    ("free JSON", KITCHEN, {"free": {"a": [1, None, "x"]}, "pair": [1, "one"]}),
    ("explicit null", KITCHEN, {"nullable_int": None}),
    ("unknown keys kept", KITCHEN, {"zzz": {"q": 1}}),
    (
        "wrong types fall back to JSON",
        KITCHEN,
        {
            "i": "seven",
            "b": "yes",
            "tags": "x",
            "home": [1],
            "e": "nope",
            "picks": ["q"],
            "words": {"a": 1},
            "shape": 3,
        },
    ),
    (
        "demo create_event",
        DEMO["create_event"],
        {
            "title": "Launch",
            "date": "2025-01-02",
            "starts_at": "2025-01-02T10:00:00Z",
            "organizer_email": "a@b.c",
            "location": {"kind": "online", "url": "https://x.y", "dial_in": None},
            "attendees": [
                {"name": "A", "email": "a@b.c"},
                {"name": "B", "email": "b@c.d", "role": "organizer", "plus_ones": 2},
            ],
            "reminders": [{"method": "sms", "phone": "+31612345678"}, {"method": "push", "sound": False}],
            "recurrence": {"frequency": "daily", "weekdays": ["tue", "mon"], "until": None},
            "labels": {"a": "b"},
            "price": 12.5,
            "capacity": 20,
            "notes": "multi\nline",
        },
    ),
    (
        "demo validate_order",
        DEMO["validate_order"],
        {
            "order_id": "123e4567-e89b-12d3-a456-426614174000",
            "kind": "order",
            "lines": [{"sku": "ABC-1234", "unit_price": 9.99, "quantity": 2}],
            "coupon": None,
            "geo": [52.1, 4.3],
            "attributes": {"x-a": "b", "x-n": 3, "x-t": True},
            "category": {"name": "root", "children": []},
        },
    ),
]


@pytest.mark.parametrize(("schema", "value"), [c[1:] for c in ROUND_TRIPS], ids=[c[0] for c in ROUND_TRIPS])
def test_set_value_then_value_round_trips(make_form: FormFactory, schema: dict[str, Any], value: Any) -> None:
    form = make_form(schema)
    form.set_value(value)
    assert exact(form.value()) == exact(value)
    # and through the raw JSON editor and back
    assert form.set_raw(True)
    assert json.loads(form.raw_edit.toPlainText()) == json.loads(json.dumps(value))
    assert form.set_raw(False)
    assert exact(form.value()) == exact(value)


def test_values_that_do_not_fit_are_edited_as_json_per_field(make_form: FormFactory) -> None:
    form = make_form(KITCHEN)
    form.set_value({"i": "seven", "s": "ok"})
    slot = form.slot("i")
    assert slot is not None and slot.is_json_mode() and slot.form_button.isVisibleTo(form)
    assert isinstance(form.field("i"), QPlainTextEdit)
    assert isinstance(form.field("s"), QLineEdit)
    form.field("i").setPlainText("7")  # type: ignore[union-attr]
    slot.form_button.click()
    assert not slot.is_json_mode() and isinstance(form.field("i"), NumberSpinBox)
    assert form.value() == {"i": 7, "s": "ok"}


# --- driving the widgets -----------------------------------------------------------------------------------------


def test_typing_edits_and_optional_fields_leave_when_emptied(make_form: FormFactory, qtbot: QtBot) -> None:
    form = make_form(obj({"name": {"type": "string"}, "note": {"type": "string", "default": "hi"}}, ("name",)))
    assert form.value() == {"note": "hi"}
    with qtbot.waitSignal(form.valueChanged):
        qtbot.keyClicks(form.field("name"), "Ada")
    assert form.value() == {"name": "Ada", "note": "hi"}
    note = form.field("note")
    assert isinstance(note, QLineEdit)
    note.selectAll()
    qtbot.keyClick(note, Qt.Key.Key_Delete)
    assert form.value() == {"name": "Ada"}
    qtbot.keyClicks(note, "x")
    assert form.value() == {"name": "Ada", "note": "x"}
    clear = form.slot("note").clear_button  # type: ignore[union-attr]
    assert clear is not None and clear.isVisible()
    qtbot.mouseClick(clear, Qt.MouseButton.LeftButton)
    assert form.value() == {"name": "Ada"} and not clear.isVisible()
    name = form.field("name")
    assert isinstance(name, QLineEdit)
    name.selectAll()
    qtbot.keyClick(name, Qt.Key.Key_Delete)
    assert form.value() == {"name": ""}  # a required field the user emptied is sent empty


def test_checkbox_combo_and_spin_boxes(make_form: FormFactory, qtbot: QtBot) -> None:
    form = make_form(
        obj(
            {
                "b": {"type": "boolean"},
                "c": {"oneOf": [{"const": 1, "title": "One"}, {"const": 2, "title": "Two"}]},
                "i": {"type": "integer", "minimum": 0, "maximum": 20, "multipleOf": 5},
                "big": {"type": "integer"},
                "x": {"type": "number", "exclusiveMinimum": 0, "multipleOf": 0.25},
            }
        )
    )
    qtbot.mouseClick(form.field("b"), Qt.MouseButton.LeftButton)
    combo = form.field("c")
    assert isinstance(combo, QComboBox)
    combo.setCurrentIndex(1)
    spin = form.field("i")
    assert isinstance(spin, NumberSpinBox)
    spin.setFocus()
    qtbot.keyClick(spin, Qt.Key.Key_Up)
    qtbot.keyClick(spin, Qt.Key.Key_Up)
    assert form.value() == {"b": True, "c": 2, "i": 5}
    for _ in range(6):
        qtbot.keyClick(spin, Qt.Key.Key_Up)
    assert form.value()["i"] == 20
    qtbot.keyClicks(form.field("big"), "123456789012345678901234567890")
    qtbot.keyClicks(form.field("big"), "x.5")  # rejected by the validator: not part of an integer
    assert form.value()["big"] == 123456789012345678901234567890
    x = form.field("x")
    assert isinstance(x, NumberSpinBox)
    x.setFocus()
    qtbot.keyClick(x, Qt.Key.Key_Up)
    assert form.value()["x"] == 0.25
    x.set_text("0.3")
    qtbot.keyClick(x, Qt.Key.Key_Up)
    assert x.text_value() == "0.5"
    qtbot.keyClick(x, Qt.Key.Key_Down)
    assert x.text_value() == "0.25"
    qtbot.keyClick(x, Qt.Key.Key_Down)  # exclusiveMinimum 0 stops stepping at 0.25
    assert x.text_value() == "0.25"


def test_array_editor_add_reorder_remove_and_max_items(make_form: FormFactory, qtbot: QtBot) -> None:
    form = make_form(obj({"tags": {"type": "array", "items": {"type": "string"}, "maxItems": 3}}))
    editor = form.editor("tags")
    assert isinstance(editor, ArrayEditor)
    for text in ("a", "b", "c"):
        qtbot.mouseClick(editor.add_button, Qt.MouseButton.LeftButton)
        qtbot.keyClicks(form.field(f"tags[{len(editor.rows) - 1}]"), text)
    assert form.value() == {"tags": ["a", "b", "c"]}
    assert not editor.add_button.isEnabled() and "at most 3" in editor.hint.text()
    qtbot.mouseClick(editor.rows[2].up_button, Qt.MouseButton.LeftButton)
    assert form.value() == {"tags": ["a", "c", "b"]}
    assert not editor.rows[0].up_button.isEnabled() and not editor.rows[2].down_button.isEnabled()
    qtbot.mouseClick(editor.rows[0].remove_button, Qt.MouseButton.LeftButton)
    assert form.value() == {"tags": ["c", "b"]} and editor.add_button.isEnabled()


def test_array_of_objects_repeats_sub_forms(make_form: FormFactory, qtbot: QtBot) -> None:
    form = make_form(DEMO["create_event"])
    attendees = form.editor("attendees")
    assert isinstance(attendees, ArrayEditor) and len(attendees.rows) == 1  # minItems 1, required
    qtbot.mouseClick(attendees.add_button, Qt.MouseButton.LeftButton)
    qtbot.keyClicks(form.field("attendees[1].name"), "Bo")
    form.field("attendees[1].role").setCurrentIndex(2)  # type: ignore[union-attr]
    assert form.value()["attendees"][1] == {"name": "Bo", "role": "organizer", "plus_ones": 0}
    assert attendees.rows[1].title.text() == "Item 2"


def test_multi_select_keeps_pick_order_and_max_items(make_form: FormFactory) -> None:
    form = make_form(obj({"days": {"type": "array", "items": {"enum": ["mon", "tue", "wed"]}, "maxItems": 2}}))
    editor = form.editor("days")
    assert isinstance(editor, MultiEnumEditor)
    editor.set_checked("wed", True)
    editor.set_checked("mon", True)
    assert form.value() == {"days": ["wed", "mon"]}
    tue = editor.list_widget.item(1)
    assert not tue.flags() & Qt.ItemFlag.ItemIsEnabled  # full
    editor.set_checked("wed", False)
    assert form.value() == {"days": ["mon"]} and tue.flags() & Qt.ItemFlag.ItemIsEnabled


def test_map_table(make_form: FormFactory, qtbot: QtBot) -> None:
    form = make_form(obj({"env": {"type": "object", "additionalProperties": {"type": "integer"}}}))
    table = form.editor("env")
    assert isinstance(table, MapEditor)
    qtbot.mouseClick(table.add_button, Qt.MouseButton.LeftButton)
    table.set_cell(0, 0, "a")
    table.set_cell(0, 1, "5")
    table.add_entry("a", "oops")
    table.add_entry()  # a fresh, untouched row is not an entry yet
    assert form.value() == {"env": {"a": 5}} and table.row_count() == 3
    assert "env.a: duplicate key in row 2" in form.errors()
    assert any("env.a: invalid JSON" in error for error in form.errors())
    table.table.selectRow(1)
    qtbot.mouseClick(table.remove_button, Qt.MouseButton.LeftButton)
    assert form.value() == {"env": {"a": 5}} and form.errors() == []
    table.set_cell(1, 0, "b")
    assert form.errors() == ["env.b: invalid JSON at line 1, column 1: Expecting value"]
    table.set_cell(1, 1, "-2")
    assert form.value() == {"env": {"a": 5, "b": -2}}


def test_shape_picker(make_form: FormFactory, qtbot: QtBot) -> None:
    form = make_form(DEMO["create_event"])
    picker = form.field("location")
    editor = form.editor("location")
    assert isinstance(picker, QComboBox) and isinstance(editor, VariantEditor)
    assert [picker.itemText(i) for i in range(picker.count())] == ["Location", "OnlineMeeting"]
    assert isinstance(form.field("location.address.city"), QLineEdit)
    picker.setCurrentIndex(1)
    assert form.field("location.address") is None
    qtbot.keyClicks(form.field("location.url"), "https://meet.example/x")
    assert form.value()["location"] == {"kind": "online", "url": "https://meet.example/x", "dial_in": None}


def test_null_toggle(make_form: FormFactory, qtbot: QtBot) -> None:
    form = make_form(DEMO["create_event"])
    slot = form.slot("recurrence")
    assert slot is not None and slot.null_toggle is not None and slot.is_null()
    assert not slot.typed.isVisible()  # a null object shows no sub-form
    qtbot.mouseClick(slot.null_toggle, Qt.MouseButton.LeftButton)
    assert slot.typed.isVisible()
    assert form.value()["recurrence"] == {"frequency": "weekly", "interval": 1, "until": None}
    notes = form.slot("notes")
    assert notes is not None and notes.null_toggle is not None
    notes.null_toggle.click()
    qtbot.keyClicks(form.field("notes"), "hello")
    assert form.value()["notes"] == "hello"
    notes.null_toggle.click()
    assert form.value()["notes"] is None and not form.field("notes").isEnabled()  # type: ignore[union-attr]


def test_date_pickers(make_form: FormFactory) -> None:
    form = make_form(obj({"d": {"type": "string", "format": "date"}, "t": {"type": "string", "format": "date-time"}}))
    d, t = form.editor("d"), form.editor("t")
    assert isinstance(d, StringEditor) and isinstance(t, StringEditor)
    assert d.calendar_button is not None and t.calendar_button is not None
    d.calendar_button.pick(QDate(2024, 2, 29))
    t.set_value("2020-01-01T12:30:00+02:00")
    t.calendar_button.pick(QDate(2024, 3, 1))
    assert form.value() == {"d": "2024-02-29", "t": "2024-03-01T12:30:00+02:00"}
    assert t.calendar_button.now_action is not None
    t.calendar_button.now_action.trigger()
    assert form.errors() == []


# --- raw JSON ------------------------------------------------------------------------------------------------------


def test_raw_json_toggle_never_rewrites_what_is_typed(make_form: FormFactory, qtbot: QtBot) -> None:
    form = make_form(obj({"n": {"type": "integer", "minimum": 0}, "s": {"type": "string"}}, ("n",)))
    qtbot.keyClicks(form.field("n"), "3")
    qtbot.mouseClick(form.raw_toggle, Qt.MouseButton.LeftButton)
    assert form.is_raw() and form.raw_edit.toPlainText() == to_json_text({"n": 3})
    form.raw_edit.clear()
    typed = ""
    for char in '{"n": -1, "s": "a\\"b\\u00e9"}':
        typed += char
        qtbot.keyClicks(form.raw_edit, char)
        assert form.raw_edit.toPlainText() == typed
    qtbot.wait(form.VALIDATION_DELAY_MS + 100)  # the debounced validation ran and left the text alone
    assert form.raw_edit.toPlainText() == typed
    assert form.raw_error_label.text() == "n: must be ≥ 0"
    assert form.value() == {"n": -1, "s": 'a"bé'}
    qtbot.mouseClick(form.raw_toggle, Qt.MouseButton.LeftButton)
    assert not form.is_raw() and form.value() == {"n": -1, "s": 'a"bé'}
    assert form.field("s").text() == 'a"bé'  # type: ignore[union-attr]
    assert form.errors() == ["n: must be ≥ 0"]


def test_invalid_raw_json_keeps_raw_mode(make_form: FormFactory, qtbot: QtBot) -> None:
    form = make_form(obj({"n": {"type": "integer"}}))
    form.raw_toggle.click()
    form.raw_edit.setPlainText('{"n": ')
    form.raw_toggle.click()
    assert form.is_raw() and form.raw_toggle.isChecked()
    assert form.raw_error_label.isVisible() and "invalid JSON at line 1" in form.raw_error_label.text()
    assert form.raw_edit.toPlainText() == '{"n": '
    assert form.errors() == ["Raw JSON: invalid JSON at line 1, column 7: Expecting value"]
    with pytest.raises(ValueError):
        form.value()
    form.raw_edit.setPlainText("[1]")
    assert not form.set_raw(False) and "needs object" in form.raw_error_label.text()
    form.raw_edit.setPlainText('{"n": 4}')
    assert form.set_raw(False) and form.value() == {"n": 4}


def test_set_value_and_reset_in_raw_mode(make_form: FormFactory) -> None:
    form = make_form(obj({"n": {"type": "integer", "default": 1}}))
    form.set_raw(True)
    form.set_value({"n": 9})
    assert json.loads(form.raw_edit.toPlainText()) == {"n": 9}
    form.reset()
    assert form.value() == {"n": 1}


# --- validation ------------------------------------------------------------------------------------------------------

VALIDATED = {
    **obj(
        {
            "name": {"type": "string", "minLength": 2, "pattern": "^[A-Z]"},
            "home": {"$ref": "#/$defs/Address"},
            "items": {
                "type": "array",
                "items": obj({"q": {"type": "integer", "maximum": 3}}, ("q",)),
                "uniqueItems": True,
            },
            "mail": {"type": "string", "format": "email"},
            "maybe": {"type": ["number", "null"], "exclusiveMaximum": 1},
            "blob": {},
        },
        ("name", "home"),
    ),
    "additionalProperties": False,
    **DEFS,
}

ERROR_CASES: list[tuple[str, Any, list[str]]] = [
    ("valid", {"name": "Ada", "home": {"city": "x"}}, []),
    ("missing", {}, ["home.city: is required", "name: is required"]),  # a required object shows its sub-form
    ("nested", {"name": "Ada", "home": {"city": ""}}, ["home.city: must be at least 1 character long"]),
    (
        "two problems one field",
        {"name": "a", "home": {"city": "x"}},
        ["name: must be at least 2 characters long", "name: must match the pattern ^[A-Z]"],
    ),
    (
        "array items",
        {"name": "Ada", "home": {"city": "x"}, "items": [{"q": 1}, {"q": 4}, {}]},
        ["items[1].q: must be ≤ 3", "items[2].q: is required"],
    ),
    ("unique", {"name": "Ada", "home": {"city": "x"}, "items": [{"q": 1}, {"q": 1}]}, ["items: items must be unique"]),
    ("format", {"name": "Ada", "home": {"city": "x"}, "mail": "nope"}, ["mail: must be a valid e-mail address"]),
    ("nullable bound", {"name": "Ada", "home": {"city": "x"}, "maybe": 1}, ["maybe: must be < 1"]),
    (
        "extra key",
        {"name": "Ada", "home": {"city": "x"}, "zz": 1},
        ["Additional properties are not allowed ('zz' was unexpected)"],
    ),
]


@pytest.mark.parametrize(("value", "expected"), [c[1:] for c in ERROR_CASES], ids=[c[0] for c in ERROR_CASES])
def test_errors_with_field_paths(make_form: FormFactory, value: Any, expected: list[str]) -> None:
    form = make_form(VALIDATED)
    form.set_value(value)
    assert sorted(form.errors()) == sorted(expected)
    for line in expected:
        path, _, message = line.partition(": ")
        if line.startswith("Additional"):
            assert form.error_for("") == line and form.form_error_label.isVisible()
        else:
            assert message in form.error_for(path)
            assert form.slot(path).error_label.isVisible()  # type: ignore[union-attr]
    grouped: dict[str, list[str]] = {}
    for line in expected:
        path, message = ("", line) if line.startswith("Additional") else line.split(": ", 1)
        grouped.setdefault(path, []).append(message)
    assert {path: sorted(messages) for path, messages in form.field_errors().items()} == {
        path: sorted(messages) for path, messages in grouped.items()
    }


def test_errors_appear_next_to_fields_while_typing(make_form: FormFactory, qtbot: QtBot) -> None:
    form = make_form(VALIDATED)
    assert form.error_for("name") == ""  # a pristine form shows no errors
    qtbot.keyClicks(form.field("name"), "a")
    qtbot.waitUntil(lambda: form.error_for("name") != "", timeout=3000)
    assert form.error_for("name") == "must be at least 2 characters long\nmust match the pattern ^[A-Z]"
    assert form.error_for("home.city") == "is required"
    field = form.field("name")
    assert isinstance(field, QLineEdit)
    field.clear()
    qtbot.keyClicks(field, "Ada")
    qtbot.waitUntil(lambda: form.error_for("name") == "", timeout=3000)
    assert not form.slot("name").error_label.isVisible()  # type: ignore[union-attr]


def test_local_errors_invalid_json_field_and_unfinished_numbers(make_form: FormFactory, qtbot: QtBot) -> None:
    form = make_form(VALIDATED)
    form.set_value({"name": "Ada", "home": {"city": "x"}})
    blob = form.field("blob")
    assert isinstance(blob, QPlainTextEdit)
    qtbot.keyClicks(blob, "{oops")
    qtbot.keyClicks(form.field("maybe"), "-")
    errors = form.errors()
    assert "blob: invalid JSON at line 1, column 2: Expecting property name enclosed in double quotes" in errors
    assert "maybe: not a number" in errors
    assert "blob" not in form.value()


@pytest.mark.parametrize(
    ("schema_uri", "expected"),
    [
        ("http://json-schema.org/draft-07/schema#", ["b: is required when 'a' is set"]),
        ("https://json-schema.org/draft/2020-12/schema", []),
    ],
)
def test_draft_07_and_2020_12(make_form: FormFactory, schema_uri: str, expected: list[str]) -> None:
    schema = {
        "$schema": schema_uri,
        **obj({"a": {"type": "string"}, "b": {"type": "string"}}),
        "dependencies": {"a": ["b"]},
    }
    form = make_form(schema)
    form.set_value({"a": "x"})
    assert form.errors() == expected
    assert form.validator.draft == ("draft-07" if "draft-07" in schema_uri else "2020-12")


def test_recursive_schema_renders_lazily_then_as_json(make_form: FormFactory) -> None:
    form = make_form({**obj({"tree": {"$ref": "#/$defs/Tree"}}), **DEFS})
    value = {"tree": {"name": "a", "children": [{"name": "b", "children": [{"name": "c"}]}]}}
    form.set_value(value)
    assert isinstance(form.field("tree.children[0].name"), QLineEdit)
    deepest = form.slot("tree.children[0].children[0]")
    assert deepest is not None and deepest.node.kind is Kind.JSON and "recursive" in deepest.node.reason
    assert form.value() == value


# --- schemas real servers send ---------------------------------------------------------------------------------


@pytest.mark.parametrize("tool", sorted(DEMO))
def test_every_demo_tool_schema_builds(make_form: FormFactory, tool: str) -> None:
    form = make_form(DEMO[tool])
    value = form.value()
    assert isinstance(value, dict)
    defaults = {name: prop["default"] for name, prop in DEMO[tool].get("properties", {}).items() if "default" in prop}
    assert {key: value[key] for key in defaults} == defaults
    form.set_value(value)
    assert exact(form.value()) == exact(value)


def _call_demo(tool: str, arguments: dict[str, Any]) -> Any:
    async def call() -> Any:
        return await build_server().call_tool(tool, arguments)

    return anyio.run(call)


def test_create_event_through_its_form(make_form: FormFactory, qtbot: QtBot) -> None:
    form = make_form(DEMO["create_event"])
    qtbot.keyClicks(form.field("title"), "Launch party")
    form.editor("date").calendar_button.pick(QDate(2025, 6, 1))  # type: ignore[union-attr]
    qtbot.keyClicks(form.field("starts_at"), "2025-06-01T18:00:00Z")
    qtbot.keyClicks(form.field("organizer_email"), "ada@example.com")
    qtbot.keyClicks(form.field("location.name"), "Hall")
    qtbot.keyClicks(form.field("location.address.street"), "Main 1")
    qtbot.keyClicks(form.field("location.address.city"), "Delft")
    qtbot.keyClicks(form.field("attendees[0].name"), "Bo")
    qtbot.keyClicks(form.field("attendees[0].email"), "bo@example.com")
    form.slot("reminders").null_toggle.click()  # type: ignore[union-attr]
    reminders = form.editor("reminders")
    assert isinstance(reminders, ArrayEditor)
    reminders.add_item()
    form.field("reminders[0]").setCurrentIndex(1)  # type: ignore[union-attr]  # shape: SmsReminder
    qtbot.keyClicks(form.field("reminders[0].phone"), "+31612345678")
    form.editor("channels").set_checked("sms", True)  # type: ignore[union-attr]
    assert form.errors() == []
    result = _call_demo("create_event", form.value())
    assert not result.is_error, result
    event = json.loads(result.content[0].text)["event"]
    assert event["reminders"] == [{"method": "sms", "minutes_before": 15, "phone": "+31612345678"}]
    assert event["channels"] == ["email", "sms"] and event["location"]["address"]["city"] == "Delft"


def test_validate_order_and_elicitation_schema_through_forms(make_form: FormFactory) -> None:
    order = make_form(ORDER_SCHEMA)
    assert order.field("kind").currentText() == "order"  # type: ignore[union-attr]
    order.set_value(
        {
            "order_id": "123e4567-e89b-12d3-a456-426614174000",
            "kind": "order",
            "lines": [{"sku": "ABC-1234", "unit_price": 2.5}],
            "delivery": "pickup",
        }
    )
    assert order.errors() == ["pickup_store: is required"]
    QtBot.keyClicks(order.field("pickup_store"), "Delft")
    assert order.errors() == []
    result = _call_demo("validate_order", order.value())
    assert not result.is_error and json.loads(result.content[0].text)["accepted"] is True
    elicit = make_form(ELICIT_SCHEMA)
    assert elicit.errors() == []  # defaults alone are a valid answer


def _everything_schemas() -> dict[str, dict[str, Any]]:
    server = nodetools.require_server_everything("stdio")
    proc = subprocess.run(
        [sys.executable, "-m", "inspector", "--cli", "--method", "tools/list", "--format", "json", "--", *server],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    return {tool["name"]: tool["inputSchema"] for tool in json.loads(proc.stdout)["result"]["tools"]}


@pytest.mark.node
def test_server_everything_tool_schemas(make_form: FormFactory) -> None:
    schemas = _everything_schemas()
    assert "echo" in schemas
    for name, schema in schemas.items():
        form = make_form(schema)
        assert form.validator.draft == "draft-07", name
        for _path, slot in form.root.walk():
            assert slot.node.kind is not Kind.JSON, name
        value = form.value()
        form.set_value(value)
        assert exact(form.value()) == exact(value), name
    echo = make_form(schemas["echo"])
    assert echo.errors() == ["message: is required"]
    echo.set_value({"message": "hi"})
    assert echo.errors() == []


# --- property: set_value(v) then value() == v for generated valid values ------------------------------------------

TEXT = st.text(alphabet='abcXYZ 019-_.é€😀\n\t\u2028\u00a0"\\{}', max_size=12)
FINITE = st.floats(allow_nan=False, allow_infinity=False, width=64)

ADDRESS = st.fixed_dictionaries({"city": st.text(min_size=1, max_size=8)}, optional={"zip": TEXT})
TREE = st.recursive(
    st.fixed_dictionaries({}, optional={"name": TEXT}),
    lambda inner: st.fixed_dictionaries({}, optional={"name": TEXT, "children": st.lists(inner, max_size=2)}),
    max_leaves=5,
)
KITCHEN_VALUES = st.fixed_dictionaries(
    {},
    optional={
        "s": TEXT,
        "when": TEXT,
        "i": st.integers(min_value=-(2**80), max_value=2**80),
        "n": st.one_of(FINITE, st.integers(-1000, 1000)),
        "b": st.booleans(),
        "e": st.sampled_from(["a", 1, True, None, {"k": [1]}]),
        "tags": st.lists(TEXT, max_size=3),
        "picks": st.lists(st.sampled_from(["x", "y", "z"]), max_size=4),
        "people": st.lists(ADDRESS, max_size=2),
        "home": ADDRESS,
        "maybe": st.none() | ADDRESS,
        "nums": st.dictionaries(TEXT, FINITE, max_size=3),
        "words": st.dictionaries(TEXT, TEXT, max_size=3),
        "shape": st.one_of(
            st.fixed_dictionaries({"kind": st.just("a")}, optional={"x": st.integers(-5, 5)}),
            st.fixed_dictionaries({"kind": st.just("b")}, optional={"y": TEXT}),
        ),
        "mixed": st.one_of(TEXT, FINITE, st.booleans(), st.none()),
        "tree": TREE,
        "free": st.recursive(
            st.none() | st.booleans() | st.integers() | TEXT,
            lambda inner: st.lists(inner, max_size=3) | st.dictionaries(TEXT, inner, max_size=3),
            max_leaves=6,
        ),
        "pair": st.tuples(st.integers(), TEXT).map(list),
        "nullable_int": st.none() | st.integers(),
    },
)

ELICIT_VALUES = st.fixed_dictionaries(
    {"name": st.text(alphabet="Ada Lovelace", min_size=1, max_size=60), "email": st.emails()},
    optional={
        "birthday": st.dates().map(lambda day: day.isoformat()),
        "age": st.integers(0, 150),
        "rating": st.floats(0, 5),
        "subscribe": st.booleans(),
        "color": st.sampled_from(["red", "green", "blue"]),
        "size": st.sampled_from(["S", "M", "L", "XL"]),
        "topics": st.lists(st.sampled_from(["tools", "resources", "prompts"]), min_size=1, max_size=3, unique=True),
    },
)

REMINDER = st.one_of(
    st.fixed_dictionaries(
        {"method": st.just("email")},
        optional={
            "minutes_before": st.integers(0, 2016).map(lambda n: n * 5),
            "subject": st.none() | st.text(max_size=10),
        },
    ),
    st.fixed_dictionaries(
        {"method": st.just("sms"), "phone": st.from_regex(r"\+[1-9]\d{6,14}", fullmatch=True)},
        optional={"minutes_before": st.integers(0, 1440)},
    ),
    st.fixed_dictionaries({"method": st.just("push")}, optional={"sound": st.booleans()}),
)
EVENT_VALUES = st.fixed_dictionaries(
    {
        "title": st.text(min_size=1, max_size=20),
        "date": st.dates().map(lambda day: day.isoformat()),
        "starts_at": st.datetimes().map(lambda moment: moment.isoformat(timespec="seconds") + "Z"),
        "organizer_email": st.emails(),
        "location": st.one_of(
            st.fixed_dictionaries(
                {
                    "kind": st.just("venue"),
                    "name": TEXT,
                    "address": st.fixed_dictionaries(
                        {"street": st.text(min_size=1, max_size=9), "city": st.text(min_size=1, max_size=9)},
                        optional={"postal_code": st.none() | st.from_regex(r"[A-Z0-9]{2,10}", fullmatch=True)},
                    ),
                },
                optional={"capacity": st.none() | st.integers(1, 10**12)},
            ),
            st.fixed_dictionaries({"kind": st.just("online"), "url": st.just("https://example.com/x")}),
        ),
        "attendees": st.lists(
            st.fixed_dictionaries(
                {"name": st.text(min_size=1, max_size=8), "email": st.emails()},
                optional={
                    "role": st.sampled_from(["required", "optional", "organizer"]),
                    "plus_ones": st.integers(0, 3),
                },
            ),
            min_size=1,
            max_size=2,
        ),
    },
    optional={
        "duration_hours": st.integers(1, 96).map(lambda quarters: quarters / 4),
        "priority": st.sampled_from(["low", "normal", "high", "urgent"]),
        "visibility": st.sampled_from(["public", "internal", "private"]),
        "capacity": st.integers(1, 500),
        "tags": st.lists(TEXT, max_size=10),
        "channels": st.lists(st.sampled_from(["email", "sms", "push", "slack"]), max_size=4),
        "reminders": st.none() | st.lists(REMINDER, max_size=2),
        "notes": st.none() | TEXT,
        "labels": st.none() | st.dictionaries(TEXT, TEXT, max_size=3),
    },
)

PROPERTY_SETTINGS = settings(
    max_examples=50,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


@pytest.mark.parametrize(
    ("schema", "strategy"),
    [(KITCHEN, KITCHEN_VALUES), (ELICIT_SCHEMA, ELICIT_VALUES), (DEMO["create_event"], EVENT_VALUES)],
    ids=["kitchen-sink", "elicitation", "create_event"],
)
def test_round_trip_property(qtbot: QtBot, schema: dict[str, Any], strategy: st.SearchStrategy[Any]) -> None:
    form = SchemaForm(schema)  # one form for every example: set_value must overwrite everything
    qtbot.addWidget(form)

    @PROPERTY_SETTINGS
    @given(strategy)
    def check(value: dict[str, Any]) -> None:
        if schema is not KITCHEN:
            assert form.validator.errors(value) == [], value
        form.set_value(value)
        assert exact(form.value()) == exact(value)

    check()


# --- look --------------------------------------------------------------------------------------------------------


def test_rich_form_renders_without_clipped_labels(make_form: FormFactory, qtbot: QtBot, tmp_path: Any) -> None:
    form = make_form(DEMO["create_event"])
    form.resize(760, 900)
    qtbot.waitExposed(form)
    content = form.scroll_area.widget()
    form.resize(760, content.sizeHint().height() + 60)
    path = tmp_path / "schema_form.png"
    assert form.grab().save(str(path)) and path.stat().st_size > 10_000
    for label in form.findChildren(QLabel):
        if label.isVisible() and not label.wordWrap() and label.text():
            assert label.width() >= label.sizeHint().width(), label.text()
    for _path, slot in form.root.walk():
        widget = slot.editor_widget()
        if widget.isVisible():
            assert widget.width() >= widget.minimumSizeHint().width(), _path


# --- whatever a server sends, the form keeps working --------------------------------------------------------------

ARBITRARY_SCHEMAS = schemas(max_leaves=16)
ARBITRARY_VALUES = json_values(TEXT, st.sampled_from(["a", "b", "c"]), max_leaves=10)


def test_arbitrary_schemas_build_validate_and_round_trip_valid_values(qtbot: QtBot) -> None:
    @PROPERTY_SETTINGS
    @given(ARBITRARY_SCHEMAS, ARBITRARY_VALUES)
    def check(schema: dict[str, Any], value: Any) -> None:
        form = SchemaForm(schema)
        qtbot.addWidget(form)
        form.errors()
        form.set_value(value)
        if not form.validator.errors(value):
            assert exact(form.value()) == exact(value)
        assert form.set_raw(True)
        form.set_raw(False)
        form.reset()
        form.errors()

    check()


def test_wheel_over_an_unfocused_field_scrolls_instead_of_changing_it(make_form: FormFactory, qtbot: QtBot) -> None:
    form = make_form(obj({"c": {"enum": ["a", "b", "c"], "default": "b"}, "n": {"type": "integer", "default": 5}}))
    for path in ("c", "n"):
        widget = form.field(path)
        assert widget is not None
        center = QPointF(widget.rect().center())
        event = QWheelEvent(
            center,
            widget.mapToGlobal(center),
            QPoint(0, 0),
            QPoint(0, -120),
            Qt.MouseButton.NoButton,
            Qt.KeyboardModifier.NoModifier,
            Qt.ScrollPhase.NoScrollPhase,
            False,
        )
        QApplication.sendEvent(widget, event)
    assert form.value() == {"c": "b", "n": 5}
