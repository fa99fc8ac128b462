"""Paint the Line's in-game rules (zones, the turn, the shot, points), one small compiled
function each, named as the rulebook names them; set-up and draws live in deal.py."""

from __future__ import annotations

from sim.core.jit import njit
from sim.paintline import options as O
from sim.paintline import pool as T
from sim.paintline.deal import draw_card
from sim.paintline.state import (
    ATT,
    BOOST_N,
    BOOSTS,
    CRIT,
    DISC,
    DISC_N,
    HAND,
    HAND_N,
    IN_PEN,
    IN_TYPE,
    IS_SERVE,
    LANDED,
    MUTE_COST,
    PLAY,
    PLAY_N,
    PP,
    PP_N,
    PP_READY,
    SCORE,
    SERVER,
    STEP,
    TAP,
    TOP,
)  # fmt: skip

# --- zones ------------------------------------------------------------------------


@njit
def remove_from_hand(P, p, pos):
    """Take the card at hand position pos out of the hand (order of the rest kept)."""
    card = P[p, HAND + pos]
    n = P[p, HAND_N]
    for i in range(pos, n - 1):
        P[p, HAND + i] = P[p, HAND + i + 1]
    P[p, HAND_N] = n - 1
    return card


@njit
def discard(P, p, card):
    """A card onto its owner's discard pile."""
    P[p, DISC + P[p, DISC_N]] = card
    P[p, DISC_N] += 1


@njit
def remove_from_play(P, p, slot):
    """A shot card leaves play (recycled): it and its attachment go to the discard pile
    (the attachment goes with its card and does not count toward the recycle)."""
    discard(P, p, P[p, PLAY + slot])
    if P[p, ATT + slot] >= 0:
        discard(P, p, P[p, ATT + slot])
    n = P[p, PLAY_N]
    for i in range(slot, n - 1):
        P[p, PLAY + i] = P[p, PLAY + i + 1]
        P[p, TAP + i] = P[p, TAP + i + 1]
        P[p, ATT + i] = P[p, ATT + i + 1]
    P[p, PLAY_N] = n - 1


# --- the turn -----------------------------------------------------------------------


@njit
def ready_stamina(P, p):
    """Start of turn: ready all own stamina."""
    P[p, PP_READY] = P[p, PP_N]


@njit
def put_stamina_into_play(P, p, pos):
    """Once a turn: one Stamina from hand into the Power Plant, ready."""
    card = remove_from_hand(P, p, pos)
    P[p, PP + P[p, PP_N]] = card
    P[p, PP_N] += 1
    P[p, PP_READY] += 1


@njit
def untap_one_step(P, p, slot):
    """Double tapped -> single tapped -> ready."""
    if P[p, TAP + slot] > 0:
        P[p, TAP + slot] -= 1


@njit
def pay_stamina(P, p, cost):
    """Tap `cost` ready stamina; the caller has checked there is enough."""
    P[p, PP_READY] -= cost


@njit
def play_shot_card(P, p, pos):
    """A shot card from hand into the Arsenal, ready; its cost is paid by the caller."""
    card = remove_from_hand(P, p, pos)
    slot = P[p, PLAY_N]
    P[p, PLAY + slot] = card
    P[p, TAP + slot] = 0
    P[p, ATT + slot] = -1
    P[p, PLAY_N] = slot + 1
    return slot


@njit
def attach_enhancement(P, p, pos, slot):
    """An Attach enhancement from hand onto the shot card in play at slot."""
    P[p, ATT + slot] = remove_from_hand(P, p, pos)


@njit
def recycle(table, P, G, R, p, units, m, draws, seen):
    """Recycle: discard the m chosen cards (positions among the hand cards, then the shot
    cards in play, then the stamina in the Power Plant; coaches are never among them), then
    draw `draws` cards, at most one for every recycle_ratio discarded (each draw is the
    player's choice). Returns False when a draw forfeits the game."""
    sort_descending(units, m)
    n_hand = P[p, HAND_N]
    n_play = P[p, PLAY_N]
    # Highest positions first (stamina, then play, then hand) so the rest stay valid.
    for a in range(m):
        u = units[a]
        if u >= n_hand + n_play:
            i = u - n_hand - n_play
            discard(P, p, P[p, PP + i])
            for j in range(i, P[p, PP_N] - 1):
                P[p, PP + j] = P[p, PP + j + 1]
            P[p, PP_N] -= 1
            if P[p, PP_READY] > P[p, PP_N]:
                P[p, PP_READY] = P[p, PP_N]
        elif u >= n_hand:
            remove_from_play(P, p, u - n_hand)
        else:
            discard(P, p, remove_from_hand(P, p, u))
    for _ in range(draws):
        if not draw_card(table, P, G, R, p, seen):
            return False
    return True


@njit
def discard_to_hand_limit(P, p, positions, n):
    """End of turn: discard the chosen hand positions (n of them, hand > limit)."""
    discard_from_hand(P, p, positions, n)


