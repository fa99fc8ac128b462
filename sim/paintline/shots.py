"""Hit options: what each legal hit would roll with (its card, attachment, boost and the
abilities in force), its exact odds over the d20, and the single-use boost offered to the
policy; shared by the kernel and, as plain-Python twins, by the exact solver."""

from __future__ import annotations

from sim.jit import njit
from sim.paintline import abilities as A
from sim.paintline import keywords as K
from sim.paintline import options as O
from sim.paintline import policy as Pol
from sim.paintline import pool as T
from sim.paintline import rules as Ru
from sim.paintline import state as S

MAX_OPTIONS = 2 * 2 * S.CAP + 1
# Hit option sources.
SRC_DEFAULT, SRC_PLAY, SRC_HAND = 0, 1, 2
# Columns of an option row: source, slot or hand position, card, advantage.
O_SRC, O_WHERE, O_CARD, O_ADV = 0, 1, 2, 3


@njit
def value_set(table, card, adv):
    """(bonus, penalty) of a card's Normal or Advantage values."""
    if adv == 1:
        return table[card, T.C_ABONUS], table[card, T.C_APEN]
    return table[card, T.C_NBONUS], table[card, T.C_NPEN]


@njit
def prepare_shot(table, R, G, card, adv, att, boost, H):
    """Fill H with what a shot would roll with: values of the card, its attachment and
    boost (same value set), and the abilities in force."""
    H[S.H_CARD] = card
    H[S.H_ADV] = adv
    H[S.H_BONUS] = 0
    H[S.H_PEN] = 0
    H[S.H_CRIT_LO] = 20
    H[S.H_SURGE] = 0
    H[S.H_IGNORE] = 0
    H[S.H_MUTE] = -1
    H[S.H_BOOST] = boost
    H[S.H_ACTIVE] = 0
    if card < 0:
        return
    b, p = value_set(table, card, adv)
    if att >= 0:
        b2, p2 = value_set(table, att, adv)
        b += b2
        p += p2
    if boost >= 0:
        b2, p2 = value_set(table, boost, adv)
        b += b2
        p += p2
    H[S.H_BONUS] = b
    H[S.H_PEN] = p
    if A.abilities_in_force(table, card, G[S.MUTE_COST], R[O.R_TIE_RULE]):
        H[S.H_ACTIVE] = 1
        A.shape_shot(table, card, H)


@njit
def shot_need(R, G, H):
    """Target plus the incoming penalty, unless the shot ignores it."""
    pen = 0 if H[S.H_IGNORE] == 1 else G[S.IN_PEN]
    return Ru.escalation_target(G, R) + pen


@njit
def option_odds(bonus, pen, crit_lo, need, next_target, crit_target):
    """(P(land), P(land and a plain return then misses)) of a shot, exact over the d20."""
    p_hit = Ru.hit_chance(bonus, need, crit_lo)
    p_crit = (21 - crit_lo) / 20.0
    if p_crit > p_hit:
        p_crit = p_hit
    miss_after_crit = 1.0 - Ru.hit_chance(0, crit_target + pen, 20)
    miss_after = 1.0 - Ru.hit_chance(0, next_target + pen, 20)
    return p_hit, p_crit * miss_after_crit + (p_hit - p_crit) * miss_after


@njit
def next_target(R, G, surge):
    """The index value the return would face (before any critical)."""
    top = R[O.R_LADDER_LEN] - 1
    nxt = G[S.STEP] + 1 + surge
    return R[O.R_LADDER + (nxt if nxt < top else top)]


@njit
def shot_features(R, G, H, cost, feats, i):
    """What a policy weighs: P(land), penalty put on the opponent, P(land and a plain
    return misses), stamina spent."""
    p_hit, look = option_odds(H[S.H_BONUS], H[S.H_PEN], H[S.H_CRIT_LO], shot_need(R, G, H),
                              next_target(R, G, H[S.H_SURGE]), R[O.R_CRIT_TARGET])
    feats[i, Pol.F_HIT] = p_hit
    feats[i, Pol.F_PEN] = H[S.H_PEN]
    feats[i, Pol.F_LOOK] = look
    feats[i, Pol.F_COST] = cost


