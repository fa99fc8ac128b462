"""What a seat's play zones hold that can maneuver, kept per seat as cards enter or leave play."""

from __future__ import annotations

from sim.core.jit import njit
from sim.encounter import codes as K
from sim.encounter import state as S
from sim.encounter.rules import lacks, push


@njit
def put_in_play(T, P, p, block, count, card):
    """`push` to one of p's play zones, then `count_actors`."""
    push(P, p, block, count, card)
    count_actors(T, P, p)


@njit
def count_actors(T, P, p):
    """The cards in p's play zones with a maneuver (an ability short of the static keywords),
    in the order list_maneuvers offers them (zone by zone), and the steps they act in
    (PLAY_STEPS, bit 0 set: counted): read at every window, changed only as cards enter or
    leave play."""
    bits, n = 1, 0
    for blk, cnt in ((S.CHARS, S.CHAR_N), (S.SUP, S.SUP_N), (S.LOOTS, S.LOOTS_N),
                     (S.BULW, S.BULW_N), (S.PARTY, S.PARTY_N), (S.ATT, S.ATT_N)):
        for i in range(P[p, cnt]):
            c = P[p, blk + i]
            if 0 < T[c, K.C_AB1] < K.DAMAGE or 0 < T[c, K.C_AB2] < K.DAMAGE:
                P[p, S.ACTORS + n] = c
                n += 1
                bits |= 1 << T[c, K.C_STEP]
    P[p, S.ACTORS_N], P[p, S.PLAY_STEPS] = n, bits


@njit(inline="always")
def may_act_in_play(P, p, step):
    """Whether a card in p's play zones may have an ability of this step: p's decks bring
    one (lacks) and a card of that step is in play now (PLAY_STEPS, once counted)."""
    now = P[p, S.PLAY_STEPS]
    return not lacks(P, p, S.PLAY_BIT + step) and (now & 1 == 0 or (now >> step) & 1 == 1)
