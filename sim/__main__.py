"""`python -m sim ...` runs the `cardlab` command line (the same app as the installed script)."""

from sim.cli.app import app

app()
