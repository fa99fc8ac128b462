"""The score step: a quest's objectives read, its points, reward and loot reveal."""

from __future__ import annotations

from sim.core.jit import njit
from sim.encounter import codes as K
from sim.encounter import state as S
from sim.encounter.actors import put_in_play
from sim.encounter.effects import can_pay, pay, resolve
from sim.encounter.policy import play_loot
from sim.encounter.rules import (
    X_DRAWN,
    game_over,
    log,
    loot_bottom,
    loot_top,
    note,
    objective_holds,
    start_step,
    to_bottom,
    unique_ok,
)
from sim.encounter.windows import window
from sim.encounter.wounds import check_toughness


@njit
def score_step(C):
    """Window; if every objective holds A scores the quest (reaching points_to_win wins at
    once), resolves its reward and reveals its loot, else the quest goes under A's draw
    deck."""
    T, R, P, G = C[0], C[1], C[2], C[3]
    a = G[S.ACTIVE]
    q = G[S.QUEST]
    start_step(C, K.S_SCORE)
    window(C, K.S_SCORE)
    if G[S.OVER] or q < 0:
        return
    ok = True
    for oc in (K.C_OBJ1, K.C_OBJ2):
        if T[q, oc] != 0:
            holds = objective_holds(C, a, T[q, oc], T[q, oc + 1])
            log(C, a, S.EV_OBJECTIVE, q, T[q, oc] * 1000 + T[q, oc + 1], 1 if holds else 0)
            ok = ok and holds
    if not ok:
        to_bottom(P, a, q)
        log(C, a, S.EV_FAIL, q, 0, 0)
        return
    G[S.COMPLETED] = 1
    P[a, S.POINTS] += T[q, K.C_QPOINTS]
    P[a, S.Q_DONE] += 1
    note(C, a, q, S.ST_SUCCEEDED)
    log(C, a, S.EV_SCORE, q, T[q, K.C_QPOINTS], P[a, S.POINTS])
    if P[a, S.POINTS] >= R[K.R_POINTS]:
        game_over(C, a, K.END_POINTS)  # at once: no reward, no loot
        return
    for j in range(2):
        kw = T[q, K.C_AB1 + 2 * j]
        if kw != 0:
            resolve(C, a, kw, T[q, K.C_ARG1 + 2 * j], q)
    reveal_loot(C, a, T[q, K.C_LPOINTS])


@njit
def reveal_loot(C, a, n):
    """Reveal n loot cards; play those the policy wants and may play (unique; play_loot =
    paid: its cost paid like any card's), while A is in the game; the rest go under the
    loot deck in reveal order."""
    T, R, P, G, X, OP = C[0], C[1], C[2], C[3], C[4], C[9]
    m = 0
    for _ in range(n):
        c = loot_top(C, a)
        if c < 0:
            break
        X[a, c, X_DRAWN] = 1
        note(C, a, c, S.ST_USED)
        log(C, a, S.EV_REVEAL, c, 0, 0)
        OP[m, 0] = c
        m += 1
    for i in range(m):
        c = OP[i, 0]
        cost = T[c, K.C_COST] if R[K.R_LOOT] == 1 else 0
        legal = T[c, K.C_KIND] == K.LOOT and unique_ok(C, a, c) and can_pay(C, a, cost, 0)
        if G[S.OVER] == 0 and legal and play_loot(C, a):
            pay(C, a, cost)
            put_in_play(T, P, a, S.LOOTS, S.LOOTS_N, c)
            note(C, a, c, S.ST_PLAYED)
            note(C, a, c, S.ST_SUCCEEDED)
            log(C, a, S.EV_LOOT, c, 0, 0)
            check_toughness(C, a)  # a loot card's negative toughness may kill the PC
        else:
            loot_bottom(P, a, c)
