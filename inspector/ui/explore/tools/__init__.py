"""The Tools panel: the tool list and a tool's page (form, run, result, history)."""
