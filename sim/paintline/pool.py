"""The card pool: cards.csv read into the engine's validated integer table, with the words."""

from __future__ import annotations

from sim.kit.cards import Cards, CardTable, Column
from sim.paintline import keywords

DECK_SIZE = 60
MAX_VALUE = 999  # no printed card or rule value comes near this
MAX_COPIES = 4

# Card kinds, nations and shot types as the integer codes the engine reads.
KINDS = ("coach", "stamina", "basic_shot", "trick_shot", "enhancement", "blank")
COACH, STAMINA, BASIC_SHOT, TRICK_SHOT, ENHANCEMENT, BLANK = range(6)
NATIONS = ("neutral", "US", "USSR")
NEUTRAL = 0
SHOT_TYPES = ("", "lob", "spin", "drive")
NO_TYPE, LOB, SPIN, DRIVE = range(4)
N_TYPES = len(SHOT_TYPES)

# Columns of the card table.
COLUMNS = (
    "id", "name", "nation", "kind", "cost", "shot_type", "normal_bonus", "normal_penalty",
    "advantage_bonus", "advantage_penalty", "ability1", "arg1", "ability2", "arg2", "text",
)  # fmt: skip
C_KIND, C_NATION, C_COST, C_TYPE = 0, 1, 2, 3
C_NBONUS, C_NPEN, C_ABONUS, C_APEN = 4, 5, 6, 7
C_AB1, C_ARG1, C_AB2, C_ARG2 = 8, 9, 10, 11
N_CARD_COLUMNS = 12
INT_COLUMNS = {
    "cost": C_COST, "normal_bonus": C_NBONUS, "normal_penalty": C_NPEN,
    "advantage_bonus": C_ABONUS, "advantage_penalty": C_APEN, "arg1": C_ARG1, "arg2": C_ARG2,
}  # fmt: skip


def value_problems(row: list[int]) -> list[str]:
    """Codes the engine knows and whole-number values in 0 .. MAX_VALUE."""
    out = []
    for col, idx, known in (("kind", C_KIND, KINDS), ("nation", C_NATION, NATIONS),
                            ("shot_type", C_TYPE, SHOT_TYPES)):
        if not 0 <= row[idx] < len(known):
            out.append(f"{col} code {row[idx]} is none of "
                       f"{', '.join(k or 'none' for k in known)}")
    for col, idx in (("ability1", C_AB1), ("ability2", C_AB2)):
        if row[idx] != keywords.NONE and row[idx] not in keywords.NAMES:
            out.append(f"{col} code {row[idx]} is no ability")
    for col, idx in INT_COLUMNS.items():
        if row[idx] < 0:
            out.append(f"{col} must not be negative, got {row[idx]}")
        elif row[idx] > MAX_VALUE:
            out.append(f"{col} is too large (at most {MAX_VALUE}), got {row[idx]}")
    return out


def card_problems(row: list[int]) -> list[str]:
    """One card's row of the engine's table: codes it knows, values in range, then fields
    that fit the card's kind; the checks of cards.csv, for a table changed in memory too."""
    return value_problems(row) or shape_problems(row)


def shape_problems(row: list[int]) -> list[str]:
    """A card's fields must fit its kind: shots have a type, abilities sit on the right kind."""
    out = []
    kind = row[C_KIND]
    is_shot = kind in (BASIC_SHOT, TRICK_SHOT)
    if is_shot and row[C_TYPE] == NO_TYPE:
        out.append("a shot card needs a shot type")
    if not is_shot and row[C_TYPE] != NO_TYPE:
        out.append("only shot cards have a shot type")
    # The rulebook's nations by kind: basic shots and shot enhancements are neutral, trick
    # shots belong to a nation; it gives coaches (and Stamina) none of their own either way.
    if kind == BASIC_SHOT and row[C_NATION] != NEUTRAL:
        out.append("basic shots are neutral")
    if kind == ENHANCEMENT and row[C_NATION] != NEUTRAL:
        out.append("shot enhancements are neutral")
    if kind == TRICK_SHOT and row[C_NATION] == NEUTRAL:
        out.append("trick shots belong to a nation")
    for ab in (row[C_AB1], row[C_AB2]):
        if ab in keywords.COACH_ONLY and kind != COACH:
            out.append("this ability is for coaches only")
        if ab in keywords.ENHANCEMENT_ONLY and kind != ENHANCEMENT:
            out.append("Attach is for enhancements only")
        if kind == COACH and ab not in keywords.COACH_ONLY and ab != keywords.NONE:
            out.append("a coach takes a coach ability")
        elif ab in keywords.SHOT_ONLY and not is_shot:
            out.append(f"{keywords.NAMES[ab]} does nothing on a "
                       f"{KINDS[kind].replace('_', ' ')}; it acts only when a shot card is hit")
    return out


ABILITIES = {k.name: k.opcode for k in keywords.KEYWORDS} | {"": keywords.NONE}
CARDS = Cards(
    columns=(Column("id"), Column("name"), Column("nation", C_NATION, NATIONS),
             Column("kind", C_KIND, KINDS), Column("cost", C_COST),
             Column("shot_type", C_TYPE, SHOT_TYPES, what="shot type"),
             *(Column(c, INT_COLUMNS[c]) for c in ("normal_bonus", "normal_penalty",
                                                   "advantage_bonus", "advantage_penalty")),
             Column("ability1", C_AB1, ABILITIES, what="ability", fold=str.lower),
             Column("arg1", C_ARG1),
             Column("ability2", C_AB2, ABILITIES, what="ability", fold=str.lower),
             Column("arg2", C_ARG2), Column("text")),
    width=N_CARD_COLUMNS, kind_slot=C_KIND, kinds=KINDS, check=card_problems,
    values=value_problems)


class Pool(CardTable):
    """The card pool: one row per card in the engine's integer table, plus the words."""

    CARDS = CARDS


load_pool = Pool.load  # cards.csv read and checked; InputError lists every problem
