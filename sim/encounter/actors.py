"""What a seat's play zones hold that can maneuver, kept per seat as cards enter or leave play."""

from __future__ import annotations

from sim.core.jit import njit
from sim.encounter import codes as K
from sim.encounter import state as S
from sim.encounter.rules import lacks, push
from sim.encounter.stats import count_stats, enter_stats

# The play zones in the order list_maneuvers reads them; an actor is listed as card * 8 +
# its zone's rank here.
ZONES = ((S.CHARS, S.CHAR_N, 0), (S.SUP, S.SUP_N, 1), (S.LOOTS, S.LOOTS_N, 2),
         (S.BULW, S.BULW_N, 3), (S.PARTY, S.PARTY_N, 4), (S.ATT, S.ATT_N, 5))


@njit(inline="always")
def acts(T, c):
    """Whether card c has a maneuver: an ability short of the static keywords."""
    return 0 < T[c, K.C_AB1] < K.DAMAGE or 0 < T[c, K.C_AB2] < K.DAMAGE


@njit
def put_in_play(T, P, p, block, count, card):
    """`push` to one of p's play zones; a card with a maneuver joins the actors at the end of
    its zone's (the first card of a game: `count_actors`); its stats join the kept sums."""
    push(P, p, block, count, card)
    if P[p, S.PLAY_STEPS] & 1 == 0:
        count_actors(T, P, p)
        return
    enter_stats(T, P, p, block, card)
    if acts(T, card):
        z = 0
        for blk, _, rank in ZONES:
            if blk == block:
                z = rank
        i = P[p, S.ACTORS_N]
        while i > 0 and P[p, S.ACTORS + i - 1] & 7 > z:
            P[p, S.ACTORS + i] = P[p, S.ACTORS + i - 1]
            i -= 1
        P[p, S.ACTORS + i] = card * 8 + z
        P[p, S.ACTORS_N] += 1
        P[p, S.PLAY_STEPS] |= 1 << T[card, K.C_STEP]


@njit
def count_actors(T, P, p):
    """The cards in p's play zones with a maneuver, in the order list_maneuvers offers them
    (zone by zone, each as card * 8 + zone rank), and the steps they act in (PLAY_STEPS,
    bit 0 set: counted): read at every window; counted whole after a card leaves play, with
    the kept stat sums (`stats.count_stats`)."""
    bits, n = 1, 0
    for blk, cnt, rank in ZONES:
        for i in range(P[p, cnt]):
            c = P[p, blk + i]
            if acts(T, c):
                P[p, S.ACTORS + n] = c * 8 + rank
                n += 1
                bits |= 1 << T[c, K.C_STEP]
    P[p, S.ACTORS_N], P[p, S.PLAY_STEPS] = n, bits
    count_stats(T, P, p)


@njit(inline="always")
def may_act_in_play(P, p, step):
    """Whether a card in p's play zones may have an ability of this step: p's decks bring
    one (lacks) and a card of that step is in play now (PLAY_STEPS, once counted)."""
    now = P[p, S.PLAY_STEPS]
    return not lacks(P, p, S.PLAY_BIT + step) and (now & 1 == 0 or (now >> step) & 1 == 1)
