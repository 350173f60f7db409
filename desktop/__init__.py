"""The PySide6 desktop client of agent_core."""
