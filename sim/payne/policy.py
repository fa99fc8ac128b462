"""Payne's scripted policies (random, plain, prior): decisions only, from the player's own view."""

from __future__ import annotations

import numpy as np

from sim.core.jit import njit
from sim.core.rng import POLICY, next_below
from sim.payne import pool as T
from sim.payne.params import (  # noqa: F401  (the parameter slots, read as Pol.X)
    AUTOWIN_BELOW,
    CHANGE_BELOW,
    CHOICE_FIELDS,
    FIELD_BREADTH,
    FIELD_POWER_DEF,
    FIELD_POWER_OFF,
    FIELDS,
    HOLD_REVEALS,
    KEEP_ROLE,
    KIND,
    KINDS,
    LIE_RATE,
    N_PARAMS,
    PLAIN,
    PLAY_ABOVE,
    PLAY_RATE,
    PRIOR,
    RANDOM,
    VALUE_ARROW,
    VALUE_AUTOWIN,
    VALUE_BAN,
    VALUE_LIE,
    VALUE_REVEAL,
    load_policies,
)
from sim.payne.state import ATTACKERS, UNSEEN_ALL, UNSEEN_ROLE, lit, meet

BITS = np.array([bin(m).count("1") for m in range(16)], dtype=np.int64)  # set bits of a side mask

UNIT = 1 << 20  # a probability is compared on this grid, from one stream value

# Which character a set of side weights is for.
OWN_OFF, OPP_DEF, OWN_DEF, OPP_OFF = 0, 1, 2, 3


@njit
def chance(prm, rate, keys, ctr, p):
    """True with probability `rate`, from the player's policy stream."""
    return next_below(keys, ctr, p, POLICY, UNIT) < np.int64(rate * UNIT)


@njit
def unseen_share(table, opp_seen, role, share):
    """share[s] = share of the opponent's unseen characters of `role` with arrow s lit (the
    tallies kept beside the seat's counts of cards seen, sim/payne/unseen.py)."""
    base = table.shape[0] + role * UNSEEN_ROLE
    total = opp_seen[base + UNSEEN_ALL]
    for s in range(4):
        share[s] = opp_seen[base + s]
    if total > 0:
        for s in range(4):
            share[s] /= total


@njit
def side_odds(table, opp_seen, know, odds):
    """p(s): the opposing defender's side s is lit, known (1/0) or by unseen copies."""
    unseen_share(table, opp_seen, T.DEF, odds)
    for s in range(4):
        if know[T.DEF, s] >= 0:
            odds[s] = know[T.DEF, s]


@njit
def attacker_odds(table, opp_seen, know, odds):
    """p(a): the opposing attacker's arrow a is lit, known (a Reveal's answer, a blind change
    he assumes took: 1/0) or by his unseen offensive copies."""
    unseen_share(table, opp_seen, T.OFF, odds)
    for a in range(4):
        if know[T.OFF, a] >= 0:
            odds[a] = know[T.OFF, a]


@njit
def take_best(value, best, ties, keys, ctr, p):
    """Reservoir tie-break: 1 when `value` replaces `best` (or wins a tie by lot), else 0;
    and the new tie count."""
    if value > best:
        return 1, 1
    if value == best:
        ties += 1
        return (1 if next_below(keys, ctr, p, POLICY, ties) == 0 else 0), ties
    return 0, ties


