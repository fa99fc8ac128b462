"""The results store: run folders with manifests, chunk tables, the one-writer lock and
experiment outputs."""
