"""An Ontul-compatible data platform over SQLite, with real policies."""
