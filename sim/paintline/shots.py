"""Hit options: what each legal hit would roll with (its card, attachment, enhancement and
the abilities in force), its exact odds over the d20, and the further single-use boosts
offered to the policy; shared by the kernel and, as plain-Python twins, by the exact solver."""

from __future__ import annotations

import numpy as np

from sim.core.jit import njit
from sim.paintline import abilities as A
from sim.paintline import keywords as K
from sim.paintline import options as O
from sim.paintline import policy as Pol
from sim.paintline import pool as T
from sim.paintline import rules as Ru
from sim.paintline import state as S

# A hit option is a shot (or the Default Shot) with at most one enhancement from hand; shot
# cards and enhancements share one deck of at most CAP cards, so s shots and e enhancements
# give at most 2 * s * (e + 1) <= (CAP + 1)^2 / 2 options, plus the Default Shot's.
MAX_OPTIONS = (S.CAP + 1) ** 2 // 2 + S.CAP + 2
# Hit option sources.
SRC_DEFAULT, SRC_PLAY, SRC_HAND = 0, 1, 2
# Columns of an option row: source, slot or hand position, card, advantage, hand position
# of its enhancement (-1 for none) and that enhancement.
O_SRC, O_WHERE, O_CARD, O_ADV, O_ENH_POS, O_ENH = 0, 1, 2, 3, 4, 5
N_OPT_COLS = 6


@njit
def value_set(table, card, adv):
    """(bonus, penalty) of a card's Normal or Advantage values."""
    if adv == 1:
        return table[card, T.C_ABONUS], table[card, T.C_APEN]
    return table[card, T.C_NBONUS], table[card, T.C_NPEN]


@njit
def prepare_shot(table, R, G, card, adv, att, H):
    """Fill H with what a shot would roll with: values of the card and its attachment (same
    value set), and the abilities in force; boosts are added by add_boost."""
    H[S.H_CARD] = card
    H[S.H_ADV] = adv
    H[S.H_BONUS] = 0
    H[S.H_PEN] = 0
    H[S.H_CRIT_LO] = 20
    H[S.H_SURGE] = 0
    H[S.H_IGNORE] = 0
    H[S.H_MUTE] = -1
    H[S.H_ATT] = att
    H[S.H_ACTIVE] = 0
    if card < 0:
        return
    b, p = value_set(table, card, adv)
    if att >= 0:
        b2, p2 = value_set(table, att, adv)
        b += b2
        p += p2
    H[S.H_BONUS] = b
    H[S.H_PEN] = p
    if A.abilities_in_force(table, card, G[S.MUTE_COST], R[O.R_TIE_RULE]):
        H[S.H_ACTIVE] = 1
        A.shape_shot(table, card, H)


@njit
def add_boost(table, e, H):
    """A single-use enhancement adds its values, in the shot's value set, to the shot."""
    b, p = value_set(table, e, H[S.H_ADV])
    H[S.H_BONUS] += b
    H[S.H_PEN] += p


@njit
def shot_need(R, G, H):
    """Target plus the incoming penalty, unless the shot ignores it."""
    pen = 0 if H[S.H_IGNORE] == 1 else G[S.IN_PEN]
    return Ru.escalation_target(G, R) + pen


# Exact d20 odds by the lowest natural roll that lands on its own (lo = 2..21; a natural 1
# always misses, 21 means none lands): (21 - lo) / 20 is the division Ru.hit_chance makes,
# made once here, so a lookup gives the same float bit for bit. MISS[lo] = 1 - LAND[lo]: a
# plain return (no bonus, a natural 20 alone critical) facing lo misses.
LAND = np.array([(21 - min(max(lo, 2), 21)) / 20.0 for lo in range(22)])
MISS = 1.0 - LAND


