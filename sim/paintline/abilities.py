"""Keyword abilities: one handler per opcode, run when a card with that keyword is hit."""

from __future__ import annotations

from sim.core.jit import njit
from sim.paintline import keywords as K
from sim.paintline import policy as Pol
from sim.paintline import pool as T
from sim.paintline.deal import draw_card
from sim.paintline.rules import untap_one_step
from sim.paintline.state import (
    ATT,
    COACH,
    COACH_USES,
    H_CRIT_LO,
    H_IGNORE,
    H_MUTE,
    H_SURGE,
    PLAY,
    PLAY_N,
    TAP,
)  # fmt: skip


@njit
def ability_arg(table, card, code):
    """The argument of `code` on this card, or -1 when the card lacks that keyword."""
    if card < 0:
        return -1
    if table[card, T.C_AB1] == code:
        return table[card, T.C_ARG1]
    if table[card, T.C_AB2] == code:
        return table[card, T.C_ARG2]
    return -1


@njit
def serve_only(table, card):
    """Serve: the card can be hit only on the serve (a restriction Mute does not lift)."""
    return ability_arg(table, card, K.SERVE) >= 0


@njit
def abilities_in_force(table, card, mute_cost, tie_rule):
    """A card hit under Mute keeps its abilities only if it costs more than the Mute card,
    or the same when the tie rule lets the hitter's card win."""
    if mute_cost < 0:
        return True
    cost = table[card, T.C_COST]
    return cost > mute_cost or (cost == mute_cost and tie_rule == 0)


@njit
def draw(arg, table, P, G, R, p, seen):
    for _ in range(arg):
        if not draw_card(table, P, G, R, p, seen):
            return False
    return True


@njit
def tapped_choices(prm, table, P, p, skip_slot, worths, cand):
    """The distinct tapped shot cards in play but skip_slot (same card, tap and attachment
    count once), with what one untap step on each is worth to the policy. Only a random
    pick needs them distinct: a copy is worth what its first copy is, so the first of the
    highest worths (Pol.highest, every other policy's choice) is a first copy either way,
    and the scan of the cards listed before each one is left out."""
    distinct = prm[Pol.RANDOM] != 0
    n = 0
    for i in range(P[p, PLAY_N]):
        tap = P[p, TAP + i]
        if i == skip_slot or tap == 0:
            continue
        same = False
        for j in range(n if distinct else 0):
            s = cand[j]
            if (P[p, PLAY + s] == P[p, PLAY + i] and P[p, TAP + s] == tap
                    and P[p, ATT + s] == P[p, ATT + i]):
                same = True
        if same:
            continue
        cand[n] = i
        worths[n] = Pol.untap_worth(prm, table, P[p, PLAY + i], tap)
        n += 1
    return n


@njit
def ready(arg, table, P, p, skip_slot, prm, keys, ctr, worths, cand):
    """Ready n: untap own other shot cards n steps in all, one step at a time on the card
    the policy chooses."""
    for _ in range(arg):
        n = tapped_choices(prm, table, P, p, skip_slot, worths, cand)
        if n == 0:
            return
        untap_one_step(P, p, cand[Pol.choose_ready(prm, worths, n, keys, ctr, p)])


@njit
def shot_shape(table, card):
    """Abilities that change the shot itself: (lowest critical roll, extra index steps,
    ignores the incoming penalty, cost of its Mute or -1)."""
    crit_lo, surge, ignore, mute = 20, 0, 0, -1
    for k in range(2):
        code = table[card, T.C_AB1 + 2 * k]
        arg = table[card, T.C_ARG1 + 2 * k]
        if code == K.MUTE:  # the opponent's next shot loses its card abilities
            mute = table[card, T.C_COST]
        elif code == K.IGNORE:  # this shot ignores the incoming penalty
            ignore = 1
        elif code == K.CRIT:  # a natural 20-n or more is a critical
            crit_lo = max(20 - arg, 2)
        elif code == K.SURGE:  # a landed shot climbs n extra steps
            surge += arg
    return crit_lo, surge, ignore, mute


# A shot card's abilities as a hit reads them, in one word (card_shape): set once worked
# out, Serve, Ignore, the lowest critical roll (2..20) and the Surge steps above.
SHAPE_SET, SHAPE_SERVE, SHAPE_IGNORE = 1, 2, 4
SHAPE_CRIT_AT, SHAPE_CRIT_BITS, SHAPE_SURGE_AT = 3, 31, 8


@njit(forceinline=False)
def card_shape(table, card):
    """A shot card's Serve and its shot-shaping abilities (shot_shape) in one word, read
    once for every hit of the card (legal_hits)."""
    crit_lo, surge, ignore, _ = shot_shape(table, card)
    serve = SHAPE_SERVE if serve_only(table, card) else 0
    return (SHAPE_SET | serve | (SHAPE_IGNORE if ignore == 1 else 0)
            | (crit_lo << SHAPE_CRIT_AT) | (surge << SHAPE_SURGE_AT))


@njit
def shape_shot(table, card, H):
    """Write the card's shot-shaping abilities into the shot in progress."""
    H[H_CRIT_LO], H[H_SURGE], H[H_IGNORE], H[H_MUTE] = shot_shape(table, card)


@njit
def on_hit(table, card, slot, P, G, R, p, seen, prm, keys, ctr, worths, cand):
    """Abilities that act when the card is hit, before the roll. False on a forfeit."""
    for k in range(2):
        code = table[card, T.C_AB1 + 2 * k]
        arg = table[card, T.C_ARG1 + 2 * k]
        if code == K.DRAW:
            if not draw(arg, table, P, G, R, p, seen):
                return False
        elif code == K.READY:
            ready(arg, table, P, p, slot, prm, keys, ctr, worths, cand)
    return True


@njit
def coach_uses(table, coach):
    """Uses of a coach's ability each game: Clutch once, Reroll n times."""
    if coach < 0:
        return 0
    if ability_arg(table, coach, K.CLUTCH) >= 0:
        return 1
    n = ability_arg(table, coach, K.REROLL)
    return n if n > 0 else 0


@njit
def clutch(table, P, p, roll, bonus, need):
    """Coach Clutch n: once a game, a shot that misses by n or less lands (not a natural 1)."""
    n = ability_arg(table, P[p, COACH], K.CLUTCH)
    if n < 0 or P[p, COACH_USES] <= 0 or roll == 1:
        return False
    if need - (roll + bonus) <= n:
        P[p, COACH_USES] -= 1
        return True
    return False


@njit
def reroll(table, P, p, prm, at_stake, keys, ctr):
    """Coach Reroll n: n times a game, the player may roll a missed shot again (the policy
    decides; at_stake is 0 when the miss costs nothing)."""
    if ability_arg(table, P[p, COACH], K.REROLL) < 0 or P[p, COACH_USES] <= 0:
        return False
    if not Pol.choose_reroll(prm, at_stake, keys, ctr, p):
        return False
    P[p, COACH_USES] -= 1
    return True
