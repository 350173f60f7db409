"""Stand-ins for the two external services, speaking their real wire protocols."""
