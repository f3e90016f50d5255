"""The live message log: a virtualized view over a session's SQLite recording.

``LogPanel`` is the widget; ``open_recording_window`` / ``open_recording_dialog`` /
``recording_actions`` are for the main window's File menu (offline review and export).
"""

from __future__ import annotations

from inspector.ui.log.panel import LogPanel
from inspector.ui.log.viewer import RecordingWindow, open_recording_dialog, open_recording_window, recording_actions

__all__ = ["LogPanel", "RecordingWindow", "open_recording_dialog", "open_recording_window", "recording_actions"]
