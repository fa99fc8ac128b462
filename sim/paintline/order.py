"""The four actions a turn takes before the hit, and the orders a policy may take them in."""

from __future__ import annotations

from itertools import permutations

import numpy as np

UNTAP, RECYCLE, STAMINA, PLAY = 0, 1, 2, 3
WORDS = ("untap", "recycle", "stamina", "play")
# Every order of the four actions; row 0 is untap, recycle, stamina, play.
PERMS = np.array(list(permutations(range(4))), dtype=np.int64)
DEFAULT = 0
RANDOM_EACH_TURN = -1  # a random policy draws an order every turn


def parse_order(text: str) -> int:
    """The code of an order written as the four words in turn (or "random"); raises
    ValueError saying what is wrong."""
    words = text.lower().split()
    if words == ["random"]:
        return RANDOM_EACH_TURN
    if sorted(words) != sorted(WORDS):
        raise ValueError(f"order must name each of {', '.join(WORDS)} once, or be "
                         f"\"random\"; got {text!r}")
    wanted = tuple(WORDS.index(w) for w in words)
    return next(i for i, row in enumerate(PERMS) if tuple(row) == wanted)


def order_text(code: int) -> str:
    """The order a code stands for, as policies.toml writes it."""
    return "random" if code < 0 else " ".join(WORDS[a] for a in PERMS[code])
