"""Hit options: what each legal hit would roll with (its card, attachment, enhancement and
the abilities in force) and its exact odds over the d20, the hit list the policy chooses
from; shared by the kernel and, as plain-Python twins, by the exact solver."""

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
from sim.paintline.bits import lowest_bit

# A hit option is a shot (or the Default Shot) with at most one enhancement from hand; shot
# cards and enhancements share one deck of at most CAP cards, so s shots and e enhancements
# give at most 2 * s * (e + 1) <= (CAP + 1)^2 / 2 options, plus the Default Shot's.
MAX_OPTIONS = (S.CAP + 1) ** 2 // 2 + S.CAP + 2
# Hit option sources.
SRC_DEFAULT, SRC_PLAY, SRC_HAND = 0, 1, 2
# A hit option: its source, slot or hand position, card, value set (1: Advantage), hand
# position of its enhancement (-1 for none) and that enhancement; the Default Shot
# unboosted is NO_HIT. legal_hits gives each in one word (pack_hit): the one taken so far
# is two live values with its score, where six were more for LLVM to keep in registers
# across the whole list (benchmarks/README.md).
NO_HIT = (SRC_DEFAULT, -1, -1, 0, -1, -1)
HIT_CARD_BITS = 24  # card ids below 2^24 - 1: a pool holds far fewer cards


@njit
def pack_hit(src, where, card, adv, enh_pos, enh):
    """A hit option in one word: source (2 bits), value set (1), slot or hand position and
    its enhancement's (7 each, plus 1), card and enhancement (HIT_CARD_BITS each, plus 1)."""
    return (src | (adv << 2) | ((where + 1) << 3) | ((enh_pos + 1) << 10)
            | ((card + 1) << 17) | ((enh + 1) << (17 + HIT_CARD_BITS)))


@njit
def unpack_hit(word):
    """pack_hit's option as a tuple like NO_HIT."""
    mask = (1 << HIT_CARD_BITS) - 1
    return (word & 3, ((word >> 3) & 127) - 1, ((word >> 17) & mask) - 1, (word >> 2) & 1,
            ((word >> 10) & 127) - 1, ((word >> (17 + HIT_CARD_BITS)) & mask) - 1)


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
    p_hit, look = option_odds(bonus, pen, crit_lo, need, next_target(R, G, surge),
                              R[O.R_CRIT_TARGET], True)
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
def weigh_option(prm, weighs, hits, n, word, top, need, nxt, crit_target, bonus, pen,
                 crit_lo, cost):
    """Whether hit option n (pack_hit's `word`) is the one to take so far, and the score to
    beat after it: under a policy that weighs the features (Pol.hit_weighs), one scoring
    above every one before it, the Default Shot's first (Pol.choose_hit's choice, made as
    the list goes); under one that weighs nothing, none: it is kept in `hits` for the
    random pick."""
    if weighs == Pol.WEIGHS_NOTHING:
        hits[n] = word
        return False, top
    score = option_value(prm, weighs, need, nxt, crit_target, bonus, pen, crit_lo, cost)
    if score > top:
        return True, score
    return False, top


@njit
def option_value(prm, weighs, need, nxt, crit_target, bonus, pen, crit_lo, cost):
    """A hit option's score (Pol.option_score) from the features the policy weighs."""
    p_hit, look = option_odds(bonus, pen, crit_lo, need, nxt, crit_target,
                              weighs == Pol.WEIGHS_ALL)
    return Pol.option_score(prm, p_hit, pen, look, cost)


@njit
def legal_hits(table, R, P, G, p, prm, weighs, hits, marks, shapes):
    """listed_hits, with a copy of its own for a policy that weighs all but the look-ahead
    (greedy, the default): there `weighs` is a constant, so the compiler can drop each
    option's tests of it and the work only the look-ahead or a random pick needs, where
    the one copy for every policy tested them option by option (benchmarks/README.md,
    "A third pass over Paint the Line's kernel")."""
    if weighs == Pol.WEIGHS_ALL_BUT_LOOK:
        return listed_hits(table, R, P, G, p, prm, Pol.WEIGHS_ALL_BUT_LOOK, hits, marks, shapes)
    return listed_hits(table, R, P, G, p, prm, weighs, hits, marks, shapes)


