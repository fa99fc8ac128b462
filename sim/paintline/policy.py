"""Scripted policies: decisions only, never rules; each policy is a row of weights and habits."""

from __future__ import annotations

import numpy as np

from sim.core.jit import njit
from sim.core.rng import POLICY, next_below
from sim.paintline import order as Ord
from sim.paintline import pool as T

# The parameter vector's slots and loader live in sim.paintline.params; re-exported here.
from sim.paintline.params import (  # noqa: F401
    BAG_RESERVE,
    BUILD,
    ENHANCE,
    FIELDS,
    MULL_ABOVE,
    MULL_BELOW,
    N_PARAMS,
    ORDER,
    PLAYS,
    RANDOM,
    RECYCLE_ABOVE,
    STAMINA_CAP,
    W_COST,
    W_HIT,
    W_LOOK,
    W_PEN,
    load_policies,
)

# Features of one hit option, as the engine fills them.
F_HIT, F_PEN, F_LOOK, F_COST = 0, 1, 2, 3
N_FEATURES = 4


# --- decisions (compiled; the reference engine has its own players, reference_players) ---


@njit
def coin(keys, ctr, p):
    return next_below(keys, ctr, p, POLICY, 2) == 1


@njit
def pick(keys, ctr, p, n):
    return next_below(keys, ctr, p, POLICY, n)


@njit
def card_worth(prm, table, card, stamina_wanted):
    """How much the policy wants to keep a card: wanted stamina first, then shot values."""
    kind = table[card, T.C_KIND]
    if kind == T.STAMINA:
        return 100.0 if stamina_wanted else -1.0
    v = table[card, T.C_NBONUS] + table[card, T.C_NPEN] + table[card, T.C_ABONUS]
    v += table[card, T.C_APEN]
    if kind == T.ENHANCEMENT:
        return 5.0 + v
    return 10.0 + v


@njit
def play_worth(prm, table, card, att):
    """Worth of a shot card in play: the card, the cost already paid for it, its attachment."""
    v = card_worth(prm, table, card, False) + table[card, T.C_COST]
    if att >= 0:
        v += card_worth(prm, table, att, False)
    return v


@njit
def power_plant_worth(prm, i):
    """Worth of the i-th stamina in the Power Plant: wanted up to the policy's cap."""
    return 100.0 if i < prm[STAMINA_CAP] else -1.0


@njit
def hand_worths(prm, table, hand, n, pp_n, out):
    """Worth of each hand card; stamina beyond what the policy still wants is worth -1."""
    want = prm[STAMINA_CAP] - pp_n
    for i in range(n):
        c = hand[i]
        if table[c, T.C_KIND] == T.STAMINA:
            out[i] = card_worth(prm, table, c, want > 0)
            want -= 1
        else:
            out[i] = card_worth(prm, table, c, False)


@njit
def choose_mulligan(prm, hand_stamina, keys, ctr, p):
    if prm[PLAYS] == 0:
        return False
    if prm[RANDOM] != 0:
        return coin(keys, ctr, p)
    return hand_stamina < prm[MULL_BELOW] or hand_stamina > prm[MULL_ABOVE]


@njit
def choose_stamina(prm, pp_n, keys, ctr, p):
    """Put a Stamina into play this turn? (asked only when the hand holds one)."""
    if prm[PLAYS] == 0:
        return False
    if prm[RANDOM] != 0:
        return coin(keys, ctr, p)
    return pp_n < prm[STAMINA_CAP]


@njit
def untap_worth(prm, table, card, tap):
    """What one untap step on a tapped card is worth: its whole worth when it readies the
    card, half of it when a double-tapped card only becomes single-tapped."""
    return card_worth(prm, table, card, False) / tap


@njit
def choose_order(prm, keys, ctr, p):
    """The order of this turn's actions before the hit (a row of order.PERMS); a policy
    that plays no card has nothing to order, and only a random order draws."""
    if prm[PLAYS] == 0 or prm[ORDER] >= 0:
        return int(prm[ORDER]) if prm[ORDER] >= 0 else Ord.DEFAULT
    return pick(keys, ctr, p, len(Ord.PERMS))


@njit
def choose_untap(prm, worths, n, keys, ctr, p):
    """Which of n distinct tapped shot cards to untap one step (index), or -1."""
    if n == 0 or prm[PLAYS] == 0:
        return -1
    if prm[RANDOM] != 0:
        return pick(keys, ctr, p, n + 1) - 1
    return highest(worths, n)


@njit
def choose_ready(prm, worths, n, keys, ctr, p):
    """Ready n: which of n distinct tapped shot cards takes the next step (index); the
    keyword is not optional, so some card is chosen."""
    if prm[RANDOM] != 0:
        return pick(keys, ctr, p, n)
    return highest(worths, n)


@njit
def choose_reroll(prm, at_stake, keys, ctr, p):
    """Coach Reroll: roll this missed shot again? at_stake is 0 when the miss costs
    nothing (a serve under serve_miss = "replay")."""
    if prm[RANDOM] != 0:
        return coin(keys, ctr, p)
    return at_stake == 1


@njit
def highest(worths, n):
    """Position of the highest of n worths (earliest first on ties)."""
    best = 0
    for i in range(1, n):
        if worths[i] > worths[best]:
            best = i
    return best


