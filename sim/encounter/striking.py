"""The scripted policies' choices in an encounter: which strike cards the striking player
sends (strike_score, with the DEFEAT denial of beaten_for_defeat), which striker fights next
and which character defends it. The rules list the options; these pick among them."""

from __future__ import annotations

from sim.core.jit import njit
from sim.encounter import codes as K
from sim.encounter import state as S
from sim.encounter.params import (
    AGGRESSIVE,
    M_BUDGET,
    M_DENY,
    M_HEX,
    M_MIND,
    M_SNEAK,
    M_STYLE,
    RANDOM,
)
from sim.encounter.rules import card_kw, combat_winner, rand, stat


@njit
def beaten_for_defeat(C, b, card):
    """deny_defeat: the strike NPC would help A's quest hold, a DEFEAT objective that A's
    defenders meet by beating strikers; so it is sent only when stronger than every one of
    A's party characters now (public stats)."""
    T, P, G = C[0], C[2], C[3]
    q, a = G[S.QUEST], G[S.ACTIVE]
    if C[7][b, M_DENY] == 0 or (T[q, K.C_OBJ1] != K.O_DEFEAT and T[q, K.C_OBJ2] != K.O_DEFEAT):
        return False
    best = stat(C, a, -1, K.C_STR)
    for k in range(P[a, S.PARTY_N]):
        best = max(best, stat(C, a, k, K.C_STR))
    return T[card, K.C_STR] <= best


@njit
def strike_score(C, b, card):
    """careful: strength per strike cost; aggressive: strike NPCs by strength, then actions."""
    T, M = C[0], C[7]
    if M[b, M_STYLE] == RANDOM:
        return 0  # random never reads a score
    kw, arg = T[card, K.C_AB1], T[card, K.C_ARG1]
    if T[card, K.C_NATURE] == K.STRIKE:
        if beaten_for_defeat(C, b, card):
            return -1
        power = T[card, K.C_STR] * 1000
        if M[b, M_STYLE] == AGGRESSIVE:
            return 1000000 + power
    elif T[card, K.C_STAYS] != 0:
        # In b's bulwark: its stats for each of b's party characters, Budget and Sneak at
        # their weights. On a character of A's: what its stats take from that one.
        mod = T[card, K.C_STR] * 1000 + (T[card, K.C_INT] + T[card, K.C_DEX]) * M[b, M_MIND]
        power = -mod
        if T[card, K.C_STAYS] == K.STAY_BULWARK:
            power = (mod * (1 + C[2][b, S.PARTY_N]) + card_kw(T, card, K.BUDGET) * M[b, M_BUDGET]
                     + card_kw(T, card, K.SNEAK) * M[b, M_SNEAK])
        if M[b, M_STYLE] == AGGRESSIVE:
            return power
    else:
        power = arg * 1000 if kw != K.HEX else arg * M[b, M_HEX]
        if M[b, M_STYLE] == AGGRESSIVE:
            return power
    return power * 2 // (2 * T[card, K.C_COST] + 1)


@njit
def pick_striker(C, b):
    """pick_striker: opponent b sends its strongest waiting striker first (random:
    uniform)."""
    T, G = C[0], C[3]
    n = 0
    for k in range(G[S.S_N]):
        if G[S.SSTATE + k] == 0 and G[S.SOWNER + k] == b:
            n += 1
    j = rand(C, S.POLICY, b, n) if C[7][b, M_STYLE] == RANDOM else -1
    best, bv = -1, -1
    for k in range(G[S.S_N]):
        if G[S.SSTATE + k] != 0 or G[S.SOWNER + k] != b:
            continue
        if j >= 0:
            if j == 0:
                return k
            j -= 1
        elif T[G[S.SCARD + k], K.C_STR] > bv:
            best, bv = k, T[G[S.SCARD + k], K.C_STR]
    return best


@njit
def pick_defender(C, a, k, n):
    """pick_defender: the weakest defender that wins, else a party NPC (the weakest), the
    PC last (random: uniform). Option rows 0..n-1 list who may defend (-1 the PC)."""
    OP = C[9]
    if C[7][a, M_STYLE] == RANDOM:
        return OP[rand(C, S.POLICY, a, n), 0]
    win, wv, npc, nv = -2, 1 << 30, -2, 1 << 30
    for i in range(n):
        who = OP[i, 0]
        s = stat(C, a, who, K.C_STR)
        if combat_winner(C, k, who, 0, 0) == 1 and s < wv:
            win, wv = who, s
        if who >= 0 and s < nv:
            npc, nv = who, s
    if win != -2:
        return win
    return npc if npc != -2 else -1
