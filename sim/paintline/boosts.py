"""Single-use boosts offered to the policy one at a time once its hit is chosen and paid,
each weighed as the shot would roll with it."""

from __future__ import annotations

from sim.core.jit import njit
from sim.paintline import options as O
from sim.paintline import policy as Pol
from sim.paintline import pool as T
from sim.paintline import rules as Ru
from sim.paintline import shots as Sh
from sim.paintline import state as S


@njit
def view_shift(table, view, cards, adv):
    """(bonus, penalty) the policy's view adds to the table's, over the cards given (-1:
    none) in one value set."""
    db, dp = 0, 0
    for c in cards:
        if c >= 0:
            b, pen = Sh.value_set(view, c, adv)
            b0, p0 = Sh.value_set(table, c, adv)
            db += b - b0
            dp += pen - p0
    return db, dp


@njit
def offer_boosts(table, view, R, P, G, H, p, prm, keys, ctr, feats, cand, att):
    """Offer further affordable single-use enhancements to the policy, one at a time, up to
    boosts_per_shot; each one taken is paid, leaves the hand, boosts the shot in H and
    waits in P's boost zone until the roll. The policy weighs the shot (its card, its
    attachment `att` and its boosts) and each boost as its view holds them."""
    if (H[S.H_CARD] < 0 and R[O.R_BOOST_DEFAULT] == 0) or not Pol.boost_considered(prm):
        return
    adv = H[S.H_ADV]
    shifted = False
    db, dp = 0, 0
    while P[p, S.BOOST_N] < R[O.R_BOOSTS]:
        n = 0
        for i in range(P[p, S.HAND_N]):
            e = P[p, S.HAND + i]
            if not Sh.is_boost(table, e) or Sh.repeats_in_hand(P, p, i):
                continue
            if table[e, T.C_COST] > P[p, S.PP_READY]:
                continue
            cand[n] = i
            n += 1
        # No boost to offer: the policy has nothing to weigh (choose_boost answers -1).
        if n == 0:
            return
        if not shifted:
            db, dp = view_shift(table, view, (H[S.H_CARD], att), adv)
            for i in range(P[p, S.BOOST_N]):
                b, pen = view_shift(table, view, (P[p, S.BOOSTS + i], -1), adv)
                db, dp = db + b, dp + pen
            shifted = True
        for k in range(n):
            e = P[p, S.HAND + cand[k]]
            b, pen = Sh.value_set(view, e, adv)
            Sh.shot_features(R, G, H, db + b, dp + pen, table[e, T.C_COST], feats, k)
        # The shot as it stands, in the row after the boosts'.
        Sh.shot_features(R, G, H, db, dp, 0, feats, n)
        base = Pol.hit_score(prm, feats, n)
        k = Pol.choose_boost(prm, feats, n, base, keys, ctr, p)
        if k < 0:
            return
        b, pen = view_shift(table, view, (P[p, S.HAND + cand[k]], -1), adv)
        db, dp = db + b, dp + pen
        take_boost(table, P, p, cand[k], H)


@njit
def take_boost(table, P, p, pos, H):
    """Pay for the single-use enhancement at hand position pos; it boosts the shot in H and
    waits in the boost zone until the roll."""
    e = Ru.remove_from_hand(P, p, pos)
    Ru.pay_stamina(P, p, table[e, T.C_COST])
    P[p, S.BOOSTS + P[p, S.BOOST_N]] = e
    P[p, S.BOOST_N] += 1
    Sh.add_boost(table, e, H)
