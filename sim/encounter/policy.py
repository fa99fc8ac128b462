"""The scripted policies (random, careful, aggressive): one function per decision point.
Rules list the legal options; a policy only picks among them, reading public zones, its own
hand and pool, and the sizes of hidden zones."""

from __future__ import annotations

from sim.core.jit import njit
from sim.encounter import codes as K
from sim.encounter import state as S
from sim.encounter.hand import quests_in_hand
from sim.encounter.params import (
    BEHIND,
    CAREFUL,
    FIRST,
    M_BUDGET,
    M_CYCLE,
    M_DEFEAT,
    M_DRAW,
    M_FIRST,
    M_HEAL_VALUE,
    M_MIGHT,
    M_MIND,
    M_RATIO,
    M_REPEAT,
    M_RESERVE,
    M_SNEAK,
    M_STYLE,
    M_TOUGH,
    RANDOM,
    SECOND,
)
from sim.encounter.rules import (
    card_kw,
    next_seat,
    objective_holds_given,
    objective_stat,
    party_strength,
    pc_stats,
    race_ok,
    rand,
    stat_objective,
)

O_KIND, O_WHERE, O_CARD = 0, 1, 2  # option row: 0 card from hand (where: position) or
OPT_HAND, OPT_ABILITY = 0, 1  # 1 an in-play card's ability (where: keyword slot 0/1)


@njit
def choose_first(C, p):
    """The chooser's pick of the first player among those still in (first: itself; second:
    the player to its left, who would play after it; behind: itself while it has fewer
    points than the best of the others, else the player to its left; random: a draw over
    the players still in, in seat order, on its policy stream)."""
    how, n, P = C[7][p, M_FIRST], C[1][K.R_PLAYERS], C[2]
    if how == FIRST:
        return p
    if how == SECOND:
        return next_seat(C, p, 1)
    if how == BEHIND:
        best = -1
        for q in range(n):
            if q != p and P[q, S.OUT] == 0 and P[q, S.POINTS] > best:
                best = P[q, S.POINTS]
        return p if P[p, S.POINTS] < best else next_seat(C, p, 1)
    still = 0
    for q in range(n):
        still += P[q, S.OUT] == 0
    k = rand(C, S.POLICY, p, still)
    for q in range(n):
        if P[q, S.OUT] == 0:
            if k == 0:
                return q
            k -= 1
    return p


@njit(inline="always")
def hand_value(C, p, i):
    """How much a card in hand is worth keeping: blanks and quests it cannot play first."""
    T, P = C[0], C[2]
    card = P[p, S.HAND + i]
    kind = T[card, K.C_KIND]
    if kind == K.BLANK or not race_ok(C, p, card):
        return 0
    if kind == K.QUEST:
        return 3
    return 2


@njit
def discard_pick(C, p, skip):
    """discard_down and pay: the hand position to discard (never `skip`)."""
    P = C[2]
    n = P[p, S.HAND_N]
    if C[7][p, M_STYLE] == RANDOM:
        j = rand(C, S.POLICY, p, n - 1 if 0 <= skip < n else n)
        return j + 1 if 0 <= skip <= j else j
    best, bv = -1, 1 << 30
    for i in range(n - 1, -1, -1):
        if i != skip:
            v = hand_value(C, p, i)
            if v < bv:
                best, bv = i, v
    return best


@njit
def mulligan(C, p):
    """Mulligan an opening hand without a quest it can play (random: a coin)."""
    T, P = C[0], C[2]
    if C[7][p, M_STYLE] == RANDOM:
        return rand(C, S.POLICY, p, 2) == 1
    for i in range(P[p, S.HAND_N]):
        c = P[p, S.HAND + i]
        if T[c, K.C_KIND] == K.QUEST and race_ok(C, p, c):
            return False
    return True


@njit
def unmet_objectives(C, p):
    """List the objectives of p's quests in hand that do not hold now (a stat objective with
    its shortfall): every card scored in one boost choice reads the same list, instead of
    re-reading each quest and the PC's stats per card."""
    T, P, G = C[0], C[2], C[3]
    stats, read = (0, 0, 0), False  # the PC's stats, read at the first stat objective
    n, quests = 0, quests_in_hand(T, P, p)
    for i in range(P[p, S.HAND_N]):
        if (quests >> i) & 1 == 0:
            continue
        q = P[p, S.HAND + i]
        for oc in (K.C_OBJ1, K.C_OBJ2):
            obj, arg = T[q, oc], T[q, oc + 1]
            if stat_objective(obj):
                if not read:
                    stats, read = pc_stats(C, p), True
                arg -= objective_stat(stats, obj)
                if arg <= 0:
                    continue
            elif obj == 0 or objective_holds_given(C, p, obj, arg, stats):
                continue
            G[S.NEED_OBJ + n], G[S.NEED_ARG + n] = obj, arg
            n += 1
    G[S.NEED_N] = n