@njit
def legal_hits(table, R, P, G, p, opts, feats, memo, stamp, clock):
    """Every legal hit: the Default Shot, each ready Arsenal card it can pay for, each shot
    card in hand it can pay for, in each value set open to it. The odds of a card without
    attachment are worked out once a turn (copies share them)."""
    clock[0] += 1
    now = clock[0]
    ready = P[p, S.PP_READY]
    serve = G[S.IS_SERVE]
    target = Ru.escalation_target(G, R)
    in_pen = G[S.IN_PEN]
    mute_cost = G[S.MUTE_COST]
    tie = R[O.R_TIE_RULE]
    crit_target = R[O.R_CRIT_TARGET]
    # The Default Shot: no bonus, no penalty, no abilities.
    p_hit, look = option_odds(0, 0, 20, target + in_pen, next_target(R, G, 0), crit_target)
    opts[0, O_SRC], opts[0, O_WHERE], opts[0, O_CARD], opts[0, O_ADV] = SRC_DEFAULT, -1, -1, 0
    feats[0, Pol.F_HIT], feats[0, Pol.F_PEN] = p_hit, 0.0
    feats[0, Pol.F_LOOK], feats[0, Pol.F_COST] = look, 0.0
    n = 1
    for src in (SRC_PLAY, SRC_HAND):
        count = P[p, S.PLAY_N] if src == SRC_PLAY else P[p, S.HAND_N]
        for i in range(count):
            if src == SRC_PLAY:
                if P[p, S.TAP + i] != 0:
                    continue
                card = P[p, S.PLAY + i]
                att = P[p, S.ATT + i]
            else:
                card = P[p, S.HAND + i]
                att = -1
                kind = table[card, T.C_KIND]
                if kind != T.BASIC_SHOT and kind != T.TRICK_SHOT:
                    continue
            cost = table[card, T.C_COST]
            if cost > ready or (serve == 0 and A.serve_only(table, card)):
                continue
            sets = 2 if Ru.has_advantage(table[card, T.C_TYPE], G[S.IN_TYPE], serve) else 1
            for adv in range(sets):
                key = card * 2 + adv
                if att < 0 and stamp[key] == now:
                    p_hit, pen, look = memo[key, 0], memo[key, 1], memo[key, 2]
                else:
                    b, pen = value_set(table, card, adv)
                    if att >= 0:
                        b2, p2 = value_set(table, att, adv)
                        b += b2
                        pen += p2
                    crit_lo, surge, ignore = 20, 0, 0
                    if A.abilities_in_force(table, card, mute_cost, tie):
                        crit_lo, surge, ignore, _ = A.shot_shape(table, card)
                    need = target + (0 if ignore == 1 else in_pen)
                    p_hit, look = option_odds(b, pen, crit_lo, need, next_target(R, G, surge),
                                              crit_target)
                    if att < 0:
                        stamp[key] = now
                        memo[key, 0], memo[key, 1], memo[key, 2] = p_hit, pen, look
                opts[n, O_SRC], opts[n, O_WHERE] = src, i
                opts[n, O_CARD], opts[n, O_ADV] = card, adv
                feats[n, Pol.F_HIT], feats[n, Pol.F_PEN] = p_hit, pen
                feats[n, Pol.F_LOOK], feats[n, Pol.F_COST] = look, cost
                n += 1
    return n


@njit
def choose_boost_card(table, R, P, G, H, p, prm, slot, adv, keys, ctr, work):
    """Offer the affordable single-use enhancements in hand to the policy; returns the
    enhancement card chosen (paid, out of hand) or -1."""
    opts, feats, worths, sel, cand, memo, stamp, clock = work
    card = P[p, S.PLAY + slot]
    att = P[p, S.ATT + slot]
    prepare_shot(table, R, G, card, adv, att, -1, H)
    shot_features(R, G, H, 0, feats, 0)
    base = Pol.hit_score(prm, feats, 0)
    n = 0
    for i in range(P[p, S.HAND_N]):
        e = P[p, S.HAND + i]
        if table[e, T.C_KIND] != T.ENHANCEMENT or A.ability_arg(table, e, K.ATTACH) >= 0:
            continue
        cost = table[e, T.C_COST]
        if cost > P[p, S.PP_READY]:
            continue
        prepare_shot(table, R, G, card, adv, att, e, H)
        shot_features(R, G, H, cost, feats, n)
        cand[n] = i
        n += 1
    b = Pol.choose_boost(prm, feats, n, base, keys, ctr, p)
    if b < 0:
        return -1
    e = P[p, S.HAND + cand[b]]
    Ru.pay_stamina(P, p, table[e, T.C_COST])
    Ru.remove_from_hand(P, p, cand[b])
    return e
