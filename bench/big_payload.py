"""One 50 MB response in the message log: select it, open its detail, open the full viewer.

The response is recorded before the timed part (a tools/call result whose structuredContent holds
~50 MB of small records, the worst case for a parser: millions of values; ``--shape blob`` uses one
50 MB base64 string instead). With a 5 ms probe timer running, the row is selected in a shown
LogPanel; we measure the time until the detail pane shows the payload's top-level tree, the time
until the background bracket scan has indexed all of it, the time until "Open full" shows text,
and the longest event-loop stall throughout. Prints one JSON line.

    QT_QPA_PLATFORM=offscreen python bench/big_payload.py [--mb 50] [--shape rows|blob]
"""

from __future__ import annotations

import argparse
import base64
import json
import os
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtWidgets import QApplication

from inspector.protocol.wire import Direction, Kind, WireMessage
from inspector.store.recording import Recording
from inspector.ui.log import LogPanel

sys.path.insert(0, str(Path(__file__).resolve().parent))
from log_scale import Probe, rss_peak_mb, run_until

GOALS = {"max_stall_ms": 100}


def payload(mb: int, shape: str) -> bytes:
    """A tools/call (rows) or resources/read (blob) response of about ``mb`` MB, built as text."""
    target = mb * 1_000_000
    if shape == "blob":
        data = base64.b64encode(os.urandom(target * 3 // 4)).decode("ascii")
        body = f'{{"contents":[{{"uri":"demo://big.bin","mimeType":"application/octet-stream","blob":"{data}"}}]}}'
    else:
        parts: list[str] = []
        size = 0
        i = 0
        while size < target:
            active = "true" if i % 3 == 0 else "false"
            row = (
                f'{{"id":{i},"name":"user {i}","email":"user{i}@example.com","active":{active},'
                f'"score":{i * 1.5},"tags":["alpha","beta","gamma \\"quoted\\""]}}'
            )
            parts.append(row)
            size += len(row) + 1
            i += 1
        rows = ",".join(parts)
        body = f'{{"content":[{{"type":"text","text":"{i} rows"}}],"structuredContent":{{"rows":[{rows}]}}}}'
    text = f'{{"jsonrpc":"2.0","id":1,"result":{body}}}'
    return text.encode()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=int, default=50)
    parser.add_argument("--shape", choices=("rows", "blob"), default="rows")
    args = parser.parse_args()

    app = QApplication.instance() or QApplication(sys.argv[:1])
    assert isinstance(app, QApplication)
    rec = Recording.create(Path(tempfile.mkdtemp(prefix="big-payload-")), label="big", target="python big.py")
    request = b'{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"dump","arguments":{}}}'
    rec.record_message(WireMessage(Direction.OUT, request, Kind.REQUEST, method="tools/call", id=1))
    raw = payload(args.mb, args.shape)
    rec.record_message(WireMessage(Direction.IN, raw, Kind.RESPONSE, method="tools/call", id=1, latency=1.5))
    rec.flush()
    size = len(raw)
    del raw
    seq = rec.last_seq

    panel = LogPanel(rec)
    panel.resize(1400, 900)
    panel.show()
    run_until(app, lambda: panel.isVisible(), 10)
    for _ in range(5):
        app.processEvents()

    probe = Probe()
    probe.start()
    start = time.perf_counter()
    panel.select_seq(seq)
    select_ms = (time.perf_counter() - start) * 1000
    detail = panel.detail
    run_until(app, lambda: detail.mode == "tree", 120)
    model = detail.tree_model
    assert model is not None
    run_until(app, lambda: model.rowCount(detail.tree.rootIndex()) > 0, 60)
    app.processEvents()
    show_ms = (time.perf_counter() - start) * 1000
    root = detail.tree.rootIndex()
    top_level = [model.index(r, 0, root).data() for r in range(model.rowCount(root))]
    run_until(app, lambda: model.doc.scan_done, 600)
    index_ms = (time.perf_counter() - start) * 1000
    probe.stop()
    detail_stall = probe.summary()
    _, worst_at = probe.worst(start)

    probe.start()
    start = time.perf_counter()
    viewer = detail.open_full()
    assert viewer is not None
    run_until(app, lambda: viewer.text_view.document().characterCount() > 1000, 120)
    viewer_text_ms = (time.perf_counter() - start) * 1000
    run_until(app, lambda: time.perf_counter() - start > 3, 10)  # let it fill for a while
    probe.stop()
    viewer_stall = probe.summary()
    viewer.close()

    result = {
        "bench": "big_payload",
        "payload_mb": round(size / 1e6, 1),
        "shape": args.shape,
        "select_call_ms": round(select_ms, 1),
        "time_to_show_ms": round(show_ms, 1),
        "top_level": top_level,
        "time_to_full_index_ms": round(index_ms, 1),
        "max_stall_ms": detail_stall["max"],
        "p99_stall_ms": detail_stall["p99"],
        "max_stall_began_ms_after_select": worst_at,
        "open_full_first_text_ms": round(viewer_text_ms, 1),
        "open_full_max_stall_ms": viewer_stall["max"],
        "rss_mb": rss_peak_mb(),
        "goals": GOALS,
        "met": {"max_stall_ms": detail_stall["max"] <= GOALS["max_stall_ms"]},
        "load_average": round(os.getloadavg()[0], 2),
    }
    panel.release()
    rec.close()
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
