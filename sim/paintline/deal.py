"""Random numbers and the rules that set a game up and feed it cards: the shuffle, the
opening hand, mulligans, the first serve, rally mode, draws, the Blank set aside and
deck-out."""

from __future__ import annotations

from sim.core.jit import njit
from sim.core.rng import DICE, SHUFFLE, next_below
from sim.paintline import options as O
from sim.paintline.pool import BLANK, C_KIND
from sim.paintline.state import (
    ATT,
    BAG,
    BAG_LEN,
    BAG_TOP,
    BLANKS,
    BOOST_N,
    DISC_N,
    FORFEIT,
    HAND,
    HAND_N,
    PLAY,
    PLAY_N,
    PP_N,
    PP_READY,
    TAP,
)  # fmt: skip

# --- random numbers ---------------------------------------------------------------


@njit
def roll_the_ball(keys, ctr, p):
    """Roll the d20 for player p."""
    return next_below(keys, ctr, p, DICE, 20) + 1


# --- set-up -----------------------------------------------------------------------


@njit
def shuffle_bag(P, p, keys, ctr):
    """Fisher-Yates over the undrawn part of the bag, from the player's shuffle stream."""
    top = P[p, BAG_TOP]
    n = P[p, BAG_LEN] - top
    for i in range(n - 1, 0, -1):
        j = next_below(keys, ctr, p, SHUFFLE, i + 1)
        a = BAG + top + i
        b = BAG + top + j
        P[p, a], P[p, b] = P[p, b], P[p, a]


@njit
def gather_cards(table, P, p, bag):
    """Every card but the coach back into the bag, nothing in play, hand or discard; the
    Blanks go back too and are counted, so that the bag's length and shuffle stay those of
    the deck and the cards left to draw leave them out."""
    blanks = 0
    for i in range(bag.shape[0]):
        P[p, BAG + i] = bag[i]
        if table[bag[i], C_KIND] == BLANK:
            blanks += 1
    P[p, BLANKS] = blanks
    P[p, BAG_TOP] = 0
    P[p, BAG_LEN] = bag.shape[0]
    P[p, HAND_N] = 0
    P[p, PLAY_N] = 0
    P[p, PP_N] = 0
    P[p, PP_READY] = 0
    P[p, DISC_N] = 0
    P[p, BOOST_N] = 0


@njit
def roll_for_first_serve(keys, ctr):
    """Both roll the ball, highest serves; ties roll again."""
    while True:
        a = roll_the_ball(keys, ctr, 0)
        b = roll_the_ball(keys, ctr, 1)
        if a != b:
            return 0 if a > b else 1


@njit
def take_mulligan(P, p, keys, ctr):
    """Shuffle the hand back into the bag (ready for a new opening hand)."""
    top = P[p, BAG_TOP]
    for i in range(P[p, HAND_N]):
        top -= 1
        P[p, BAG + top] = P[p, HAND + i]
    P[p, BAG_TOP] = top
    P[p, HAND_N] = 0
    shuffle_bag(P, p, keys, ctr)


@njit
def draw_opening_hand(table, P, R, p):
    """Opening hand: the top cards of the bag, Blanks set aside (kept or mulliganed before
    they count as drawn)."""
    n = min(R[O.R_OPENING_HAND], bag_left(P, p))
    for _ in range(n):
        set_aside_blanks(table, P, p)
        P[p, HAND + P[p, HAND_N]] = P[p, BAG + P[p, BAG_TOP]]
        P[p, BAG_TOP] += 1
        P[p, HAND_N] += 1


UNLIMITED_STAMINA = 999


@njit
def set_up_rally_mode(P, R, p):
    """Rally mode: the seat's arsenal starts in play, ready, with stamina to spare."""
    for k in range(O.MAX_ARSENAL):
        card = R[O.R_ARSENAL + p * O.MAX_ARSENAL + k]
        if card >= 0:
            slot = P[p, PLAY_N]
            P[p, PLAY + slot] = card
            P[p, TAP + slot] = 0
            P[p, ATT + slot] = -1
            P[p, PLAY_N] = slot + 1
    P[p, PP_N] = UNLIMITED_STAMINA
    P[p, PP_READY] = UNLIMITED_STAMINA


# --- drawing and deck-out ---------------------------------------------------------


@njit
def bag_left(P, p):
    """Cards left to draw: the undrawn part of the bag less its Blanks, which no draw ever
    takes."""
    return P[p, BAG_LEN] - P[p, BAG_TOP] - P[p, BLANKS]


@njit
def set_aside_blanks(table, P, p):
    """A draw that meets a Blank sets it aside out of the game and goes on to the next card,
    so the cards after it keep the places the shuffle gave them. Called only when a card is
    left to draw, so a card other than a Blank lies ahead."""
    while P[p, BLANKS] > 0 and table[P[p, BAG + P[p, BAG_TOP]], C_KIND] == BLANK:
        P[p, BAG_TOP] += 1
        P[p, BLANKS] -= 1


@njit
def safe_draws(P, R, p):
    """Cards the player can draw now without forfeiting the game."""
    n = bag_left(P, p)
    if R[O.R_DECK_OUT] == 1 and n > 0:
        n -= 1  # forfeit_when_empty: the card that empties the bag forfeits
    return n


@njit
def draw_card(table, P, G, R, p, seen):
    """Draw one card, Blanks met on the way set aside; drawing from a bag with no card left
    but Blanks, or emptying it under forfeit_when_empty, forfeits the game. Returns False
    on a forfeit."""
    if R[O.R_RALLY_MODE] == 1:
        return True  # rally mode: no deck, no draws
    if bag_left(P, p) == 0:
        G[FORFEIT] = p
        return False
    set_aside_blanks(table, P, p)
    card = P[p, BAG + P[p, BAG_TOP]]
    P[p, BAG_TOP] += 1
    P[p, HAND + P[p, HAND_N]] = card
    P[p, HAND_N] += 1
    seen[p, card] = 1
    if R[O.R_DECK_OUT] == 1 and bag_left(P, p) == 0:
        G[FORFEIT] = p
        return False
    return True
