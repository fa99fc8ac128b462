"""One High Card match's state as flat integer arrays, with the named slots every rule
reads."""

from __future__ import annotations

CAP = 64  # a zone holds a whole deck (deck_size is at most 60)

# Player row P[p]: scalars, then the deck block (undrawn from DECK_TOP) and the hand block.
SCORE, DECK_TOP, DECK_LEN, HAND_N, WINS = 0, 1, 2, 3, 4
DECK = 8
HAND = DECK + CAP
PLAYER_SIZE = HAND + CAP

# Match row G.
ROUND, LEADER, FIRST, END, WINNER, TIES, ROUND1, LOG_N = range(8)
GAME_SIZE = 8

# How a match ended (the schema's end_reasons).
END_POINTS, END_OUT = 0, 1
END_REASONS = ("points", "out of cards")