@njit
def listed_hits(table, R, P, G, p, prm, weighs, hits, marks, shapes):
    """Every distinct legal hit: the Default Shot, each ready Arsenal card it can pay for,
    each shot card in hand it can pay for, in each value set open to it, each alone or
    with one enhancement from hand it can also pay for (a single-use boost, or an Attach
    onto a card that has none), so the hit is chosen knowing its enhancement. Returns how
    many there are and the one the policy takes (weigh_option) as pack_hit's word. The
    options are weighed as they are listed (a policy that weighs nothing finds them in
    `hits`): the features a policy weighs (Pol.hit_weighs) are those choose_hit reads. Only
    a random pick needs the cards in play distinct: under a weighing policy a later copy's
    options score as the first's and are listed again (counted too), never taken. `marks`,
    one a card and then the latest list's stamp (zeros at first), holds for each card in
    play met so far, above this list's stamp, the attachment its first untapped copy
    bears plus 2: a later copy bearing the same is the same hit, and only one bearing
    another is compared with the copies before it. `shapes`, one zero a card for each
    seat, keeps each card's A.card_shape as the seat's table gives it once it is met."""
    ready = P[p, S.PP_READY]
    # This list's marks lie above every earlier list's (a mark is the stamp plus a card's
    # attachment plus 2, at most the cards in the pool plus 1), so none is cleared.
    last = len(marks) - 1  # the stamp's slot
    stamp = marks[last] + len(marks) + 1
    marks[last] = stamp
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
    best = pack_hit(*NO_HIT)
    nxt = next_target(R, G, 0)
    top = 0.0
    if weighs != Pol.WEIGHS_NOTHING:
        top = option_value(prm, weighs, target + in_pen, nxt, crit_target, 0, 0, 20, 0)
    hits[0] = best
    n = 1
    if boosts and R[O.R_BOOST_DEFAULT] == 1:
        left = single_mask
        while left != 0:
            j = lowest_bit(left)
            left &= left - 1
            e = P[p, S.HAND + j]
            ecost = table[e, T.C_COST]
            if ecost > ready:
                continue
            b, pen = value_set(table, e, 0)
            word = pack_hit(SRC_DEFAULT, -1, -1, 0, j, e)
            take, top = weigh_option(prm, weighs, hits, n, word, top, target + in_pen, nxt,
                                     crit_target, b, pen, 20, ecost)
            if take:
                best = word
            n += 1
    for i in range(P[p, S.PLAY_N]):
        if P[p, S.TAP + i] != 0:
            continue
        card = P[p, S.PLAY + i]
        cost = table[card, T.C_COST]
        if cost > ready:  # every copy costs as much: none is marked
            continue
        att = P[p, S.ATT + i]
        # Only a random pick needs the options distinct: a later copy's options score as
        # the first copy's and a weighing policy takes the first of the highest scores.
        if weighs == Pol.WEIGHS_NOTHING:
            mark = marks[card] - stamp
            if mark == att + 2:  # the first untapped copy bore att too
                continue
            if mark > 0:  # an earlier untapped copy with another attachment
                if same_untapped_before(P, p, i, card, att):
                    continue
            else:
                marks[card] = stamp + att + 2
        n, top, best = card_hits(
            table, R, G, P, p, prm, weighs, hits, shapes, n, top, best, SRC_PLAY, i, card,
            cost, att, boost_mask | (attach_mask if att < 0 else 0), ready, serve, mute_cost, tie,
            target, in_pen, crit_target, advantage)
    for i in range(hand_n):
        card = P[p, S.HAND + i]
        kind = table[card, T.C_KIND]
        if kind != T.BASIC_SHOT and kind != T.TRICK_SHOT:
            continue
        cost = table[card, T.C_COST]
        if cost > ready or repeats_in_hand(P, p, i):
            continue
        n, top, best = card_hits(
            table, R, G, P, p, prm, weighs, hits, shapes, n, top, best, SRC_HAND, i, card,
            cost, -1, boost_mask | attach_mask, ready, serve, mute_cost, tie, target, in_pen,
            crit_target, advantage)
    return n, best


@njit
def same_untapped_before(P, p, i, card, att):
    """True when an untapped card in play before slot i is this card bearing att."""
    for j in range(i):
        if P[p, S.PLAY + j] == card and P[p, S.TAP + j] == 0 and P[p, S.ATT + j] == att:
            return True
    return False


@njit
def card_hits(table, R, G, P, p, prm, weighs, hits, shapes, n, top, best, src, i, card, cost,
              att, fits, ready, serve, mute_cost, tie, target, in_pen, crit_target,
              advantage):
    """legal_hits' options of one distinct card (from play at slot i bearing att, or from
    hand at position i), alone or with one of the enhancements in hand at the positions
    set in `fits`, from option n on, the one to take so far `best` scoring `top`; returns
    them as they stand after its options; the card's cost is within `ready`."""
    shape = shapes[p, card]
    if shape == 0:
        shape = A.card_shape(table, card)
        shapes[p, card] = shape
    if serve == 0 and shape & A.SHAPE_SERVE:
        return n, top, best
    crit_lo, surge, ignore = 20, 0, 0
    if A.abilities_in_force(table, card, mute_cost, tie):
        crit_lo = (shape >> A.SHAPE_CRIT_AT) & A.SHAPE_CRIT_BITS
        surge = shape >> A.SHAPE_SURGE_AT
        ignore = 1 if shape & A.SHAPE_IGNORE else 0
    need = target + (0 if ignore == 1 else in_pen)
    nxt = next_target(R, G, surge)
    for adv in range(1 + ((advantage >> table[card, T.C_TYPE]) & 1)):
        b, pen = value_set(table, card, adv)
        if att >= 0:
            b2, p2 = value_set(table, att, adv)
            b += b2
            pen += p2
        word = pack_hit(src, i, card, adv, -1, -1)
        take, top = weigh_option(prm, weighs, hits, n, word, top, need, nxt, crit_target, b,
                                 pen, crit_lo, cost)
        if take:
            best = word
        n += 1
        # Only the positions set in fits, lowest first (one loop turn each, where a test
        # of every hand position mispredicted where the bits fell).
        left = fits
        while left != 0:
            j = lowest_bit(left)
            left &= left - 1
            e = P[p, S.HAND + j]
            ecost = table[e, T.C_COST]
            if cost + ecost > ready:
                continue
            b2, p2 = value_set(table, e, adv)
            word = pack_hit(src, i, card, adv, j, e)
            take, top = weigh_option(prm, weighs, hits, n, word, top, need, nxt, crit_target,
                                     b + b2, pen + p2, crit_lo, cost + ecost)
            if take:
                best = word
            n += 1
    return n, top, best