@njit
def meets(C, p, card):
    """1 when playing the card makes an unmet objective of a quest in hand hold (the list is
    read on the first call of a boost choice; the boost step marks it stale)."""
    T, P, G = C[0], C[2], C[3]
    if G[S.NEED_N] < 0:
        unmet_objectives(C, p)
    kind, nat = T[card, K.C_KIND], T[card, K.C_NATURE]
    for i in range(G[S.NEED_N]):
        obj, arg = G[S.NEED_OBJ + i], G[S.NEED_ARG + i]
        if obj == K.O_PARTY and kind == K.NPC and nat == K.PARTY:
            if P[p, S.PARTY_N] + 1 >= arg:
                return 1
        elif obj == K.O_PLACE and kind == K.LOCATION and T[card, K.C_TERRAIN] == arg:
            return 1
        elif obj == K.O_INT or obj == K.O_DEX or obj == K.O_STR:
            col = K.C_INT if obj == K.O_INT else (K.C_DEX if obj == K.O_DEX else K.C_STR)
            if (kind != K.NPC or nat == K.SUPPORT) and T[card, col] >= arg:
                return 1
    return 0


@njit(inline="always")
def survivors_return(C):
    """1 under strikers_after = hand (a public rule option): a striker that survives its
    combat goes back to its owner's hand and strikes again. Under discard it leaves play at
    the settle step killed or not, so a striker's toughness, the Damage that wounds it and
    a Ward that saves it count for nothing."""
    return C[1][K.R_AFTER] == 1


@njit(inline="always")
def held_back(C, p, cost):
    """reserve: whether paying `cost` at the boost step leaves p's pool below what it keeps
    for the instants of other steps in its hand (their costs summed, at most `reserve`).
    Pool currency only: the pool pays on both players' turns until its owner's refill."""
    T, P, M = C[0], C[2], C[7]
    if M[p, M_RESERVE] == 0 or cost == 0 or C[1][K.R_CURRENCY] != K.CUR_POOL:
        return False
    keep = 0
    for i in range(P[p, S.HAND_N]):
        c = P[p, S.HAND + i]
        if (T[c, K.C_KIND] == K.ACTION and T[c, K.C_NATURE] == K.INSTANT
                and T[c, K.C_STEP] != K.S_BOOST):
            keep += T[c, K.C_COST]
    return P[p, S.POOL] - cost < min(keep, M[p, M_RESERVE])


