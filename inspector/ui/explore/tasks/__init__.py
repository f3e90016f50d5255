"""The Tasks panel: every tool call run as a task in this tab (status, progress, poll interval, times), its result,
cancel, and ``tasks/list``."""
