"""What a seat's hand holds that can maneuver: its instants counted by step, kept as cards
enter or leave the hand."""

from __future__ import annotations

from sim.core.jit import njit
from sim.encounter import codes as K
from sim.encounter import state as S


@njit(inline="always")
def instant_step(T, c):
    """The step of card c's maneuver from hand (an instant action), 0 for any other card."""
    if T[c, K.C_NATURE] == K.INSTANT and T[c, K.C_KIND] == K.ACTION:
        return T[c, K.C_STEP]
    return 0


@njit
def count_hand(T, P, p):
    """p's instants in hand counted again whole by step (state.py, HAND_STEPS; slot 0 says
    they were counted): at the first read of a game, or of a state set by hand."""
    for s in range(S.N_STEPS):
        P[p, S.HAND_STEPS + s] = 0
    for i in range(P[p, S.HAND_N]):
        P[p, S.HAND_STEPS + instant_step(T, P[p, S.HAND + i])] += 1
    P[p, S.HAND_STEPS] = 1


@njit(inline="always")
def hand_moved(T, P, p, card, d):
    """A card entered (d = 1) or left (d = -1) p's hand: its step's count moves with it
    (nothing to do before the first count; a card with no maneuver from hand counts in
    slot 0, the flag, never)."""
    s = instant_step(T, card)
    if s > 0 and P[p, S.HAND_STEPS] != 0:
        P[p, S.HAND_STEPS + s] += d


@njit
def to_hand(T, P, p, card):
    """Append a card to p's hand, kept in its counts."""
    P[p, S.HAND + P[p, S.HAND_N]] = card
    P[p, S.HAND_N] += 1
    hand_moved(T, P, p, card, 1)


@njit(inline="always")
def instants_in_hand(T, P, p, step):
    """How many instants of this step p holds in hand (counted at the first read)."""
    if P[p, S.HAND_STEPS] == 0:
        count_hand(T, P, p)
    return P[p, S.HAND_STEPS + step]
