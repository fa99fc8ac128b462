"""cardlab analysis: tidy tables and figures from the results store (no compiled code)."""
