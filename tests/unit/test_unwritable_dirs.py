"""Config, data and recordings dirs that cannot be written: nothing raises where a directory is asked for, every
writer fails with one line naming the directory and the system's reason, recordings fall back to memory, and no
file the user already has is truncated or lost."""

from __future__ import annotations

import errno
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from keyringkit import MemoryKeyring
from unwritable import KINDS, read_only_mount, unwritable_dir

from inspector.protocol.wire import Direction, Kind, WireMessage
from inspector.store import paths
from inspector.store.canned_replies import CannedReplies, CannedReply
from inspector.store.history import ArgumentHistory
from inspector.store.paths import UnwritableDirectory, check_writable, describe_os_error, storage_problems
from inspector.store.profiles import Profile, ProfileStore, StdioSettings, atomic_write_text
from inspector.store.recording import MEMORY_ONLY, Recording, RecordingError
from inspector.store.secrets import SecretStore

REPO = Path(__file__).resolve().parents[2]


def _point(monkeypatch: pytest.MonkeyPatch, config: Path | None = None, data: Path | None = None) -> None:
    if config is not None:
        monkeypatch.setenv(paths.CONFIG_DIR_ENV, str(config))
    if data is not None:
        monkeypatch.setenv(paths.DATA_DIR_ENV, str(data))


def _request() -> WireMessage:
    return WireMessage(Direction.OUT, b'{"jsonrpc":"2.0","id":1,"method":"ping"}', Kind.REQUEST, method="ping", id=1)


