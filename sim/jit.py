"""The one numba configuration: on-disk cache keyed to the kernel sources, fastmath off."""

from __future__ import annotations

import hashlib
import os
import tempfile
from pathlib import Path

import numba

_SOURCES = Path(__file__).resolve().parent
# Modules outside paintline/ that compiled code is built from (the CLI, runner and store
# are not, so editing them keeps the cache).
KERNEL_MODULES = ("jit.py", "rng.py", "records.py")


def source_hash() -> str:
    """Hash of every module the kernels are built from, plus the numba version.

    numba's own cache only notices a change in the file that defines a function, not in a
    callee from another module, so the cache folder itself is keyed to all those sources.
    """
    h = hashlib.sha256(numba.__version__.encode())
    paths = [_SOURCES / name for name in KERNEL_MODULES] + sorted(
        (_SOURCES / "paintline").glob("*.py"))
    for path in paths:
        h.update(path.relative_to(_SOURCES).as_posix().encode())
        h.update(path.read_bytes())
    return h.hexdigest()[:16]


def _writable(folder: Path) -> bool:
    try:
        folder.mkdir(parents=True, exist_ok=True)
        probe = folder / f".probe-{os.getpid()}"
        probe.write_bytes(b"")
        probe.unlink()
        return True
    except OSError:
        return False


def cache_folder() -> Path | None:
    """A writable folder for compiled kernels, or None to compile in memory only."""
    key = source_hash()
    base = os.environ.get("CARDLAB_CACHE_DIR")
    if base is None:
        xdg = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
        base = Path(xdg) / "cardlab"
    candidates = [Path(base) / "numba" / key,
                  Path(tempfile.gettempdir()) / f"cardlab-{os.getuid()}" / "numba" / key]
    for folder in candidates:
        if _writable(folder):
            return folder
    return None


_FOLDER = cache_folder()
CACHE = _FOLDER is not None
if CACHE:
    numba.config.CACHE_DIR = str(_FOLDER)

_BOUNDSCHECK = os.environ.get("CARDLAB_BOUNDSCHECK") == "1"


def njit(fn=None, **kwargs):
    """numba.njit with the project's settings; usable bare or with extra options."""
    options = {"cache": CACHE, "fastmath": False, "boundscheck": _BOUNDSCHECK, "nogil": True}
    options.update(kwargs)
    if fn is None:
        return lambda f: numba.njit(**options)(f)
    return numba.njit(**options)(fn)
