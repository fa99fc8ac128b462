"""High Card's rules, one small compiled function each, named as the rules name them."""

from __future__ import annotations

from sim.core.jit import njit
from sim.core.rng import SHUFFLE, next_below
from sim.highcard import options as O
from sim.highcard import pool as T
from sim.highcard.state import DECK, DECK_LEN, DECK_TOP, HAND, HAND_N, SCORE, WINS

# Card statistics after the four common ones, in the schema's order.
CS_PLAYED, CS_WON = 4, 5


@njit
def shuffle_deck(P, p, keys, ctr):
    """Fisher-Yates over the deck, from the player's shuffle stream."""
    for i in range(P[p, DECK_LEN] - 1, 0, -1):
        j = next_below(keys, ctr, p, SHUFFLE, i + 1)
        P[p, DECK + i], P[p, DECK + j] = P[p, DECK + j], P[p, DECK + i]


@njit
def draw(table, P, p, drawn):
    """Draw a card: a Blank met on the way is set aside and the next card taken in its place
    (a Blank does nothing); an empty deck draws nothing."""
    while P[p, DECK_TOP] < P[p, DECK_LEN]:
        c = P[p, DECK + P[p, DECK_TOP]]
        P[p, DECK_TOP] += 1
        if table[c, T.C_KIND] != T.BLANK:
            P[p, HAND + P[p, HAND_N]] = c
            P[p, HAND_N] += 1
            drawn[p, c] = 1
            return


@njit
def set_up(table, R, P, p, deck, keys, ctr, drawn):
    """Shuffle the deck and draw hand_size cards."""
    P[p, DECK_LEN] = len(deck)
    for k in range(len(deck)):
        P[p, DECK + k] = deck[k]
    shuffle_deck(P, p, keys, ctr)
    for _ in range(R[O.R_HAND]):
        draw(table, P, p, drawn)


@njit
def play_card(P, p, i, cs):
    """The card at hand position i leaves the hand (the last card takes its place)."""
    c = P[p, HAND + i]
    n = P[p, HAND_N] - 1
    P[p, HAND + i] = P[p, HAND + n]
    P[p, HAND_N] = n
    cs[p, c, CS_PLAYED] += 1
    return c


@njit
def score_round(table, R, P, leader, led, followed, cs):
    """The higher card scores its player a point; equal cards score nobody (ties = nobody)
    or both (ties = both). The seat that scored (-1 nobody, 2 both)."""
    a, b = table[led, T.C_VALUE], table[followed, T.C_VALUE]
    follower = 1 - leader
    if a == b:
        if R[O.R_TIES] == 1:
            P[0, SCORE] += 1
            P[1, SCORE] += 1
            return 2
        return -1
    w = leader if a > b else follower
    P[w, SCORE] += 1
    P[w, WINS] += 1
    cs[w, led if w == leader else followed, CS_WON] += 1
    return w
