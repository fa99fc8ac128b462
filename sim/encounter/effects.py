"""Costs, keyword handlers and maneuvers: what playing a card or an ability does."""

from __future__ import annotations

from sim.core.jit import njit
from sim.encounter import codes as K
from sim.encounter import state as S
from sim.encounter.actors import count_actors, may_act_in_play, put_in_play
from sim.encounter.hand import BOOST_CARDS, instants_in_hand
from sim.encounter.params import M_STYLE, RANDOM
from sim.encounter.policy import (
    O_CARD,
    O_KIND,
    O_WHERE,
    OPT_ABILITY,
    OPT_HAND,
    discard_pick,
    survivors_return,
)
from sim.encounter.rules import (
    X_USES,
    card_kw,
    combat_winner,
    copies_in_play,
    discard,
    draw_card,
    log,
    note,
    race_ok,
    take_from_hand,
    unique_ok,
)
from sim.encounter.stats import place_location
from sim.encounter.targets import (
    cancel_count,
    cancel_target,
    gear_target,
    heal_target,
    party_target,
    revive_count,
    revive_target,
    stays_target,
    striker_count,
    striker_target,
    ward_target,
)
from sim.encounter.wounds import check_toughness, heal, tough_left, wound, wound_striker

O_SCORE = 3


@njit(inline="always")
def can_pay(C, p, cost, from_hand):
    """Whether p can pay a cost now (cost_currency); from_hand: the card itself is in hand."""
    R, P, G = C[1], C[2], C[3]
    cur = R[K.R_CURRENCY]
    if cur == K.CUR_POOL:
        return P[p, S.POOL] >= cost
    if cur == K.CUR_DISCARD:
        return P[p, S.HAND_N] - from_hand >= cost
    return p == G[S.ACTIVE] or P[p, S.LEFT] >= cost


@njit
def pay(C, p, cost):
    """Pay a cost (the card being played has already left the hand)."""
    R, P, G = C[1], C[2], C[3]
    cur = R[K.R_CURRENCY]
    if cur == K.CUR_POOL:
        P[p, S.POOL] -= cost
    elif cur == K.CUR_DISCARD:
        for _ in range(cost):
            card = take_from_hand(C[0], P, p, discard_pick(C, p, -1))
            discard(P, p, card)
            log(C, p, S.EV_DISCARD, card, 1, 0)
    elif p == G[S.ACTIVE]:
        P[p, S.THREAT] += cost
    else:
        P[p, S.LEFT] -= cost


@njit
def played(C, p, card, other):
    """Count a play; an `other` card is judged by how its turn goes for its owner."""
    G = C[3]
    note(C, p, card, S.ST_PLAYED)
    if other:
        note(C, p, card, S.ST_USED)
        n = G[S.PLAYED_N]
        if n < S.CAP:
            G[S.PLAYED + n], G[S.PLAYED_BY + n] = card, p
            G[S.PLAYED_N] = n + 1


@njit
def enter_npc(C, p, card):
    """A party or support NPC enters play."""
    T, P = C[0], C[2]
    if T[card, K.C_NATURE] == K.PARTY:
        k = P[p, S.PARTY_N]
        P[p, S.PWOUND + k], P[p, S.PWARD + k], P[p, S.PDEF + k] = 0, 0, 0
        put_in_play(T, P, p, S.PARTY, S.PARTY_N, card)
    else:
        put_in_play(T, P, p, S.SUP, S.SUP_N, card)


