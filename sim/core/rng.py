"""Counter-based random streams: value i of stream (seed, match, purpose, player) is a pure
function of those numbers, identical from compiled code and from plain Python."""

from __future__ import annotations

import numpy as np

from sim.core.jit import njit

# Purposes of the streams; each player has its own stream of each purpose.
SHUFFLE = 0
DICE = 1
POLICY = 2
N_STREAMS = 6  # purpose * 2 + player

_MASK = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15
_M1 = 0xBF58476D1CE4E5B9
_M2 = 0x94D049BB133111EB

GOLDEN = np.uint64(_GOLDEN)
M1 = np.uint64(_M1)
M2 = np.uint64(_M2)
S30 = np.uint64(30)
S27 = np.uint64(27)
S31 = np.uint64(31)
S11 = np.uint64(11)


@njit
def mix64(z):
    """SplitMix64's finaliser: a bijective scramble of 64 bits."""
    z = (z ^ (z >> S30)) * M1
    z = (z ^ (z >> S27)) * M2
    return z ^ (z >> S31)


@njit
def stream_key(seed, match, stream):
    """The key of one stream: (master seed, match index, purpose * 2 + player)."""
    k = mix64(np.uint64(seed) + GOLDEN)
    k = mix64(k ^ (np.uint64(match) * M1))
    return mix64(k ^ ((np.uint64(stream) + np.uint64(1)) * M2))


@njit
def stream_value(key, counter):
    """Value number `counter` of a stream: SplitMix64 jumped straight to that position."""
    return mix64(np.uint64(key) + (np.uint64(counter) + np.uint64(1)) * GOLDEN)


@njit
def below(key, counter, n):
    """A number uniform on 0..n-1 from one stream value (53-bit multiply, no modulo bias
    to speak of)."""
    x = stream_value(key, counter) >> S11
    return np.int64((np.float64(x) * (1.0 / 9007199254740992.0)) * n)


@njit
def next_below(keys, ctr, p, purpose, n):
    """The next number uniform on 0..n-1 from player p's stream of a purpose (keys and
    counters indexed purpose * 2 + player); the counter moves on."""
    s = purpose * 2 + p
    v = below(keys[s], ctr[s], n)
    ctr[s] += 1
    return v


@njit(inline="always")
def start_streams(keys, ctr, seed, match):
    """A match's streams at their first value: each key from (seed, match, stream), each
    counter at 0."""
    for s in range(keys.shape[0]):
        keys[s] = stream_key(seed, match, s)
        ctr[s] = 0


# Plain-Python twins, for the reference engine and for checking the compiled ones.


def py_mix64(z: int) -> int:
    z = ((z ^ (z >> 30)) * _M1) & _MASK
    z = ((z ^ (z >> 27)) * _M2) & _MASK
    return z ^ (z >> 31)


def py_stream_key(seed: int, match: int, stream: int) -> int:
    k = py_mix64((seed + _GOLDEN) & _MASK)
    k = py_mix64(k ^ ((match * _M1) & _MASK))
    return py_mix64(k ^ (((stream + 1) * _M2) & _MASK))


def py_stream_value(key: int, counter: int) -> int:
    return py_mix64((key + (counter + 1) * _GOLDEN) & _MASK)


def py_below(key: int, counter: int, n: int) -> int:
    x = py_stream_value(key, counter) >> 11
    return int((float(x) * (1.0 / 9007199254740992.0)) * n)


def py_next_below(keys, ctr, p: int, purpose: int, n: int) -> int:
    s = purpose * 2 + p
    v = py_below(int(keys[s]), int(ctr[s]), n)
    ctr[s] += 1
    return v


def py_shuffle(cards: list, below) -> None:
    """Fisher-Yates in place from the bottom card up, `below(n)` drawing 0..n-1 from the
    stream a rule names (the order every engine shuffles in)."""
    for i in range(len(cards) - 1, 0, -1):
        j = below(i + 1)
        cards[i], cards[j] = cards[j], cards[i]
