"""The game contract and what every game builds on: the card table, game folders, records,
manifests, exact-check tables, legality and patches."""
