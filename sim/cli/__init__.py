"""The `cardlab` command line: the app and its command groups."""