@njit
def choose_fielding(table, geometry, prm, hand, hand_n, opp_list, opp_seen, keys, ctr, p,
                    share):
    """Hand positions of the offensive and the defensive character to field."""
    picks_off, picks_def = -1, -1
    for role in range(2):
        if prm[KIND] != PRIOR:
            k = 0
            for i in range(hand_n):
                c = hand[i]
                k += table[c, T.C_KIND] == T.CHARACTER and table[c, T.C_ROLE] == role
            j = next_below(keys, ctr, p, POLICY, k)
            for i in range(hand_n):
                c = hand[i]
                if table[c, T.C_KIND] == T.CHARACTER and table[c, T.C_ROLE] == role:
                    if j == 0:
                        if role == T.OFF:
                            picks_off = i
                        else:
                            picks_def = i
                    j -= 1
            continue
        if role == T.OFF:  # the defenders' sides: read by the offensive pick alone
            unseen_share(table, opp_seen, T.DEF, share)
        best, ties = -1e300, 0
        for i in range(hand_n):
            c = hand[i]
            if table[c, T.C_KIND] != T.CHARACTER or table[c, T.C_ROLE] != role:
                continue
            mask = table[c, T.C_ARROWS]
            # a power prior would play as an event counts against fielding the character
            power = max(card_value(table, prm, c, False), 0.0) \
                if table[c, T.C_EFF1] != T.NONE else 0.0
            if role == T.OFF:
                value, n_lit = -1.0, 0
                for s in range(4):
                    if lit(mask, meet(geometry, s)):
                        n_lit += 1
                        if share[s] > value:
                            value = share[s]
                value += prm[FIELD_BREADTH] * n_lit / 4.0
                value -= prm[FIELD_POWER_OFF] * power
            else:
                value = -defence_cost(table, geometry, opp_list, opp_seen, mask)
                value -= prm[FIELD_POWER_DEF] * power
            take, ties = take_best(value, best, ties, keys, ctr, p)
            if value > best:
                best = value
            if take:
                if role == T.OFF:
                    picks_off = i
                else:
                    picks_def = i
    return picks_off, picks_def


@njit
def defence_cost(table, geometry, opp_list, opp_seen, mask):
    """Sum over unseen opposing offensive copies o of |L(o) & lit(d)| / |L(o)| (the opposing
    deck's attackers listed in pool order after the seat's counts of cards seen)."""
    cost = 0.0
    at = table.shape[0] + ATTACKERS
    for j in range(opp_seen[at]):
        c = opp_seen[at + 1 + j]
        k = opp_list[c] - opp_seen[c]
        if k <= 0:
            continue
        # The attacker's lit arrows, each moved to the defender's side it lies on (meet):
        # n_l of them, `hit` on the defender's lit sides, counted as bits.
        arrows = table[c, T.C_ARROWS] & 15
        on_sides = arrows if geometry == 0 else ((arrows >> 2) | (arrows << 2)) & 15
        n_l = BITS[arrows]
        if n_l > 0:
            cost += k * BITS[on_sides & mask] / n_l
    return cost


@njit
def choose_side(geometry, prm, own_mask, odds, keys, ctr, p):
    """The side of the defending character to attack."""
    if prm[KIND] == RANDOM:
        return next_below(keys, ctr, p, POLICY, 4)
    k = 0
    for s in range(4):
        k += lit(own_mask, meet(geometry, s))
    if prm[KIND] == PLAIN:
        if k == 0:
            return next_below(keys, ctr, p, POLICY, 4)
        j = next_below(keys, ctr, p, POLICY, k)
        for s in range(4):
            if lit(own_mask, meet(geometry, s)):
                if j == 0:
                    return s
                j -= 1
    side, best, ties = 0, -1.0, 0
    for s in range(4):
        if k > 0 and not lit(own_mask, meet(geometry, s)):
            continue
        take, ties = take_best(odds[s], best, ties, keys, ctr, p)
        if odds[s] > best:
            best = odds[s]
        if take:
            side = s
    return side


@njit
def legal_play(table, c, allow, ban):
    """May the card be played now: a booster, an event or a character with a power, of an
    allowed role (bit 1 offensive, bit 2 defensive), not banned this round."""
    kind = table[c, T.C_KIND]
    if kind == T.BLANK or (kind == T.CHARACTER and table[c, T.C_EFF1] == T.NONE):
        return False
    if not (allow >> table[c, T.C_ROLE]) & 1:
        return False
    if kind == T.BOOSTER:
        return (ban & 2) == 0
    return (ban & 1) == 0


