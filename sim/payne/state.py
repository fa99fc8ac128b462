"""One Payne match's state as flat integer arrays, with the named slots every rule reads."""

from __future__ import annotations

from sim.core.jit import njit

CAP = 64  # every zone holds a whole deck (deck_size is at most 60)

# Player row P[p]: scalars, then the deck block (undrawn from DECK_TOP) and the hand block.
SCORE, DECK_TOP, DECK_LEN, HAND_N, DISC_N = 0, 1, 2, 3, 4
OFF, DEF = 5, 6  # fielded characters, -1 when none in play
OFF_MASK, DEF_MASK = 7, 8  # their arrows now
OFF_BELIEF, DEF_BELIEF = 9, 10  # their arrows as the owner knows them (blind changes unseen)
BAN_NOW, BAN_NEXT = 11, 12  # bit 1: no events this round, bit 2: no boosters
LIE_OFF, LIE_DEF = 13, 14  # MayLie cards in effect, by the battle that discards them
AUTO_OFF, AUTO_DEF = 15, 16  # AutoWin for his attack, for his defence
PEND_OFF, PEND_DEF = 17, 18  # cards played, waiting to be discarded after that battle
UNFIELDED, REDRAWS, ATTACKS, ATTACK_WINS = 19, 20, 21, 22
SETUP_FAIL, DECKED, ROUND_PTS = 23, 24, 25
DECK = 32
HAND = DECK + CAP
PLAYER_SIZE = HAND + CAP

# What seat p has seen, seen[p] (sim/payne/unseen.py): his count of each opposing card seen
# (by card row), then from n_cards on: his tallies of the opposing characters not seen (at
# role * UNSEEN_ROLE, the copies with side s lit at + s, all copies at + UNSEEN_ALL), the same
# tallies with nothing seen (+ UNSEEN_SIZE), and the opposing deck's offensive characters in
# pool order (their count at ATTACKERS, their rows after it).
UNSEEN_ALL, UNSEEN_ROLE = 4, 5
UNSEEN_SIZE = 2 * UNSEEN_ROLE
ATTACKERS = 2 * UNSEEN_SIZE

# Match row G.
ROUND, FIRST, END, OVER, WINNER, AUTOWINS, ROUNDS_0, LOG_N = 0, 1, 2, 3, 4, 5, 6, 9
R1_ATTACK = 10  # seat p's round-1 attack: 1 succeeded, 0 failed, -1 none (at R1_ATTACK + p)
GAME_SIZE = 12

# How a match ended (the schema's end_reasons).
END_POINTS, END_DECK_OUT, END_ROUND_CAP, END_SETUP = 0, 1, 2, 3
END_REASONS = ("points", "deck-out", "round cap", "setup")

# Log row kinds.
LOG_BATTLE, LOG_UNFIELDED = 0, 1


@njit
def meet(geometry, s):
    """The attacker's arrow that lies on the defender's side s."""
    return s if geometry == 0 else (s + 2) & 3


@njit
def lit(mask, s):
    return (mask >> s) & 1
