"""The GUI tests' kit: the typed helpers every GUI test file shares (the fixtures are in ``conftest.py``).

Servers: ``None`` (the default everywhere) is the bundled demo **in this process** (``inspector.demo.in_memory``,
no subprocess: tests about the window); a command line (``DEMO_COMMAND``, ``misbehaving_command(mode)``,
server-everything) is a real process over stdio (tests of processes, transports and other servers).

* ``AsyncRunner`` (the ``qasync_loop`` fixture): ``run(coro)``, ``wait_until(predicate)``, ``wait_state``.
* ``MakeController`` / ``MakeWindow`` / ``Misbehaving``: the types of the fixtures of those names.
* ``connect_tab``, ``tool_page``, ``prompt_page``: a window's demo (or profile) tab, connected, and its pages.
* server requests: ``make_handlers``, ``start_call``, ``wait_dialog``, ``track_closing``, ``finish``,
  ``result_text``, ``result_json``, ``wire_rows``, ``save_screenshot``.
* the listen view: ``streams_of``, ``verdicts_of`` (its two tables as text).
* the message log: ``fill_mixed`` (a recording with every kind of row) and its frames, ``wait_settled``,
  ``first_item``, ``shown_seqs``.
"""

from __future__ import annotations

import asyncio
import json
import sys
from collections.abc import Callable, Coroutine, Sequence
from pathlib import Path
from typing import Any, Literal, Protocol, TypeVar

from PySide6.QtWidgets import QApplication, QDialog, QTreeWidget, QTreeWidgetItem
from pytestqt.qtbot import QtBot

from inspector.demo.in_memory import demo_transport
from inspector.protocol.diagnostics import Diagnostic, DiagnosticCode, Severity
from inspector.protocol.wire import Direction, Kind, WireMessage
from inspector.store.canned_replies import CannedReplies
from inspector.store.profiles import Profile, ProfileStore, StdioSettings, TimeoutSettings
from inspector.store.profiles.model import ProtocolEra
from inspector.store.recording import RecordFilter, Recording
from inspector.transports.base import StderrLine, Transport, TransportNote
from inspector.transports.stdio import StdioTransport
from inspector.ui.connection.controller import ConnectionController, ConnectionSettings, ConnectionState
from inspector.ui.explore.prompts.page import PromptPage
from inspector.ui.explore.resources.subscriptions import FilterColumn, ListenView
from inspector.ui.explore.tools.page import ToolPage
from inspector.ui.log.model import LogTableModel
from inspector.ui.server_requests import GuiRequestHandlers
from inspector.ui.window.connection_tab import ConnectionTab
from inspector.ui.window.main_window import MainWindow
from inspector.ui.window.settings import UiSettings

T = TypeVar("T")

GUI_DIR = Path(__file__).resolve().parent
MISBEHAVING = GUI_DIR.parent / "servers" / "misbehaving.py"
DEMO_COMMAND = [sys.executable, "-m", "inspector.demo"]
"""The demo as a process (for tests about processes; the others use the in-memory demo: ``server=None``)."""
ALL_CAPS: dict[str, Any] = {"sampling": {}, "elicitation": {"form": {}, "url": {}}, "roots": {"listChanged": True}}
SCREENSHOTS = Path("/tmp")


# -- the event loop ----------------------------------------------------------------------------------------


class AsyncRunner:
    """Runs coroutines on the test's qasync loop while Qt keeps processing events."""

    def __init__(self, loop: asyncio.AbstractEventLoop, qtbot: QtBot) -> None:
        self.loop = loop
        self.qtbot = qtbot

    def run(self, coro: Coroutine[Any, Any, T], timeout: float = 30.0) -> T:
        task = self.loop.create_task(coro)
        try:
            self.qtbot.waitUntil(task.done, timeout=int(timeout * 1000))
        except Exception:
            task.cancel()
            raise
        return task.result()

    def wait_until(self, predicate: Callable[[], object], timeout: float = 30.0) -> None:
        self.qtbot.waitUntil(lambda: bool(predicate()), timeout=int(timeout * 1000))

    def wait_state(self, controller: ConnectionController, *states: ConnectionState, timeout: float = 60.0) -> None:
        self.wait_until(lambda: controller.state in states, timeout)


