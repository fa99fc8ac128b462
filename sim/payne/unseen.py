"""What each seat has seen of the opposing deck: a count per card, and running tallies of the
opposing characters not yet seen (by role, each side's lit copies and all copies) that the
prior's odds read, kept as cards are seen rather than counted over the pool at each call."""

from __future__ import annotations

from sim.core.jit import njit
from sim.payne import pool as T
from sim.payne.state import UNSEEN_ALL, UNSEEN_ROLE, lit


@njit
def tally(table, seen_p, c, k):
    """Add k copies of card c (as the seat's view holds it) to his tallies, when a
    character."""
    if table[c, T.C_KIND] != T.CHARACTER:
        return
    base = table.shape[0] + table[c, T.C_ROLE] * UNSEEN_ROLE
    mask = table[c, T.C_ARROWS]
    for s in range(4):
        seen_p[base + s] += k * lit(mask, s)
    seen_p[base + UNSEEN_ALL] += k


@njit
def count_unseen(views, in_deck, seen):
    """Each seat's tallies counted afresh from his counts of cards seen (a match's start, or
    a state set by hand)."""
    n = views.shape[1]
    for p in range(2):
        seen[p, n:] = 0
        for c in range(n):
            k = in_deck[1 - p, c] - seen[p, c]
            if k > 0:
                tally(views[p], seen[p], c, k)


@njit
def see(views, in_deck, seen, p, c):
    """Seat p sees a copy of the opponent's card c (a battler flipped, a card played): one
    unseen copy fewer, while the deck list still holds one he has not seen."""
    if in_deck[1 - p, c] - seen[p, c] > 0:
        tally(views[p], seen[p], c, -1)
    seen[p, c] += 1
