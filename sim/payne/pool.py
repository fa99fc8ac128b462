"""Payne's card pool: cards.csv read into the engine's checked integer table, with the words."""

from __future__ import annotations

import numpy as np

from sim.kit.cards import Cards, CardTable, Column

KINDS = ("character", "booster", "event", "blank")
CHARACTER, BOOSTER, EVENT, BLANK = range(4)
ROLES = ("offensive", "defensive")
OFF, DEF = 0, 1
RARITIES = ("common", "uncommon", "rare", "super_rare")
COMMON, UNCOMMON, RARE, SUPER_RARE = range(4)
ORIGINS = ("sample", "invented")
SIDES = "NESW"  # bit s of an arrow mask is side SIDES[s]

# Keywords: name -> (opcode, whether it takes an argument +-1..3).
KEYWORDS = {"ArrowAdvantage": (1, True), "ArrowDisadvantage": (2, True), "Reveal": (3, False),
            "AutoWin": (4, False), "Ban": (5, True), "MayLie": (6, False)}
NONE, ARROW_ADVANTAGE, ARROW_DISADVANTAGE, REVEAL, AUTO_WIN, BAN, MAY_LIE = range(7)
KEYWORD_NAMES = ("",) + tuple(KEYWORDS)

COLUMNS = ("id", "name", "kind", "role", "arrows", "rarity", "effect1", "arg1", "effect2",
           "arg2", "origin", "text")
C_KIND, C_ROLE, C_ARROWS, C_RARITY, C_EFF1, C_ARG1, C_EFF2, C_ARG2, C_ORIGIN = range(9)
N_CARD_COLUMNS = 9

# Rarity of a character from its lit arrows, by role (the rulebook's rule).
RARITY_BY_LIT = ((COMMON, COMMON, UNCOMMON, RARE, SUPER_RARE),
                 (SUPER_RARE, RARE, UNCOMMON, COMMON, COMMON))
MAX_PER_NAME = 6
MAX_BY_RARITY = (3, 2, 1, 1)  # rare and super rare share the one slot



def parse_arrows(text: str) -> int | None:
    """'N.S.' -> the mask with bits N and S; None when malformed."""
    if len(text) != 4 or any(ch not in (side, ".") for ch, side in zip(text, SIDES,
                                                                        strict=True)):
        return None
    return sum(1 << s for s, ch in enumerate(text) if ch != ".")


def arrows_text(mask: int) -> str:
    return "".join(side if mask >> s & 1 else "." for s, side in enumerate(SIDES))


def card_problems(row: list[int]) -> list[str]:
    """What is wrong with one card's integer row (shared by cards.csv and --set edits)."""
    out = []
    kind, role, mask = row[C_KIND], row[C_ROLE], row[C_ARROWS]
    if kind == CHARACTER:
        lit = bin(mask).count("1")
        want = RARITY_BY_LIT[role][lit]
        if row[C_RARITY] != want:
            out.append(f"a {ROLES[role]} character with {lit} lit arrows is "
                       f"{RARITIES[want]}, not {RARITIES[row[C_RARITY]]}")
    else:
        if mask:
            out.append("only characters have arrows")
        if row[C_RARITY] != COMMON:
            out.append("boosters, events and blanks are common")
    if kind in (BOOSTER, EVENT) and row[C_EFF1] == NONE:
        out.append(f"a {KINDS[kind]} needs an effect")
    if row[C_EFF1] == NONE and row[C_EFF2] != NONE:  # the rules read a power from effect1
        out.append(f"{KEYWORD_NAMES[row[C_EFF2]]} in effect2 without effect1: give the "
                   "first effect in effect1")
    if kind == BLANK and (row[C_EFF1] or row[C_EFF2]):
        out.append("a blank has no effect")
    for e, a in ((C_EFF1, C_ARG1), (C_EFF2, C_ARG2)):
        takes = row[e] != NONE and KEYWORDS[KEYWORD_NAMES[row[e]]][1]
        if takes and not (1 <= abs(row[a]) <= 3):
            out.append(f"{KEYWORD_NAMES[row[e]]} takes an argument in -3..-1 or 1..3, "
                       f"got {row[a]}")
        if not takes and row[a] != 0:
            out.append(f"argument {row[a]} given to {KEYWORD_NAMES[row[e]] or 'no effect'}, "
                       "which takes none")
    return out


