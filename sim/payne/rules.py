"""Payne's rules, one small compiled function each, named as the rulebook names them."""

from __future__ import annotations

from sim.core.jit import njit
from sim.core.rng import SHUFFLE, next_below
from sim.payne import answers as A
from sim.payne import options as O
from sim.payne import policy as Pol
from sim.payne import pool as T
from sim.payne import unseen as U
from sim.payne.state import (
    AUTO_DEF,
    AUTO_OFF,
    BAN_NEXT,
    DECK,
    DECK_LEN,
    DECK_TOP,
    DECKED,
    DEF,
    DEF_BELIEF,
    DEF_MASK,
    HAND,
    HAND_N,
    LIE_DEF,
    LIE_OFF,
    OFF,
    OFF_BELIEF,
    OFF_MASK,
    PEND_DEF,
    PEND_OFF,
    REDRAWS,
    SETUP_FAIL,
    lit,
)

# Card statistics after the four common ones, in the schema's order.
CS_FIELDED, CS_PLAYED_EVENT, CS_PLAYED_BOOSTER, CS_BATTLES, CS_BATTLES_WON = 4, 5, 6, 7, 8


@njit
def shuffle_deck(P, p, keys, ctr):
    """Fisher-Yates over the undrawn cards, from the player's shuffle stream."""
    top = P[p, DECK_TOP]
    for i in range(P[p, DECK_LEN] - top - 1, 0, -1):
        j = next_below(keys, ctr, p, SHUFFLE, i + 1)
        a, b = DECK + top + i, DECK + top + j
        P[p, a], P[p, b] = P[p, b], P[p, a]


@njit
def next_card(table, P, p):
    """The next card off the deck, a Blank met on the way set aside (it stays where it lay,
    behind the deck's top); -1 when only Blanks or nothing is left."""
    while P[p, DECK_TOP] < P[p, DECK_LEN]:
        c = P[p, DECK + P[p, DECK_TOP]]
        P[p, DECK_TOP] += 1
        if table[c, T.C_KIND] != T.BLANK:
            return c
    return -1


@njit
def draw_cards(table, R, P, p, n, drawn):
    """Draw n cards; an empty deck draws nothing, and under deck_out = lose marks the player."""
    for _ in range(n):
        c = next_card(table, P, p)
        if c < 0:
            if R[O.R_DECK_OUT] == 1:
                P[p, DECKED] = 1
            return
        P[p, HAND + P[p, HAND_N]] = c
        P[p, HAND_N] += 1
        drawn[p, c] = 1


@njit
def has_both_roles(table, P, p):
    """Whether the hand holds an offensive and a defensive character."""
    off, dfn = 0, 0
    for i in range(P[p, HAND_N]):
        c = P[p, HAND + i]
        if table[c, T.C_KIND] == T.CHARACTER:
            if table[c, T.C_ROLE] == T.OFF:
                off = 1
            else:
                dfn = 1
    return off == 1 and dfn == 1


@njit
def draw_opening_hand(table, R, P, p):
    """The top opening_hand cards, Blanks set aside (fewer if the deck runs out); not yet
    'drawn' for stats."""
    for _ in range(R[O.R_OPENING]):
        c = next_card(table, P, p)
        if c < 0:
            return
        P[p, HAND + P[p, HAND_N]] = c
        P[p, HAND_N] += 1


@njit
def set_up(table, R, P, p, cards, keys, ctr, drawn):
    """Shuffle, draw the opening hand, and redraw it while it lacks a role (up to the cap)."""
    n = cards.shape[0]
    for i in range(n):
        P[p, DECK + i] = cards[i]
    P[p, DECK_TOP] = 0
    P[p, DECK_LEN] = n
    P[p, HAND_N] = 0
    shuffle_deck(P, p, keys, ctr)
    draw_opening_hand(table, R, P, p)
    while not has_both_roles(table, P, p):
        if P[p, REDRAWS] >= R[O.R_REDRAW_CAP]:
            P[p, SETUP_FAIL] = 1
            break
        # the hand goes back on top of the deck, the Blanks set aside with it in their
        # places (every shuffle is over the whole deck, so a deck with Blanks for a card's
        # copies keeps every other card where the deck without them has it), and the whole
        # deck is shuffled again
        k = 0
        for i in range(P[p, DECK_TOP]):
            if table[P[p, DECK + i], T.C_KIND] != T.BLANK:
                P[p, DECK + i] = P[p, HAND + k]
                k += 1
        P[p, DECK_TOP] = 0
        P[p, HAND_N] = 0
        shuffle_deck(P, p, keys, ctr)
        draw_opening_hand(table, R, P, p)
        P[p, REDRAWS] += 1
    for i in range(P[p, HAND_N]):
        drawn[p, P[p, HAND + i]] = 1


@njit
def take_from_hand(P, p, i):
    """Remove hand position i, keeping the order of the rest; returns the card."""
    c = P[p, HAND + i]
    for j in range(i, P[p, HAND_N] - 1):
        P[p, HAND + j] = P[p, HAND + j + 1]
    P[p, HAND_N] -= 1
    return c


@njit
def hand_position(P, p, c):
    for i in range(P[p, HAND_N]):
        if P[p, HAND + i] == c:
            return i
    return -1


