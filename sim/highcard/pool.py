"""High Card's card pool: cards.csv read into the engine's checked integer table, with the
words. A number card has a value 1..9; a Blank has none and does nothing."""

from __future__ import annotations

from sim.kit.cards import Cards, CardTable, Column

KINDS = ("number", "blank")
NUMBER, BLANK = range(2)
COLUMNS = ("id", "name", "kind", "value", "text")
C_KIND, C_VALUE = range(2)
N_CARD_COLUMNS = 2
LOWEST, HIGHEST = 1, 9  # a number card's value
MAX_COPIES = 4  # copies of a number card's name in a deck


def card_problems(row: list[int]) -> list[str]:
    """What is wrong with one card's integer row (shared by cards.csv and --set edits)."""
    kind, value = row[C_KIND], row[C_VALUE]
    if kind == NUMBER and not LOWEST <= value <= HIGHEST:
        return [f"a number card's value is {LOWEST} .. {HIGHEST}, got {value}"]
    if kind == BLANK and value != 0:
        return [f"a blank has no value, got {value}"]
    return []


CARDS = Cards(
    columns=(Column("id"), Column("name"), Column("kind", C_KIND, KINDS),
             Column("value", C_VALUE, default=0), Column("text")),
    width=N_CARD_COLUMNS, kind_slot=C_KIND, kinds=KINDS, check=card_problems)


class Pool(CardTable):
    """The card pool: the engine's integer table plus the words."""

    CARDS = CARDS


load_pool = Pool.load  # cards.csv read and checked; InputError lists every problem
