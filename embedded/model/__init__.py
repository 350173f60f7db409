"""An Anthropic-Messages-compatible offline model driven by a deterministic planner."""