@njit
def resolve(C, p, kw, arg, src):
    """One keyword's effect, used by p ("your character": p's combatant in a combat)."""
    P, G = C[2], C[3]
    a = G[S.ACTIVE]
    log(C, p, S.EV_MANEUVER, src, kw, arg)
    if kw == K.MIGHT:
        if p == a:
            G[S.MIGHT_A] += arg
        else:
            G[S.MIGHT_B] += arg
    elif kw == K.WARD:
        who = ward_target(C, p)
        if p != a and who >= 0:
            G[S.SWARD + who] += arg
        elif p == a and who >= 0:
            P[p, S.PWARD + who] += arg
        elif p == a and who == -1:
            P[p, S.PC_WARD] += arg
    elif kw == K.HEAL:
        who = heal_target(C, p)
        if who >= -1:
            log(C, p, S.EV_HEAL, P[p, S.PC] if who < 0 else P[p, S.PARTY + who],
                heal(C, p, who, arg), 0)
    elif kw == K.DRAW:
        for _ in range(arg):
            draw_card(C, p)
    elif kw == K.REVIVE:
        i = revive_target(C, p, arg)
        if i >= 0:
            card = P[p, S.DISC + i]
            for j in range(i, P[p, S.DISC_N] - 1):
                P[p, S.DISC + j] = P[p, S.DISC + j + 1]
            P[p, S.DISC_N] -= 1
            enter_npc(C, p, card)
            log(C, p, S.EV_REVIVE, card, 0, 0)
            check_toughness(C, p)
    elif kw == K.CANCEL or kw == K.ESCAPE:
        k = cancel_target(C, p, arg, kw) if p == a else -1
        if k >= 0:
            G[S.SSTATE + k] = 2
            discard(P, G[S.SOWNER + k], G[S.SCARD + k])
            log(C, p, S.EV_CANCEL, G[S.SCARD + k], 0, 0)
    elif kw == K.WOUND:
        if p == a:
            k = striker_target(C, p, arg)
            if k >= 0:
                wound_striker(C, k, arg)
        else:
            wound(C, a, party_target(C, p, a), arg)
    elif kw == K.HEX:
        G[S.HEX] += arg
    elif kw == K.AMBUSH:
        G[S.AMBUSH] += arg


@njit(inline="always")
def usable(C, p, kw, arg, step):
    """Whether a maneuver keyword has anything to act on now, in the step its card names
    (a combat's window included: "Playing an instant action that must be played during a
    combat")."""
    G = C[3]
    if kw == K.MIGHT:
        return step == K.S_COMBAT  # "your character in this combat": none outside one
    if kw == K.WARD:
        # In a combat its side's combatant; outside one the active player's characters, or
        # an opponent's strikers not gone.
        return step == K.S_COMBAT or p == G[S.ACTIVE] or own_strikers(C, p) > 0
    if kw == K.CANCEL or kw == K.ESCAPE:
        return p == G[S.ACTIVE] and cancel_count(C, arg, kw) > 0
    if kw == K.WOUND:
        return p != G[S.ACTIVE] or striker_count(C) > 0
    if kw == K.REVIVE:
        return revive_count(C, p, arg) > 0
    return kw == K.HEAL or kw == K.DRAW


@njit
def own_strikers(C, p):
    """Strikers of p's not gone this turn."""
    G = C[3]
    n = 0
    for k in range(G[S.S_N]):
        if G[S.SSTATE + k] < 2 and G[S.SOWNER + k] == p:
            n += 1
    return n


@njit(inline="always")
def side_gone(C):
    """A side of the combat under way is gone (killed or cancelled by a maneuver of its
    window): the combat ends without a winner."""
    G = C[3]
    return G[S.C_STRIKER] >= 0 and (G[S.SSTATE + G[S.C_STRIKER]] == 2 or G[S.C_DEF] == -3)


