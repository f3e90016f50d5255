"""The message log under a flood: 1,000,000 messages recorded while a LogPanel is on screen.

A QTimer plays a flooding server on the GUI thread (as the real Connection does on the qasync
loop): every tick records a batch of realistic frames (progress and log notifications, tools/call
requests and their responses with latency, an error now and then, stderr lines, a few frames with
diagnostics) through ``Recording.record_message``, and skips its tick while the recording's writer
thread is backlogged (as the Connection's transport stops reading a flooding server); a coalescing
single-shot timer hands the rows to the writer and calls ``LogPanel.refresh()`` (what
ConnectionController.messagesAdded does). The interpreter is set up as the app does it. A 5 ms
probe timer measures the gaps between its ticks: the longest gap is the longest event-loop stall.
Afterwards a text search over everything runs through the panel (``LogPanel.search``), timed until
the rows are listed. Prints one JSON line.

    QT_QPA_PLATFORM=offscreen python bench/log_scale.py [--messages 1000000]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
import types
from collections.abc import Callable, Mapping
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QTimer
from PySide6.QtGui import QPaintEvent
from PySide6.QtWidgets import QApplication, QTableView

from inspector.protocol.diagnostics import Diagnostic, DiagnosticCode
from inspector.protocol.wire import Direction, Kind, WireMessage
from inspector.store.recording import Recording
from inspector.transports.base import StderrLine
from inspector.ui.log import LogPanel
from inspector.ui.window.app import share_the_gil, warm_up

GOALS = {"max_stall_ms": 50, "search_ms": 300, "rss_mb": 500}
OFFICIAL_INSPECTOR_KEEPS = 1000
PROBE_MS = 5
COALESCE_MS = 50


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values) or [0.0]
    return ordered[min(len(ordered) - 1, int(len(ordered) * q))]


def rss_peak_mb() -> float:
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                return round(int(line.split()[1]) / 1024, 1)
    return -1.0


class Probe:
    """A repeating timer that records the gaps between its ticks."""

    def __init__(self) -> None:
        self.gaps: list[float] = []
        self.ends: list[float] = []
        """perf_counter() at the end of each gap"""
        self._last = time.perf_counter()
        self._timer = QTimer()
        self._timer.setInterval(PROBE_MS)
        self._timer.timeout.connect(self._tick)

    def start(self) -> None:
        self.gaps.clear()
        self.ends.clear()
        self._last = time.perf_counter()
        self._timer.start()

    def stop(self) -> None:
        self._timer.stop()

    def _tick(self) -> None:
        now = time.perf_counter()
        self.gaps.append((now - self._last) * 1000)
        self.ends.append(now)
        self._last = now

    def worst(self, since: float) -> tuple[float, float]:
        """(longest gap in ms, when it started in ms after ``since``)."""
        if not self.gaps:
            return 0.0, 0.0
        i = max(range(len(self.gaps)), key=self.gaps.__getitem__)
        return round(self.gaps[i], 1), round((self.ends[i] - since) * 1000 - self.gaps[i], 1)

    def summary(self) -> dict[str, float]:
        gaps = sorted(self.gaps) or [0.0]
        return {
            "max": round(gaps[-1], 1),
            "p99": round(gaps[int(len(gaps) * 0.99) - 1 if len(gaps) > 1 else 0], 1),
            "median": round(statistics.median(gaps), 1),
        }


def message(i: int) -> WireMessage | StderrLine:
    """Frame number ``i`` of the flood (deterministic mix)."""
    slot = i % 20
    if slot < 13:
        body = {"method": "notifications/progress", "params": {"progressToken": i // 20, "progress": i, "total": 10**6}}
        return WireMessage(Direction.IN, _frame(body), Kind.NOTIFICATION, method="notifications/progress")
    if slot in (13, 15):
        params = {"name": "echo", "arguments": {"message": f"hello {i}"}}
        return WireMessage(Direction.OUT, _frame({"id": i, "method": "tools/call", "params": params}),
                           Kind.REQUEST, method="tools/call", id=i)  # fmt: skip
    if slot in (14, 16):
        result = {"content": [{"type": "text", "text": f"hello {i - 1}"}], "isError": False}
        diags = []
        if i % 10_000 == 14:
            diags = [Diagnostic(DiagnosticCode.SCHEMA, "content[0].text: bad", path="$.result.content[0].text")]
        return WireMessage(Direction.IN, _frame({"id": i - 1, "result": result}), Kind.RESPONSE,
                           method="tools/call", id=i - 1, diagnostics=diags, latency=0.0008)  # fmt: skip
    if slot == 17:
        params = {"level": "info", "logger": "flood", "data": f"processed chunk {i}"}
        return WireMessage(Direction.IN, _frame({"method": "notifications/message", "params": params}),
                           Kind.NOTIFICATION, method="notifications/message")  # fmt: skip
    if slot == 18 and i % 100 == 18:
        error = {"code": -32602, "message": f"Unknown tool: nope{i}"}
        return WireMessage(Direction.IN, _frame({"id": i, "error": error}), Kind.ERROR, method="tools/call", id=i)
    if slot == 19 and i % 1000 == 19:
        return StderrLine(f"DEBUG flood server: {i} frames written")
    body = {"method": "notifications/resources/updated", "params": {"uri": f"demo://counter/{i % 7}"}}
    return WireMessage(Direction.IN, _frame(body), Kind.NOTIFICATION, method="notifications/resources/updated")


def _frame(body: Mapping[str, object]) -> bytes:
    return json.dumps({"jsonrpc": "2.0", **body}, separators=(",", ":")).encode()


def run_until(app: QApplication, done: Callable[[], bool], timeout: float) -> None:
    deadline = time.perf_counter() + timeout
    while not done():
        if time.perf_counter() > deadline:
            raise TimeoutError("benchmark step timed out")
        app.processEvents()
        time.sleep(0.0005)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--messages", type=int, default=1_000_000)
    parser.add_argument("--batch", type=int, default=250, help="frames recorded per producer tick")
    parser.add_argument(
        "--flush-rows", type=int, default=None, help="Recording flush_rows (default: the Recording's own default)"
    )
    args = parser.parse_args()

    warm_up()  # as the app does at start-up: validation models imported, start-up objects frozen
    share_the_gil()
    app = QApplication.instance() or QApplication(sys.argv[:1])
    assert isinstance(app, QApplication)
    workdir = Path(tempfile.mkdtemp(prefix="log-scale-"))
    extra = {} if args.flush_rows is None else {"flush_rows": args.flush_rows}
    rec = Recording.create(workdir, label="flood", target="python flood_server.py", **extra)
    flush_times: list[float] = []
    real_flush = rec.flush

    def timed_flush(wait: bool = True) -> None:  # instrumentation: the recording's cost on the GUI thread
        start = time.perf_counter()
        real_flush(wait)
        flush_times.append((time.perf_counter() - start) * 1000)

    rec.flush = timed_flush  # type: ignore[method-assign]
    panel = LogPanel(rec)
    panel.resize(1400, 900)
    panel.show()

    produced = 0
    ingest_ticks: list[float] = []
    ingest_ticks_without_flush: list[float] = []
    backlog: list[int] = []
    """rows recorded but not committed by the writer thread yet, after each producer tick"""
    refresh_times: list[float] = []
    refresh_timer = QTimer()
    refresh_timer.setSingleShot(True)
    refresh_timer.setInterval(COALESCE_MS)

    def refresh() -> None:  # what ConnectionController._emit_messages + messagesAdded -> refresh() do
        rec.flush(wait=False)
        panel.refresh()

    # instrumentation: the panel's own work (appending rows and scrolling; painting the table)
    real_model_refresh = panel.model.refresh

    def timed_model_refresh(*, wait: bool = False) -> None:  # the model's own catch-up refreshes are not timed
        start = time.perf_counter()
        flushes = len(flush_times)
        real_model_refresh(wait=wait)  # flushes the recording first when rows are still buffered: not counted here
        refresh_times.append((time.perf_counter() - start) * 1000 - sum(flush_times[flushes:]))

    panel.model.refresh = timed_model_refresh  # type: ignore[method-assign]
    paint_times: list[float] = []

    def timed_paint(view: QTableView, event: QPaintEvent) -> None:
        start = time.perf_counter()
        QTableView.paintEvent(view, event)
        paint_times.append((time.perf_counter() - start) * 1000)

    panel.view.paintEvent = types.MethodType(timed_paint, panel.view)  # type: ignore[method-assign]

    refresh_timer.timeout.connect(refresh)

    def produce() -> None:
        nonlocal produced, waiting
        # A flooding server is read only as fast as it is recorded: the transport waits while the
        # recording's writer is backlogged (what Connection does), and the server blocks on its pipe.
        if (waiting and not rec.drained) or rec.backlogged:
            waiting = True
            return
        waiting = False
        start = time.perf_counter()
        flushes = len(flush_times)
        end = min(args.messages, produced + args.batch)
        for i in range(produced, end):
            item = message(i)
            if isinstance(item, StderrLine):
                rec.record_transport(item)
            else:
                rec.record_message(item)
        produced = end
        backlog.append(rec.pending)
        spent = (time.perf_counter() - start) * 1000
        ingest_ticks.append(spent)
        ingest_ticks_without_flush.append(spent - sum(flush_times[flushes:]))
        if not refresh_timer.isActive():
            refresh_timer.start()
        if produced >= args.messages:
            producer.stop()

    waiting = False
    producer = QTimer()
    producer.setInterval(0)
    producer.timeout.connect(produce)

    probe = Probe()
    run_until(app, lambda: panel.isVisible(), 10)
    t0 = time.perf_counter()
    probe.start()
    producer.start()
    run_until(app, lambda: produced >= args.messages and not refresh_timer.isActive(), 3600)
    refresh()
    run_until(app, lambda: panel.model.rowCount() == args.messages, 60)  # the model catches up with the writer
    ingest_s = time.perf_counter() - t0
    app.processEvents()
    probe.stop()
    ingest = probe.summary()
    bar = panel.view.verticalScrollBar()
    followed_tail = bar.value() == bar.maximum()

    # a selective search: one request and its response among a million rows
    term = f"hello {(args.messages // 2) // 20 * 20 + 13}"
    probe.start()
    start = time.perf_counter()
    panel.search(term)
    run_until(app, lambda: not panel.model.building, 60)
    search_ms = (time.perf_counter() - start) * 1000
    search_rows = panel.model.rowCount()
    search_stall = probe.summary()["max"]
    # a broad one: every tools/call request and response (10% of the log)
    start = time.perf_counter()
    panel.search("hello")
    run_until(app, lambda: panel.model.rowCount() > 0, 60)
    broad_first_ms = (time.perf_counter() - start) * 1000
    run_until(app, lambda: not panel.model.building, 600)
    broad_ms = (time.perf_counter() - start) * 1000
    broad_rows = panel.model.rowCount()
    # a structural filter (kind) over everything, and back to all rows
    start = time.perf_counter()
    panel.filter_bar.reset()
    panel.filter_bar.set_kinds(["error"])
    run_until(app, lambda: not panel.model.building, 600)
    kind_filter_ms = (time.perf_counter() - start) * 1000
    panel.filter_bar.reset()
    app.processEvents()
    probe.stop()
    after = probe.summary()

    result = {
        "bench": "log_scale",
        "messages": rec.count(),
        "rows_in_view": panel.model.rowCount(),
        "ingest_s": round(ingest_s, 1),
        "messages_per_s": round(rec.count() / ingest_s),
        "max_stall_ms": ingest["max"],
        "p99_stall_ms": ingest["p99"],
        "median_probe_gap_ms": ingest["median"],
        "max_ingest_tick_ms": round(max(ingest_ticks), 1),
        "max_ingest_tick_without_flush_ms": round(max(ingest_ticks_without_flush), 1),
        "panel_updates": len(refresh_times),
        "max_panel_update_ms": round(max(refresh_times), 1),
        "p99_panel_update_ms": round(pct(refresh_times, 0.99), 1),
        "max_table_paint_ms": round(max(paint_times), 1),
        "p99_table_paint_ms": round(pct(paint_times, 0.99), 1),
        "max_recording_flush_ms": round(max(flush_times), 1),
        "p99_recording_flush_ms": round(pct(flush_times, 0.99), 1),
        "flush_rows": args.flush_rows or "default",
        "max_writer_backlog_rows": max(backlog),
        "followed_tail": followed_tail,
        "search_ms": round(search_ms, 1),
        "search_term": term,
        "search_rows": search_rows,
        "search_max_stall_ms": search_stall,
        "broad_search_first_rows_ms": round(broad_first_ms, 1),
        "broad_search_ms": round(broad_ms, 1),
        "broad_search_rows": broad_rows,
        "kind_filter_ms": round(kind_filter_ms, 1),
        "filters_max_stall_ms": after["max"],
        "rss_mb": rss_peak_mb(),
        "recording_mb": round(rec.path.stat().st_size / 2**20, 1),
        "goals": GOALS,
        "met": {
            "max_stall_ms": ingest["max"] <= GOALS["max_stall_ms"],
            "search_ms": search_ms <= GOALS["search_ms"],
            "rss_mb": rss_peak_mb() < GOALS["rss_mb"],
        },
        "official_inspector_keeps": OFFICIAL_INSPECTOR_KEEPS,
        "load_average": round(os.getloadavg()[0], 2),
    }
    panel.release()
    rec.close()
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
