"""The encounter-mode turn of the exact check: the lone PC against strikers of drawn
strengths, no cards."""

from __future__ import annotations

from sim.core.jit import njit
from sim.encounter import codes as K
from sim.encounter import state as S
from sim.encounter.rules import game_over, log, objective_holds, rand, stat
from sim.encounter.wounds import heal, wound


@njit
def encounter_turn(C):
    """Encounter mode: the lone PC plays the fixed quest and meets k strikers of strengths
    drawn from the list (dice stream); no cards."""
    R, P, G = C[1], C[2], C[3]
    a = G[S.ACTIVE]
    P[a, S.Q_ATT] += 1
    log(C, a, S.EV_QUEST, -1, R[K.R_EK], 0)
    for _ in range(R[K.R_EK]):
        s = R[K.R_ESTR_LIST + rand(C, S.DICE, a, R[K.R_ESTR])]
        d = stat(C, a, -1, K.C_STR)
        res = 1 if d > s else (-1 if d < s else 0)
        if res == 0:
            tie = R[K.R_TIE]
            if tie == K.TIE_INT:
                res = 1 if stat(C, a, -1, K.C_INT) > 0 else -1
            else:
                res = (1 if tie == K.TIE_DEFENDER else (0 if tie == K.TIE_NONE else -1))
        P[a, S.FACED] += 1
        log(C, a, S.EV_COMBAT, -1, P[a, S.PC] * 1000 + d, res * 1000 + s)
        if res == 1:
            G[S.WINS] += 1
            P[a, S.DEFEATED] += 1
        elif res == -1:
            wound(C, a, -1, 1)
            if G[S.OVER]:
                return
    if objective_holds(C, a, R[K.R_EOBJ], R[K.R_EARG]):
        P[a, S.POINTS] += R[K.R_EPTS]
        P[a, S.Q_DONE] += 1
        log(C, a, S.EV_SCORE, -1, R[K.R_EPTS], P[a, S.POINTS])
        if P[a, S.POINTS] >= R[K.R_POINTS]:
            game_over(C, a, K.END_POINTS)
            return
    else:
        log(C, a, S.EV_FAIL, -1, 0, 0)
    if R[K.R_HEAL] > 0:
        heal(C, a, -1, R[K.R_HEAL])
