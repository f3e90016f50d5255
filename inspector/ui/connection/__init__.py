"""One connection: its controller and the views that follow it (overview, auth steps, stderr, notifications, roots)."""
