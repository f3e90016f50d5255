"""Saved connection profiles in the window: the sidebar list, the editor dialog and the import dialog."""
