"""What a seat's hand holds that the rules and policies look for: its instants counted by
step, where its quests, instants and possible boost plays are, kept as cards enter or leave
the hand."""

from __future__ import annotations

from sim.core.jit import njit
from sim.encounter import codes as K
from sim.encounter import state as S

# The cards in hand that may be boost plays, by kind and nature (bit kind * 8 + nature, both
# codes under 8): characteristics, locations, NPCs but strike NPCs, bulwarks and character
# actions. One test where a chain of comparisons branched on every card of the hand.
BOOST_CARDS = sum(1 << (kind * 8 + nat) for kind in range(len(K.KINDS))
                  for nat in range(len(K.NATURES))
                  if kind in (K.CHARACTERISTIC, K.LOCATION) or (kind == K.NPC and nat != K.STRIKE)
                  or (kind == K.ACTION and nat in (K.BULWARK, K.CHARACTER)))
assert len(K.KINDS) <= 8 and len(K.NATURES) <= 8 and BOOST_CARDS < 1 << 63


@njit(inline="always")
def may_boost(T, c):
    """Whether card c is of a kind and nature that may be a boost play (BOOST_CARDS)."""
    return (BOOST_CARDS >> (T[c, K.C_KIND] * 8 + T[c, K.C_NATURE])) & 1


@njit(inline="always")
def instant_step(T, c):
    """The step of card c's maneuver from hand (an instant action), 0 for any other card."""
    if T[c, K.C_NATURE] == K.INSTANT and T[c, K.C_KIND] == K.ACTION:
        return T[c, K.C_STEP]
    return 0


@njit
def count_hand(T, P, p):
    """p's instants in hand counted again whole by step, the positions of its quests,
    instants and possible boost plays marked (state.py, HAND_STEPS to HAND_BOOSTS; slot 0 of
    the counts says they were counted): at the first read of a game, or of a state set by
    hand."""
    for s in range(S.N_STEPS):
        P[p, S.HAND_STEPS + s] = 0
    quests, instants, boosts = 0, 0, 0
    for i in range(P[p, S.HAND_N]):
        c = P[p, S.HAND + i]
        s = instant_step(T, c)
        if s > 0:
            P[p, S.HAND_STEPS + s] += 1
            instants |= 1 << i
        if T[c, K.C_KIND] == K.QUEST:
            quests |= 1 << i
        boosts |= may_boost(T, c) << i
    P[p, S.HAND_STEPS], P[p, S.HAND_QUESTS], P[p, S.HAND_INSTANTS] = 1, quests, instants
    P[p, S.HAND_BOOSTS] = boosts


@njit(inline="always")
def put_bit(P, p, slot, i, on):
    """Bit i of P[p, slot] set to `on`."""
    P[p, slot] = (P[p, slot] & ~(1 << i)) | (int(on) << i)


@njit
def to_hand(T, P, p, card):
    """Append a card to p's hand, kept in its counts (nothing to keep before the first
    count)."""
    i = P[p, S.HAND_N]
    P[p, S.HAND + i] = card
    P[p, S.HAND_N] = i + 1
    if P[p, S.HAND_STEPS] != 0:
        s = instant_step(T, card)
        if s > 0:
            P[p, S.HAND_STEPS + s] += 1
        # every position is written as a card enters it (bits from HAND_N up: anything)
        put_bit(P, p, S.HAND_QUESTS, i, T[card, K.C_KIND] == K.QUEST)
        put_bit(P, p, S.HAND_INSTANTS, i, s > 0)
        put_bit(P, p, S.HAND_BOOSTS, i, may_boost(T, card))


@njit(inline="always")
def hand_left(T, P, p, i, card):
    """Hand position i's card has left p's hand (the cards after it moved down one)."""
    if P[p, S.HAND_STEPS] != 0:
        s = instant_step(T, card)
        if s > 0:
            P[p, S.HAND_STEPS + s] -= 1
        low = (1 << i) - 1
        for slot in (S.HAND_QUESTS, S.HAND_INSTANTS, S.HAND_BOOSTS):
            m = P[p, slot]
            P[p, slot] = (m & low) | ((m >> (i + 1)) << i)


@njit(inline="always")
def hand_summary(T, P, p, slot):
    """P[p, slot] of p's hand summary, counted first at the first read."""
    if P[p, S.HAND_STEPS] == 0:
        count_hand(T, P, p)
    return P[p, slot]


@njit(inline="always")
def instants_in_hand(T, P, p, step):
    """How many instants of this step p holds in hand."""
    return hand_summary(T, P, p, S.HAND_STEPS + step)


@njit(inline="always")
def boosts_in_hand(T, P, p):
    """The positions of p's cards in hand that may be boost plays (BOOST_CARDS)."""
    return hand_summary(T, P, p, S.HAND_BOOSTS)


@njit(inline="always")
def quests_in_hand(T, P, p):
    """The positions of p's quests in hand, bit i for position i (below HAND_N)."""
    return hand_summary(T, P, p, S.HAND_QUESTS)
