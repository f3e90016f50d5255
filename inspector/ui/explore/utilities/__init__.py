"""The Utilities panel: ping, logging level, completion and the server's log."""
