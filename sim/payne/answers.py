"""Payne's answers and orders a player gives while the rules resolve a card: the side order of
a Reveal's answer, a lie under MayLie, which of a card's two effects comes first."""

from __future__ import annotations

from sim.core.jit import njit
from sim.core.rng import POLICY, next_below
from sim.payne import pool as T
from sim.payne.params import (
    ANSWER_RANDOM,
    EFFECT_ORDER,
    KIND,
    LIE_RATE,
    ORDER_RANDOM,
    ORDER_REVEAL_FIRST,
    PRIOR,
    RANDOM,
    REVEAL_ANSWER,
)
from sim.payne.policy import attacker_odds, chance, side_odds
from sim.payne.state import lit, meet

TRUTH = -2  # lie_answer: tell the truth


@njit
def reveal_order(table, geometry, prm, need_lit, opp_seen, know, w, order, keys, ctr, p):
    """The answerer's order of his character's sides for a Reveal (the truthful answer is
    the first in the asked state). reveal_answer random: a random order from his policy
    stream; guarded: least use to the asker first, ties by side (N E S W). Asked an unlit
    side of his defender, the sides the asker's attacker is least likely to light (his
    unseen offensive copies, or what is known); asked a lit arrow of his attacker, the
    arrows meeting the sides he is least likely to attack (the odds he attacks by)."""
    for s in range(4):
        order[s] = s
    if prm[REVEAL_ANSWER] == ANSWER_RANDOM:
        for i in range(3, 0, -1):
            j = next_below(keys, ctr, p, POLICY, i + 1)
            order[i], order[j] = order[j], order[i]
        return
    if need_lit:
        side_odds(table, opp_seen, know, w[4:8])
        for s in range(4):
            w[meet(geometry, s)] = w[4 + s]
    else:
        attacker_odds(table, opp_seen, know, w[4:8])
        for s in range(4):
            w[s] = w[4 + meet(geometry, s)]
    for i in range(1, 4):
        j = i
        while j > 0 and w[order[j]] < w[order[j - 1]]:
            order[j], order[j - 1] = order[j - 1], order[j]
            j -= 1


@njit
def effect_first(table, prm, c, keys, ctr, p):
    """Which printed effect of a card its player applies first (0 or 1). effect_order
    random: a coin from his policy stream; print: as printed; reveal_first: a Reveal before
    the other effect, else as printed. A card with one effect has no order to choose."""
    if table[c, T.C_EFF2] == T.NONE:
        return 0
    if prm[EFFECT_ORDER] == ORDER_RANDOM:
        return next_below(keys, ctr, p, POLICY, 2)
    if prm[EFFECT_ORDER] == ORDER_REVEAL_FIRST:
        return 1 if table[c, T.C_EFF2] == T.REVEAL and table[c, T.C_EFF1] != T.REVEAL else 0
    return 0


@njit
def lie_answer(prm, need_lit, belief, order, keys, ctr, p):
    """Under MayLie: the answer to give (a side or -1 for 'none'), or TRUTH."""
    if prm[KIND] == RANDOM:
        if chance(prm, prm[LIE_RATE], keys, ctr, p):
            return next_below(keys, ctr, p, POLICY, 5) - 1
        return TRUTH
    if prm[KIND] == PRIOR:
        for i in range(4):
            if lit(belief, order[i]) != need_lit:
                return order[i]
        return -1
    return TRUTH
