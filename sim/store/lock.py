"""One writer per run folder: a lock held while a run is written, so that a second writer
(a second resume, a verdict run beside a simulation) is told the run is busy and by whom,
and never collides with the first. The lock is the operating system's (filelock), which it
drops when the process holding it dies, so a killed run never blocks its resume."""

from __future__ import annotations

import os
import re
import socket
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path

from filelock import FileLock, Timeout

from sim.store.runs import StoreError

LOCK = ".lock"
WRITER = ".writer"  # who holds the lock, for the message a second writer gets
WHO = re.compile(r"by process (\d+) on (\S+) since")


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


def writer_alive(folder: Path | str) -> bool | None:
    """Whether the process the run folder's writer note names still runs: False when there
    is no note (every writer leaves one while it holds the lock, and removes it when it
    lets go) or its process is gone (killed: the note stays behind), None when the process
    is on another machine and cannot be asked. Read only: asking never takes the lock, so
    it never makes a starting writer find the run busy."""
    try:
        note = (Path(folder) / WRITER).read_text(encoding="utf-8")
    except OSError:
        return False
    found = WHO.search(note)
    if found is None:
        return None
    pid, host = int(found.group(1)), found.group(2)
    if host != socket.gethostname():
        return None
    try:
        os.kill(pid, 0)  # signal 0: is there such a process (nothing is sent)
    except ProcessLookupError:
        return False
    except PermissionError:  # there is one, another user's
        return True
    return True