@njit
def card_value(table, prm, c, opp_lie):
    """How much a card helps its player (prior): every effect in its favoured direction,
    weighted by the policy's value of that effect (value_arrow per arrow, value_reveal,
    value_autowin, value_ban for a Ban on the opponent and against one on himself,
    value_lie); a Reveal is worth nothing while the opponent may lie."""
    role = table[c, T.C_ROLE]
    total = 0.0
    for e, a in ((T.C_EFF1, T.C_ARG1), (T.C_EFF2, T.C_ARG2)):
        eff, arg = table[c, e], table[c, a]
        if eff == T.ARROW_ADVANTAGE or eff == T.ARROW_DISADVANTAGE:
            total += prm[VALUE_ARROW] * (arg if role == T.OFF else -arg)
        elif eff == T.REVEAL:
            total += 0.0 if opp_lie else prm[VALUE_REVEAL]
        elif eff == T.AUTO_WIN:
            total += prm[VALUE_AUTOWIN]
        elif eff == T.BAN:
            total += prm[VALUE_BAN] if arg < 0 else -prm[VALUE_BAN]
        elif eff == T.MAY_LIE:
            total += prm[VALUE_LIE]
    return total


@njit
def battle_chances(table, geometry, own_off, own_def, opp_seen, know, tmp):
    """The player's chance of winning each of his battles before any card, as prior sees
    it: attacking, the largest p(s) among the sides his attacker's meeting arrows light (the
    side he will name); defending, one less the largest chance that the opposing attacker's
    arrow meeting a lit side of his defender is lit (what he knows, else the unseen
    offensive copies)."""
    side_odds(table, opp_seen, know, tmp)
    attack = 0.0
    for s in range(4):
        if lit(own_off, meet(geometry, s)) and tmp[s] > attack:
            attack = tmp[s]
    attacker_odds(table, opp_seen, know, tmp)
    threat = 0.0
    for s in range(4):
        if lit(own_def, s) and tmp[meet(geometry, s)] > threat:
            threat = tmp[meet(geometry, s)]
    return attack, 1.0 - threat


@njit
def spend_now(table, prm, c, chance_off, chance_def):
    """prior spends an AutoWin, or a card that changes arrows, on the battle at hand only
    while its chance of winning that battle without the card is at most autowin_below,
    change_below; kept, the card may serve a closer battle later."""
    chance = chance_off if table[c, T.C_ROLE] == T.OFF else chance_def
    if table[c, T.C_EFF1] == T.AUTO_WIN or table[c, T.C_EFF2] == T.AUTO_WIN:
        return chance <= prm[AUTOWIN_BELOW]
    if changes_arrows(table, c):
        return chance <= prm[CHANGE_BELOW]
    return True


@njit
def is_reveal(table, c):
    return table[c, T.C_EFF1] == T.REVEAL or table[c, T.C_EFF2] == T.REVEAL