@njit
def option_odds(bonus, pen, crit_lo, need, next_target, crit_target, look_too):
    """(P(land), P(land and a plain return then misses)) of a shot, exact over the d20,
    from the odds tables; the look-ahead only when look_too (else 0)."""
    lo = need - bonus
    if crit_lo < lo:
        lo = crit_lo
    p_hit = LAND[2 if lo < 2 else (21 if lo > 21 else lo)]
    if not look_too:
        return p_hit, 0.0
    # Crit n gives crit_lo = max(20 - n, 2), n never negative: always a row of the table
    # (read clamped, so that no division is left for LLVM to hoist out of the options).
    p_crit = LAND[2 if crit_lo < 2 else (21 if crit_lo > 21 else crit_lo)]
    if p_crit > p_hit:
        p_crit = p_hit
    after_crit = crit_target + pen
    miss_after_crit = MISS[2 if after_crit < 2 else (20 if after_crit > 20 else after_crit)]
    after = next_target + pen
    miss_after = MISS[2 if after < 2 else (20 if after > 20 else after)]
    return p_hit, p_crit * miss_after_crit + (p_hit - p_crit) * miss_after


@njit
def next_target(R, G, surge):
    """The index value the return would face (before any critical)."""
    top = R[O.R_LADDER_LEN] - 1
    nxt = G[S.STEP] + 1 + surge
    return R[O.R_LADDER + (nxt if nxt < top else top)]


@njit
def fill_features(R, G, bonus, pen, crit_lo, surge, ignore, cost, feats, i):
    """What a policy weighs: P(land), penalty put on the opponent, P(land and a plain
    return misses), stamina spent."""
    need = Ru.escalation_target(G, R) + (0 if ignore == 1 else G[S.IN_PEN])
    put_features(need, next_target(R, G, surge), R[O.R_CRIT_TARGET], bonus, pen, crit_lo,
                 cost, feats, i, Pol.WEIGHS_ALL)


@njit
def put_features(need, nxt, crit_target, bonus, pen, crit_lo, cost, feats, i, weighs):
    """fill_features from the target already worked out (need) and the return's (nxt),
    as far as the policy weighs them (Pol.hit_weighs; a look-ahead not weighed is 0)."""
    if weighs == Pol.WEIGHS_NOTHING:
        return
    p_hit, look = option_odds(bonus, pen, crit_lo, need, nxt, crit_target,
                              weighs == Pol.WEIGHS_ALL)
    feats[i, Pol.F_HIT] = p_hit
    feats[i, Pol.F_PEN] = pen
    feats[i, Pol.F_LOOK] = look
    feats[i, Pol.F_COST] = cost


@njit
def shot_features(R, G, H, extra_bonus, extra_pen, cost, feats, i):
    """fill_features for the shot in H with extra values (a boost under consideration)."""
    fill_features(R, G, H[S.H_BONUS] + extra_bonus, H[S.H_PEN] + extra_pen, H[S.H_CRIT_LO],
                  H[S.H_SURGE], H[S.H_IGNORE], cost, feats, i)


@njit
def repeats_in_hand(P, p, i):
    """True when an earlier hand position holds the same card (not a distinct option)."""
    c = P[p, S.HAND + i]
    for j in range(i):
        if P[p, S.HAND + j] == c:
            return True
    return False


@njit
def is_boost(table, e):
    """A single-use shot enhancement (one without Attach)."""
    return table[e, T.C_KIND] == T.ENHANCEMENT and A.ability_arg(table, e, K.ATTACH) < 0


# A shot card's abilities as a hit reads them, in one word (card_shape): set once worked
# out, Serve, Ignore, the lowest critical roll (2..20) and the Surge steps above.
SHAPE_SET, SHAPE_SERVE, SHAPE_IGNORE = 1, 2, 4
SHAPE_CRIT_AT, SHAPE_CRIT_BITS, SHAPE_SURGE_AT = 3, 31, 8


@njit(forceinline=False)
def card_shape(table, card):
    """A shot card's Serve and its shot-shaping abilities (A.shot_shape) in one word, read
    once for every hit of the card (legal_hits)."""
    crit_lo, surge, ignore, _ = A.shot_shape(table, card)
    serve = SHAPE_SERVE if A.serve_only(table, card) else 0
    return (SHAPE_SET | serve | (SHAPE_IGNORE if ignore == 1 else 0)
            | (crit_lo << SHAPE_CRIT_AT) | (surge << SHAPE_SURGE_AT))