def read_role(cell: str, row: dict) -> int | None:
    """A role; a blank may leave it empty."""
    if cell in ROLES:
        return ROLES.index(cell)
    return 0 if cell == "" and row["kind"] == "blank" else None


def read_arrows(cell: str, row: dict) -> int | None:
    """Arrows as 'N.S.' on a character (and wherever given)."""
    return parse_arrows(cell) if row["kind"] == "character" or cell else 0


ALL = (1 << len(SIDES)) - 1


def helping(kind: int, role: int, mask: int) -> int:
    """The mask of sides that help a character's role (0 for other kinds)."""
    if kind != CHARACTER:
        return 0
    return mask if role == OFF else ALL & ~mask


def sides(kind: int, role: int, mask: int) -> int:
    """How many of a character's sides help its role (0 for other kinds)."""
    return bin(helping(kind, role, mask)).count("1")


def with_sides(kind: int, role: int, mask: int, k: int) -> int:
    """The arrow mask with k helping sides: its own helping sides kept, the last (W, S, E,
    N) given up first, new ones taken N, E, S, W."""
    h = helping(kind, role, mask)
    for s in reversed(range(len(SIDES))):
        if bin(h).count("1") > k and h >> s & 1:
            h &= ~(1 << s)
    for s in range(len(SIDES)):
        if bin(h).count("1") < k and not h >> s & 1:
            h |= 1 << s
    return h if role == OFF else ALL & ~h


def _lit(table: np.ndarray, card: int, mask: int) -> None:
    """A card's arrows; on a character the rarity follows the lit ones, as the rulebook
    prices them."""
    table[card, C_ARROWS] = mask
    if table[card, C_KIND] == CHARACTER:
        table[card, C_RARITY] = RARITY_BY_LIT[table[card, C_ROLE]][bin(mask).count("1")]


def set_arrows(table: np.ndarray, card: int, text: str) -> str:
    """--set CARD.arrows=N.S.: the arrows as given."""
    mask = parse_arrows(text)
    if mask is None:
        return "arrows like 'N.S.'"
    _lit(table, card, mask)
    return ""


def set_sides(table: np.ndarray, card: int, text: str) -> str:
    """--set CARD.sides=K: a character with K sides that help its role (with_sides)."""
    kind, role = int(table[card, C_KIND]), int(table[card, C_ROLE])
    k = int(text) if text.lstrip("-").isdigit() else -1
    if kind != CHARACTER or not 0 <= k <= len(SIDES):
        return f"sides 0 .. {len(SIDES)} of a character"
    _lit(table, card, with_sides(kind, role, int(table[card, C_ARROWS]), k))
    return ""



EFFECTS = {"": NONE} | {word: code for word, (code, _) in KEYWORDS.items()}
CARDS = Cards(
    columns=(Column("id"), Column("name"), Column("kind", C_KIND, KINDS),
             Column("role", C_ROLE, parse=read_role, hint="offensive or defensive"),
             Column("arrows", C_ARROWS, parse=read_arrows,
                    hint="four places N E S W, the letter if lit else '.', e.g. 'N.S.'"),
             Column("rarity", C_RARITY, RARITIES),
             Column("effect1", C_EFF1, EFFECTS, what="keyword"),
             Column("arg1", C_ARG1, default=0),
             Column("effect2", C_EFF2, EFFECTS, what="keyword"),
             Column("arg2", C_ARG2, default=0), Column("origin", C_ORIGIN, ORIGINS),
             Column("text")),
    width=N_CARD_COLUMNS, kind_slot=C_KIND, kinds=KINDS, check=card_problems,
    unique_names=False, setters={"arrows": set_arrows, "sides": set_sides})


class Pool(CardTable):
    """The card pool: the engine's integer table plus the words (a name may stand on more
    than one card; an id names one)."""

    CARDS = CARDS


load_pool = Pool.load  # cards.csv read and checked; InputError lists every problem
