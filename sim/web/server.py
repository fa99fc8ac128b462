"""`cardlab serve`: the workbench pages served on this machine, a fresh page (and desk) for
every browser tab."""

from __future__ import annotations

from pathlib import Path

from sim.kit import game as registry
from sim.kit.folders import default_folder


def serve(folder: str, results: Path, port: int, address: str = "127.0.0.1",
          ready=None) -> None:
    """Serve the workbench until interrupted; `ready(port)` once it listens."""
    # deferred: Panel and the page load only when the server starts
    import panel as pn

    from sim.web.page import Page

    pn.extension("tabulator", notifications=False)
    folders = list(dict.fromkeys([str(folder), *(str(default_folder(n))
                                                 for n in registry.names())]))

    def page():
        return Page(folder, results, folders).view()

    server = pn.serve({"/": page}, port=port, address=address, show=False, start=False,
                      title="cardlab workbench", websocket_origin=[f"{address}:{port}",
                                                                   f"localhost:{port}"])
    if ready:
        ready(server.port)
    server.start()
    server.io_loop.start()
