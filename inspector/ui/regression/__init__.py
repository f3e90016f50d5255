"""The window's regression views: "Compare with…", "Replay against…" and the Collections panel."""
