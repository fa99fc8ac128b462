"""One game's state as flat integer arrays, with the named slots every rule reads."""

from __future__ import annotations

import numpy as np

# Every zone can hold a whole deck, so no zone ever overflows.
CAP = 64

# Player row P[p]: scalars first, then one block of CAP slots per zone.
BAG_TOP = 0  # next card to draw is BAG + BAG_TOP
BAG_LEN = 1  # cards in the bag block (drawn ones included)
HAND_N = 2
PLAY_N = 3  # shot cards in play (Arsenal and Reserve together)
PP_N = 4  # stamina in the Power Plant
PP_READY = 5  # of which untapped
DISC_N = 6
COACH = 7  # coach card, -1 for none
COACH_USES = 8  # uses of the coach ability left this game
SCORE = 9
GAMES_WON = 10
MULLIGANS = 11  # mulligans taken this match
BOOST_N = 12  # single-use enhancements paid for the shot in progress
BLANKS = 13  # Blanks in the undrawn part of the bag (set aside when a draw meets one)
BAG = 16
HAND = BAG + CAP
PLAY = HAND + CAP  # card in play
TAP = PLAY + CAP  # 0 ready, 1 single tapped, 2 double tapped
ATT = TAP + CAP  # attached enhancement card or -1
PP = ATT + CAP  # stamina cards in the Power Plant
DISC = PP + CAP
BOOSTS = DISC + CAP  # single-use enhancements on the shot in progress, discarded after it
PLAYER_SIZE = BOOSTS + CAP

# Game row G: the rally and the match.
SERVER = 0  # who serves the current point
STEP = 1  # escalation index step, 0 .. ladder length - 1
CRIT = 2  # 1 when the last shot was a critical: the next target is crit_target
IN_PEN = 3  # return penalty the player to hit must overcome
IN_TYPE = 4  # shot type being returned (0: Default Shot or none)
MUTE_COST = 5  # cost of the Mute card hit against the player to hit, -1 for none
IS_SERVE = 6  # 1 while the shot to hit is the serve
LANDED = 7  # shots landed in the current rally
TOP = 8  # highest index step reached in the current rally
TURNS = 9
POINTS = 10
SHOTS = 11
FORFEIT = 12  # player who forfeited the current game, -1 for none
GAME_NO = 13  # game of the match, 0-based
DECKOUTS = 14
END = 15  # how the last game ended: 0 points, 1 deck-out
POINT_NO = 16
GAME_SIZE = 17

# Shot in progress H: what the hitting player is about to roll with.
H_CARD = 0  # shot card, -1 for the Default Shot
H_ADV = 1  # 1 when hit with its Advantage values
H_BONUS = 2
H_PEN = 3  # return penalty it puts on the opponent
H_CRIT_LO = 4  # lowest natural roll that is a critical
H_SURGE = 5  # extra index steps if it lands
H_IGNORE = 6  # 1 when it ignores the incoming penalty
H_MUTE = 7  # cost of its Mute, -1 for none
H_ATT = 8  # the enhancement attached to its card, -1 for none (boosts: P's BOOSTS zone)
H_ACTIVE = 9  # 1 when its card abilities are in force (not muted)
SHOT_SIZE = 10


def new_state() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Fresh, zeroed player, game and shot arrays."""
    return (
        np.zeros((2, PLAYER_SIZE), dtype=np.int64),
        np.zeros(GAME_SIZE, dtype=np.int64),
        np.zeros(SHOT_SIZE, dtype=np.int64),
    )