# -- servers and connections -------------------------------------------------------------------------------

ServerSpec = Sequence[str] | Callable[[], Transport] | None
"""None: the demo in this process; a command line: that process over stdio; a callable: that transport."""


def transport_factory(server: ServerSpec = None) -> Callable[[], Transport]:
    """A fresh transport per connection attempt to ``server`` (see ``ServerSpec``)."""
    if server is None:
        return demo_transport
    if callable(server):
        return server
    argv = list(server)
    return lambda: StdioTransport(argv[0], argv[1:])


def misbehaving_command(mode: str, *extra: str) -> list[str]:
    """tests/servers/misbehaving.py in ``mode`` (a process over stdio)."""
    return [sys.executable, str(MISBEHAVING), "--mode", mode, *extra]


def demo_profile(name: str, server_era: str, protocol_era: ProtocolEra = "legacy") -> Profile:
    """The demo as a stdio process serving ``server_era`` (legacy, modern, both); the client in ``protocol_era``."""
    return Profile(
        name=name,
        stdio=StdioSettings(command=DEMO_COMMAND[0], args=[*DEMO_COMMAND[1:], "--era", server_era]),
        protocol_era=protocol_era,
    )


def misbehaving_profile(name: str, mode: str = "none", *, timeout: float = 30.0) -> Profile:
    return Profile(
        name=name,
        stdio=StdioSettings(command=sys.executable, args=[str(MISBEHAVING), "--mode", mode]),
        timeouts=TimeoutSettings(request=timeout),
    )


class MakeController(Protocol):
    """The ``make_controller`` fixture: a ConnectionController connected (asserted) to ``server``.

    ``settings`` replaces everything else; otherwise the handshake era (these tests are about the window's
    mechanics in it; tests of 2026-07-28 pass ``era``), ``capabilities`` (default: none declared, or
    ``ALL_CAPS`` when ``handlers`` are given) and ``handlers``. All are closed and deleted after the test.
    """

    def __call__(
        self,
        server: ServerSpec = None,
        label: str = "Demo server",
        *,
        handlers: Any = None,
        capabilities: dict[str, Any] | None = None,
        settings: ConnectionSettings | None = None,
        era: str = "legacy",
    ) -> ConnectionController: ...


class MakeWindow(Protocol):
    """The ``make_window`` fixture: a shown MainWindow, shut down and deleted after the test."""

    def __call__(self, profile_store: ProfileStore | None = None, settings: UiSettings | None = None) -> MainWindow: ...


class Misbehaving(Protocol):
    """The ``misbehaving`` fixture: ``misbehaving_profile``."""

    def __call__(self, name: str, mode: str = "none", *, timeout: float = 30.0) -> Profile: ...


def connect_tab(
    window: MainWindow,
    runner: AsyncRunner,
    profile_id: str | None = None,
    *,
    show: Literal["tools", "prompts"] = "tools",
) -> ConnectionTab:
    """Connect the demo (or ``profile_id``) in ``window``; returns its tab once ``show``'s list is filled, shown."""
    tab = window.connect_demo() if profile_id is None else window.connect_profile(profile_id)
    assert tab is not None
    runner.wait_state(tab.controller, ConnectionState.CONNECTED, ConnectionState.FAILED)
    assert tab.controller.state is ConnectionState.CONNECTED, tab.controller.failure
    panel = tab.tools if show == "tools" else tab.prompts
    runner.wait_until(lambda: panel.browser.model.total() > 0, timeout=20)
    tab.inner_tabs.setCurrentWidget(panel)
    return tab


def activate(qtbot: QtBot, window: MainWindow) -> None:
    """Make ``window`` the active window (keyboard focus and Tab need one) and wait until it is."""
    window.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is window, timeout=5000)


def connect_active(qtbot: QtBot, runner: AsyncRunner, make_window: MakeWindow) -> tuple[MainWindow, ConnectionTab]:
    """A new window with the demo connected (its Tools list shown), made the active window."""
    window = make_window()
    tab = connect_tab(window, runner)
    activate(qtbot, window)
    return window, tab


