"""Room on Python's frame stack, so that a deep compile does not map and unmap memory at
every call.

CPython (3.11 at least) keeps its frames in chunks of 16 KB, maps a new chunk when a call
does not fit in the current one and unmaps it as soon as that call returns. numba's compiler
recurses deeply and calls back and forth across such an edge millions of times, and each
crossing costs fresh pages from the kernel: a third of a million page faults and a fifth of
the wall time of a game's first run (Encounter 41.6 -> 33.4 s, benchmarks/README.md, "The
first compile", step 8). Every compile Python starts (sim.core.jit) runs through
`with_headroom`, on top of one frame sized so that CPython maps a single large chunk, the
upper half of it free: the compile's frames then fit in one chunk and never cross an edge.
The large frame costs address space only; CPython initialises none of its slots.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")

SLOTS = 1 << 17  # 1 MiB of frame: CPython rounds the chunk up to 2 MiB, 1 MiB of it free


def _on_a_large_frame(fn, args, kwargs):
    return fn(*args, **kwargs)


# The frame's size is the code's stack size: a larger one than the bytecode needs is never
# touched, it only makes CPython give this call a chunk of its own, with room above it.
_on_a_large_frame.__code__ = _on_a_large_frame.__code__.replace(
    co_stacksize=_on_a_large_frame.__code__.co_stacksize + SLOTS)


def with_headroom(fn: Callable[..., T], *args, **kwargs) -> T:
    """fn(*args, **kwargs), its frames and its callees' in one chunk of CPython's frame
    stack with about 1 MiB free: a few thousand frames deep before any chunk is mapped."""
    return _on_a_large_frame(fn, args, kwargs)
