"""``--replay`` and ``--run`` read their file before the target starts: an unreadable recording or collection
exits 1 without spawning the server's command (a stdio target that would leave a mark) or asking a URL."""

from __future__ import annotations

import json
import socket
import sys
import threading
from pathlib import Path

import pytest
from clikit import run_inspector


def _marking_server(mark: Path) -> list[str]:
    """A stdio "server" whose only effect is to leave ``mark`` behind once it is started."""
    return ["--", sys.executable, "-c", f"open({str(mark)!r}, 'w').write('started')"]


def _bad_inputs(tmp_path: Path) -> list[tuple[str, Path]]:
    not_sqlite = tmp_path / "not-a-recording.sqlite3"
    not_sqlite.write_text("hello")
    invalid = tmp_path / "invalid.collection.json"
    invalid.write_text(json.dumps({"version": 1, "name": "x", "calls": [{"name": "a", "method": "tools/call"}]}))
    return [
        ("--replay", not_sqlite),
        ("--replay", tmp_path / "missing.sqlite3"),
        ("--run", invalid),
        ("--run", tmp_path / "missing.collection.json"),
    ]


@pytest.mark.parametrize("case", range(4))
def test_bad_input_file_never_starts_the_stdio_target(tmp_path: Path, case: int) -> None:
    flag, path = _bad_inputs(tmp_path)[case]
    mark = tmp_path / "server-was-started"
    proc = run_inspector("--cli", flag, str(path), "--format", "json", *_marking_server(mark), timeout=60)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    envelope = json.loads(proc.stderr.strip().splitlines()[-1])
    assert envelope["error"]["code"] in ("recording", "collection_invalid"), envelope
    assert proc.stdout == ""
    assert not mark.exists(), "the target's command was started before the input file was read"


def test_bad_input_file_never_asks_the_url(tmp_path: Path) -> None:
    """An HTTP target: a listening socket that would see a connection if anything were sent to it."""
    flag, path = _bad_inputs(tmp_path)[0]
    listener = socket.create_server(("127.0.0.1", 0))
    listener.settimeout(0.2)
    port = listener.getsockname()[1]
    seen: list[str] = []
    stop = threading.Event()

    def accept() -> None:
        while not stop.is_set():
            try:
                conn, _ = listener.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            seen.append("connection")
            conn.close()

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    try:
        proc = run_inspector("--cli", flag, str(path), f"http://127.0.0.1:{port}/mcp", timeout=60)
    finally:
        stop.set()
        thread.join(timeout=5)
        listener.close()
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "cannot read the recording" in proc.stderr
    assert seen == []
