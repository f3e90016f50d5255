"""The Prompts panel: the prompt list and a prompt's page (arguments, preview)."""