@pytest.mark.parametrize("kind", KINDS)
def test_asking_for_a_directory_never_raises_and_the_check_names_it(
    kind: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    where, code = unwritable_dir(kind, tmp_path)
    _point(monkeypatch, config=where, data=where)
    assert paths.config_dir() == where and paths.data_dir() == where
    assert paths.recordings_dir() == where / "recordings"
    problem = check_writable(paths.config_dir())
    assert isinstance(problem, UnwritableDirectory) and problem.errno == code
    assert str(problem) == f"cannot write {where}: {os.strerror(code)}"
    recordings = check_writable(paths.recordings_dir())
    assert recordings is not None and str(recordings).startswith(f"cannot write {where / 'recordings'}: ")
    assert storage_problems() == [
        f"profile and settings changes kept in memory only: cannot write {where}: {os.strerror(code)}",
        f"{MEMORY_ONLY}: {recordings}",
    ]


def test_a_writable_place_has_no_storage_problem_and_leaves_no_probe(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _point(monkeypatch, config=tmp_path / "config", data=tmp_path / "data")
    assert storage_problems() == []
    assert sorted(p.name for p in (tmp_path / "config").iterdir()) == []
    assert sorted(p.name for p in (tmp_path / "data").iterdir()) == ["recordings"]


@pytest.mark.parametrize("kind", KINDS)
def test_atomic_write_into_an_unwritable_dir_names_the_directory(kind: str, tmp_path: Path) -> None:
    where, code = unwritable_dir(kind, tmp_path)
    with pytest.raises(UnwritableDirectory) as caught:
        atomic_write_text(where / "profiles.json", "{}\n")
    assert caught.value.errno == code and caught.value.directory == where
    assert describe_os_error(caught.value) == f"cannot write {where}: {os.strerror(code)}"
    assert isinstance(caught.value, OSError)  # every existing ``except OSError`` keeps catching it


def test_describe_os_error_of_a_plain_error_names_its_file() -> None:
    exc = PermissionError(errno.EACCES, "Permission denied", "/x/y.json")
    assert describe_os_error(exc) == "Permission denied: /x/y.json"
    assert describe_os_error(OSError("disk on fire")) == "disk on fire"


@pytest.mark.parametrize("kind", KINDS)
def test_recordings_fall_back_to_memory_and_still_record(kind: str, tmp_path: Path) -> None:
    where, code = unwritable_dir(kind, tmp_path)
    with pytest.raises(RecordingError, match=rf"^cannot write {where}: {os.strerror(code)}$"):
        Recording.create(where, label="demo")
    recording = Recording.create_or_memory(where, label="demo", target="python -m inspector.demo")
    try:
        assert str(recording.path) == ":memory:"
        assert recording.storage_note == f"{MEMORY_ONLY}: cannot write {where}: {os.strerror(code)}"
        recording.record_message(_request())
        assert recording.count() == 1 and recording.meta()["target"] == "python -m inspector.demo"
    finally:
        recording.close()


def test_a_recording_file_made_normally_has_no_storage_note(tmp_path: Path) -> None:
    with Recording.create_or_memory(tmp_path, label="fine") as recording:
        assert recording.path.parent == tmp_path and recording.storage_note is None


# -- profiles: a failed save keeps the file and the store as they were ---------------------------------------


def _profile(name: str) -> Profile:
    return Profile(name=name, stdio=StdioSettings(command=sys.executable, args=["-m", "inspector.demo"]))


@pytest.mark.parametrize("kind", KINDS)
def test_a_profile_store_in_an_unwritable_dir_loads_empty_and_fails_saves_visibly(kind: str, tmp_path: Path) -> None:
    where, code = unwritable_dir(kind, tmp_path)
    store = ProfileStore(where / "profiles.json", SecretStore(MemoryKeyring()))
    assert len(store) == 0 and store.load_warnings == []  # nothing is there to read: not a second complaint
    with pytest.raises(UnwritableDirectory, match=f"cannot write {where}: {os.strerror(code)}"):
        store.create(_profile("one"))
    assert len(store) == 0


def test_a_failed_save_in_a_read_only_config_dir_keeps_the_file_and_the_store(tmp_path: Path) -> None:
    saved = tmp_path / "seed" / "profiles.json"
    seed = ProfileStore(saved, SecretStore(MemoryKeyring()))
    seed.create(_profile("one"))
    seed.create(_profile("two"))
    before = saved.read_bytes()
    with read_only_mount(tmp_path, {"profiles.json": before}) as config:
        store = ProfileStore(config / "profiles.json", SecretStore(MemoryKeyring()))
        assert [p.name for p in store] == ["one", "two"]
        with pytest.raises(UnwritableDirectory, match=f"cannot write {config}: Read-only file system"):
            store.create(_profile("three"))
        changed = store.get(store.ids()[0])
        changed.name = "renamed"
        with pytest.raises(UnwritableDirectory):
            store.update(changed)
        with pytest.raises(UnwritableDirectory):
            store.delete(store.ids()[1])
        assert [p.name for p in store] == ["one", "two"]  # every change undone in memory
        assert (config / "profiles.json").read_bytes() == before
        assert sorted(p.name for p in config.iterdir()) == ["profiles.json"]


_WRITE_LIMITED = textwrap.dedent(
    """
    import resource, signal, sys
    from pathlib import Path
    from keyringkit import MemoryKeyring
    from inspector.store.profiles import Profile, ProfileStore, StdioSettings
    from inspector.store.secrets import SecretStore

    path = Path(sys.argv[1])
    store = ProfileStore(path, SecretStore(MemoryKeyring()))
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails with EFBIG instead
    size = path.stat().st_size
    resource.setrlimit(resource.RLIMIT_FSIZE, (size + 64, resource.RLIM_INFINITY))
    big = Profile(name="x" * 4096, stdio=StdioSettings(command="true"))
    try:
        store.create(big)
    except OSError as exc:
        print("failed:", exc.errno, [p.name for p in store])
    else:
        print("saved?!")
    """
)


def test_a_write_that_fails_midway_leaves_the_old_file_whole_and_no_temp_file(tmp_path: Path) -> None:
    """RLIMIT_FSIZE binds root too: the temp file's write fails part way (EFBIG), as on a full disk."""
    path = tmp_path / "config" / "profiles.json"
    seed = ProfileStore(path, SecretStore(MemoryKeyring()))
    seed.create(_profile("one"))
    before = path.read_bytes()
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(REPO), str(REPO / "tests")]))
    proc = subprocess.run(
        [sys.executable, "-c", _WRITE_LIMITED, str(path)],
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == f"failed: {errno.EFBIG} ['one']"
    assert path.read_bytes() == before
    assert sorted(p.name for p in path.parent.iterdir()) == ["profiles.json"]


# -- history and canned replies: kept for the session --------------------------------------------------------


@pytest.mark.parametrize("kind", KINDS)
def test_argument_history_is_kept_in_memory_when_it_cannot_be_saved(kind: str, tmp_path: Path) -> None:
    where, code = unwritable_dir(kind, tmp_path)
    history = ArgumentHistory("server", where)
    history.record("echo", {"text": "hi"})
    assert [e.arguments for e in history.entries("echo")] == [{"text": "hi"}]
    assert history.save_error == (
        f"argument history kept for this session only: cannot write {where}: {os.strerror(code)}"
    )
    assert history.load_error is None


def test_canned_replies_that_cannot_be_saved_stay_for_the_session_and_the_file_is_kept(tmp_path: Path) -> None:
    seed = CannedReplies(tmp_path / "seed.json")
    seed.put(CannedReply(name="yes", content={"type": "text", "text": "yes"}))
    before = (tmp_path / "seed.json").read_bytes()
    with read_only_mount(tmp_path, {"canned_replies.json": before}) as config:
        replies = CannedReplies(config / "canned_replies.json")
        with pytest.raises(UnwritableDirectory, match=f"cannot write {config}"):
            replies.put(CannedReply(name="no", content={"type": "text", "text": "no"}))
        assert replies.names() == ["yes", "no"]
        assert (config / "canned_replies.json").read_bytes() == before
        assert json.loads(before)["replies"][0]["name"] == "yes"


@pytest.mark.parametrize("kind", KINDS)
def test_canned_replies_in_an_unwritable_dir(kind: str, tmp_path: Path) -> None:
    where, _code = unwritable_dir(kind, tmp_path)
    replies = CannedReplies(where / "canned_replies.json")
    assert replies.problem is None and replies.replies == []
    with pytest.raises(UnwritableDirectory):
        replies.put(CannedReply(name="no", content={"type": "text", "text": "no"}))
    assert replies.names() == ["no"]
