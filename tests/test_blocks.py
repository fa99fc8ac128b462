"""Pieces of a batch: they cover every match once, in order, on any number of threads."""

import threading

import pytest

from sim.core import blocks


@pytest.mark.parametrize("n, piece, threads", [(1, None, 2), (63, None, 2), (1000, None, 1),
                                               (1000, None, 2), (1000, 7, 2), (5, 64, 4)])
def test_pieces_cover_every_match_once_in_order(n, piece, threads):
    pieces = blocks.split(n, piece, threads)
    assert pieces[0][0] == 0 and pieces[-1][1] == n
    assert all(a[1] == b[0] for a, b in zip(pieces, pieces[1:], strict=False))
    assert all(lo < hi for lo, hi in pieces)
    if piece is not None:
        assert all(hi - lo <= piece for lo, hi in pieces)


def test_one_thread_plays_one_piece_and_more_threads_several():
    assert blocks.split(10_000, threads=1) == [(0, 10_000)]
    assert len(blocks.split(10_000, threads=2)) == 2 * blocks.PIECES_PER_THREAD
    assert len(blocks.split(100, threads=2)) == 1  # too few matches to be worth splitting
    assert blocks.split(0) == [(0, 0)]


@pytest.mark.parametrize("threads", [1, 3])
def test_spread_plays_each_piece_once_on_up_to_the_threads_asked(threads):
    pieces = blocks.split(1000, 10)
    played, names = [], set()
    lock = threading.Lock()

    def play(k, lo, hi):
        with lock:
            played.append((k, lo, hi))
            names.add(threading.current_thread().name)

    blocks.spread(pieces, play, threads)
    assert sorted(played) == [(k, lo, hi) for k, (lo, hi) in enumerate(pieces)]
    assert len(names) <= threads


def test_a_failing_piece_fails_the_batch():
    def play(k, lo, hi):
        if k == 3:
            raise RuntimeError("piece 3")

    with pytest.raises(RuntimeError, match="piece 3"):
        blocks.spread(blocks.split(100, 10), play, 2)


def test_thread_setting_and_its_default(monkeypatch):
    monkeypatch.setenv("NUMBA_NUM_THREADS", "3")
    assert blocks.default_threads() == 3
    try:
        blocks.set_threads(1)
        assert blocks.get_threads() == 1
        blocks.set_threads(0)
        assert blocks.get_threads() == 1
    finally:
        blocks.set_threads(None)
    assert blocks.get_threads() == 3


def test_arrays_written_by_a_kernel_share_no_memory_with_its_others():
    """A kernel's entry is compiled on the promise that an array it writes shares no memory
    with any other argument (sim.core.pipeline.DISTINCT_ARRAYS): a scratch array that is a
    view of the records is refused; read-only inputs may share memory with each other."""
    import numpy as np

    from sim.kit.records import distinct_writes, read_only

    table = read_only(np.arange(12).reshape(3, 4))
    records = np.zeros((5, 3))
    assert distinct_writes((table, read_only(table[1]), 7, records, (np.zeros(4),)))
    with pytest.raises(ValueError, match="share memory"):
        distinct_writes((table, records, (np.zeros(4), records[2])))
    with pytest.raises(ValueError, match="share memory"):
        distinct_writes((table, 7, table.base))
