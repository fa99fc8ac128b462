"""`cardlab serve`: the designer's workbench in the browser, on this machine."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from sim.cli.shared import Folder, Results, fail, guarded

# Each command imports what it needs inside its body (deferred): `cardlab --help` and the
# start of any command load no pandas, numba, matplotlib or game until the command runs.


def serve(
    folder: Folder = None,
    port: Annotated[int, typer.Option(min=0, max=65535, help="port (0: any free one)")] = 5006,
    address: Annotated[str, typer.Option(
        help="address to listen on; 127.0.0.1 keeps the page to this machine")] = "127.0.0.1",
    results: Results = Path("results"),
):
    """Edit cards and decks, play paired what-ifs, see the verdicts and the field, and save
    the change, in a web page (each browser tab its own desk). Needs the web extra:
    python -m pip install -e ".[web]"."""
    import importlib.util

    from sim.kit.folders import default_folder, read_folder

    if importlib.util.find_spec("panel") is None:
        fail("the workbench needs the web extra: python -m pip install -e \".[web]\"")
    info = guarded(lambda: read_folder(folder or str(default_folder())))
    from sim.web.server import serve as run

    def ready(bound: int) -> None:
        typer.echo(f"cardlab workbench for {info.title} at http://{address}:{bound}/ "
                   "(Ctrl-C stops it)", err=True)

    try:
        run(str(info.path), results, port, address, ready)
    except OSError as err:
        fail(f"cannot listen on {address}:{port}: {err}")
    except KeyboardInterrupt:
        pass


def mount(app: typer.Typer) -> None:
    """Put this module's commands on the `cardlab` app (sim/cli/app.py mounts every module)."""
    app.command()(serve)