@njit
def sort_descending(values, n):
    """Sort values[:n] from the highest down (selection sort: n is a handful)."""
    for a in range(n):
        best = a
        for b in range(a + 1, n):
            if values[b] > values[best]:
                best = b
        values[a], values[best] = values[best], values[a]


@njit
def discard_from_hand(P, p, positions, n):
    """Discard the hand cards at n distinct positions (in any order)."""
    # Remove from the highest position down so earlier positions stay valid.
    sort_descending(positions, n)
    for a in range(n):
        discard(P, p, remove_from_hand(P, p, positions[a]))


# --- the shot -----------------------------------------------------------------------


@njit
def beats(shot_type, incoming_type):
    """Lob beats Spin, Spin beats Drive, Drive beats Lob; every type beats the Default Shot."""
    if shot_type == T.NO_TYPE:
        return False
    if incoming_type == T.NO_TYPE:
        return True
    return (
        (shot_type == T.LOB and incoming_type == T.SPIN)
        or (shot_type == T.SPIN and incoming_type == T.DRIVE)
        or (shot_type == T.DRIVE and incoming_type == T.LOB)
    )


@njit
def has_advantage(shot_type, incoming_type, is_serve):
    """A shot card has Advantage on the serve, or when its type beats the incoming shot's.
    The Default Shot (no type) never has it."""
    if shot_type == T.NO_TYPE:
        return False
    return is_serve == 1 or beats(shot_type, incoming_type)


@njit
def advantage_types(incoming_type, is_serve):
    """The shot types that have Advantage against this incoming shot, as bits (bit t for
    type t): has_advantage over every type, worked out once for a whole list of hits."""
    bits = 0
    for t in range(T.N_TYPES):
        if has_advantage(t, incoming_type, is_serve):
            bits |= 1 << t
    return bits


@njit
def escalation_target(G, R):
    """The number to reach: the index value, or crit_target right after a critical."""
    if G[CRIT] == 1:
        return R[O.R_CRIT_TARGET]
    return R[O.R_LADDER + G[STEP]]


@njit
def shot_lands(roll, bonus, need, crit_lo):
    """Rule of 20 and 1: a natural 1 misses, a critical (natural crit_lo..20) lands;
    otherwise the shot lands when roll + bonus >= target + incoming penalty (= need)."""
    if roll == 1:
        return False
    if roll >= crit_lo:
        return True
    return roll + bonus >= need


@njit
def hit_chance(bonus, need, crit_lo):
    """Exact probability that one d20 shot lands (for policies and the exact solver)."""
    lo = need - bonus  # smallest natural roll that lands on its own
    if crit_lo < lo:
        lo = crit_lo
    if lo < 2:
        lo = 2
    if lo > 20:
        return 0.0
    return (21 - lo) / 20.0


@njit
def climb_the_index(G, R, extra):
    """A landed shot moves the index one step up (plus Surge steps); it stays at the top."""
    top = R[O.R_LADDER_LEN] - 1
    s = G[STEP] + 1 + extra
    G[STEP] = s if s < top else top
    if G[STEP] > G[TOP]:
        G[TOP] = G[STEP]


@njit
def double_tap(P, p, slot):
    """The shot card just hit is double tapped (it goes to the Reserve)."""
    P[p, TAP + slot] = 2


# --- points -------------------------------------------------------------------------


@njit
def discard_boosts(P, p):
    """After the roll, the single-use enhancements that boosted the shot are discarded."""
    for i in range(P[p, BOOST_N]):
        discard(P, p, P[p, BOOSTS + i])
    P[p, BOOST_N] = 0


@njit
def score_point(P, p):
    P[p, SCORE] += 1


@njit
def reset_after_point(P, G):
    """After a point every card but coaches is ready again and the index starts over."""
    for p in range(2):
        for i in range(P[p, PLAY_N]):
            P[p, TAP + i] = 0
        P[p, PP_READY] = P[p, PP_N]
    G[STEP] = 0
    G[TOP] = 0
    G[CRIT] = 0
    G[IN_PEN] = 0
    G[IN_TYPE] = T.NO_TYPE
    G[MUTE_COST] = -1
    G[IS_SERVE] = 1
    G[LANDED] = 0


@njit
def alternate_serve(G):
    """The serve alternates after every point, whoever scored."""
    G[SERVER] = 1 - G[SERVER]


@njit
def game_winner(P, R):
    """The player who has reached points_to_win with a lead of win_by, else -1."""
    for p in range(2):
        if P[p, SCORE] >= R[O.R_POINTS_TO_WIN] and P[p, SCORE] - P[1 - p, SCORE] >= R[O.R_WIN_BY]:
            return p
    return -1


@njit
def games_to_win_match(R):
    return R[O.R_MATCH_GAMES] // 2 + 1