@njit
def change_arrows(R, mask, printed, n, order, flipped):
    """Arrow Advantage / Disadvantage n: |n| units, each flipping the first named side not
    yet in the target state whose flip keeps at most max_changed arrows unlike the print;
    a unit with no such side is lost. flipped[s] = 1 for each side flipped."""
    target = 1 if n > 0 else 0
    for s in range(4):
        flipped[s] = 0
    for _ in range(abs(n)):
        for i in range(4):
            s = order[i]
            if lit(mask, s) == target:
                continue
            new = mask ^ (1 << s)
            changed = new ^ printed
            count = 0
            for t in range(4):
                count += lit(changed, t)
            if count <= R[O.R_MAX_CHANGED]:
                mask = new
                flipped[s] = 1
                break
    return mask


@njit
def character_slots(role):
    """(card, mask, belief) slots of a player's character of a role."""
    if role == T.OFF:
        return OFF, OFF_MASK, OFF_BELIEF
    return DEF, DEF_MASK, DEF_BELIEF


@njit
def arrow_change(table, views, R, prms, P, KN, p, role, arg, blind, seen, keys, ctr, fw,
                 order, flipped):
    """Arrow Advantage (own character of `role`, seen) or Disadvantage (the opposing
    battler, chosen blind): the chooser's policy orders the sides, the units apply."""
    owner = 1 - p if blind else p
    c_slot, m_slot, b_slot = character_slots(role)
    card = P[owner, c_slot]
    if card < 0:
        return
    if blind:
        which = Pol.OPP_DEF if role == T.DEF else Pol.OPP_OFF
    else:
        which = Pol.OWN_OFF if role == T.OFF else Pol.OWN_DEF
    Pol.change_weights(views[p], R[O.R_GEOMETRY], which, P[p, OFF_BELIEF], P[p, DEF_BELIEF],
                       seen[p], KN[p], fw[0:4], fw[4:8])
    Pol.order_sides(prms[p], fw[0:4], arg > 0, order, keys, ctr, p)
    old = P[owner, m_slot]
    new = change_arrows(R, old, table[card, T.C_ARROWS], arg, order, flipped)
    P[owner, m_slot] = new
    target = 1 if arg > 0 else 0
    if not blind:
        # the owner sees the sides his change flipped, each now in the target state (an
        # opponent's blind change may have left his picture of them wrong before)
        if target == 1:
            P[p, b_slot] |= old ^ new
        else:
            P[p, b_slot] &= ~(old ^ new)
    elif R[O.R_FEEDBACK] == 0:
        for i in range(min(abs(arg), 4)):  # silent: he assumes his first |n| sides took
            KN[p, role, order[i]] = target
    else:
        for s in range(4):
            if flipped[s]:
                KN[p, role, s] = target


@njit
def reveal(views, R, prms, P, KN, p, role, seen, keys, ctr, fw, order):
    """Reveal: the opposing owner names a lit side of his offensive character or an unlit
    side of his defensive one (first in the order his policy gives), or 'none'; under MayLie
    anything. Returns the answer (side or -1)."""
    q = 1 - p
    c_slot, m_slot, b_slot = character_slots(role)
    need = 1 if role == T.OFF else 0
    may_lie = P[q, LIE_OFF] + P[q, LIE_DEF] > 0
    A.reveal_order(views[q], R[O.R_GEOMETRY], prms[q], need, seen[q], KN[q], fw, order, keys,
                   ctr, q)
    answer = A.TRUTH
    if may_lie:
        answer = A.lie_answer(prms[q], need, P[q, b_slot], order, keys, ctr, q)
    if answer == A.TRUTH:
        answer = -1
        for i in range(4):
            if lit(P[q, m_slot], order[i]) == need:
                answer = order[i]
                break
    if not may_lie and P[q, c_slot] >= 0:  # answers under MayLie are not trusted
        if answer >= 0:
            KN[p, role, answer] = need
        else:
            for s in range(4):
                KN[p, role, s] = 1 - need
    return answer


@njit
def play_card(table, views, R, prms, P, KN, p, c, in_deck, seen, cs, keys, ctr, fw, order,
              flipped):
    """Play a booster, event or character-as-event: its effects in the order its player
    chooses."""
    role = table[c, T.C_ROLE]
    U.see(views, in_deck, seen, 1 - p, c)
    if table[c, T.C_KIND] == T.BOOSTER:
        cs[p, c, CS_PLAYED_BOOSTER] += 1
    else:
        cs[p, c, CS_PLAYED_EVENT] += 1
    if role == T.OFF:
        P[p, PEND_OFF] += 1
    else:
        P[p, PEND_DEF] += 1
    first = A.effect_first(table, prms[p], c, keys, ctr, p)
    for k in range(2):
        e = k ^ first
        eff = table[c, T.C_EFF1 if e == 0 else T.C_EFF2]
        arg = table[c, T.C_ARG1 if e == 0 else T.C_ARG2]
        if eff == T.ARROW_ADVANTAGE:
            arrow_change(table, views, R, prms, P, KN, p, role, arg, False, seen, keys, ctr,
                         fw, order, flipped)
        elif eff == T.ARROW_DISADVANTAGE:
            arrow_change(table, views, R, prms, P, KN, p, 1 - role, arg, True, seen, keys,
                         ctr, fw, order, flipped)
        elif eff == T.REVEAL:
            reveal(views, R, prms, P, KN, p, 1 - role, seen, keys, ctr, fw, order)
        elif eff == T.AUTO_WIN:
            P[p, AUTO_OFF if role == T.OFF else AUTO_DEF] = 1
        elif eff == T.BAN:
            P[p if arg > 0 else 1 - p, BAN_NEXT] |= abs(arg)
        elif eff == T.MAY_LIE:
            P[p, LIE_OFF if role == T.OFF else LIE_DEF] += 1
