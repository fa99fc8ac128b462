"""A party character's stats now: its card plus the modifiers in force (the rule `stat`), from
sums of what each seat's cards in play add, kept as cards enter or leave play."""

from __future__ import annotations

from sim.core.jit import njit
from sim.encounter import codes as K
from sim.encounter import state as S

# The stats kept per seat are K.STAT_COLS, consecutive columns of the card table.
assert K.STAT_COLS == tuple(range(K.C_DEX, K.C_DEX + 4))
# A location's numbers are added to each party character: kept with the bulwark's.
LOC_SUM = S.ALL_SUM


@njit
def add_card(T, P, p, card, at, sign):
    """A card of p's entering play (sign 1) or leaving it (-1): its stats to the 4 kept sums
    from slot `at`, its Budget and Sneak to p's."""
    for j in range(4):
        P[p, at + j] += sign * T[card, K.C_DEX + j]
    for slot, kw in ((S.BUDGET_SUM, K.BUDGET), (S.SNEAK_SUM, K.SNEAK)):
        if T[card, K.C_AB1] == kw:
            P[p, slot] += sign * T[card, K.C_ARG1]
        if T[card, K.C_AB2] == kw:
            P[p, slot] += sign * T[card, K.C_ARG2]


@njit
def count_stats(T, P, p):
    """p's kept sums (state.py, STATS_OK) counted whole from its play zones: at the first read
    of a state set by hand, and after a card leaves play."""
    for slot in range(S.PC_SUM, S.SNEAK_SUM + 1):
        P[p, slot] = 0
    add_card(T, P, p, P[p, S.PC], S.PC_SUM, 1)
    for blk, cnt in ((S.CHARS, S.CHAR_N), (S.SUP, S.SUP_N), (S.LOOTS, S.LOOTS_N)):
        for i in range(P[p, cnt]):
            add_card(T, P, p, P[p, blk + i], S.PC_SUM, 1)
    for i in range(P[p, S.BULW_N]):
        add_card(T, P, p, P[p, S.BULW + i], S.ALL_SUM, 1)
    if P[p, S.LOC] >= 0:
        add_card(T, P, p, P[p, S.LOC], LOC_SUM, 1)
    for k in range(P[p, S.PARTY_N]):
        for j in range(4):
            P[p, S.PARTY_SUM + 4 * k + j] = 0
        add_card(T, P, p, P[p, S.PARTY + k], S.PARTY_SUM + 4 * k, 1)
    for i in range(P[p, S.ATT_N]):
        on = P[p, S.ATT_ON + i]
        add_card(T, P, p, P[p, S.ATT + i], S.PC_SUM if on < 0 else S.PARTY_SUM + 4 * on, 1)
    P[p, S.STATS_OK] = 1


@njit
def enter_stats(T, P, p, block, card):
    """A card just pushed to one of p's play zones (`actors.put_in_play`), added to the kept
    sums once they are counted."""
    if P[p, S.STATS_OK] == 0:
        return
    if block == S.BULW:
        at = S.ALL_SUM
    elif block == S.PARTY:
        at = S.PARTY_SUM + 4 * (P[p, S.PARTY_N] - 1)
        for j in range(4):
            P[p, at + j] = 0
    elif block == S.ATT:
        on = P[p, S.ATT_ON + P[p, S.ATT_N] - 1]
        at = S.PC_SUM if on < 0 else S.PARTY_SUM + 4 * on
    else:
        at = S.PC_SUM  # characteristics, support NPCs, loot
    add_card(T, P, p, card, at, 1)


@njit
def place_location(T, P, p, card):
    """p's location is now `card` (the one before it already discarded), in the kept sums."""
    if P[p, S.STATS_OK] == 1:
        if P[p, S.LOC] >= 0:
            add_card(T, P, p, P[p, S.LOC], LOC_SUM, -1)
        add_card(T, P, p, card, LOC_SUM, 1)
    P[p, S.LOC] = card


@njit
def stat_of(T, P, G, p, who, col):
    """`stat` (rules.py): a party character's stat from the kept sums (`count_stats`), less
    Hex and Ambush on the active player, floor 0."""
    if P[p, S.STATS_OK] == 0:
        count_stats(T, P, p)
    j = col - K.C_DEX
    v = P[p, S.PC_SUM + j] if who < 0 else P[p, S.PARTY_SUM + 4 * who + j]
    # Bulwark and location modifiers reach each party character, toughness too (one that
    # leaves play may so kill: wounds.check_toughness).
    v += P[p, S.ALL_SUM + j]
    if p == G[S.ACTIVE]:
        if who < 0 and (col == K.C_INT or col == K.C_DEX):
            v -= G[S.HEX]
        if col == K.C_STR:
            v -= G[S.AMBUSH]
    return v if v > 0 else 0


@njit
def pc_stats_of(T, P, G, p):
    """The PC's intelligence, dexterity and strength now (each as `stat_of` reads it): for
    the callers that read several of its objectives."""
    if P[p, S.STATS_OK] == 0:
        count_stats(T, P, p)
    i = P[p, S.PC_SUM + K.C_INT - K.C_DEX] + P[p, S.ALL_SUM + K.C_INT - K.C_DEX]
    d = P[p, S.PC_SUM] + P[p, S.ALL_SUM]
    s = P[p, S.PC_SUM + K.C_STR - K.C_DEX] + P[p, S.ALL_SUM + K.C_STR - K.C_DEX]
    if p == G[S.ACTIVE]:
        i, d, s = i - G[S.HEX], d - G[S.HEX], s - G[S.AMBUSH]
    return max(i, 0), max(d, 0), max(s, 0)


@njit
def party_strength_of(T, P, G, p):
    """Summed strength of p's party characters (each as `stat_of` reads it)."""
    if P[p, S.STATS_OK] == 0:
        count_stats(T, P, p)
    j = K.C_STR - K.C_DEX
    every = P[p, S.ALL_SUM + j]  # bulwark and location
    ambush = G[S.AMBUSH] if p == G[S.ACTIVE] else 0
    total = 0
    for who in range(-1, P[p, S.PARTY_N]):
        v = P[p, S.PC_SUM + j] if who < 0 else P[p, S.PARTY_SUM + 4 * who + j]
        v += every
        v -= ambush
        total += v if v > 0 else 0
    return total
