"""Directories that cannot be written, even by root (tests and CI run as root: chmod stops nothing).

``unwritable_dir(kind, tmp_path)`` returns a path below which nothing can be created, and the errno
the system gives for it:

* ``not-a-directory``: below a regular file (ENOTDIR);
* ``proc``: a missing directory under /proc (ENOENT);
* ``sysfs``: a new directory under /sys (EPERM), or, for ``sysfs-existing``, /sys itself, which
  exists but takes no new files (EACCES);
* ``read-only``: a read-only tmpfs mounted for the test (EROFS; skipped where mounting is not
  allowed). ``read_only_mount(tmp_path, files)`` mounts one holding ``files`` (e.g. a saved profiles file).
"""

from __future__ import annotations

import errno
import os
import subprocess
import uuid
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path

import pytest

__all__ = ["KINDS", "read_only_mount", "unwritable_dir"]

KINDS = ("not-a-directory", "proc", "sysfs", "sysfs-existing")
"""Kinds that need no privileges beyond what /proc and /sys give everyone."""


def unwritable_dir(kind: str, tmp_path: Path) -> tuple[Path, int]:
    if kind == "not-a-directory":
        blocker = tmp_path / "a-regular-file"
        blocker.write_text("not a directory\n")
        return blocker / "inspector", errno.ENOTDIR
    if kind == "proc":
        return Path("/proc") / f"no-such-{uuid.uuid4().hex}" / "inspector", errno.ENOENT
    if kind == "sysfs":
        return Path("/sys") / f"inspector-{uuid.uuid4().hex}", errno.EPERM
    if kind == "sysfs-existing":
        return Path("/sys"), errno.EACCES
    raise ValueError(kind)


def _run(*argv: str) -> bool:
    try:
        return subprocess.run(argv, capture_output=True, timeout=30, check=False).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        return False


@contextmanager
def read_only_mount(tmp_path: Path, files: Mapping[str, bytes] | None = None) -> Iterator[Path]:
    """A read-only tmpfs at ``tmp_path/ro`` holding ``files`` (relative path -> bytes); skips the test
    when this system does not let us mount one."""
    mount = tmp_path / "ro"
    mount.mkdir()
    if os.geteuid() != 0 or not _run("mount", "-t", "tmpfs", "-o", "size=1m,mode=0755", "tmpfs", str(mount)):
        pytest.skip("cannot mount a tmpfs here (needs root with CAP_SYS_ADMIN)")
    try:
        for name, data in (files or {}).items():
            target = mount / name
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
        if not _run("mount", "-o", "remount,ro", str(mount)):
            pytest.skip("cannot remount the tmpfs read-only here")
        yield mount
    finally:
        _run("umount", "-l", str(mount))