@njit
def lowest(worths, n, k, out):
    """Positions of the k lowest worths (earliest first on ties), into out[:k]; the
    chosen worths are overwritten (they are scratch)."""
    for a in range(k):
        best = 0
        for i in range(1, n):
            if worths[i] < worths[best]:
                best = i
        worths[best] = np.inf
        out[a] = best


@njit
def random_positions(n, k, keys, ctr, p, out):
    """k distinct positions out of n, uniformly (a partial shuffle inside out[:n])."""
    for i in range(n):
        out[i] = i
    for a in range(k):
        j = a + pick(keys, ctr, p, n - a)
        out[a], out[j] = out[j], out[a]


@njit
def recycle_considered(prm, n, n_hand, bag, ratio):
    """False when the policy recycles nothing this turn whatever its cards are worth (the
    engine then need not work out their worths)."""
    if prm[PLAYS] == 0 or n < ratio:
        return False
    if prm[RANDOM] != 0:
        return True
    return bag > prm[BAG_RESERVE] and n_hand > prm[RECYCLE_ABOVE]


@njit
def choose_recycle(prm, worths, n, n_hand, bag, ratio, keys, ctr, p, out):
    """Recycle: how many draws to earn (k), with the ratio*k cards to discard in out, as
    positions among n candidates (hand cards first, then shot cards and stamina in play)."""
    if not recycle_considered(prm, n, n_hand, bag, ratio):
        return 0
    if prm[RANDOM] != 0:
        k = pick(keys, ctr, p, n // ratio + 1)
        random_positions(n, k * ratio, keys, ctr, p, out)
        return k
    k = int((n_hand - prm[RECYCLE_ABOVE]) // ratio)
    if k < 1:
        k = 1
    if k * ratio > n:
        k = n // ratio
    lowest(worths, n, k * ratio, out)
    return k


@njit
def choose_recycle_draws(prm, k, safe, keys, ctr, p):
    """How many of the k cards a recycle allows to draw; safe is how many can be drawn
    without forfeiting, and no policy draws more."""
    most = k if k < safe else safe
    if prm[RANDOM] != 0:
        return pick(keys, ctr, p, most + 1)
    return most


@njit
def option_score(prm, p_hit, pen, look, cost):
    """What a hit option is worth to the policy, from its features (F_HIT .. F_COST)."""
    return prm[W_HIT] * p_hit + prm[W_PEN] * pen + prm[W_LOOK] * look - prm[W_COST] * cost


@njit
def hit_score(prm, feats, i):
    return option_score(prm, feats[i, F_HIT], feats[i, F_PEN], feats[i, F_LOOK],
                        feats[i, F_COST])


# What choose_hit reads of a hit option's features (hit_weighs): nothing (a random pick
# reads only how many options there are), all but the look-ahead, or all of them.
WEIGHS_NOTHING, WEIGHS_ALL_BUT_LOOK, WEIGHS_ALL = 0, 1, 2


@njit
def hit_weighs(prm):
    """Which hit features choose_hit reads (the engine need not work out the others): a
    zero look weight multiplies any look-ahead, which is never negative, to zero."""
    if prm[RANDOM] != 0:
        return WEIGHS_NOTHING
    return WEIGHS_ALL if prm[W_LOOK] != 0 else WEIGHS_ALL_BUT_LOOK


@njit
def hit_considered(prm):
    """False when the policy always takes the Default Shot (the engine then need not list
    the hits)."""
    return prm[PLAYS] != 0


@njit
def choose_hit(prm, feats, n, keys, ctr, p):
    """Which hit option (0 is always the Default Shot)."""
    if not hit_considered(prm):
        return 0
    if prm[RANDOM] != 0:
        return pick(keys, ctr, p, n)
    best = 0
    top = hit_score(prm, feats, 0)
    for i in range(1, n):
        s = hit_score(prm, feats, i)
        if s > top:
            best, top = i, s
    return best


@njit
def boost_considered(prm):
    """False when the policy never adds a single-use enhancement (the engine then need not
    list them)."""
    return prm[PLAYS] != 0 and prm[ENHANCE] != 0


@njit
def choose_boost(prm, feats, n, base, keys, ctr, p):
    """Which single-use enhancement to add (index), or -1; base is the unboosted score."""
    if n == 0 or not boost_considered(prm):
        return -1
    if prm[RANDOM] != 0:
        return pick(keys, ctr, p, n + 1) - 1
    best = -1
    top = base
    for i in range(n):
        s = hit_score(prm, feats, i)
        if s > top:
            best, top = i, s
    return best


@njit
def play_considered(prm):
    """False when the policy never puts spare cards into play (the engine then need not
    list them)."""
    return prm[PLAYS] != 0 and (prm[RANDOM] != 0 or prm[BUILD] != 0)


@njit
def choose_play(prm, worths, n, keys, ctr, p):
    """Which affordable card to play into the table next (index), or -1 to stop."""
    if n == 0 or not play_considered(prm):
        return -1
    if prm[RANDOM] != 0:
        return pick(keys, ctr, p, n + 1) - 1
    return highest(worths, n)


@njit
def choose_discards(prm, worths, n, k, keys, ctr, p, out):
    """Which k hand positions to discard down to the hand limit."""
    if prm[RANDOM] != 0:
        random_positions(n, k, keys, ctr, p, out)
    else:
        lowest(worths, n, k, out)
