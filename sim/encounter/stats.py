"""A party character's stats now: its card plus the modifiers in force, read from the cards in
play (the rule `stat`), one character and stat at a time or several at once."""

from __future__ import annotations

from sim.core.jit import njit
from sim.encounter import codes as K
from sim.encounter import state as S


@njit
def stat_of(T, P, G, p, who, col):
    """`stat` (rules.py) on the three arrays it reads: compiled once and called, where the
    whole body inlined at each of its many call sites was typed again at every one of them."""
    if who < 0:
        v = T[P[p, S.PC], col]
        for blk, cnt in ((S.CHARS, S.CHAR_N), (S.SUP, S.SUP_N), (S.LOOTS, S.LOOTS_N)):
            for i in range(P[p, cnt]):
                v += T[P[p, blk + i], col]
    else:
        v = T[P[p, S.PARTY + who], col]
    for i in range(P[p, S.ATT_N]):
        if P[p, S.ATT_ON + i] == who:
            v += T[P[p, S.ATT + i], col]
    # Bulwark and location modifiers reach each party character, toughness too (one that
    # leaves play may so kill: wounds.check_toughness).
    for i in range(P[p, S.BULW_N]):
        v += T[P[p, S.BULW + i], col]
    if P[p, S.LOC] >= 0:
        v += T[P[p, S.LOC], col]
    if p == G[S.ACTIVE]:
        if who < 0 and (col == K.C_INT or col == K.C_DEX):
            v -= G[S.HEX]
        if col == K.C_STR:
            v -= G[S.AMBUSH]
    return v if v > 0 else 0


@njit
def pc_stats_of(T, P, G, p):
    """The PC's intelligence, dexterity and strength now (each as `stat_of` reads it), in one
    pass over the cards that reach it: for the callers that read several of its
    objectives."""
    pc = P[p, S.PC]
    i, d, s = T[pc, K.C_INT], T[pc, K.C_DEX], T[pc, K.C_STR]
    for blk, cnt in ((S.CHARS, S.CHAR_N), (S.SUP, S.SUP_N), (S.LOOTS, S.LOOTS_N),
                     (S.BULW, S.BULW_N)):
        for j in range(P[p, cnt]):
            c = P[p, blk + j]
            i, d, s = i + T[c, K.C_INT], d + T[c, K.C_DEX], s + T[c, K.C_STR]
    for j in range(P[p, S.ATT_N]):
        if P[p, S.ATT_ON + j] == -1:
            c = P[p, S.ATT + j]
            i, d, s = i + T[c, K.C_INT], d + T[c, K.C_DEX], s + T[c, K.C_STR]
    if P[p, S.LOC] >= 0:
        c = P[p, S.LOC]
        i, d, s = i + T[c, K.C_INT], d + T[c, K.C_DEX], s + T[c, K.C_STR]
    if p == G[S.ACTIVE]:
        i, d, s = i - G[S.HEX], d - G[S.HEX], s - G[S.AMBUSH]
    return max(i, 0), max(d, 0), max(s, 0)


@njit
def party_strength_of(T, P, G, p):
    """Summed strength of p's party characters (each as `stat_of` reads it), in one call:
    what reaches every one of them (bulwark, location, Ambush) read once."""
    bulwark = 0
    for j in range(P[p, S.BULW_N]):
        bulwark += T[P[p, S.BULW + j], K.C_STR]
    loc = T[P[p, S.LOC], K.C_STR] if P[p, S.LOC] >= 0 else 0
    ambush = G[S.AMBUSH] if p == G[S.ACTIVE] else 0
    total = 0
    for who in range(-1, P[p, S.PARTY_N]):
        if who < 0:
            v = T[P[p, S.PC], K.C_STR]
            for blk, cnt in ((S.CHARS, S.CHAR_N), (S.SUP, S.SUP_N), (S.LOOTS, S.LOOTS_N)):
                for j in range(P[p, cnt]):
                    v += T[P[p, blk + j], K.C_STR]
        else:
            v = T[P[p, S.PARTY + who], K.C_STR]
        for j in range(P[p, S.ATT_N]):
            if P[p, S.ATT_ON + j] == who:
                v += T[P[p, S.ATT + j], K.C_STR]
        v += bulwark
        v += loc
        v -= ambush
        total += v if v > 0 else 0
    return total
