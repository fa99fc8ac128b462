"""A call given headroom does not map fresh pages each time its recursion dips past the end
of a chunk of CPython's frame stack."""

import resource
import threading

import pytest

from sim.core.headroom import with_headroom

TIMES = 2000


def dive(depth: int) -> int:
    return 0 if depth == 0 else 1 + dive(depth - 1)


def dives(times: int, depth: int) -> int:
    return sum(dive(depth) for _ in range(times))


def page_faults(fn, *args) -> int:
    """The page faults of fn(*args) run in a new thread: a frame stack of its own, which
    starts as an ordinary one whatever the test itself runs on (conftest gives every test
    headroom)."""
    faults = []

    def run():
        before = resource.getrusage(resource.RUSAGE_THREAD).ru_minflt
        fn(*args)
        faults.append(resource.getrusage(resource.RUSAGE_THREAD).ru_minflt - before)

    thread = threading.Thread(target=run)
    thread.start()
    thread.join()
    return faults[0]


@pytest.mark.skipif(not hasattr(resource, "RUSAGE_THREAD"),
                    reason="a thread's own page faults are counted on Linux only")
def test_a_deep_call_repeated_maps_no_new_chunks_under_headroom():
    # 300 frames are some 30 KB: deeper than one 16 KB chunk, so each dive on an ordinary
    # stack crosses a chunk's end and maps (and touches) a new one, 2,000 times over.
    plain = page_faults(dives, TIMES, 300)
    if plain < TIMES:
        pytest.skip(f"this Python keeps its frame chunks ({plain} page faults in {TIMES} "
                    "dives): nothing for headroom to save")
    roomy = page_faults(with_headroom, dives, TIMES, 300)
    assert roomy < TIMES // 20, (plain, roomy)


def test_headroom_passes_arguments_and_the_answer_through():
    assert with_headroom(dives, 3, 10) == 30
    assert with_headroom(dict, a=1) == {"a": 1}
    with pytest.raises(ZeroDivisionError):
        with_headroom(lambda: 1 / 0)
