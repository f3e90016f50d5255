"""The Resources panel: resources, templates, subscriptions and the detail view."""
