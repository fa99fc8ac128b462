"""Payne's exact chance that a player cannot field, round by round, for decks of characters
and blanks: a Markov chain on the offensive characters left in each deck."""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

import numpy as np


def _comb(n: int, k: int) -> int:
    return math.comb(n, k) if 0 <= k <= n else 0


def hypergeom_pmf(k, total, marked, drawn):
    """P(k marked among `drawn` cards drawn from `total`, `marked` of them marked), from
    whole binomial coefficients (the counts stay exact; no scipy to load in a run)."""
    ways = np.frompyfunc(lambda j, m: _comb(m, j) * _comb(total - m, drawn - j), 2, 1)
    return (ways(k, marked) / math.comb(total, drawn)).astype(float)


@dataclass(frozen=True)
class Seat:
    """A deck as the chain reads it: its cards but its blanks (a draw sets a blank aside and
    takes the next card), of which `off` offensive and the rest defensive characters."""

    cards: int
    off: int

    @property
    def dfn(self) -> int:
        return self.cards - self.off


def opening(seat: Seat, hand: int) -> tuple[np.ndarray, float]:
    """P(the opening hand holds k offensive characters), k = 0 .. off, given that it holds
    both roles (a hand without one is redrawn), and the chance q that a hand lacks one."""
    h = min(hand, seat.cards)
    k = np.arange(seat.off + 1)
    pmf = hypergeom_pmf(k, seat.cards, seat.off, h)
    both = (k >= 1) & (h - k >= 1)
    kept = float(pmf[both].sum())
    return np.where(both, pmf, 0.0) / kept if kept > 0 else np.zeros_like(pmf), 1.0 - kept


@functools.cache
def draw_step(seat: Seat, left: int, draw: int) -> np.ndarray:
    """T[r, r2] = P(r2 offensive characters stay in a deck of `left` cards, r of them
    offensive, after a draw of `draw` cards (fewer when the deck runs out))."""
    t = np.zeros((seat.off + 1, seat.off + 1))
    k = min(draw, left)
    if k == 0:
        return np.eye(seat.off + 1)
    r = np.arange(min(seat.off, left) + 1)[:, None]
    j = np.arange(k + 1)[None, :]
    p = hypergeom_pmf(j, left, r, k)  # j offensive among the k drawn
    ok = (j <= r) & (k - j <= left - r)
    rows, cols = np.nonzero(ok)
    np.add.at(t, (rows, rows - cols), p[rows, cols])
    return t


def unfielded_means(a: Seat, b: Seat, hand: int, draw: int, unfielded_draw: bool,
                    rounds: int, redraw_cap: int) -> tuple[float, float]:
    """Each seat's expected rounds unfielded in a match of `rounds` rounds that no score ends
    (no card played, no deck-out loss): both field in round 1; from round 2 a hand without
    both roles cannot field, and then nobody fields; after each round both draw `draw`
    (after an unfielded one only with `unfielded_draw`). A set-up that fails (past
    `redraw_cap` redraws) ends the match before any round. The state at a round's start:
    f rounds fielded, ra and rb offensive characters left in the decks; each hand holds what
    its deck gave less one of each role a fielded round."""
    (open_a, q_a), (open_b, q_b) = opening(a, hand), opening(b, hand)
    set_up = (1 - q_a ** (redraw_cap + 1)) * (1 - q_b ** (redraw_cap + 1))
    if set_up == 0 or rounds < 2:
        return 0.0, 0.0
    seats = ((a, min(hand, a.cards)), (b, min(hand, b.cards)))

    def left(i: int, r: int, f: int) -> int:
        """Cards in seat i's deck at the start of round r, f of rounds 1 .. r - 1 fielded."""
        seat, h = seats[i]
        return max(seat.cards - h - draw * (f + (r - 1 - f) * unfielded_draw), 0)

    def can(i: int, r: int, f: int) -> np.ndarray:
        """Per offensive characters left in the deck: whether the hand holds both roles."""
        seat, _ = seats[i]
        ro = np.arange(seat.off + 1)
        return (seat.off - ro - f >= 1) & (seat.dfn - (left(i, r, f) - ro) - f >= 1)

    def drawn(m: np.ndarray, r: int, f: int) -> np.ndarray:
        """Both players' draws at the end of round r, from decks as at its start."""
        return draw_step(a, left(0, r, f), draw).T @ m @ draw_step(b, left(1, r, f), draw)

    # the opening hand holds k offensive characters: off - k stay in the deck
    mass = np.zeros((rounds + 1, a.off + 1, b.off + 1))
    mass[1] = drawn(np.outer(open_a[::-1], open_b[::-1]), 1, 0)  # round 1: both field
    out = [0.0, 0.0]
    for r in range(2, rounds + 1):
        nxt = np.zeros_like(mass)
        for f in range(1, r):
            m = mass[f]
            if not m.any():
                continue
            ca, cb = can(0, r, f), can(1, r, f)
            out[0] += float(m[~ca].sum())
            out[1] += float(m[:, ~cb].sum())
            both = np.outer(ca, cb)
            nxt[f + 1] += drawn(np.where(both, m, 0.0), r, f)
            rest = np.where(both, 0.0, m)
            nxt[f] += drawn(rest, r, f) if unfielded_draw else rest
        mass = nxt
    return out[0] * set_up, out[1] * set_up
