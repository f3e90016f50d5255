"""JsonTreeModel / JsonTreeView: Qt's model tester, lazy batches, paths, error marks."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtCore import QModelIndex, Qt
from pytestqt.modeltest import ModelTester
from pytestqt.qtbot import QtBot

from inspector.ui.viewers.json_model import JsonTreeModel
from inspector.ui.viewers.json_view import JsonTreeView

pytestmark = [pytest.mark.qt_log_level_fail("WARNING"), pytest.mark.qt_log_ignore("propagateSizeHints")]

DOCUMENT = {
    "city": "Lagos",
    "temperature": 31.5,
    "ok": True,
    "missing": None,
    "forecast": [{"date": "2025-01-01", "high": 33}, {"date": "2025-01-02", "high": 34}],
    "nested": {"deeper": {"deepest": [1, [2, [3]]]}},
    "empty_list": [],
    "empty_object": {},
}


@pytest.mark.parametrize(
    "value",
    [DOCUMENT, [1, "two", None, {"x": []}], 42, "text", None, [], {}, list(range(1234))],
    ids=["object", "array", "int", "string", "null", "empty-array", "empty-object", "large-array"],
)
def test_model_passes_qt_model_tester(qtmodeltester: ModelTester, value: Any) -> None:
    model = JsonTreeModel(value)
    qtmodeltester.check(model)
    model.set_error_paths({"$.city": ["wrong"]})
    model.set_value({"replaced": [1, 2]})
    qtmodeltester.check(model)


def test_rows_columns_and_data() -> None:
    model = JsonTreeModel(DOCUMENT)
    assert model.rowCount() == len(DOCUMENT)
    assert model.columnCount() == 3
    assert [model.headerData(c, Qt.Orientation.Horizontal) for c in range(3)] == ["Key", "Value", "Type"]
    forecast = model.index(4, 0)
    assert model.data(forecast) == "forecast"
    assert model.data(model.index(4, 1)) == "[2 items]"
    assert model.data(model.index(4, 2)) == "array"
    assert model.hasChildren(forecast) and model.rowCount(forecast) == 2
    high = model.index(1, 0, model.index(1, 0, forecast))
    assert model.data(high) == "high"
    assert model.data(high, JsonTreeModel.PATH_ROLE) == "$.forecast[1].high"
    assert model.data(high, JsonTreeModel.VALUE_ROLE) == 34
    assert model.parent(high).row() == 1
    assert model.data(model.index(0, 1)) == '"Lagos"'
    assert model.data(model.index(3, 1)) == "null"
    assert not model.hasChildren(model.index(6, 0))  # empty list: nothing to expand


def test_scalar_root_is_one_row() -> None:
    model = JsonTreeModel("just text")
    assert model.rowCount() == 1
    index = model.index(0, 0)
    assert model.data(index) == "(value)"
    assert model.data(index, JsonTreeModel.PATH_ROLE) == "$"
    assert model.parent(index) == QModelIndex()


def test_large_containers_are_revealed_in_batches() -> None:
    model = JsonTreeModel(list(range(1234)))
    assert model.rowCount() == JsonTreeModel.BATCH
    assert model.canFetchMore(QModelIndex())
    model.fetchMore(QModelIndex())
    model.fetchMore(QModelIndex())
    assert model.rowCount() == 1234
    assert not model.canFetchMore(QModelIndex())
    assert model.data(model.index(1233, 1)) == "1233"


def test_error_paths_paint_rows_and_explain_in_tooltip() -> None:
    model = JsonTreeModel({"temperature": "hot", "units": "kelvin"})
    model.set_error_paths({"$.temperature": ["'hot' is not of type 'number'"]})
    bad, good = model.index(0, 1), model.index(1, 1)
    assert model.data(bad, Qt.ItemDataRole.ForegroundRole).name() == "#d1242f"
    assert "not of type 'number'" in model.data(bad, Qt.ItemDataRole.ToolTipRole)
    assert model.data(good, Qt.ItemDataRole.ForegroundRole).name() != "#d1242f"


def test_view_expands_small_documents_and_finds_paths(qtbot: QtBot) -> None:
    view = JsonTreeView(DOCUMENT)
    qtbot.addWidget(view)
    forecast = view.json_model.index(4, 0)
    assert view.isExpanded(forecast)
    index = view.index_for_path("$.nested.deeper")
    assert index.isValid() and view.json_model.data(index) == "deeper"
    view.set_error_paths({"$.nested.deeper.deepest": ["bad"]})
    assert view.isExpanded(view.index_for_path("$.nested.deeper"))
    assert not view.index_for_path("$.nope").isValid()


def test_fit_view_is_as_tall_as_its_rows(qtbot: QtBot) -> None:
    small = JsonTreeView({"a": 1}, fit=True)
    big = JsonTreeView({str(i): i for i in range(100)}, fit=True, max_height=300)
    for view in (small, big):
        qtbot.addWidget(view)
    assert small.height() < 120
    assert big.height() == 300