@njit
def add_option(opts, feats, n, src, where, card, adv, enh_pos, enh):
    opts[n, O_SRC], opts[n, O_WHERE], opts[n, O_CARD] = src, where, card
    opts[n, O_ADV], opts[n, O_ENH_POS], opts[n, O_ENH] = adv, enh_pos, enh


@njit
def distinct_enhancements(table, P, p):
    """Bit masks over hand positions: the first copy of each enhancement card, and of
    those the single-use ones (a hand holds at most CAP = 64 cards)."""
    enh = 0
    single = 0
    for j in range(P[p, S.HAND_N]):
        e = P[p, S.HAND + j]
        if table[e, T.C_KIND] != T.ENHANCEMENT or repeats_in_hand(P, p, j):
            continue
        enh |= 1 << j
        if is_boost(table, e):
            single |= 1 << j
    return enh, single


@njit
def legal_hits(table, R, P, G, p, opts, feats, weighs, marks, shapes):
    """Every distinct legal hit: the Default Shot, each ready Arsenal card it can pay for,
    each shot card in hand it can pay for, in each value set open to it, each alone or
    with one enhancement from hand it can also pay for (a single-use boost, or an Attach
    onto a card that has none), so the hit is chosen knowing its enhancement; each priced
    with the features the policy weighs (Pol.hit_weighs). `marks`, one zero a card, holds
    for each card in play met so far the attachment its first untapped copy bears, plus 2
    (zero again on return): a later copy bearing the same is the same hit, and only one
    bearing another is compared with the copies before it. `shapes`, one zero a card for
    each seat, keeps each card's card_shape as the seat's table gives it once it is met."""
    ready = P[p, S.PP_READY]
    serve = G[S.IS_SERVE]
    mute_cost = G[S.MUTE_COST]
    tie = R[O.R_TIE_RULE]
    boosts = R[O.R_BOOSTS] > 0
    hand_n = P[p, S.HAND_N]
    # What every option shares, worked out once: the target (plus the incoming penalty,
    # unless a shot ignores it), the types with Advantage and the enhancements in hand.
    target = Ru.escalation_target(G, R)
    in_pen = G[S.IN_PEN]
    crit_target = R[O.R_CRIT_TARGET]
    advantage = Ru.advantage_types(G[S.IN_TYPE], serve)
    enh_mask, single_mask = distinct_enhancements(table, P, p)
    # The enhancements a hit can take: a single-use boost where the rules allow one, and
    # an Attach (onto a card that bears none).
    boost_mask = single_mask if boosts else 0
    attach_mask = enh_mask & ~single_mask
    # The Default Shot: no bonus, no penalty, no abilities; boosted only if the rules say.
    add_option(opts, feats, 0, SRC_DEFAULT, -1, -1, 0, -1, -1)
    nxt = next_target(R, G, 0)
    put_features(target + in_pen, nxt, crit_target, 0, 0, 20, 0, feats, 0, weighs)
    n = 1
    if boosts and R[O.R_BOOST_DEFAULT] == 1:
        for j in range(hand_n):
            if (single_mask >> j) & 1 == 0:
                continue
            e = P[p, S.HAND + j]
            ecost = table[e, T.C_COST]
            if ecost > ready:
                continue
            b, pen = value_set(table, e, 0)
            add_option(opts, feats, n, SRC_DEFAULT, -1, -1, 0, j, e)
            put_features(target + in_pen, nxt, crit_target, b, pen, 20, ecost, feats, n, weighs)
            n += 1
    for i in range(P[p, S.PLAY_N]):
        if P[p, S.TAP + i] != 0:
            continue
        card = P[p, S.PLAY + i]
        att = P[p, S.ATT + i]
        if marks[card] == att + 2:  # the first untapped copy bore att too
            continue
        if marks[card]:  # an earlier untapped copy with another attachment
            if same_untapped_before(P, p, i, card, att):
                continue
        else:
            marks[card] = att + 2
        n = card_hits(table, R, G, P, p, opts, feats, weighs, shapes, n, SRC_PLAY, i, card,
                      att, boost_mask | (attach_mask if att < 0 else 0), ready, serve,
                      mute_cost, tie, target, in_pen, crit_target, advantage)
    for i in range(hand_n):
        card = P[p, S.HAND + i]
        kind = table[card, T.C_KIND]
        if (kind != T.BASIC_SHOT and kind != T.TRICK_SHOT) or repeats_in_hand(P, p, i):
            continue
        n = card_hits(table, R, G, P, p, opts, feats, weighs, shapes, n, SRC_HAND, i, card,
                      -1, boost_mask | attach_mask, ready, serve, mute_cost, tie, target,
                      in_pen, crit_target, advantage)
    for i in range(P[p, S.PLAY_N]):
        marks[P[p, S.PLAY + i]] = 0
    return n


