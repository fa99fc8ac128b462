"""The turn's policy-driven actions in the compiled engine: the recycle, the cards played
(the hit chosen and paid, boosts, spare cards) and the shot built from its card, attachment
and boosts."""

from __future__ import annotations

from sim.core.jit import njit
from sim.paintline import abilities as A
from sim.paintline import boosts as Bo
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
def play_to_table(table, view, P, p, prm, keys, ctr, work, cs):
    """With stamina left over, the policy may put shot cards into the Arsenal and attach
    enhancements to shot cards in play that have none (the card of its choice), one card
    at a time; the options are distinct (copies count once), weighed as the policy's view
    holds the cards."""
    hits, feats, worths, sel, cand, marks, shapes = work
    if not Pol.play_considered(prm):
        return
    while True:
        n = 0
        for i in range(P[p, S.HAND_N]):
            c = P[p, S.HAND + i]
            kind = table[c, T.C_KIND]
            if kind == T.STAMINA or table[c, T.C_COST] > P[p, S.PP_READY]:
                continue  # Stamina is put into play by its own action, never here
            if Sh.repeats_in_hand(P, p, i):
                continue
            if kind == T.BASIC_SHOT or kind == T.TRICK_SHOT:
                cand[n], sel[n] = i, -1
                worths[n] = Pol.card_worth(prm, view, c, False)
                n += 1
            elif kind == T.ENHANCEMENT and A.ability_arg(table, c, K.ATTACH) >= 0:
                for s in range(P[p, S.PLAY_N]):
                    if P[p, S.ATT + s] >= 0 or same_free_slot(P, p, s):
                        continue
                    cand[n], sel[n] = i, s
                    # Among the slots, the policy prefers the shot card it values most.
                    worths[n] = (Pol.card_worth(prm, view, c, False)
                                 + 0.001 * Pol.card_worth(prm, view, P[p, S.PLAY + s], False))
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
def recycle_turn(table, view, R, prm, P, G, p, keys, ctr, seen, work):
    """The policy's recycle: which cards of hand and play go (weighed as its view holds
    them), how many cards it draws. Returns False when a draw forfeits the game."""
    hits, feats, worths, sel, cand, marks, shapes = work
    n_hand = P[p, S.HAND_N]
    n_play = P[p, S.PLAY_N]
    ratio = R[O.R_RECYCLE_RATIO]
    bag = Dl.bag_left(P, p)
    if not Pol.recycle_considered(prm, n_hand + n_play + P[p, S.PP_N], n_hand, bag, ratio):
        return True
    Pol.hand_worths(prm, view, P[p, S.HAND:S.HAND + n_hand], n_hand, P[p, S.PP_N], worths)
    for s in range(n_play):
        worths[n_hand + s] = Pol.play_worth(prm, view, P[p, S.PLAY + s], P[p, S.ATT + s])
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


@njit
def play_cards(table, view, R, prm, P, G, H, p, keys, ctr, work, cs):
    """Play cards: the policy chooses the hit with its enhancement and pays for both, adds
    more single-use enhancements, then puts spare cards into play. Returns the hit's card,
    value set, slot in play (-1 for the Default Shot) and the stamina paid to hit a card
    already in the Arsenal. The policy weighs the hits and boosts as its view holds the
    cards; the shot is built from the table."""
    hits, feats, worths, sel, cand, marks, shapes = work
    # The hits are listed only for a policy that may take another than the Default Shot.
    if Pol.hit_considered(prm):
        weighs = Pol.hit_weighs(prm)
        n_opt, hit = Sh.legal_hits(view, R, P, G, p, prm, weighs, hits, marks, shapes)
        if weighs == Pol.WEIGHS_NOTHING:  # a random pick among the options listed
            hit = hits[Pol.choose_hit(prm, feats, n_opt, keys, ctr, p)]
        src, where, card, adv, epos, enh = Sh.unpack_hit(hit)
    else:
        src, where, card, adv, epos, enh = Sh.NO_HIT
    if enh >= 0:
        Ru.remove_from_hand(P, p, epos)
        Ru.pay_stamina(P, p, table[enh, T.C_COST])
        cs[p, enh, Rec.CS_PLAYED] += 1
        if src == Sh.SRC_HAND and epos < where:
            where -= 1
    slot, reserve = -1, 0
    if src == Sh.SRC_HAND:
        Ru.pay_stamina(P, p, table[card, T.C_COST])
        cs[p, card, Rec.CS_PLAYED] += 1
        slot = Ru.play_shot_card(P, p, where)
    elif src == Sh.SRC_PLAY:
        reserve = table[card, T.C_COST]
        Ru.pay_stamina(P, p, reserve)
        slot = where
    if enh >= 0:
        if Sh.is_boost(table, enh):
            P[p, S.BOOSTS + P[p, S.BOOST_N]] = enh
            P[p, S.BOOST_N] += 1
        else:
            P[p, S.ATT + slot] = enh
    build_shot(table, R, P, G, H, p, card, adv, slot)
    n_boosts = P[p, S.BOOST_N]
    att = P[p, S.ATT + slot] if slot >= 0 else -1
    Bo.offer_boosts(table, view, R, P, G, H, p, prm, keys, ctr, feats, cand, att)
    for i in range(n_boosts, P[p, S.BOOST_N]):
        cs[p, P[p, S.BOOSTS + i], Rec.CS_PLAYED] += 1
    play_to_table(table, view, P, p, prm, keys, ctr, work, cs)
    return card, adv, slot, reserve


@njit
def recycle_keeping(table, view, R, prm, P, G, p, keys, ctr, seen, work, slot, reserve):
    """The recycle after cards are played: the card the policy will hit (at slot, with its
    attachment) and the stamina that pays to hit it from the Arsenal (reserve, the last of
    the Power Plant, spent) are not offered, and go back behind what is left. Returns
    whether no draw forfeited, and the hit's slot now."""
    if slot < 0 and reserve == 0:
        return recycle_turn(table, view, R, prm, P, G, p, keys, ctr, seen, work), slot
    card = tap = att = -1
    if slot >= 0:
        card, tap, att = P[p, S.PLAY + slot], P[p, S.TAP + slot], P[p, S.ATT + slot]
        n = P[p, S.PLAY_N]
        for i in range(slot, n - 1):
            P[p, S.PLAY + i] = P[p, S.PLAY + i + 1]
            P[p, S.TAP + i] = P[p, S.TAP + i + 1]
            P[p, S.ATT + i] = P[p, S.ATT + i + 1]
        P[p, S.PLAY_N] = n - 1
    kept = P[p, S.PP_N] - reserve
    P[p, S.PP_N] = kept
    ok = recycle_turn(table, view, R, prm, P, G, p, keys, ctr, seen, work)
    pp = P[p, S.PP_N]
    for i in range(reserve):
        # The recycle shortened the zone only below the kept stamina: move them down.
        P[p, S.PP + pp + i] = P[p, S.PP + kept + i]
    P[p, S.PP_N] = pp + reserve
    if slot >= 0:
        slot = P[p, S.PLAY_N]
        P[p, S.PLAY + slot], P[p, S.TAP + slot], P[p, S.ATT + slot] = card, tap, att
        P[p, S.PLAY_N] = slot + 1
    return ok, slot