@njit
def choose_plays(table, geometry, prm, hand, hand_n, allow, ban, opp_lie, own_off, own_def,
                 opp_seen, know, tmp, out, keys, ctr, p):
    """Cards to play this window, in order, into out; returns how many. own_off, own_def:
    the player's battlers' arrows as he knows them; opp_seen, know: his view of
    the opponent (prior's chances of the battles)."""
    n = 0
    if prm[KIND] == PLAIN:
        return 0
    if prm[KIND] == RANDOM:
        for i in range(hand_n):
            if legal_play(table, hand[i], allow, ban) and chance(prm, prm[PLAY_RATE], keys,
                                                                 ctr, p):
                out[n] = hand[i]
                n += 1
        for i in range(n - 1, 0, -1):
            j = next_below(keys, ctr, p, POLICY, i + 1)
            out[i], out[j] = out[j], out[i]
        return n
    chance_off, chance_def = battle_chances(table, geometry, own_off, own_def, opp_seen,
                                            know, tmp)
    kept_off, kept_def = 0, 0
    for i in range(hand_n):
        if table[hand[i], T.C_KIND] == T.CHARACTER:
            if table[hand[i], T.C_ROLE] == T.OFF:
                kept_off += 1
            else:
                kept_def += 1
    for reveal_pass in (True, False):
        for i in range(hand_n):
            c = hand[i]
            if is_reveal(table, c) != reveal_pass or not legal_play(table, c, allow, ban):
                continue
            if card_value(table, prm, c, opp_lie) <= prm[PLAY_ABOVE]:
                continue
            if not spend_now(table, prm, c, chance_off, chance_def):
                continue
            if table[c, T.C_KIND] == T.CHARACTER:
                # keep keep_role - 1 others of its role to field in the rounds to come
                if table[c, T.C_ROLE] == T.OFF:
                    if kept_off < prm[KEEP_ROLE]:
                        continue
                    kept_off -= 1
                else:
                    if kept_def < prm[KEEP_ROLE]:
                        continue
                    kept_def -= 1
            out[n] = c
            n += 1
    if prm[HOLD_REVEALS] == 0:
        return n
    return drop_unused_reveals(table, out, n)


@njit
def changes_arrows(table, c):
    return (table[c, T.C_EFF1] == T.ARROW_ADVANTAGE or table[c, T.C_EFF1] == T.ARROW_DISADVANTAGE
            or table[c, T.C_EFF2] == T.ARROW_ADVANTAGE
            or table[c, T.C_EFF2] == T.ARROW_DISADVANTAGE)


@njit
def drop_unused_reveals(table, out, n):
    """prior holds a defensive Reveal unless a defensive arrow change is played after it in
    the window: the answer (a lit arrow of the opposing attacker) serves only to choose the
    sides of such a change, since the attacker, not the defender, names the side attacked."""
    m = 0
    for i in range(n):
        c = out[i]
        keep = True
        if table[c, T.C_ROLE] == T.DEF and is_reveal(table, c):
            keep = False
            for j in range(i + 1, n):
                if table[out[j], T.C_ROLE] == T.DEF and changes_arrows(table, out[j]) \
                        and not is_reveal(table, out[j]):
                    keep = True
        if keep:
            out[m] = c
            m += 1
    return m


@njit
def change_weights(table, geometry, which, own_off, own_def, opp_seen, know, w, tmp):
    """How much the prior wants each side of the changed character lit."""
    if which == OWN_OFF:
        side_odds(table, opp_seen, know, tmp)
        for a in range(4):
            w[a] = tmp[meet(geometry, a)]
    elif which == OPP_DEF:
        side_odds(table, opp_seen, know, tmp)
        for s in range(4):
            w[s] = 2.0 * lit(own_off, meet(geometry, s)) + 1.0 - tmp[s]
    else:
        attacker_odds(table, opp_seen, know, tmp)
        for s in range(4):
            if which == OWN_DEF:
                w[s] = -tmp[meet(geometry, s)]
            else:
                w[s] = -(2.0 * lit(own_def, meet(geometry, s)) + tmp[s])


@njit
def order_sides(prm, w, target_lit, order, keys, ctr, p):
    """The four sides in the order the chooser names them (random: a random order; else
    by weight, most wanted in the target state first, ties by side)."""
    for s in range(4):
        order[s] = s
    if prm[KIND] == RANDOM:
        for i in range(3, 0, -1):
            j = next_below(keys, ctr, p, POLICY, i + 1)
            order[i], order[j] = order[j], order[i]
        return
    sign = 1.0 if target_lit else -1.0
    for i in range(1, 4):
        j = i
        while j > 0 and sign * w[order[j]] > sign * w[order[j - 1]]:
            order[j], order[j - 1] = order[j - 1], order[j]
            j -= 1
