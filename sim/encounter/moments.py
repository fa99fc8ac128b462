"""The moments outside the steps' windows where the active player alone may act: the start of
its turn (step start) and its responses to a strike NPC played against its quest (step
response). A player with nothing to do there has no such moment: no policy draw, so matches
without such cards play as they did before these moments existed."""

from __future__ import annotations

from sim.core.jit import njit
from sim.encounter import codes as K
from sim.encounter import state as S
from sim.encounter.effects import O_SCORE, list_maneuvers, maneuver_score, use_option
from sim.encounter.policy import O_CARD, O_KIND, O_WHERE, OPT_HAND, boost_score, pick_option
from sim.encounter.rules import lacks


@njit
def alone(C, step, boosting):
    """The active player's maneuvers of this step (instants in hand, abilities in play), one
    at a time until it passes, scored as boost maneuvers are (boosting) or as window
    maneuvers are; none to perform, no moment."""
    T, G, OP = C[0], C[3], C[9]
    a = G[S.ACTIVE]
    for _ in range(4 * S.CAP):
        if G[S.OVER]:
            return
        n = list_maneuvers(C, a, step, 0)
        if n == 0:
            return
        for i in range(n):
            c = OP[i, O_CARD]
            j = 0 if OP[i, O_KIND] == OPT_HAND else OP[i, O_WHERE]
            kw, arg = T[c, K.C_AB1 + 2 * j], T[c, K.C_ARG1 + 2 * j]
            OP[i, O_SCORE] = (boost_score(C, a, OP[i, O_KIND], c, kw, arg) if boosting
                              else maneuver_score(C, a, kw, arg, 1))
        pick = pick_option(C, a, n)
        if pick < 0:
            return
        use_option(C, a, pick)


@njit(inline="always")
def may_have(C, step):
    """Whether any card of the active player's can bring a maneuver of this step (lacks):
    without one, the moment is not there, and no call is made for it."""
    P, a = C[2], C[3][S.ACTIVE]
    return not lacks(P, a, step) or not lacks(P, a, S.PLAY_BIT + step)


@njit(inline="always")
def start_of_turn(C):
    """The start of A's turn, before the draw step ("Play these cards before beginning your
    draw step"): its start maneuvers, each once a turn (list_maneuvers), chosen as boost
    maneuvers are."""
    if may_have(C, K.S_START):
        alone(C, K.S_START, True)


@njit(inline="always")
def respond(C):
    """A's responses to a strike NPC just played against its quest, chosen as window
    maneuvers are."""
    if may_have(C, K.S_RESPONSE):
        alone(C, K.S_RESPONSE, False)
