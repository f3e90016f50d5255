"""``mcp-inspect [--demo | PROFILE | URL | -- COMMAND ARGS... | --config FILE --server NAME]``: the window.

The target's forms and how a positional is read: :mod:`inspector.cli.window_target`.

One QApplication, one qasync event loop for the whole app. Before Qt is touched, a start without a
display ends with one clear line (Qt would otherwise abort with its own platform-plugin message).
Quitting closes every connection and recording before the loop ends.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import os
import signal
import sys
import threading
from collections.abc import Awaitable, Mapping
from typing import Any, Final, TypeVar

from inspector.cli.window_target import TargetError, has_scheme, resolve_target, split_target
from inspector.store.paths import storage_problems
from inspector.store.profiles import Profile, ProfileStore

__all__ = [
    "NO_DISPLAY_MESSAGE",
    "display_problem",
    "finish_event_loop",
    "main",
    "new_event_loop",
    "parse_args",
    "run_until_complete",
    "share_the_gil",
    "warm_up",
    "warm_up_in_background",
]

NO_DISPLAY_MESSAGE: Final = "mcp-inspect: no display available; use --cli for headless use"
HEADLESS_PLATFORMS: Final = frozenset(
    {"offscreen", "minimal", "minimalegl", "vnc", "eglfs", "linuxfb", "vkkhrdisplay", "direct2d", "windows", "cocoa"}
)
USAGE_EXIT: Final = 4
_T = TypeVar("_T")
GUI_SWITCH_INTERVAL: Final = 0.001
"""Seconds a thread may keep the GIL while another waits for it (Python's default is 0.005)."""


def display_problem(env: Mapping[str, str], platform: str = sys.platform) -> str | None:
    """Why the window cannot open here (None: it can). Only X11/Wayland systems need a display variable."""
    if platform.startswith(("win", "darwin")):
        return None
    requested = [p.split(":", 1)[0].strip().lower() for p in env.get("QT_QPA_PLATFORM", "").split(";")]
    if any(p in HEADLESS_PLATFORMS for p in requested):
        return None
    if env.get("DISPLAY", "").strip() or env.get("WAYLAND_DISPLAY", "").strip():
        return None
    return NO_DISPLAY_MESSAGE


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        self.print_usage(sys.stderr)
        sys.stderr.write(f"mcp-inspect: {message}\n")
        raise SystemExit(USAGE_EXIT)


def parse_args(argv: list[str]) -> argparse.Namespace:
    """The window's options, and its target's tokens as ``target`` (with ``after_dashes``: they followed ``--``).

    What the target is (a saved profile, a URL, a command) is decided by
    :func:`inspector.cli.window_target.resolve_target`, which needs the saved profiles.
    """
    parser = _Parser(
        prog="mcp-inspect",
        usage="%(prog)s [-h] [--version] [--demo | --smoke-test]\n"
        "       %(prog)s PROFILE\n"
        "       %(prog)s URL [--transport {http,sse}] [--header 'Name: value' ...]\n"
        "       %(prog)s [-e KEY=VALUE ...] -- COMMAND [ARGS...]\n"
        "       %(prog)s [-e KEY=VALUE ...] COMMAND [ARGS...]\n"
        "       %(prog)s --config FILE [--server NAME]",
        description="MCP Inspector Desktop. Without arguments it opens the window; "
        "`mcp-inspect --cli ...` is the headless command line (see `mcp-inspect --cli --help`). "
        "Given a server, the window opens a tab connected to it. A first positional TARGET is, in this order: "
        "a saved profile (id or name), an http(s):// URL, or a command found on PATH, whose arguments are the "
        "words after it (put mcp-inspect's options before it). Everything after -- is a command. A URL or a "
        "command opens as an unsaved profile: Connection > Save as profile... keeps it (secrets in the keyring).",
        allow_abbrev=False,
    )
    parser.add_argument("--demo", action="store_true", help="open the window and connect to the bundled demo server")
    parser.add_argument("--version", action="store_true", help="print the version and exit")
    parser.add_argument(
        "--smoke-test",
        action="store_true",
        help="open the window, connect to the bundled demo server, wait for its tool list, print one line and "
        "exit (0: it worked): a check of an installed or packaged app",
    )
    parser.add_argument(
        "--transport",
        choices=("http", "sse"),
        help="for a URL: http (Streamable HTTP, falling back to SSE as profiles do; the default) or sse",
    )
    parser.add_argument(
        "--header",
        action="append",
        default=[],
        metavar="'NAME: VALUE'",
        help="for a URL: a header sent with every request (repeatable; kept in memory unless saved)",
    )
    parser.add_argument(
        "-e",
        "--env",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="for a command: an environment variable (repeatable; kept in memory unless saved)",
    )
    parser.add_argument("--config", metavar="FILE", help="an mcpServers JSON file (Claude Desktop, Cursor, VS Code)")
    parser.add_argument("--server", metavar="NAME", help="the entry of --config to open (optional with one entry)")
    head, target, after_dashes = split_target(argv)
    if not after_dashes and target and has_scheme(target[0]):  # a URL: options may follow it
        more, rest, _ = split_target(target[1:])
        head, target = head + more, target[:1] + rest
    args = parser.parse_args(head)
    args.target, args.after_dashes = target, after_dashes
    has_target = bool(target) or after_dashes or bool(args.config)
    if args.demo and has_target:
        parser.error("give either --demo or a server to open, not both")
    if args.smoke_test and has_target:
        parser.error("--smoke-test connects to the demo server, not to a profile or a server of yours")
    return args


def main(argv: list[str] | None = None) -> int:
    """Run the window; returns the exit code."""
    try:
        args = parse_args(list(sys.argv[1:] if argv is None else argv))
    except SystemExit as exc:
        return exc.code if isinstance(exc.code, int) else USAGE_EXIT
    if args.version:
        from inspector import __version__

        sys.stdout.write(f"mcp-inspect {__version__}\n")
        return 0
    problem = display_problem(os.environ)
    if problem is not None:
        sys.stderr.write(problem + "\n")
        return 1

    for problem in storage_problems():  # unwritable config / data dirs: say once what is kept in memory only
        sys.stderr.write(f"mcp-inspect: {problem}\n")
    store = ProfileStore()
    try:
        target = resolve_target(args, store)
    except TargetError as exc:
        sys.stderr.write(f"mcp-inspect: {exc}\n")
        return USAGE_EXIT
    for warning in target.warnings if target is not None else []:
        sys.stderr.write(f"mcp-inspect: {warning}\n")
    return _run_window(
        store,
        demo=args.demo,
        profile_id=target.profile_id if target is not None else None,
        smoke=args.smoke_test,
        unsaved=target.profile if target is not None else None,
    )


def new_event_loop(app: object, *, already_running: bool = False) -> asyncio.AbstractEventLoop:
    """The app's one asyncio loop: qasync's QEventLoop on the QApplication, with asyncio's async-generator hooks.

    qasync's ``run_forever`` runs Qt's loop instead of asyncio's and never installs the hooks asyncio's own does.
    Without them an async generator left unfinished (an HTTP response stream of a cancelled task) is closed by the
    garbage collector wherever it runs, outside the loop, and its clean-up fails there ("no running event loop").
    With them the loop finalizes it as a task; ``finish_event_loop`` closes what is left and removes the hooks.
    """
    import qasync

    loop: asyncio.AbstractEventLoop = qasync.QEventLoop(app, already_running=already_running)
    hooks: Any = loop  # BaseEventLoop's hooks (typeshed does not list them)
    sys.set_asyncgen_hooks(firstiter=hooks._asyncgen_firstiter_hook, finalizer=hooks._asyncgen_finalizer_hook)
    return loop


async def finish_event_loop() -> None:
    """Close the async generators still open on the running loop and remove the hooks ``new_event_loop``
    installed (the last thing run on the loop)."""
    try:
        await asyncio.get_running_loop().shutdown_asyncgens()
    finally:
        sys.set_asyncgen_hooks(firstiter=None, finalizer=None)


def run_until_complete(loop: asyncio.AbstractEventLoop, future: Awaitable[_T]) -> _T:
    """``loop.run_until_complete(future)`` where every step runs inside the running loop.

    qasync's own ``run_until_complete`` ends with one more ``processEvents`` after the loop has stopped: the
    callbacks due then (a task's next step, e.g. the writer sending the frames a just-closed window queued) run
    with no running loop, and whatever they call that needs one (``asyncio.current_task()``,
    ``get_running_loop()``) raises. Here they stay queued and run in the loop's next run (the shutdown's).
    """
    task = asyncio.ensure_future(future, loop=loop)
    task.add_done_callback(lambda _task: loop.stop())
    loop.run_forever()
    if not task.done():
        raise RuntimeError("Event loop stopped before Future completed.")
    return task.result()


def warm_up() -> None:
    """Pay start-up costs before they are needed: the schema validation models (mcp-types, ~0.5 s to import),
    then everything alive moves out of the garbage collector's sight (``gc.freeze``), so a full collection while
    a big tool list is parsed scans only new objects. The app runs it in the background
    (``warm_up_in_background``); the benches call it directly.
    """
    _import_validation_models()
    _freeze_start_up_objects()


def _import_validation_models() -> None:
    import inspector.protocol.validation  # noqa: F401  (import for its side effect: the models are built)


def _freeze_start_up_objects() -> None:
    gc.enable()
    gc.collect()
    gc.freeze()


def warm_up_in_background(loop: asyncio.AbstractEventLoop) -> threading.Thread:
    """``warm_up`` once the window is painted (``MainWindow.firstPainted``): the import on a thread of its own, the
    collection on the GUI thread (``loop``).

    Imported before the window shows, the validation models would delay its first paint by half a second; imported
    at the first connect, they would freeze the window then. On a thread the import runs while the GUI thread is
    idle, waiting for the first server to start (a session only imports them when it checks its first frame; if
    that comes first, it waits for this import to finish). The cyclic collector is off meanwhile (the import
    allocates a lot, and a collection on that thread could destroy Qt objects away from the GUI thread); the GUI
    thread turns it on again, collects and freezes.
    """

    def run() -> None:
        try:
            _import_validation_models()
        finally:
            try:
                loop.call_soon_threadsafe(_freeze_start_up_objects)
            except RuntimeError:  # the loop closed meanwhile (the window was closed at once)
                gc.enable()

    gc.disable()
    thread = threading.Thread(target=run, name="warm-up", daemon=True)
    thread.start()
    return thread


def share_the_gil() -> None:
    """Let the GUI thread wait at most ``GUI_SWITCH_INTERVAL`` for the GIL.

    The window shares the GIL with the recordings' writer threads and the log's reader thread. Those
    release it during every SQLite step, but take it back for a moment after each one; with Python's
    default 5 ms switch interval every such moment can keep a paint or a frame's parsing waiting for up
    to 5 ms, and a paint that calls back into Python hundreds of times adds that up. 1 ms keeps a
    flood's longest event-loop stall well under 50 ms (``bench/log_scale.py``) for a small switching cost.
    """
    sys.setswitchinterval(GUI_SWITCH_INTERVAL)


def _run_window(
    store: ProfileStore,
    *,
    demo: bool,
    profile_id: str | None,
    smoke: bool = False,
    unsaved: Profile | None = None,
) -> int:
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication

    from inspector.resource_files import APP_ID
    from inspector.ui.widgets.resources import app_icon
    from inspector.ui.window.main_window import MainWindow

    share_the_gil()
    existing = QApplication.instance()
    app = existing if isinstance(existing, QApplication) else QApplication([sys.argv[0] if sys.argv else "mcp-inspect"])
    app.setApplicationName("mcp-inspector-desktop")
    app.setApplicationDisplayName("MCP Inspector")
    app.setDesktopFileName(APP_ID)  # the desktop entry (resources/linux/APP_ID.desktop) the window belongs to
    app.setWindowIcon(app_icon())
    loop = new_event_loop(app)
    asyncio.set_event_loop(loop)

    window = MainWindow(store, first_run_tour=not smoke)  # the tour once, on the first run
    if not smoke:  # the smoke test opens the demo alone, whatever tabs were open last time
        window.restore_state()
    window.firstPainted.connect(lambda: warm_up_in_background(loop))  # the models import while the server starts
    window.show()
    if smoke:
        from inspector.ui.window.smoke import smoke_test

        until: Awaitable[object] = smoke_test(window)
    elif demo:  # the server's process starts on the loop's first turn, before the first paint (it takes a moment)
        window.connect_demo()
    elif profile_id is not None:
        window.connect_profile(profile_id)
    elif unsaved is not None:  # a URL or command from the command line: a tab of its own, saved only if asked
        window.connect_unsaved(unsaved)

    quitting = asyncio.Event()
    if not smoke:
        until = quitting.wait()
    window.closed.connect(quitting.set)
    app.aboutToQuit.connect(quitting.set)  # a quit from elsewhere (session manager)
    # Ctrl-C in the terminal closes the window without asking (saving its state); the idle timer lets Python run
    # the handler.
    previous_handler = signal.signal(signal.SIGINT, lambda *_: loop.call_soon_threadsafe(window.close_without_asking))
    heartbeat = QTimer()
    heartbeat.timeout.connect(lambda: None)
    heartbeat.start(250)
    quit_on_close = app.quitOnLastWindowClosed()
    app.setQuitOnLastWindowClosed(False)  # the loop ends when the window closes, not when Qt decides
    outcome: object = None
    try:
        try:
            outcome = run_until_complete(loop, until)
        except RuntimeError:  # Qt's loop was quit directly: still close everything below
            window.save_state()
        run_until_complete(loop, window.shutdown())
        run_until_complete(loop, finish_event_loop())
    finally:
        loop.close()
        heartbeat.stop()
        signal.signal(signal.SIGINT, previous_handler)
        app.setQuitOnLastWindowClosed(quit_on_close)
        asyncio.set_event_loop(None)
    return outcome if smoke and isinstance(outcome, int) else 0
