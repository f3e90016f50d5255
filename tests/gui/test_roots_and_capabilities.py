"""Roots answered from the profile and edited live (notifications/roots/list_changed when declared), and the
client-capability switches: what initialize declares on the wire, and -32601 for undeclared server requests."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import nodetools
import pytest
from guikit import AsyncRunner, MakeController, make_handlers, result_json, result_text, wire_rows
from pytestqt.qtbot import QtBot

from inspector.protocol.diagnostics import DiagnosticCode
from inspector.store.profiles import ClientCapabilitySwitches, Profile, Root, StdioSettings
from inspector.ui.connection.controller import ConnectionController
from inspector.ui.connection.roots import ConnectionRootsPanel, RootsEditor, folder_root
from inspector.ui.server_requests import GuiRequestHandlers
from inspector.ui.window.profile_bridge import connection_settings

ROOTS = [Root(uri="file:///work/project", name="Project"), Root(uri="file:///tmp/scratch")]


def demo_profile(**switches: bool) -> Profile:
    return Profile(
        name="Demo",
        stdio=StdioSettings(command=sys.executable, args=["-m", "inspector.demo"]),
        capabilities=ClientCapabilitySwitches(**switches),
        roots=list(ROOTS),
        protocol_era="legacy",  # initialize and notifications/roots/list_changed are the handshake era's
    )


def call(runner: AsyncRunner, controller: ConnectionController, tool: str, **arguments: Any) -> Any:
    conn = controller.connection
    assert conn is not None
    return runner.run(conn.call_tool(tool, arguments), timeout=30)


def declared_at_initialize(controller: ConnectionController) -> Any:
    rows = wire_rows(controller, "request", "out", "initialize")
    assert len(rows) == 1
    return json.loads(rows[0].raw)["params"]["capabilities"]


def test_roots_list_is_answered_from_the_profile(qasync_loop: AsyncRunner, make_controller: MakeController) -> None:
    settings = connection_settings(demo_profile())
    assert isinstance(settings.handlers, GuiRequestHandlers)
    controller = make_controller(settings=settings)
    assert result_json(call(qasync_loop, controller, "list_roots")) == {
        "roots": [{"uri": "file:///work/project", "name": "Project"}, {"uri": "file:///tmp/scratch"}]
    }


def test_edits_while_connected_send_list_changed(
    qtbot: QtBot, qasync_loop: AsyncRunner, make_controller: MakeController, tmp_path: Path
) -> None:
    controller = make_controller(settings=connection_settings(demo_profile()))
    panel = ConnectionRootsPanel(controller)
    qtbot.addWidget(panel)
    assert [r.uri for r in panel.editor.roots()] == [r.uri for r in ROOTS]
    assert "notifications/roots/list_changed" in panel.status_label.text()
    edited: list[Any] = []
    panel.rootsEdited.connect(edited.append)
    folder = tmp_path / "my project"
    folder.mkdir()
    added = panel.editor.add_folder(str(folder))
    assert added.uri == folder.resolve().as_uri() and added.uri.startswith("file:///") and added.name == "my project"
    qasync_loop.wait_until(lambda: panel.notifications_sent == 1)
    assert len(wire_rows(controller, "notification", "out", "notifications/roots/list_changed")) == 1
    assert edited and [r.uri for r in edited[-1]] == [*(r.uri for r in ROOTS), added.uri]
    roots = result_json(call(qasync_loop, controller, "list_roots"))["roots"]
    assert roots[-1] == {"uri": added.uri, "name": "my project"}
    # removing one is an edit too
    panel.editor.table.selectRow(0)
    panel.editor.remove_selected()
    qasync_loop.wait_until(lambda: panel.notifications_sent == 2)
    assert [r["uri"] for r in result_json(call(qasync_loop, controller, "list_roots"))["roots"]] == [
        "file:///tmp/scratch",
        added.uri,
    ]


def test_no_list_changed_when_not_declared(
    qtbot: QtBot, qasync_loop: AsyncRunner, make_controller: MakeController, tmp_path: Path
) -> None:
    profile = demo_profile(roots_list_changed=False)
    controller = make_controller(settings=connection_settings(profile))
    assert declared_at_initialize(controller)["roots"] == {}
    panel = ConnectionRootsPanel(controller)
    qtbot.addWidget(panel)
    assert "not declared" in panel.status_label.text()
    panel.editor.add_root(Root(uri="file:///elsewhere", name="Elsewhere"))
    panel.apply()
    qtbot.wait(panel.APPLY_DELAY_MS + 100)
    assert panel.notifications_sent == 0
    assert wire_rows(controller, "notification", "out", "notifications/roots/list_changed") == []
    # the server still gets the edited list when it asks
    assert result_json(call(qasync_loop, controller, "list_roots"))["roots"][-1] == {
        "uri": "file:///elsewhere",
        "name": "Elsewhere",
    }


def test_folder_picker(qtbot: QtBot, tmp_path: Path) -> None:
    editor = RootsEditor()
    qtbot.addWidget(editor)
    with qtbot.waitSignal(editor.edited, timeout=2000):
        dialog = editor.choose_folder()
        assert dialog.isVisible()
        dialog.fileSelected.emit(str(tmp_path))  # what the picker emits when a folder is chosen
    dialog.close()
    assert editor.roots() == [folder_root(tmp_path)]
    assert editor.roots()[0].uri == tmp_path.resolve().as_uri()


@pytest.mark.parametrize(
    "switches",
    [
        {},
        {"sampling_tools": True, "elicitation_url": False, "roots_list_changed": False},
        {
            "sampling": False,
            "sampling_tools": False,
            "elicitation_form": False,
            "elicitation_url": False,
            "roots": False,
            "roots_list_changed": False,
        },
    ],
    ids=["defaults", "partial", "none"],
)
def test_switches_change_what_initialize_declares(
    qasync_loop: AsyncRunner, make_controller: MakeController, switches: dict[str, bool]
) -> None:
    profile = demo_profile(**switches)
    controller = make_controller(settings=connection_settings(profile))
    declared = declared_at_initialize(controller)
    assert declared == profile.client_capabilities(profile.protocol_version)
    expected = {
        "defaults": {"sampling": {}, "elicitation": {"form": {}, "url": {}}, "roots": {"listChanged": True}},
        "partial": {"sampling": {"tools": {}}, "elicitation": {"form": {}}, "roots": {}},
        "none": {},
    }
    key = "none" if not switches.get("sampling", True) else ("partial" if switches else "defaults")
    assert declared == expected[key]
    # a server that respects the declaration does not ask
    if key == "none":
        for tool in ("sample", "elicit_form", "list_roots"):
            result = call(qasync_loop, controller, tool)
            assert result["isError"] is True and "did not declare" in result_text(result)


@pytest.mark.parametrize(
    ("tool", "method", "capability"),
    [
        ("sample", "sampling/createMessage", "sampling"),
        ("elicit_form", "elicitation/create", "elicitation"),
        ("list_roots", "roots/list", "roots"),
    ],
)
def test_undeclared_requests_are_refused_with_a_diagnostic(
    qasync_loop: AsyncRunner, make_controller: MakeController, tmp_path: Path, tool: str, method: str, capability: str
) -> None:
    handlers = make_handlers(tmp_path, capabilities={})
    opened: list[Any] = []
    handlers.dialogOpened.connect(opened.append)
    controller = make_controller(handlers=handlers, capabilities={})
    result = call(qasync_loop, controller, tool, force=True)
    assert result["isError"] is True
    refusal = result_json(result)["client_error"]
    assert refusal["code"] == -32601 and f"'{capability}'" in refusal["message"]
    assert opened == []  # refused by the engine: no dialog
    conn = controller.connection
    assert conn is not None
    undeclared = [d for d in conn.diagnostics if d.code is DiagnosticCode.UNDECLARED_CAPABILITY]
    assert len(undeclared) == 1
    assert method in undeclared[0].message and f"'{capability}'" in undeclared[0].message
    inbound = wire_rows(controller, "request", "in", method)
    assert len(inbound) == 1 and inbound[0].diagnostics[0]["code"] == "undeclared-capability"
    assert controller.violation_count >= 1


@pytest.mark.node
def test_server_everything_follows_roots_edits(
    qtbot: QtBot, qasync_loop: AsyncRunner, make_controller: MakeController, tmp_path: Path
) -> None:
    command = nodetools.require_server_everything()
    handlers = make_handlers(tmp_path, label="server-everything", roots=[{"uri": "file:///work/project", "name": "P"}])
    controller = make_controller(command, handlers=handlers)
    first = result_text(call(qasync_loop, controller, "get-roots-list"))
    assert "(1 total)" in first and "file:///work/project" in first
    panel = ConnectionRootsPanel(controller)
    qtbot.addWidget(panel)
    fetched = len(wire_rows(controller, "request", "in", "roots/list"))
    added = panel.editor.add_folder(str(tmp_path))
    qasync_loop.wait_until(lambda: len(wire_rows(controller, "request", "in", "roots/list")) > fetched)
    qasync_loop.wait_until(lambda: "(2 total)" in result_text(call(qasync_loop, controller, "get-roots-list")))
    assert added.uri in result_text(call(qasync_loop, controller, "get-roots-list"))
