"""The closed vocabulary of keyword abilities: name, opcode and meaning, as plain data."""

from dataclasses import dataclass


@dataclass(frozen=True)
class Keyword:
    name: str
    opcode: int
    takes_arg: bool
    meaning: str


NONE = 0
SERVE = 1
MUTE = 2
IGNORE = 3
DRAW = 4
READY = 5
CRIT = 6
SURGE = 7
ATTACH = 8
CLUTCH = 9
REROLL = 10

KEYWORDS = (
    Keyword("Serve", SERVE, False, "this card can be hit only on the serve"),
    Keyword("Mute", MUTE, False, "the opponent's next shot loses its card abilities"),
    Keyword("Ignore", IGNORE, False, "this shot ignores the incoming return penalty"),
    Keyword("Draw", DRAW, True, "when hit, draw n cards"),
    Keyword("Ready", READY, True, "when hit, untap your other shot cards n steps in all"),
    Keyword("Crit", CRIT, True, "a natural roll of 20-n or more is a critical"),
    Keyword("Surge", SURGE, True, "if this shot lands, the index climbs n extra steps"),
    Keyword("Attach", ATTACH, False, "enhancement that stays attached to a shot card"),
    Keyword("Clutch", CLUTCH, True, "coach, once a game: a shot missing by n or less lands"),
    Keyword("Reroll", REROLL, True, "coach, n times a game: roll a missed shot again"),
)

BY_NAME = {k.name.lower(): k for k in KEYWORDS}

COACH_ONLY = frozenset({CLUTCH, REROLL})
# Keywords that act only when a shot card is hit: on any other kind they would do nothing.
SHOT_ONLY = frozenset({SERVE, MUTE, IGNORE, DRAW, READY, CRIT, SURGE})
NAMES = {k.opcode: k.name for k in KEYWORDS}
ENHANCEMENT_ONLY = frozenset({ATTACH})
