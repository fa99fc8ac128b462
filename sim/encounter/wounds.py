"""Wounds: a character or striker wounded (less its ward) or healed, a character left with
no toughness killed, and a killed party NPC removed."""

from __future__ import annotations

from sim.core.jit import njit
from sim.encounter import codes as K
from sim.encounter import state as S
from sim.encounter.actors import count_actors
from sim.encounter.rules import discard, log, lose, stat


@njit(inline="always")
def tough_left(C, p, who):
    P = C[2]
    w = P[p, S.PC_WOUNDS] if who < 0 else P[p, S.PWOUND + who]
    return stat(C, p, who, K.C_TOUGH) - w


@njit
def remove_party(C, p, k):
    """Party NPC in slot k, and what it bears, to its owners' discard piles; slots close up
    (the defender of a combat under way with them: -3 when it is the one removed)."""
    P, G = C[2], C[3]
    if p == G[S.ACTIVE] and G[S.C_STRIKER] >= 0:
        if G[S.C_DEF] == k:
            G[S.C_DEF] = -3
        elif G[S.C_DEF] > k:
            G[S.C_DEF] -= 1
    discard(P, p, P[p, S.PARTY + k])
    j = 0
    for i in range(P[p, S.ATT_N]):
        on = P[p, S.ATT_ON + i]
        if on == k:
            discard(P, P[p, S.ATT_BY + i], P[p, S.ATT + i])  # to its owner's pile
            continue
        P[p, S.ATT + j], P[p, S.ATT_BY + j] = P[p, S.ATT + i], P[p, S.ATT_BY + i]
        P[p, S.ATT_ON + j] = on - 1 if on > k else on
        j += 1
    P[p, S.ATT_N] = j
    for i in range(k, P[p, S.PARTY_N] - 1):
        for blk in (S.PARTY, S.PWOUND, S.PWARD, S.PDEF):
            P[p, blk + i] = P[p, blk + i + 1]
    P[p, S.PARTY_N] -= 1
    count_actors(C[0], P, p)


@njit
def wound(C, p, who, n):
    """n wounds to p's party character, less its ward; a character at 0 toughness left is
    killed at once (a PC's owner loses)."""
    P, G = C[2], C[3]
    ward = P[p, S.PC_WARD] if who < 0 else P[p, S.PWARD + who]
    stop = ward if ward < n else n
    n -= stop
    card = P[p, S.PC] if who < 0 else P[p, S.PARTY + who]
    if who < 0:
        P[p, S.PC_WARD] -= stop
        P[p, S.PC_WOUNDS] += n
        P[p, S.PC_WOUNDS_ALL] += n
        if p == G[S.ACTIVE]:
            G[S.PCW_TURN] += n
    else:
        P[p, S.PWARD + who] -= stop
        P[p, S.PWOUND + who] += n
        P[p, S.PARTY_WOUNDS_ALL] += n
    log(C, p, S.EV_WOUND, card, n, stop)
    if n > 0 and tough_left(C, p, who) <= 0:
        kill(C, p, who)


@njit
def kill(C, p, who):
    """p's party character killed at once: a PC's owner loses, a party NPC goes to the
    discard pile with what it bears."""
    P, G = C[2], C[3]
    log(C, p, S.EV_KILL, P[p, S.PC] if who < 0 else P[p, S.PARTY + who], 0, 0)
    if who < 0:
        P[p, S.DEATH_TURN], P[p, S.DEATH_ROUND] = G[S.TURN], G[S.ROUNDS]
        lose(C, p, K.END_KILLED)
    else:
        remove_party(C, p, who)


@njit
def check_toughness(C, p):
    """"When a character's toughness is reduced to 0, that character is immediately
    killed", by a wound or not: after a card enters or leaves p's play (a negative toughness,
    a location replaced), each of p's party characters with no toughness left is killed,
    the PC first."""
    P = C[2]
    if tough_left(C, p, -1) <= 0:
        kill(C, p, -1)
        return
    k = 0
    while k < P[p, S.PARTY_N]:
        if tough_left(C, p, k) <= 0:
            kill(C, p, k)  # the slots close up: slot k holds the next one
        else:
            k += 1


@njit
def wound_striker(C, k, n):
    """n wounds to striker k (its owner's), less its ward; killed at its toughness."""
    T, P, G = C[0], C[2], C[3]
    stop = G[S.SWARD + k] if G[S.SWARD + k] < n else n
    n -= stop
    G[S.SWARD + k] -= stop
    G[S.SWOUND + k] += n
    b = G[S.SOWNER + k]
    card = G[S.SCARD + k]
    log(C, b, S.EV_WOUND, card, n, stop)
    if n > 0 and T[card, K.C_TOUGH] - G[S.SWOUND + k] <= 0:
        log(C, b, S.EV_KILL, card, 0, 0)
        G[S.SSTATE + k] = 2
        discard(P, b, card)


@njit
def heal(C, p, who, n):
    P = C[2]
    slot = S.PC_WOUNDS if who < 0 else S.PWOUND + who
    h = P[p, slot] if P[p, slot] < n else n
    P[p, slot] -= h
    return h
