"""JsonTreeModel over both sources (a parsed value, a scanned text) / JsonTreeView: Qt's model tester, lazy
batches, paths, error marks."""

from __future__ import annotations

import json
from typing import Any

import pytest
from PySide6.QtCore import QModelIndex, Qt
from pytestqt.modeltest import ModelTester
from pytestqt.qtbot import QtBot

from inspector.content.jsonscan import SMALL, LazyJson
from inspector.ui.viewers.json_model import JsonScanDriver, JsonTreeModel
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
    qtmodeltester.check(model)  # type: ignore[no-untyped-call]
    model.set_error_paths({"$.city": ["wrong"]})
    model.set_value({"replaced": [1, 2]})
    qtmodeltester.check(model)  # type: ignore[no-untyped-call]


def test_rows_columns_and_data() -> None:
    model = JsonTreeModel(DOCUMENT)
    assert model.rowCount() == len(DOCUMENT)
    assert model.columnCount() == 4
    assert [model.headerData(c, Qt.Orientation.Horizontal) for c in range(4)] == ["Key", "Value", "Type", "Size"]
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
    assert model.rowCount() == 2 * JsonTreeModel.BATCH
    while model.canFetchMore(QModelIndex()):
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


def _doc_text() -> str:
    big = ["y" * 50] * (SMALL // 40)  # a child bigger than SMALL: its parent waits for the scan
    return json.dumps({"a": 1, "b": {"c": [1, 2, {"d": None}], "e": "s"}, "big": big, "after": [True, False], "z": {}})


def test_scanned_text_model_passes_qt_model_tester(qtbot: QtBot, qtmodeltester: ModelTester) -> None:
    driver = JsonScanDriver(LazyJson(_doc_text()))
    model = JsonTreeModel(driver=driver)
    qtmodeltester.check(model, force_py=True)  # type: ignore[no-untyped-call]
    root = model.root_index()
    assert [model.index(r, 0, root).data() for r in range(model.rowCount(root))] == ["a", "b", "big"]
    driver.start()
    qtbot.waitUntil(lambda: model.rowCount(root) == 5, timeout=10000)
    assert [model.index(r, 0, root).data() for r in range(5)] == ["a", "b", "big", "after", "z"]
    assert model.index(4, 1, root).data() == "{}" and not model.hasChildren(model.index(4, 0, root))
    b = model.index(1, 0, root)
    assert model.index(0, 1, b).data() == "[3 items]" and model.index(1, 1, b).data() == '"s"'
    assert model.data(b, JsonTreeModel.PATH_ROLE) == "$.b" and model.index(1, 2, b).data() == "string"
    assert model.data(b, JsonTreeModel.VALUE_ROLE) == {"c": [1, 2, {"d": None}], "e": "s"}  # copy value works here too
    # before it is expanded, a container shows neither its members nor their count
    fresh = JsonTreeModel(driver=JsonScanDriver(LazyJson(_doc_text())))
    fresh_root = fresh.root_index()
    fresh.fetchMore(fresh_root)
    assert fresh.index(1, 1, fresh_root).data() == "{…}" and fresh.rowCount(fresh.index(1, 0, fresh_root)) == 0
    assert (
        fresh.canFetchMore(fresh.index(1, 0, fresh_root))
        and fresh.index(1, JsonTreeModel.SIZE_COLUMN, fresh_root).data() == "36 B"
    )
