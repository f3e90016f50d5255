"""The main window: the app entry, the window, one connection's tab, the profile bridge and the window state."""
