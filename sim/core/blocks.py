"""A batch of matches split into pieces and spread over threads: every game's kernel plays
one piece serially without the GIL, so a batch needs no parallel compilation, and since each
match draws only from its own streams the split never changes a record."""

from __future__ import annotations

import os
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

# Many pieces a thread: matches vary in length, and at the end of a batch one thread idles
# while the other plays its last piece; with 4 pieces a thread that idle half-piece cost
# Encounter and Paint the Line a tenth of their two-thread rate. A piece's own cost (its
# scratch arrays and the call) is about 10 us, a match's 8 .. 20 us.
PIECES_PER_THREAD = 32
MIN_PIECE = 64  # matches: below this a piece's set-up outweighs its matches

_threads: int | None = None


def default_threads() -> int:
    """NUMBA_NUM_THREADS when set, else the machine's cores."""
    env = os.environ.get("NUMBA_NUM_THREADS")
    if env and env.strip().isdigit() and int(env) > 0:
        return int(env)
    return os.cpu_count() or 1


def set_threads(n: int | None) -> None:
    """Threads a batch may use from now on in this process (None: back to the default)."""
    global _threads
    _threads = None if n is None else max(1, int(n))


def get_threads() -> int:
    return _threads if _threads is not None else default_threads()


def split(n: int, piece: int | None = None, threads: int | None = None) -> list[tuple[int, int]]:
    """Contiguous (lo, hi) ranges covering matches 0 .. n - 1: `piece` matches each when
    given, else a few pieces a thread of at least MIN_PIECE matches; one empty range for
    n == 0 so that callers always have a piece to fill."""
    if n <= 0:
        return [(0, 0)]
    if piece is None:
        t = threads or get_threads()
        count = max(1, min(t * PIECES_PER_THREAD if t > 1 else 1, n // MIN_PIECE))
    else:
        count = -(-n // max(1, piece))
    bounds = [n * k // count for k in range(count + 1)]
    return list(zip(bounds[:-1], bounds[1:], strict=True))


def spread(pieces: list[tuple[int, int]], play: Callable[[int, int, int], None],
           threads: int | None = None) -> None:
    """Call play(k, lo, hi) for every piece k, on up to `threads` threads."""
    t = min(threads or get_threads(), len(pieces))
    if t <= 1:
        for k, (lo, hi) in enumerate(pieces):
            play(k, lo, hi)
        return
    with ThreadPoolExecutor(max_workers=t) as pool:
        for future in [pool.submit(play, k, lo, hi) for k, (lo, hi) in enumerate(pieces)]:
            future.result()
