"""The turn's policy-driven actions in the compiled engine: the recycle, cards put into play
after the hit is chosen, and the shot built from its card, attachment and boosts."""

from __future__ import annotations

from sim.jit import njit
from sim.paintline import abilities as A
from sim.paintline import deal as Dl
from sim.paintline import keywords as K
from sim.paintline import options as O
from sim.paintline import policy as Pol
from sim.paintline import pool as T
from sim.paintline import rules as Ru
from sim.paintline import schema as Rec
from sim.paintline import shots as Sh
from sim.paintline import state as S


@njit
def play_to_table(table, P, p, prm, keys, ctr, work, cs):
    """With stamina left over, the policy may put shot cards into the Arsenal and attach
    enhancements to shot cards in play that have none (the card of its choice), one card
    at a time; the options are distinct (copies count once)."""
    opts, feats, worths, sel, cand = work
    if not Pol.play_considered(prm):
        return
    while True:
        n = 0
        for i in range(P[p, S.HAND_N]):
            c = P[p, S.HAND + i]
            kind = table[c, T.C_KIND]
            if table[c, T.C_COST] > P[p, S.PP_READY] or Sh.repeats_in_hand(P, p, i):
                continue
            if kind == T.BASIC_SHOT or kind == T.TRICK_SHOT:
                cand[n], sel[n] = i, -1
                worths[n] = Pol.card_worth(prm, table, c, False)
                n += 1
            elif kind == T.ENHANCEMENT and A.ability_arg(table, c, K.ATTACH) >= 0:
                for s in range(P[p, S.PLAY_N]):
                    if P[p, S.ATT + s] >= 0 or same_free_slot(P, p, s):
                        continue
                    cand[n], sel[n] = i, s
                    # Among the slots, the policy prefers the shot card it values most.
                    worths[n] = (Pol.card_worth(prm, table, c, False)
                                 + 0.001 * Pol.card_worth(prm, table, P[p, S.PLAY + s], False))
                    n += 1
        j = Pol.choose_play(prm, worths, n, keys, ctr, p)
        if j < 0:
            return
        c = P[p, S.HAND + cand[j]]
        Ru.pay_stamina(P, p, table[c, T.C_COST])
        cs[p, c, Rec.CS_PLAYED] += 1
        if sel[j] >= 0:
            Ru.attach_enhancement(P, p, cand[j], sel[j])
        else:
            Ru.play_shot_card(P, p, cand[j])


@njit
def same_free_slot(P, p, s):
    """True when an earlier slot holds the same card, as tapped, with no attachment."""
    for j in range(s):
        if (P[p, S.ATT + j] < 0 and P[p, S.PLAY + j] == P[p, S.PLAY + s]
                and P[p, S.TAP + j] == P[p, S.TAP + s]):
            return True
    return False


@njit
def recycle_turn(table, R, prm, P, G, p, keys, ctr, seen, work):
    """The policy's recycle: which cards of hand and play go, how many cards it draws.
    Returns False when a draw forfeits the game."""
    opts, feats, worths, sel, cand = work
    n_hand = P[p, S.HAND_N]
    n_play = P[p, S.PLAY_N]
    ratio = R[O.R_RECYCLE_RATIO]
    bag = Dl.bag_left(P, p)
    if not Pol.recycle_considered(prm, n_hand + n_play + P[p, S.PP_N], n_hand, bag, ratio):
        return True
    Pol.hand_worths(prm, table, P[p, S.HAND:S.HAND + n_hand], n_hand, P[p, S.PP_N], worths)
    for s in range(n_play):
        worths[n_hand + s] = Pol.play_worth(prm, table, P[p, S.PLAY + s], P[p, S.ATT + s])
    n = n_hand + n_play
    for i in range(P[p, S.PP_N]):
        worths[n + i] = Pol.power_plant_worth(prm, i)
    n += P[p, S.PP_N]
    k = Pol.choose_recycle(prm, worths, n, n_hand, bag, ratio, keys, ctr, p, sel)
    if k == 0:
        return True
    draws = Pol.choose_recycle_draws(prm, k, Dl.safe_draws(P, R, p), keys, ctr, p)
    return Ru.recycle(table, P, G, R, p, sel, k * ratio, draws, seen)


@njit
def build_shot(table, R, P, G, H, p, card, adv, slot):
    """H from the card, its attachment and the boosts paid so far."""
    att = P[p, S.ATT + slot] if slot >= 0 else -1
    Sh.prepare_shot(table, R, G, card, adv, att, H)
    for i in range(P[p, S.BOOST_N]):
        Sh.add_boost(table, P[p, S.BOOSTS + i], H)