@njit
def same_untapped_before(P, p, i, card, att):
    """True when an untapped card in play before slot i is this card bearing att."""
    for j in range(i):
        if P[p, S.PLAY + j] == card and P[p, S.TAP + j] == 0 and P[p, S.ATT + j] == att:
            return True
    return False


@njit
def card_hits(table, R, G, P, p, opts, feats, weighs, shapes, n, src, i, card, att, fits,
              ready, serve, mute_cost, tie, target, in_pen, crit_target, advantage):
    """legal_hits' options of one distinct card (from play at slot i bearing att, or from
    hand at position i), alone or with one of the enhancements in hand at the positions
    set in `fits`, from option n on; returns the options listed so far."""
    cost = table[card, T.C_COST]
    if cost > ready:
        return n
    shape = shapes[p, card]
    if shape == 0:
        shape = card_shape(table, card)
        shapes[p, card] = shape
    if serve == 0 and shape & SHAPE_SERVE:
        return n
    crit_lo, surge, ignore = 20, 0, 0
    if A.abilities_in_force(table, card, mute_cost, tie):
        crit_lo = (shape >> SHAPE_CRIT_AT) & SHAPE_CRIT_BITS
        surge = shape >> SHAPE_SURGE_AT
        ignore = 1 if shape & SHAPE_IGNORE else 0
    need = target + (0 if ignore == 1 else in_pen)
    nxt = next_target(R, G, surge)
    hand_n = P[p, S.HAND_N] if fits else 0
    for adv in range(1 + ((advantage >> table[card, T.C_TYPE]) & 1)):
        b, pen = value_set(table, card, adv)
        if att >= 0:
            b2, p2 = value_set(table, att, adv)
            b += b2
            pen += p2
        add_option(opts, feats, n, src, i, card, adv, -1, -1)
        put_features(need, nxt, crit_target, b, pen, crit_lo, cost, feats, n, weighs)
        n += 1
        for j in range(hand_n):
            if (fits >> j) & 1 == 0:
                continue
            e = P[p, S.HAND + j]
            ecost = table[e, T.C_COST]
            if cost + ecost > ready:
                continue
            b2, p2 = value_set(table, e, adv)
            add_option(opts, feats, n, src, i, card, adv, j, e)
            put_features(need, nxt, crit_target, b + b2, pen + p2, crit_lo, cost + ecost,
                         feats, n, weighs)
            n += 1
    return n


@njit
def view_shift(table, view, cards, adv):
    """(bonus, penalty) the policy's view adds to the table's, over the cards given (-1:
    none) in one value set."""
    db, dp = 0, 0
    for c in cards:
        if c >= 0:
            b, pen = value_set(view, c, adv)
            b0, p0 = value_set(table, c, adv)
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
            if not is_boost(table, e) or repeats_in_hand(P, p, i):
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
            b, pen = value_set(view, e, adv)
            shot_features(R, G, H, db + b, dp + pen, table[e, T.C_COST], feats, k)
        # The shot as it stands, in the row after the boosts'.
        shot_features(R, G, H, db, dp, 0, feats, n)
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
    add_boost(table, e, H)
