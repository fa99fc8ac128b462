"""One writer per run folder: a lock held while a run is written, so that a second writer
(a second resume, a verdict run beside a simulation) is told the run is busy and by whom,
and never collides with the first. The lock is the operating system's (filelock), which it
drops when the process holding it dies, so a killed run never blocks its resume."""

from __future__ import annotations

import os
import socket
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path

from filelock import FileLock, Timeout

from sim.store.runs import StoreError

LOCK = ".lock"
WRITER = ".writer"  # who holds the lock, for the message a second writer gets


class RunBusy(StoreError):
    """The run folder is being written by another process."""


@contextmanager
def writing(folder: Path | str, what: str):
    """Hold the run folder's lock while `what` writes it; RunBusy when another process
    holds it, naming that process."""
    folder = Path(folder)
    lock = FileLock(folder / LOCK, timeout=0)
    try:
        lock.acquire()
    except Timeout:
        try:
            who = (folder / WRITER).read_text(encoding="utf-8").strip()
        except OSError:
            who = "another process"
        raise RunBusy(f"{folder} is busy: {who}; wait for it to finish, or stop it and "
                      "resume the run") from None
    writer = folder / WRITER
    try:
        writer.write_text(f"{what} by process {os.getpid()} on {socket.gethostname()} since "
                          f"{datetime.now(UTC):%Y-%m-%d %H:%M:%S} UTC\n", encoding="utf-8")
        yield
    finally:
        writer.unlink(missing_ok=True)
        lock.release()
