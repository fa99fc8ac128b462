"""High Card's compiled policies: which card of the hand to lead, and which to follow with.
A policy reads its own cards as its seat's view holds them (`view`), the led card as it lies
face up, and nothing hidden."""

from __future__ import annotations

from sim.core.jit import njit
from sim.core.rng import POLICY, next_below
from sim.highcard import params as Pa
from sim.highcard import pool as T
from sim.highcard.state import HAND, HAND_N


@njit
def highest(view, P, p):
    """The hand position of the highest card (the first of equals)."""
    best, top = 0, -1
    for i in range(P[p, HAND_N]):
        v = view[P[p, HAND + i], T.C_VALUE]
        if v > top:
            best, top = i, v
    return best


@njit
def choose_lead(view, prm, P, p, keys, ctr):
    """random: any card; high: the highest; aim: the card nearest `lead_with` (the lower of
    two as near, then the first)."""
    kind = int(prm[Pa.KIND])
    if kind == Pa.RANDOM:
        return next_below(keys, ctr, p, POLICY, P[p, HAND_N])
    if kind == Pa.HIGH:
        return highest(view, P, p)
    best, gap, low = 0, 1e9, 99
    for i in range(P[p, HAND_N]):
        v = view[P[p, HAND + i], T.C_VALUE]
        d = abs(v - prm[Pa.LEAD_WITH])
        if d < gap or (d == gap and v < low):
            best, gap, low = i, d, v
    return best


@njit
def choose_follow(view, prm, P, p, led, keys, ctr):
    """random: any card; high: the highest; aim: the lowest card that beats the led value
    `led` when it is worth at most `beat_up_to`, else the lowest card (the first of
    equals)."""
    kind = int(prm[Pa.KIND])
    if kind == Pa.RANDOM:
        return next_below(keys, ctr, p, POLICY, P[p, HAND_N])
    if kind == Pa.HIGH:
        return highest(view, P, p)
    beat, beat_v, low, low_v = -1, 99, 0, 99
    for i in range(P[p, HAND_N]):
        v = view[P[p, HAND + i], T.C_VALUE]
        if v > led and v <= prm[Pa.BEAT_UP_TO] and v < beat_v:
            beat, beat_v = i, v
        if v < low_v:
            low, low_v = i, v
    return beat if beat >= 0 else low
