"""Payne's card pool: cards.csv read into the engine's checked integer table, with the words."""

from __future__ import annotations

import csv
import hashlib
import io
import re
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from sim.datafiles import read_text
from sim.problems import InputError, Problem, suggest

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


@dataclass(frozen=True)
class Pool:
    """The card pool: the engine's integer table plus the words."""

    path: str
    ids: tuple[str, ...]
    names: tuple[str, ...]
    texts: tuple[str, ...]
    table: np.ndarray = field(repr=False)
    sha256: str = ""
    lines: tuple[int, ...] = ()

    def __len__(self) -> int:
        return len(self.ids)

    def lookup(self, word: str) -> int | None:
        """A card by id, or by a name only one row has; None otherwise."""
        key = word.strip().lower()
        if key in self.ids:
            return self.ids.index(key)
        hits = [i for i, n in enumerate(self.names) if n.lower() == key]
        return hits[0] if len(hits) == 1 else None

    def with_table(self, table: np.ndarray, tag: str = "+edited") -> Pool:
        table = np.array(table, dtype=np.int64)
        table.setflags(write=False)
        return Pool(self.path, self.ids, self.names, self.texts, table, self.sha256 + tag,
                    self.lines)


def card_problems(row: list[int], where: str, line: int, label: str) -> list[Problem]:
    """What is wrong with one card's integer row (shared by cards.csv and --set edits)."""
    out = []
    kind, role, mask = row[C_KIND], row[C_ROLE], row[C_ARROWS]
    if kind == CHARACTER:
        lit = bin(mask).count("1")
        want = RARITY_BY_LIT[role][lit]
        if row[C_RARITY] != want:
            out.append(Problem(where, line, f"{label}: a {ROLES[role]} character with {lit} lit "
                               f"arrows is {RARITIES[want]}, not {RARITIES[row[C_RARITY]]}"))
    else:
        if mask:
            out.append(Problem(where, line, f"{label}: only characters have arrows"))
        if row[C_RARITY] != COMMON:
            out.append(Problem(where, line, f"{label}: boosters, events and blanks are common"))
    if kind in (BOOSTER, EVENT) and row[C_EFF1] == NONE:
        out.append(Problem(where, line, f"{label}: a {KINDS[kind]} needs an effect"))
    if kind == BLANK and (row[C_EFF1] or row[C_EFF2]):
        out.append(Problem(where, line, f"{label}: a blank has no effect"))
    for e, a in ((C_EFF1, C_ARG1), (C_EFF2, C_ARG2)):
        takes = row[e] != NONE and KEYWORDS[KEYWORD_NAMES[row[e]]][1]
        if takes and not (1 <= abs(row[a]) <= 3):
            out.append(Problem(where, line, f"{label}: {KEYWORD_NAMES[row[e]]} takes an "
                               f"argument in -3..-1 or 1..3, got {row[a]}"))
        if not takes and row[a] != 0:
            out.append(Problem(where, line, f"{label}: argument {row[a]} given to "
                               f"{KEYWORD_NAMES[row[e]] or 'no effect'}, which takes none"))
    return out


def load_pool(path: Path | str) -> Pool:
    """Read and check cards.csv; InputError lists every problem with file, line and card."""
    path = Path(path)
    where = str(path)
    text = read_text(path)
    rows = list(csv.reader(io.StringIO(text)))
    if not rows or [h.strip() for h in rows[0]] != list(COLUMNS):
        raise InputError([Problem(where, 1, f"header must be: {','.join(COLUMNS)}")])
    problems: list[Problem] = []
    ids, names, texts, table, lines = [], [], [], [], []
    for line, raw in enumerate(rows[1:], start=2):
        if not raw or all(not c.strip() for c in raw):
            continue
        if len(raw) != len(COLUMNS):
            problems.append(Problem(where, line, f"card {raw[0].strip()!r}: {len(raw)} "
                                    f"columns, expected {len(COLUMNS)}"))
            continue
        cell = dict(zip(COLUMNS, (c.strip() for c in raw), strict=True))
        cid, label = cell["id"], f"card {cell['id']!r}"
        before = len(problems)
        if not re.fullmatch(r"[a-z0-9-]+", cid):
            problems.append(Problem(where, line, f"{label}: id must be lower-case letters, "
                                    "digits and '-'"))
        if cid in ids:
            problems.append(Problem(where, line, f"{label}: duplicate id (first on line "
                                    f"{lines[ids.index(cid)]})"))
        if not cell["name"]:
            problems.append(Problem(where, line, f"{label}: empty name"))
        row = [0] * N_CARD_COLUMNS
        for col, idx, words in (("kind", C_KIND, KINDS), ("rarity", C_RARITY, RARITIES),
                                ("origin", C_ORIGIN, ORIGINS)):
            if cell[col] in words:
                row[idx] = words.index(cell[col])
            else:
                problems.append(Problem(where, line, f"{label}: {col} {cell[col]!r} is not one "
                                        f"of {', '.join(words)}{suggest(cell[col], words)}"))
        if cell["role"] in ROLES:
            row[C_ROLE] = ROLES.index(cell["role"])
        elif not (cell["role"] == "" and cell["kind"] == "blank"):
            problems.append(Problem(where, line, f"{label}: role {cell['role']!r} is not "
                                    f"offensive or defensive{suggest(cell['role'], ROLES)}"))
        if cell["kind"] == "character" or cell["arrows"]:
            mask = parse_arrows(cell["arrows"])
            if mask is None:
                problems.append(Problem(where, line, f"{label}: arrows {cell['arrows']!r} must "
                                        "be four places N E S W, the letter if lit else '.', "
                                        "e.g. 'N.S.'"))
            else:
                row[C_ARROWS] = mask
        for e, a in (("effect1", "arg1"), ("effect2", "arg2")):
            word = cell[e]
            if word and word not in KEYWORDS:
                problems.append(Problem(where, line, f"{label}: unknown keyword {word!r}"
                                        f"{suggest(word, KEYWORDS)}"))
            elif word:
                row[C_EFF1 if e == "effect1" else C_EFF2] = KEYWORDS[word][0]
            try:
                row[C_ARG1 if a == "arg1" else C_ARG2] = int(cell[a] or 0)
            except ValueError:
                problems.append(Problem(where, line, f"{label}: {a} must be an integer, got "
                                        f"{cell[a]!r}"))
        if len(problems) == before:
            problems += card_problems(row, where, line, label)
        ids.append(cid)
        names.append(cell["name"])
        texts.append(cell["text"])
        table.append(row)
        lines.append(line)
    if not ids and not problems:
        problems.append(Problem(where, 1, "no cards"))
    if problems:
        raise InputError(problems)
    arr = np.array(table, dtype=np.int64)
    arr.setflags(write=False)
    return Pool(where, tuple(ids), tuple(names), tuple(texts), arr,
                hashlib.sha256(text.encode("utf-8")).hexdigest(), tuple(lines))