def tool_page(tab: ConnectionTab, name: str) -> ToolPage:
    page = tab.tools.select_tool(name)
    assert page is not None, f"no tool {name}"
    assert tab.tools.current_page() is page
    return page


def prompt_page(tab: ConnectionTab, name: str) -> PromptPage:
    page = tab.prompts.select_prompt(name)
    assert page is not None, f"no prompt {name}"
    return page


# -- server requests (sampling, elicitation, roots) --------------------------------------------------------


def make_handlers(tmp_path: Path, **kwargs: Any) -> GuiRequestHandlers:
    kwargs.setdefault("label", "Demo server")
    kwargs.setdefault("capabilities", ALL_CAPS)
    kwargs.setdefault("canned", CannedReplies(tmp_path / "canned.json"))
    return GuiRequestHandlers(**kwargs)


def start_call(
    runner: AsyncRunner, controller: ConnectionController, tool: str, arguments: dict[str, Any] | None = None
) -> asyncio.Task[Any]:
    """Call a tool as a task, so the test can drive the dialogs meanwhile."""
    conn = controller.connection
    assert conn is not None
    return runner.loop.create_task(conn.call_tool(tool, arguments or {}))


def wait_dialog(runner: AsyncRunner, handlers: GuiRequestHandlers, kind: type[QDialog], timeout: float = 30.0) -> Any:
    """The dialog the handlers show now (waits until one of ``kind`` is visible)."""

    def shown() -> bool:
        current = handlers.current
        return current is not None and isinstance(current.dialog, kind) and current.dialog.isVisible()

    runner.wait_until(shown, timeout)
    assert handlers.current is not None
    return handlers.current.dialog


def track_closing(handlers: GuiRequestHandlers) -> list[tuple[str | None, bool]]:
    """(withdrawn reason, decided) of every dialog the handlers open, recorded when it closes
    (the dialogs are deleted afterwards, so tests must not touch them any more)."""
    closed: list[tuple[str | None, bool]] = []

    def opened(dialog: Any) -> None:
        dialog.finished.connect(lambda _code, d=dialog: closed.append((d.withdrawn, d.decided)))

    handlers.dialogOpened.connect(opened)
    return closed


def finish(runner: AsyncRunner, task: asyncio.Task[T], timeout: float = 30.0) -> T:
    runner.wait_until(task.done, timeout)
    return task.result()


def result_text(result: Any) -> str:
    content = result.get("content") or []
    return "\n".join(block.get("text", "") for block in content if isinstance(block, dict))


def result_json(result: Any) -> Any:
    return json.loads(result["content"][0]["text"])


def wire_rows(controller: ConnectionController, kind: str, direction: str, method: str | None = None) -> list[Any]:
    recording = controller.recording
    assert recording is not None
    recording.flush()
    f = RecordFilter(kinds=[kind], directions=[direction], methods=[method] if method else None)
    return recording.rows(f, 0, 1000)


def save_screenshot(dialog: QDialog, name: str) -> Path:
    path = SCREENSHOTS / name
    assert dialog.grab().save(str(path)), path
    return path


# -- the message log ---------------------------------------------------------------------------------------

TARGET = "python -m inspector.demo --flag 'two words'"
SCHEMA_PATH = "$.result.tools[1].inputSchema"


def frame(obj: Any) -> bytes:
    return json.dumps(obj, separators=(",", ":")).encode()


def request(id_: int | str, method: str, params: Any = None, direction: Direction = Direction.OUT) -> WireMessage:
    body: dict[str, Any] = {"jsonrpc": "2.0", "id": id_, "method": method}
    if params is not None:
        body["params"] = params
    return WireMessage(direction, frame(body), Kind.REQUEST, method=method, id=id_)


def response(id_: int | str, result: Any, method: str, latency: float = 0.01, **kw: Any) -> WireMessage:
    raw = frame({"jsonrpc": "2.0", "id": id_, "result": result})
    return WireMessage(Direction.IN, raw, Kind.RESPONSE, method=method, id=id_, latency=latency, **kw)


def notification(method: str, params: Any, direction: Direction = Direction.IN) -> WireMessage:
    raw = frame({"jsonrpc": "2.0", "method": method, "params": params})
    return WireMessage(direction, raw, Kind.NOTIFICATION, method=method)


