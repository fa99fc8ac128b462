"""The targets a player picks for its keywords and character actions: the rules list who may be
picked (Cancel, Wound, Revive, Ward, Heal, the bearer of a character action or of a strike
card that stays on a character), the seat's policy parameter picks one (its word "random":
uniform on the seat's policy stream)."""

from __future__ import annotations

from sim.core.jit import njit
from sim.encounter import codes as K
from sim.encounter import state as S
from sim.encounter.params import (
    HEAL_PC,
    M_CANCEL,
    M_GEAR,
    M_HEAL,
    M_REVIVE,
    M_STAYS_ON,
    M_WARD,
    M_WOUND_P,
    M_WOUND_S,
    PICK_RANDOM,
    STAYS_STRONGEST,
)
from sim.encounter.policy import survivors_return
from sim.encounter.rules import rand, stat, unique_ok
from sim.encounter.wounds import tough_left


@njit(inline="always")
def cancel_may(C, k, arg, kw=K.CANCEL):
    """Cancel n may discard striker k: still to fight, strike cost <= n. Escape n: still
    to fight, its printed intelligence at least n under the active PC's now (the PC, the
    smarter, escapes it)."""
    T, G = C[0], C[3]
    if G[S.SSTATE + k] != 0 or k == G[S.C_STRIKER]:
        return False  # the striker fighting now is not "before it fights"
    if kw == K.ESCAPE:
        return T[G[S.SCARD + k], K.C_INT] <= stat(C, G[S.ACTIVE], -1, K.C_INT) - arg
    return T[G[S.SCARD + k], K.C_COST] <= arg


@njit
def cancel_count(C, arg, kw=K.CANCEL):
    n = 0
    for k in range(C[3][S.S_N]):
        if cancel_may(C, k, arg, kw):
            n += 1
    return n


@njit
def cancel_target(C, p, arg, kw=K.CANCEL):
    """p's Cancel n (or Escape n): the striker it discards (strongest: the strongest, first
    of equals), -1 when none may be."""
    T, G = C[0], C[3]
    n = cancel_count(C, arg, kw)
    if n == 0:
        return -1
    j = rand(C, S.POLICY, p, n) if C[7][p, M_CANCEL] == PICK_RANDOM else -1
    best, bv = -1, -1
    for k in range(G[S.S_N]):
        if not cancel_may(C, k, arg, kw):
            continue
        if j >= 0:
            if j == 0:
                return k
            j -= 1
        elif T[G[S.SCARD + k], K.C_STR] > bv:
            best, bv = k, T[G[S.SCARD + k], K.C_STR]
    return best


@njit
def striker_count(C):
    """Strikers an active player's Wound may hit: those not gone (waiting or fought)."""
    G = C[3]
    n = 0
    for k in range(G[S.S_N]):
        if G[S.SSTATE + k] < 2:
            n += 1
    return n


@njit
def striker_target(C, p, arg):
    """The active player's Wound n: the striker it hits (kill: the strongest it kills, else
    the strongest; first of equals; a kill counts for a striker yet to fight, or any when
    survivors return to hand), -1 when none is left."""
    T, G = C[0], C[3]
    n = striker_count(C)
    if n == 0:
        return -1
    j = rand(C, S.POLICY, p, n) if C[7][p, M_WOUND_S] == PICK_RANDOM else -1
    best, bv = -1, -1
    for k in range(G[S.S_N]):
        if G[S.SSTATE + k] >= 2:
            continue
        if j >= 0:
            if j == 0:
                return k
            j -= 1
            continue
        c = G[S.SCARD + k]
        kills = T[c, K.C_TOUGH] - G[S.SWOUND + k] <= arg
        v = T[c, K.C_STR] + (100 if kills and (G[S.SSTATE + k] == 0 or survivors_return(
            C)) else 0)
        if v > bv:
            best, bv = k, v
    return best


@njit
def party_target(C, p, a):
    """The striking player p's Wound: which of the active player a's party characters it
    hits (-1 the PC, k party slot k); weakest: the least toughness left, the PC first of
    equals."""
    P = C[2]
    if C[7][p, M_WOUND_P] == PICK_RANDOM:
        return rand(C, S.POLICY, p, 1 + P[a, S.PARTY_N]) - 1
    best, bv = -1, tough_left(C, a, -1)
    for k in range(P[a, S.PARTY_N]):
        t = tough_left(C, a, k)
        if t < bv:
            best, bv = k, t
    return best


@njit(inline="always")
def revive_may(C, p, i, arg):
    """Revive n may return discard position i: a party or support NPC of cost <= n that
    may enter play (unique)."""
    T, P = C[0], C[2]
    c = P[p, S.DISC + i]
    return (T[c, K.C_KIND] == K.NPC and T[c, K.C_NATURE] != K.STRIKE
            and T[c, K.C_COST] <= arg and unique_ok(C, p, c))


@njit
def revive_count(C, p, arg):
    n = 0
    for i in range(C[2][p, S.DISC_N]):
        if revive_may(C, p, i, arg):
            n += 1
    return n