# Called from the boost step, the windows and the moments: compiled once, not typed again
# inlined into each of them; with the rules private to the kernel (sim.core.linking), LLVM
# decides where to inline it.
@njit
def list_maneuvers(C, p, step, n):
    """Append p's maneuvers for this step to the option rows from row n: instants in hand it
    can pay for, abilities of its cards in play not used up (ability_limit) whose
    ability_cost it can pay."""
    T, R, P, X, OP = C[0], C[1], C[2], C[4], C[9]
    left = instants_in_hand(T, P, p, step)  # none of its step: no hand scan
    in_play = may_act_in_play(P, p, step)
    # A start-of-turn or start-of-quest-step maneuver may be performed only once a turn,
    # whatever ability_limit.
    limited = R[K.R_ABILITY] != K.AB_UNLIMITED or step == K.S_START or step == K.S_QSTART
    if left == 0 and not in_play:
        return n  # most windows: no card of p's acts in this step
    # Only the instants in hand (HAND_INSTANTS), until the last of this step.
    instants = P[p, S.HAND_INSTANTS]
    for i in range(P[p, S.HAND_N] if left > 0 else 0):
        c = P[p, S.HAND + i]
        if (instants >> i) & 1 == 0 or T[c, K.C_STEP] != step:
            continue
        if can_pay(C, p, T[c, K.C_COST], 1) and usable(C, p, T[c, K.C_AB1], T[c, K.C_ARG1],
                                                        step):
            OP[n, O_KIND], OP[n, O_WHERE], OP[n, O_CARD] = OPT_HAND, i, c
            n += 1
        left -= 1
        if left == 0:
            break
    if in_play and P[p, S.PLAY_STEPS] & 1 == 0:
        count_actors(T, P, p)  # a state set by hand, not by the rules
    # Only the cards in play with a maneuver (count_actors), in the zones' order.
    for i in range(P[p, S.ACTORS_N] if in_play else 0):
        c = P[p, S.ACTORS + i] >> 3  # card * 8 + its zone (count_actors)
        # An actor is in play, one copy at least: its copies are counted once it is used.
        used = X[p, c, X_USES]
        if T[c, K.C_STEP] != step or (limited and used > 0 and used >= copies_in_play(
                C, p, c)) or not can_pay(C, p, T[c, K.C_ABCOST], 0):
            continue
        for j in range(2):
            kw, arg = T[c, K.C_AB1 + 2 * j], T[c, K.C_ARG1 + 2 * j]
            dup = False
            for m in range(n):
                if OP[m, O_KIND] == OPT_ABILITY and OP[m, O_CARD] == c:
                    dup = True
            if kw != 0 and kw < K.DAMAGE and not dup and usable(C, p, kw, arg, step):
                OP[n, O_KIND], OP[n, O_WHERE], OP[n, O_CARD] = OPT_ABILITY, j, c
                n += 1
    return n


@njit
def maneuver_score(C, p, kw, arg, uses):
    """maneuver for careful and aggressive: Might or Ward to turn a loss or save a kill (a
    striker's only when survivors return to hand), Cancel and Wound whenever they have a
    target. A Might counts `uses` times: an in-play ability used again and again closes a
    gap one use does not, and is used while the combat is still lost."""
    T, G = C[0], C[3]
    if C[7][p, M_STYLE] == RANDOM:
        return 0  # random never reads a score
    if kw == K.MIGHT or kw == K.WARD:
        k, who = G[S.C_STRIKER], G[S.C_DEF]
        if k < 0:
            return -1
        res = combat_winner(C, k, who, G[S.MIGHT_A], G[S.MIGHT_B])
        mine = res if p == G[S.ACTIVE] else -res
        if mine == 1:
            return -1
        if kw == K.MIGHT:
            ma = G[S.MIGHT_A] + (arg * uses if p == G[S.ACTIVE] else 0)
            mb = G[S.MIGHT_B] + (arg * uses if p != G[S.ACTIVE] else 0)
            after = combat_winner(C, k, who, ma, mb)
            return 100 if (after if p == G[S.ACTIVE] else -after) == 1 else -1
        if mine == 0:
            return -1
        # Under ability_limit = unlimited a Ward may be used again and again: the ward
        # already in force counts, so that the uses stop once the kill is prevented.
        again = C[1][K.R_ABILITY] == K.AB_UNLIMITED
        if p == G[S.ACTIVE]:
            hit = 1 + card_kw(T, G[S.SCARD + k], K.DAMAGE)
            if again:
                hit -= C[2][p, S.PC_WARD] if who < 0 else C[2][p, S.PWARD + who]
            return 50 if tough_left(C, p, who) <= hit else -1
        if not survivors_return(C):
            return -1
        hit = 1 - G[S.SWARD + k] if again else 1
        return 50 if T[G[S.SCARD + k], K.C_TOUGH] - G[S.SWOUND + k] <= hit else -1
    if kw == K.CANCEL or kw == K.WOUND or kw == K.ESCAPE:
        return 80
    return -1