@njit
def might_uses(C, p, cost, pool):
    """How many uses in a row of an in-play ability of this cost p plans for, with `pool`
    to pay them: one, unless ability_limit = unlimited, where a pool (cost_currency = pool)
    pays as many as it holds costs; at least one, at most the policy's `repeat`."""
    most = max(1, C[7][p, M_REPEAT])
    if C[1][K.R_ABILITY] != K.AB_UNLIMITED:
        return 1
    if cost == 0:
        return most
    if C[1][K.R_CURRENCY] != K.CUR_POOL:
        return 1
    return max(1, min(most, pool // cost))


@njit
def boost_score(C, p, kind, card, kw, arg):
    """Worth of one boost option for careful and aggressive; <= 0: not worth playing.
    Weights in thousandths of a strength point (the policy's *_value parameters)."""
    T, P, M = C[0], C[2], C[7]
    if M[p, M_STYLE] == RANDOM:
        return 0  # random never reads a score
    if kind == OPT_HAND and held_back(C, p, T[card, K.C_COST]):
        return -1
    if kind == OPT_ABILITY or T[card, K.C_NATURE] == K.INSTANT:
        if kw == K.HEAL:
            w = P[p, S.PC_WOUNDS]
            for k in range(P[p, S.PARTY_N]):
                w += P[p, S.PWOUND + k]
            return 500 if w > 0 else -1
        if kw == K.DRAW:
            if (kind == OPT_ABILITY and C[1][K.R_ABILITY] == K.AB_UNLIMITED
                    and P[p, S.DECK_N] == 0):
                return -1  # a repeatable Draw stops when it would draw nothing
            return M[p, M_DRAW]
        if kw == K.REVIVE:
            for i in range(P[p, S.DISC_N]):
                c = P[p, S.DISC + i]
                if (T[c, K.C_KIND] == K.NPC and T[c, K.C_NATURE] != K.STRIKE
                        and T[c, K.C_COST] <= arg):
                    return 400
        return -1
    reach = 1  # characters a modifier reaches
    if T[card, K.C_KIND] == K.LOCATION or T[card, K.C_NATURE] == K.BULWARK:
        reach = 1 + P[p, S.PARTY_N]
    mind = M[p, M_MIND]
    gain = (T[card, K.C_STR] * 1000 + (T[card, K.C_INT] + T[card, K.C_DEX]) * mind) * reach
    damage = card_kw(T, card, K.DAMAGE) if survivors_return(C) else 0  # wounds a striker
    gain += (T[card, K.C_TOUGH] * M[p, M_TOUGH] + damage * 500 + card_kw(T, card, K.SNEAK)
             * M[p, M_SNEAK] + card_kw(T, card, K.BUDGET) * M[p, M_BUDGET])
    gain += card_kw(T, card, K.HEAL) * M[p, M_HEAL_VALUE]  # a wound healed a turn
    gain += card_kw(T, card, K.DRAW) * M[p, M_DRAW]  # a card drawn a turn
    might = card_kw(T, card, K.MIGHT)
    if might:
        # Might on a card that stays in play is an ability, used each combat as often as
        # paid.
        gain += might * M[p, M_MIGHT] * might_uses(C, p, T[card, K.C_ABCOST], C[1][K.R_POOL])
    if T[card, K.C_KIND] == K.LOCATION and P[p, S.LOC] >= 0:
        old = P[p, S.LOC]
        gain -= (T[old, K.C_STR] * 1000 + (T[old, K.C_INT] + T[old, K.C_DEX]) * mind) * reach
        if T[old, K.C_TERRAIN] == T[card, K.C_TERRAIN]:
            return -1
    return meets(C, p, card) * 100000 + gain // (T[card, K.C_COST] + 1)


@njit(inline="always")
def draws_to_pass(C, p):
    """Whether p's policy draws from its stream even with nothing to choose but the pass
    (random: its pick is uniform over the options and the pass)."""
    return C[7][p, M_STYLE] == RANDOM


@njit(inline="always")
def pick_option(C, p, n):
    """Best-scoring option (score in column 3 of the option rows; first on ties), -1 to
    pass when none scores above 0; random: uniform over the options and the pass."""
    OP = C[9]
    if C[7][p, M_STYLE] == RANDOM:
        j = rand(C, S.POLICY, p, n + 1)
        return j if j < n else -1
    best, bv = -1, 0
    for i in range(n):
        if OP[i, 3] > bv:
            best, bv = i, OP[i, 3]
    return best


@njit
def quest_pick(C, p, forced):
    """quest: the hand position of the quest to play, -1 for none."""
    T, P, M = C[0], C[2], C[7]
    n, quests = P[p, S.HAND_N], quests_in_hand(T, P, p)
    style = M[p, M_STYLE]
    if style == RANDOM:
        opts = 0
        for i in range(n):
            c = P[p, S.HAND + i]
            if (quests >> i) & 1 == 1 and race_ok(C, p, c):
                opts += 1
        if opts == 0:
            return -1
        j = rand(C, S.POLICY, p, opts if forced else opts + 1)
        for i in range(n):
            c = P[p, S.HAND + i]
            if (quests >> i) & 1 == 1 and race_ok(C, p, c):
                if j == 0:
                    return i
                j -= 1
        return -1
    # careful reads its party's strength and its PC's stats once, at its first quest
    strength, stats, read = 0, (0, 0, 0), False
    best, bv, cheap, cv = -1, -1, -1, 1 << 30  # with no quest to play: -1
    for i in range(n):
        if (quests >> i) & 1 == 0:
            continue
        c = P[p, S.HAND + i]
        if not race_ok(C, p, c):
            continue
        if T[c, K.C_QCOST] < cv:
            cheap, cv = i, T[c, K.C_QCOST]
        ok = True
        if style == CAREFUL:
            if not read:
                strength, stats, read = party_strength(C, p), pc_stats(C, p), True
            ok = T[c, K.C_QCOST] * 1000 <= M[p, M_RATIO] * strength
            for oc in (K.C_OBJ1, K.C_OBJ2):
                obj = T[c, oc]
                if obj != K.O_UNHURT and obj != K.O_DEFEAT and not objective_holds_given(
                        C, p, obj, T[c, oc + 1], stats):
                    ok = False
        for oc in (K.C_OBJ1, K.C_OBJ2):
            # DEFEAT n holds only if the opponents send n strikers: it is played when they
            # sent at least n against this player's last quest.
            sent = P[p, S.SENT]
            if M[p, M_DEFEAT] == 1 and T[c, oc] == K.O_DEFEAT and 0 <= sent < T[c, oc + 1]:
                ok = False
        if ok and T[c, K.C_QPOINTS] > bv:
            best, bv = i, T[c, K.C_QPOINTS]
    # cycle_quests: with a full hand the draw step draws nothing, so a player that holds
    # only quests it will not play is stuck for good; its cheapest quest goes under its
    # deck when it fails, which makes room for a draw.
    full = M[p, M_CYCLE] == 1 and n >= C[1][K.R_HAND]
    return cheap if best < 0 and (forced or full) else best


@njit
def play_loot(C, p):
    """play_loot: careful and aggressive play all loot; random flips a coin."""
    if C[7][p, M_STYLE] == RANDOM:
        return rand(C, S.POLICY, p, 2) == 1
    return True