@njit
def revive_target(C, p, arg):
    """p's Revive n: the discard position of the NPC it returns (costliest: the costliest,
    first of equals), -1 when none may return."""
    T, P = C[0], C[2]
    n = revive_count(C, p, arg)
    if n == 0:
        return -1
    j = rand(C, S.POLICY, p, n) if C[7][p, M_REVIVE] == PICK_RANDOM else -1
    best, bv = -1, -1
    for i in range(P[p, S.DISC_N]):
        if not revive_may(C, p, i, arg):
            continue
        if j >= 0:
            if j == 0:
                return i
            j -= 1
        elif T[P[p, S.DISC + i], K.C_COST] > bv:
            best, bv = i, T[P[p, S.DISC + i], K.C_COST]
    return best


@njit
def ward_target(C, p):
    """Who p's Ward n goes on. The active player: one of its party characters (-1 the PC,
    k party slot k; combatant: its defender in this combat, the PC outside one, none once
    the defender is killed in the window: -3). An
    opponent: one of its own strikers not gone (combatant: the striker in this combat, its
    own: only the two sides of a combat act in its window); -2 for none."""
    P, G = C[2], C[3]
    a = G[S.ACTIVE]
    rnd = C[7][p, M_WARD] == PICK_RANDOM
    if p == a:
        if rnd:
            return rand(C, S.POLICY, p, 1 + P[p, S.PARTY_N]) - 1
        # Outside a combat (-2) the PC; its defender killed in the window (-3): none.
        return -1 if G[S.C_DEF] == -2 else G[S.C_DEF]
    if not rnd:
        return G[S.C_STRIKER] if G[S.C_STRIKER] >= 0 else -2
    n = 0
    for k in range(G[S.S_N]):
        if G[S.SSTATE + k] < 2 and G[S.SOWNER + k] == p:
            n += 1
    if n == 0:
        return -2
    j = rand(C, S.POLICY, p, n)
    for k in range(G[S.S_N]):
        if G[S.SSTATE + k] < 2 and G[S.SOWNER + k] == p:
            if j == 0:
                return k
            j -= 1
    return -2


@njit
def heal_target(C, p):
    """p's Heal n: one of its wounded party characters (-1 the PC, k party slot k; most
    wounded: the most wounded, the PC first of equals; pc_first: the PC when wounded, else
    the most wounded party NPC), -2 when none is wounded."""
    P = C[2]
    n = 1 if P[p, S.PC_WOUNDS] > 0 else 0
    for k in range(P[p, S.PARTY_N]):
        if P[p, S.PWOUND + k] > 0:
            n += 1
    if n == 0:
        return -2
    how = C[7][p, M_HEAL]
    if how == PICK_RANDOM:
        j = rand(C, S.POLICY, p, n)
        if P[p, S.PC_WOUNDS] > 0:
            if j == 0:
                return -1
            j -= 1
        for k in range(P[p, S.PARTY_N]):
            if P[p, S.PWOUND + k] > 0:
                if j == 0:
                    return k
                j -= 1
        return -2
    if how == HEAL_PC and P[p, S.PC_WOUNDS] > 0:
        return -1
    best, bv = -1, P[p, S.PC_WOUNDS] if how != HEAL_PC else 0
    for k in range(P[p, S.PARTY_N]):
        if P[p, S.PWOUND + k] > bv:
            best, bv = k, P[p, S.PWOUND + k]
    return best


@njit
def gear_target(C, p, c):
    """The party character the character action c that p plays goes on (-1 the PC, k party
    slot k), among those its `attach` allows (any: the PC and the party NPCs; pc: the PC;
    party: the party NPCs). random: uniform over them; pc: the PC where allowed, else the
    first party NPC."""
    how, n = C[0][c, K.C_ATTACH], C[2][p, S.PARTY_N]
    if C[7][p, M_GEAR] == PICK_RANDOM:
        if how == K.ATTACH_PC:
            return rand(C, S.POLICY, p, 1) - 1
        if how == K.ATTACH_PARTY:
            return rand(C, S.POLICY, p, n)
        return rand(C, S.POLICY, p, 1 + n) - 1
    return 0 if how == K.ATTACH_PARTY else -1


@njit
def stays_target(C, b, a):
    """The character of the active player a that opponent b's strike card with stays =
    character goes on (-1 the PC, k party slot k; pc: the PC; strongest: the one of highest
    strength now, the PC first of equals)."""
    how = C[7][b, M_STAYS_ON]
    if how == PICK_RANDOM:
        return rand(C, S.POLICY, b, 1 + C[2][a, S.PARTY_N]) - 1
    best = -1
    if how == STAYS_STRONGEST:
        bv = stat(C, a, -1, K.C_STR)
        for k in range(C[2][a, S.PARTY_N]):
            if stat(C, a, k, K.C_STR) > bv:
                best, bv = k, stat(C, a, k, K.C_STR)
    return best