@njit
def use_option(C, p, i):
    """Carry out option row i for p: an instant from hand (paid, then discarded) or an
    in-play ability (its ability_cost paid on each use, counted against ability_limit)."""
    T, P, X, OP = C[0], C[2], C[4], C[9]
    c = OP[i, O_CARD]
    if OP[i, O_KIND] == OPT_HAND:
        take_from_hand(T, P, p, OP[i, O_WHERE])
        pay(C, p, T[c, K.C_COST])
        played(C, p, c, True)
        discard(P, p, c)
        resolve(C, p, T[c, K.C_AB1], T[c, K.C_ARG1], c)
        if T[c, K.C_AB2] != 0:
            resolve(C, p, T[c, K.C_AB2], T[c, K.C_ARG2], c)
    else:
        X[p, c, X_USES] += 1
        P[p, S.USED] = 1
        pay(C, p, T[c, K.C_ABCOST])
        j = OP[i, O_WHERE]
        resolve(C, p, T[c, K.C_AB1 + 2 * j], T[c, K.C_ARG1 + 2 * j], c)


@njit
def play_from_hand(C, p, i):
    """A boost play of hand position i: an NPC, characteristic, bulwark or character action
    (on the PC), or a location replacing p's; then any of p's characters left with no
    toughness is killed."""
    T, P = C[0], C[2]
    c = take_from_hand(T, P, p, i)
    pay(C, p, T[c, K.C_COST])
    kind, nat = T[c, K.C_KIND], T[c, K.C_NATURE]
    log(C, p, S.EV_PLAY, c, 0, 0)
    if kind == K.NPC:
        enter_npc(C, p, c)
        played(C, p, c, nat != K.PARTY)
    elif kind == K.CHARACTERISTIC:
        put_in_play(T, P, p, S.CHARS, S.CHAR_N, c)
        played(C, p, c, True)
    elif kind == K.LOCATION:
        if P[p, S.LOC] >= 0:
            discard(P, p, P[p, S.LOC])
        place_location(T, P, p, c)
        P[p, S.LOC_PLAYED] = 1
        played(C, p, c, True)
    elif nat == K.BULWARK:
        put_in_play(T, P, p, S.BULW, S.BULW_N, c)
        played(C, p, c, True)
    else:
        P[p, S.ATT_ON + P[p, S.ATT_N]] = gear_target(C, p, c)
        P[p, S.ATT_BY + P[p, S.ATT_N]] = p
        put_in_play(T, P, p, S.ATT, S.ATT_N, c)
        played(C, p, c, True)
    check_toughness(C, p)  # a negative toughness, or a location's leaving, may kill


@njit(inline="always")
def boost_playable(C, p, c):
    """Whether a card in hand may be played as a boost maneuver now."""
    T, P = C[0], C[2]
    kind, nat = T[c, K.C_KIND], T[c, K.C_NATURE]
    if (BOOST_CARDS >> (kind * 8 + nat)) & 1 == 0:
        return False  # quests, strike cards, instants, loot: never a boost play
    if not race_ok(C, p, c) or not unique_ok(C, p, c):
        return False
    if kind == K.LOCATION:
        return P[p, S.LOC_PLAYED] == 0
    if kind == K.ACTION and nat == K.CHARACTER and (
            T[c, K.C_ATTACH] == K.ATTACH_PARTY and P[p, S.PARTY_N] == 0):
        return False  # it may attach to a party NPC only, and there is none
    return can_pay(C, p, T[c, K.C_COST], 1)


@njit
def stay(C, b, c):
    """Opponent b's strike card c stays in play (stays): in b's bulwark, a bulwark card of
    b's; or on one of the active player's characters (b's policy picks it), whose stats it
    changes while it stays and with which it leaves, to b's discard pile."""
    T, P = C[0], C[2]
    played(C, b, c, True)
    if T[c, K.C_STAYS] == K.STAY_BULWARK:
        put_in_play(T, P, b, S.BULW, S.BULW_N, c)
        log(C, b, S.EV_STAY, c, K.STAY_BULWARK, 0)
        return
    a = C[3][S.ACTIVE]
    who = stays_target(C, b, a)
    P[a, S.ATT_ON + P[a, S.ATT_N]], P[a, S.ATT_BY + P[a, S.ATT_N]] = who, b
    put_in_play(T, P, a, S.ATT, S.ATT_N, c)
    log(C, b, S.EV_STAY, c, K.STAY_CHARACTER, who)