def fill_mixed(rec: Recording) -> dict[str, int]:
    """A session with every kind of row; returns the seqs of the interesting ones by name."""
    seqs: dict[str, int] = {}

    def add(name: str, msg: WireMessage | None = None, event: Any = None) -> None:
        if msg is not None:
            rec.record_message(msg)
        else:
            rec.record_transport(event)
        seqs[name] = rec.last_seq

    add("note", event=TransportNote("started: python -m inspector.demo (pid 4242)"))
    add("init", request(0, "initialize", {"protocolVersion": "2025-11-25", "capabilities": {}}))
    add("stderr", event=StderrLine("INFO demo server starting"))
    add("init_resp", response(0, {"protocolVersion": "2025-11-25", "capabilities": {"tools": {}}}, "initialize"))
    add("initialized", WireMessage(Direction.OUT, frame({"jsonrpc": "2.0", "method": "notifications/initialized"}),
                                   Kind.NOTIFICATION, method="notifications/initialized"))  # fmt: skip
    add("list", request(1, "tools/list"))
    diags = [
        Diagnostic(DiagnosticCode.SCHEMA, "tools/list result: Input should be a valid dictionary", path=SCHEMA_PATH),
        Diagnostic(DiagnosticCode.UNKNOWN_KEYS, "unexpected member", Severity.WARNING, path="$.result"),
    ]
    tools = [
        {"name": "echo", "inputSchema": {"type": "object", "properties": {"message": {"type": "string"}}}},
        {"name": "add", "inputSchema": "oops"},
    ]
    add("list_resp", response(1, {"tools": tools}, "tools/list", diagnostics=diags))
    add("call", request(2, "tools/call", {"name": "echo", "arguments": {"message": "hello world"}}))
    for i in range(3):
        add(f"progress{i}", notification("notifications/progress", {"progressToken": 2, "progress": i, "total": 3}))
    add("call_resp", response(2, {"content": [{"type": "text", "text": "hello world"}]}, "tools/call", 0.25))
    add("read", request("abc", "resources/read", {"uri": "demo://missing"}))
    error = frame({"jsonrpc": "2.0", "id": "abc", "error": {"code": -32002, "message": "Resource not found"}})
    add("read_err", WireMessage(Direction.IN, error, Kind.ERROR, method="resources/read", id="abc", latency=0.002))
    invalid_diag = [Diagnostic(DiagnosticCode.INVALID_JSON, "Expecting value", raw=b'{"jsonrpc"')]
    truncated = b'{"jsonrpc":"2.0","id":9,"result":'
    add("invalid", WireMessage(Direction.IN, truncated, Kind.INVALID, diagnostics=invalid_diag))
    add("log", notification("notifications/message", {"level": "info", "data": "tool echo called"}))
    add("sampling", request(7, "sampling/createMessage", {"messages": []}, direction=Direction.IN))
    rec.flush()
    return seqs


def wait_settled(qtbot: QtBot, model: LogTableModel, timeout: int = 10000) -> None:
    """Wait until the model's (filtered) row list holds everything recorded."""
    qtbot.waitUntil(lambda: model.settled, timeout=timeout)


def first_item(tree: QTreeWidget) -> QTreeWidgetItem:
    item = tree.topLevelItem(0)
    assert item is not None
    return item


def shown_seqs(model: LogTableModel) -> list[int]:
    return [s for s in (model.seq_at(r) for r in range(model.rowCount())) if s is not None]


# -- the listen view -------------------------------------------------------------------------------------------


def streams_of(view: ListenView) -> dict[str, list[str]]:
    """The listen view's streams table: purpose -> the row's displayed cells."""
    m = view.streams_model
    return {
        str(m.index(r, 0).data()): [str(m.index(r, c).data()) for c in range(m.columnCount())]
        for r in range(m.rowCount())
    }


def verdicts_of(view: ListenView) -> dict[str, str]:
    """The listen view's filters table: filter (URI or kind) -> verdict."""
    m = view.filters_model
    return {
        str(m.index(r, FilterColumn.FILTER).data()): str(m.index(r, FilterColumn.VERDICT).data())
        for r in range(m.rowCount())
    }
