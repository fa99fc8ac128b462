"""Encounter RPCCG: PCs questing against each other's strikes (the lab's third game)."""
