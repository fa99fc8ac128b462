"""The one numba configuration: on-disk cache keyed to the kernel sources, fastmath off."""

from __future__ import annotations

import hashlib
import os
import tempfile
from pathlib import Path

import numba

_SOURCES = Path(__file__).resolve().parent


def kernel_sources() -> list[Path]:
    """Modules with compiled functions, and every sim module they import, transitively."""
    import re

    pattern = re.compile(r"^from sim(?:\.(\w+))?(?:\.(\w+))? import ([\w, ()]+)", re.M)

    def deps(path: Path) -> set[Path]:
        out = set()
        for m in pattern.finditer(path.read_text(encoding="utf-8")):
            parts = [x for x in m.groups()[:2] if x]
            names = [n.split()[0] for n in m.group(3).strip("()").split(",") if n.strip()]
            for cand in [_SOURCES.joinpath(*parts).with_suffix(".py")] + [
                    _SOURCES.joinpath(*parts, n).with_suffix(".py") for n in names]:
                if cand.is_file():
                    out.add(cand)
        return out

    todo = [p for p in _SOURCES.rglob("*.py") if "@njit" in p.read_text(encoding="utf-8")]
    seen = set(todo)
    while todo:
        for dep in deps(todo.pop()):
            if dep not in seen:
                seen.add(dep)
                todo.append(dep)
    return sorted(seen)


def source_hash() -> str:
    """Hash of the kernel sources plus the numba version.

    numba's own cache only notices a change in the file that defines a function, not in a
    callee from another module, so the cache folder itself is keyed to all of them.
    """
    h = hashlib.sha256(numba.__version__.encode())
    for path in kernel_sources():
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
    """numba.njit with the project's settings; usable bare or with extra options.

    Kernels raise no exceptions (validation lives in the wrappers), so numpy's error
    model is used: no zero-division checks in the hot loops. Kernels allocate nothing
    either (the one parallel entry point and its scratch maker opt back in with
    `_nrt=True`), so reference counting is off: with it on, every call between compiled
    functions updated each array's count atomically, a third of the run time. A function
    that allocates without opting in fails to compile, loudly."""
    options = {"cache": CACHE, "fastmath": False, "boundscheck": _BOUNDSCHECK, "nogil": True,
               "error_model": "numpy", "_nrt": False}
    options.update(kwargs)
    if fn is None:
        return lambda f: numba.njit(**options)(f)
    return numba.njit(**options)(fn)


def pure(fn):
    """The plain-Python twin of a compiled function, calling plain-Python twins of the
    compiled functions it uses: for callers that want a few decisions without paying for
    the compiler's start-up (the exact solver)."""
    import functools
    import types

    @functools.cache
    def twin(dispatcher):
        py = dispatcher.py_func
        names = py.__code__.co_names
        env = dict(py.__globals__)
        for name in names:
            value = env.get(name)
            if isinstance(value, numba.core.registry.CPUDispatcher):
                env[name] = twin(value)
        return types.FunctionType(py.__code__, env, py.__name__, py.__defaults__,
                                  py.__closure__)

    return twin(fn)
