"""Encounter's deck files: read and checked against the pool and the construction rules (a
PC, two characteristics, the draw and loot decks), and the folder's readers for `cardlab
check`."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from sim.core.datafiles import FolderFiles
from sim.core.problems import InputError, Problem
from sim.encounter import codes as K
from sim.encounter.options import load_rules
from sim.encounter.params import load_policies
from sim.encounter.pool import CODE_WORDS, Pool, load_pool
from sim.kit.decklists import read_deck_list

SECTIONS = ("pc", "characteristics", "draw", "loot")


@dataclass(frozen=True)
class Deck:
    """A deck list: the PC, two starting characteristics, the draw and loot decks."""

    name: str
    path: str
    pc: int
    chars: tuple[int, ...]
    draw: tuple[int, ...]  # one entry per copy, in file order
    loot: tuple[int, ...]

    def counts(self) -> dict[int, int]:
        out: dict[int, int] = {}
        for c in (self.pc, *self.chars, *self.draw, *self.loot):
            out[c] = out.get(c, 0) + 1
        return out

    def to_json(self) -> dict:
        return {"name": self.name, "path": self.path, "pc": self.pc, "chars": list(self.chars),
                "draw": list(self.draw), "loot": list(self.loot)}

    @classmethod
    def from_json(cls, d: dict) -> Deck:
        return cls(d["name"], d["path"], int(d["pc"]), tuple(d["chars"]), tuple(d["draw"]),
                   tuple(d["loot"]))


def load_deck(path: Path | str, pool: Pool, rules: dict) -> Deck:
    """A .deck file, checked against every construction rule."""
    path = Path(path)
    p = str(path)
    entries, problems = read_deck_list(path, pool, SECTIONS)
    got: dict[str, list[tuple[int, int]]] = {s: [] for s in SECTIONS}  # (card, line)
    # A line's count larger than its whole section is named, never expanded (a count of
    # 10^20 would not fit in memory); smaller excess is the section size's problem below.
    sizes = section_sizes(rules)
    # Each section's size as the file lists it (every line counted, one dropped below too),
    # told on its last line, as a list of card counts names its length on its last line.
    listed = {s: (sum(e.count for e in entries if e.section == s),
                  max((e.line for e in entries if e.section == s),
                      default=max((e.line for e in entries), default=0))) for s in SECTIONS}
    for e in entries:
        if e.card < 0:
            continue
        if e.count > sizes[e.section]:
            problems.append(Problem(p, e.line, f"card {pool.names[e.card]!r}: {e.count} copies, "
                                    f"more than [{e.section}] holds "
                                    f"({plural(sizes[e.section], 'card')})"))
            continue
        got[e.section].extend([(e.card, e.line)] * e.count)
    problems.extend(deck_problems(p, got, pool, rules, listed))
    if problems:
        raise InputError(problems)
    return Deck(path.stem, p, got["pc"][0][0], tuple(c for c, _ in got["characteristics"]),
                tuple(c for c, _ in got["draw"]), tuple(c for c, _ in got["loot"]))


# The rule option behind a section's size, named where the size is wrong.
SIZE_OPTIONS = {"draw": " (rule option draw_deck_size)", "loot": " (rule option loot_deck_size)"}


def section_sizes(rules: dict) -> dict[str, int]:
    """How many cards each section of a deck holds."""
    return {"pc": 1, "characteristics": 2, "draw": int(rules["draw_deck_size"]),
            "loot": int(rules["loot_deck_size"])}


def plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def deck_problems(p: str, got: dict[str, list[tuple[int, int]]], pool: Pool,
                  rules: dict, listed: dict[str, tuple[int, int]] | None = None
                  ) -> list[Problem]:
    """Every construction rule of a deck given as (card, line) per section: the kinds each
    section takes, its size (Blanks count as cards; `listed`: each section's size as its
    file lists it and the line to name it on, else its cards here at line 0), at most
    max_copies of a card (the Blank filler is free of the cap), one copy of a unique
    starting characteristic, a PC with toughness left once its starting characteristics
    are added, and the race a card requires."""
    problems: list[Problem] = []
    copies: dict[int, int] = {}
    first_line: dict[int, int] = {}
    misplaced: set[tuple[int, int]] = set()  # (card, line), named once
    for sec in SECTIONS:
        for card, no in got[sec]:
            kind = int(pool.table[card, K.C_KIND])
            ok = {"pc": kind == K.PC, "characteristics": kind == K.CHARACTERISTIC,
                  "draw": kind not in (K.PC, K.LOOT), "loot": kind in (K.LOOT, K.BLANK)}[sec]
            if not ok and (card, no) not in misplaced:
                misplaced.add((card, no))
                problems.append(Problem(p, no, f"card {pool.names[card]!r}: a "
                                        f"{pool.kinds[card]} may not go in [{sec}]"))
            if kind != K.BLANK:
                copies[card] = copies.get(card, 0) + 1
                first_line.setdefault(card, no)
    for s, want in section_sizes(rules).items():
        n, line = listed[s] if listed else (len(got[s]), 0)
        if n != want:
            problems.append(Problem(p, line, f"[{s}] holds {plural(n, 'card')}; it must hold "
                                    f"{want}{SIZE_OPTIONS.get(s, '')}"))
    for card, n in copies.items():
        if n > int(rules["max_copies"]):
            problems.append(Problem(p, first_line[card], f"card {pool.names[card]!r}: {n} "
                                    f"copies; at most {rules['max_copies']}"))
    chars = [c for c, _ in got["characteristics"]]
    for c, no in got["characteristics"]:
        if pool.table[c, K.C_UNIQUE] and chars.count(c) > 1:
            problems.append(Problem(p, no, f"card {pool.names[c]!r} is unique: one copy may "
                                    "start in play"))
            break
    if got["pc"] and len(chars) == 2 and all(
            pool.table[c, K.C_KIND] == K.CHARACTERISTIC for c in chars):
        # A character with no toughness is killed at once: a PC must not start so.
        pc, no = got["pc"][0]
        tough = int(pool.table[pc, K.C_TOUGH]) + sum(int(pool.table[c, K.C_TOUGH])
                                                     for c in chars)
        if tough < 1 and pool.table[pc, K.C_KIND] == K.PC:
            problems.append(Problem(p, no, f"card {pool.names[pc]!r}: toughness {tough} "
                                    "with the starting characteristics; a PC starts with at "
                                    "least 1"))
    if got["pc"]:
        race = int(pool.table[got["pc"][0][0], K.C_RACE])
        for s in SECTIONS:
            for c, no in got[s]:
                req = int(pool.table[c, K.C_REQUIRES])
                if req and req != race:
                    problems.append(Problem(p, no, f"card {pool.names[c]!r} requires a "
                                            f"{K.RACES[req]} PC; this deck's PC is "
                                            f"{K.RACES[race]}"))
                    break
    return problems


def matchup_problems(pool: Pool, decks, rules: dict) -> list[Problem]:
    """The checks of cards.csv and the deck files applied to a card table and decks built in
    memory (an experiment's variant): each row as the loader checks a line (named by its
    line in cards.csv), each deck by the construction rules (line 0: a variant's deck has
    no file line of its own)."""
    problems = pool.problems()
    codes = pool.table[:, [col for col, _, _ in CODE_WORDS]]
    if ((codes < 0) | (codes >= [len(words) for _, words, _ in CODE_WORDS])).any():
        return problems  # the deck rules read those codes
    for deck in decks:
        where = deck.path or deck.name
        cards = (deck.pc, *deck.chars, *deck.draw, *deck.loot)
        stray = [c for c in cards if not 0 <= c < len(pool)]
        if stray:
            problems.append(Problem(where, 0, f"deck {deck.name!r}: card index {stray[0]} is "
                                    f"not in the card pool of {len(pool)} cards"))
            continue
        got = {"pc": [(deck.pc, 0)], "characteristics": [(c, 0) for c in deck.chars],
               "draw": [(c, 0) for c in deck.draw], "loot": [(c, 0) for c in deck.loot]}
        problems.extend(deck_problems(where, got, pool, rules))
    return problems


def rules_or_defaults(path):
    """rules.toml, or every option at its default when the folder has none."""
    return load_rules(path or None)


def say_deck(deck: Deck, pool: Pool) -> str:
    return f"{pool.names[deck.pc]}, {len(deck.draw)} draw, {len(deck.loot)} loot"


FILES = FolderFiles(load_pool, rules_or_defaults, load_deck, load_policies, say_deck)
