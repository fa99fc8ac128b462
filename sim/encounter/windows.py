"""Maneuver windows: the players in turn, each one maneuver or a pass, until every player in
the window has passed in a row."""

from __future__ import annotations

from sim.core.jit import njit
from sim.encounter import codes as K
from sim.encounter import state as S
from sim.encounter.actors import may_act_in_play
from sim.encounter.effects import O_SCORE, list_maneuvers, maneuver_score, side_gone, use_option
from sim.encounter.hand import instants_in_hand
from sim.encounter.policy import (
    O_CARD,
    O_KIND,
    O_WHERE,
    OPT_HAND,
    boost_score,
    draws_to_pass,
    might_uses,
    pick_option,
)
from sim.encounter.rules import next_seat


@njit
def anyone_may(C, step):
    """Whether a player still in has a maneuver of this step now."""
    for q in range(C[1][K.R_PLAYERS]):
        if C[2][q, S.OUT] == 0 and list_maneuvers(C, q, step, 0) > 0:
            return True
    return False


@njit(inline="always")
def window(C, step):
    """A maneuver window (`maneuver_window`). One where no player still in can have a
    maneuver of this step (none in hand: HAND_STEPS; none in play has one: PLAY_STEPS) and
    none draws to pass (`draws_to_pass`) is every player's pass at once: it closes here,
    without a call."""
    T, P = C[0], C[2]
    for q in range(C[1][K.R_PLAYERS]):
        if P[q, S.OUT] == 0 and (instants_in_hand(T, P, q, step) > 0
                                 or may_act_in_play(P, q, step) or draws_to_pass(C, q)):
            maneuver_window(C, step)
            return
    if step != K.S_QSTART:  # a quest_start window opens only when someone has a maneuver
        C[3][S.STEP] = step


@njit
def maneuver_window(C, step):
    """A maneuver window: players act in turn, A first, then counterclockwise (a combat's:
    A and the striker's owner only), one maneuver or a pass each; once every player in it
    has passed in a row it closes. The start of the quest step's window (quest_start) opens
    only when a player has such a maneuver (no policy draw otherwise), and its maneuvers
    are chosen as boost maneuvers are."""
    T, P, G, OP = C[0], C[2], C[3], C[9]
    if step == K.S_QSTART and not anyone_may(C, step):
        return
    G[S.STEP] = step
    a = p = G[S.ACTIVE]
    b = G[S.SOWNER + G[S.C_STRIKER]] if step == K.S_COMBAT else -1
    n_in = 2
    if b < 0:
        n_in = 0
        for q in range(C[1][K.R_PLAYERS]):
            if P[q, S.OUT] == 0:
                n_in += 1
    passes = 0
    for _ in range(4 * S.CAP):
        if passes >= n_in or G[S.OVER] or (b >= 0 and side_gone(C)):
            break
        n = list_maneuvers(C, p, step, 0)
        for i in range(n):
            c = OP[i, O_CARD]
            j = 0 if OP[i, O_KIND] == OPT_HAND else OP[i, O_WHERE]
            kw, arg = T[c, K.C_AB1 + 2 * j], T[c, K.C_ARG1 + 2 * j]
            if step == K.S_QSTART:
                OP[i, O_SCORE] = boost_score(C, p, OP[i, O_KIND], c, kw, arg)
                continue
            uses = 1  # how many uses a Might in play counts for (might_uses)
            if kw == K.MIGHT and OP[i, O_KIND] != OPT_HAND:
                uses = might_uses(C, p, T[c, K.C_ABCOST], P[p, S.POOL])
            OP[i, O_SCORE] = maneuver_score(C, p, kw, arg, uses)
        pick = pick_option(C, p, n)
        if pick < 0:
            passes += 1
        else:
            passes = 0
            use_option(C, p, pick)
        p = (b if p == a else a) if b >= 0 else next_seat(C, p, -1)
