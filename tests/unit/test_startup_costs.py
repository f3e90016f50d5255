"""The window's start-up leaves heavy modules for later (issue 14, section 5, item 21; ``bench/startup.py`` has
the figures), and the pieces made lazy for it still work: the keyring's wording, a session's validation, the
roots a profile keeps."""

from __future__ import annotations

import asyncio
import gc
import json
import os
import subprocess
import sys
from pathlib import Path

import keyring.backends.fail
from keyringkit import MemoryKeyring

from inspector.protocol.session import SessionOffer, new_session
from inspector.store.profiles import Profile, ProfileStore, StdioSettings
from inspector.store.profiles.sections import Root
from inspector.store.secrets import KEYRING_WHERE, SESSION_WHERE, SecretStore
from inspector.ui.window.app import warm_up_in_background

HEAVY = (
    "keyring",  # its backends load on the secret store's first use (after the first paint)
    "jsonschema",  # the first schema compiled (a tool's form, an argument check)
    "httpx2",  # the first HTTP profile connected
    "inspector.transports.http",
    "inspector.demo.http_transport",
    "inspector.demo.server",  # the SDK's server side: never in the window's process
    "mcp",
    "mcp_types",  # the validation models: imported on a thread once the window is painted
    "pydantic",
    "inspector.protocol.validation",
    "inspector.auth",
    "uvicorn",
    "starlette",
)

_PROBE = """
import json, sys, tempfile
from pathlib import Path
import inspector.ui.window.app
import inspector.ui.window.main_window
from inspector.store.profiles import ProfileStore
from inspector.protocol.session import SessionOffer, new_session
store = ProfileStore(Path(tempfile.mkdtemp()) / "profiles.json")  # made at start-up, before the window
session = new_session(SessionOffer())  # a connection's session: validation only when a frame is checked
print(json.dumps(sorted(set(json.loads(sys.argv[1])) & set(sys.modules))))
"""


def test_the_window_module_leaves_heavy_modules_for_later(tmp_path: Path) -> None:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "MCP_INSPECTOR_CONFIG_DIR": str(tmp_path)}
    proc = subprocess.run(
        [sys.executable, "-c", _PROBE, json.dumps(HEAVY)],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout.strip().splitlines()[-1]) == []


def test_a_session_imports_validation_when_it_first_checks_a_frame() -> None:
    session = new_session(SessionOffer())
    validation = session._validation
    assert validation is not None
    assert callable(validation.validate_server_result)  # the module's function, through the lazy stand-in
    assert new_session(SessionOffer(), validate=False)._validation is None


def test_secret_store_says_where_secrets_go() -> None:
    kept = SecretStore(MemoryKeyring())
    assert kept.where == KEYRING_WHERE and kept.persistent and kept.message is None
    lost = SecretStore(keyring.backends.fail.Keyring())
    assert lost.where == SESSION_WHERE and not lost.persistent
    assert lost.message is not None and "no keyring" in lost.message.lower()
    assert kept.stored_hint != lost.stored_hint and "keyring" not in lost.stored_hint


def test_a_profile_keeps_its_roots_and_old_files_load_without_them(tmp_path: Path) -> None:
    path = tmp_path / "profiles.json"
    store = ProfileStore(path, SecretStore(MemoryKeyring()))
    roots = [Root(uri="file:///tmp/a", name="a"), Root(uri="file:///tmp/b")]
    saved = store.create(Profile(name="rooted", stdio=StdioSettings(command="true"), roots=roots))
    assert ProfileStore(path, store.secrets).get(saved.id).roots == roots

    data = json.loads(path.read_text())
    for entry in data["profiles"]:
        entry.pop("roots")  # a file from before roots were kept
    path.write_text(json.dumps(data))
    old = ProfileStore(path, store.secrets)
    assert old.load_warnings == [] and old.get(saved.id).roots == []


def test_the_background_warm_up_collects_on_the_loop_thread() -> None:
    loop = asyncio.new_event_loop()
    try:
        thread = warm_up_in_background(loop)
        thread.join(60)
        assert not thread.is_alive()
        assert "inspector.protocol.validation" in sys.modules
        assert not gc.isenabled()  # off while importing; the loop's thread turns it on again
        loop.run_until_complete(asyncio.sleep(0.01))
        assert gc.isenabled() and gc.get_freeze_count() > 0
    finally:
        gc.enable()
        gc.unfreeze()
        loop.close()
