"""The window's side of "Replay against…": which targets to offer, and the dialog opened for a recording.

The log (a tab's live log, the offline viewer's) only emits ``LogPanel.replayRequested(path)``; the main window
connects it to :func:`open_replay` (the log feature may not import ``ui.regression``); File → Replay recording
against… picks a file of the recordings folder (:func:`recording_chooser`). The targets, in order: the
current tab's connection (its profile's settings; the replay opens a connection of its own), every saved profile
that can connect, then the built-in demo servers.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFileDialog, QWidget

from inspector.store.paths import recordings_dir
from inspector.store.profiles import Profile
from inspector.ui.regression.replay_dialog import ReplayDialog
from inspector.ui.regression.replay_runner import ReplayTarget
from inspector.ui.window.connection_tab import ConnectionTab
from inspector.ui.window.profile_bridge import (
    DEMO_HTTP_PROFILE_ID,
    ProfileNotConnectable,
    builtin_profile,
    connection_settings,
    demo_profile,
)

__all__ = ["open_replay", "recording_chooser", "replay_targets"]


def replay_targets(current: ConnectionTab | None, profiles: Iterable[Profile]) -> list[ReplayTarget]:
    """The targets to offer (see the module docstring)."""
    targets: list[ReplayTarget] = []
    seen: set[str] = set()
    if current is not None:
        targets.append(ReplayTarget(f"{current.title} (current connection)", current.controller.settings))
        seen.add(current.profile_id)
    builtins = [demo_profile(), builtin_profile(DEMO_HTTP_PROFILE_ID)]
    for profile in [*profiles, *(p for p in builtins if p is not None)]:
        if profile.id in seen:
            continue
        seen.add(profile.id)
        try:
            targets.append(ReplayTarget(profile.name, connection_settings(profile)))
        except ProfileNotConnectable:
            continue
    return targets


def open_replay(path: str, targets: Sequence[ReplayTarget], parent: QWidget | None = None) -> ReplayDialog:
    """The "Replay against…" dialog for the recording at ``path`` (shown, non-modal)."""
    dialog = ReplayDialog(path, targets, parent)
    dialog.open()
    return dialog


def recording_chooser(parent: QWidget, chosen: Callable[[str], object]) -> QFileDialog:
    """File → Replay recording against…: a non-modal file dialog on the recordings folder; ``chosen(path)``."""
    start = recordings_dir()
    dialog = QFileDialog(parent, "Replay recording against…", str(start if start.is_dir() else Path.home()))
    dialog.setFileMode(QFileDialog.FileMode.ExistingFile)
    dialog.setNameFilters(["Recordings (*.sqlite3 *.sqlite *.db)", "All files (*)"])
    dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    dialog.fileSelected.connect(chosen)
    dialog.open()
    return dialog
