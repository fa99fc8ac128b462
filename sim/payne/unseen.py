"""What each seat has seen of the opposing deck (sim/payne/state.py, "What seat p has seen"):
a count per card, running tallies of the opposing characters not yet seen that the prior's
odds read (kept as cards are seen, not counted over the pool at each decision), and the
opposing deck's attackers that its defence costs walk."""

from __future__ import annotations

from sim.core.jit import njit
from sim.payne import pool as T
from sim.payne.state import ATTACKERS, UNSEEN_ALL, UNSEEN_ROLE, UNSEEN_SIZE, lit


def width(n_cards: int) -> int:
    """Length of a seat's row of seen: counts, tallies, tallies at the start, attackers."""
    return n_cards + ATTACKERS + 1 + n_cards


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
    """Each seat's tallies counted afresh from his counts of cards seen."""
    n = views.shape[1]
    for p in range(2):
        seen[p, n:n + UNSEEN_SIZE] = 0
        for c in range(n):
            k = in_deck[1 - p, c] - seen[p, c]
            if k > 0:
                tally(views[p], seen[p], c, k)


@njit
def prepare(views, in_deck, seen):
    """Once for the matches of one matchup: nothing seen, each seat's tallies then (kept
    twice: the second copy is every match's start) and the opposing deck's offensive
    characters in pool order, as his view holds them."""
    n = views.shape[1]
    seen[:, :] = 0
    count_unseen(views, in_deck, seen)
    for p in range(2):
        for j in range(n, n + UNSEEN_SIZE):
            seen[p, j + UNSEEN_SIZE] = seen[p, j]
        m = 0
        for c in range(n):
            if in_deck[1 - p, c] > 0 and views[p, c, T.C_KIND] == T.CHARACTER \
                    and views[p, c, T.C_ROLE] == T.OFF:
                seen[p, n + ATTACKERS + 1 + m] = c
                m += 1
        seen[p, n + ATTACKERS] = m


@njit
def start(seen, n):
    """A match's start: nothing seen, the tallies as prepare counted them."""
    seen[:, :n] = 0
    for p in range(2):
        for j in range(n, n + UNSEEN_SIZE):
            seen[p, j] = seen[p, j + UNSEEN_SIZE]


@njit
def see(views, in_deck, seen, p, c):
    """Seat p sees a copy of the opponent's card c (a battler flipped, a card played): one
    unseen copy fewer, while the deck list still holds one he has not seen."""
    if in_deck[1 - p, c] - seen[p, c] > 0:
        tally(views[p], seen[p], c, -1)
    seen[p, c] += 1
