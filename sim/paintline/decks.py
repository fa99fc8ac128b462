"""Deck lists: .deck files read and checked against the pool and the deck rules; a whole
game folder read at once; the validator behind `cardlab check` and its word on a matchup
built in memory."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from sim.core.datafiles import FolderFiles
from sim.core.problems import InputError, Problem
from sim.kit.decklists import read_deck_list, tally
from sim.paintline.options import OPTIONS, load_rules
from sim.paintline.policy import load_policies
from sim.paintline.pool import (  # fmt: skip
    BLANK,
    C_KIND,
    C_NATION,
    COACH,
    DECK_SIZE,
    MAX_COPIES,
    NATIONS,
    NEUTRAL,
    STAMINA,
    Pool,
    load_pool,
)


@dataclass(frozen=True)
class Deck:
    """A legal deck: its card indices with counts; the coach is the one COACH row or -1."""

    path: Path
    name: str
    counts: tuple[tuple[int, int], ...]
    coach: int
    nation: int
    # The line each entry of counts was first listed on (0: added in memory); where a deck
    # came from, not what it is, so equality ignores it.
    lines: tuple[int, ...] = field(default=(), compare=False)

    @classmethod
    def of(cls, path, name: str, counts, pool: Pool, lines: tuple[int, ...] = ()) -> Deck:
        """A deck of these (card, copies), its coach (the COACH card, else -1) and nation
        (its first card of a nation, else neutral) read off the card table."""
        t = pool.table
        coach = next((c for c, _ in counts if t[c, C_KIND] == COACH), -1)
        nation = next((int(t[c, C_NATION]) for c, _ in counts if t[c, C_NATION] != NEUTRAL),
                      NEUTRAL)
        return cls(Path(path), name, tuple(counts), coach, nation, lines)

    def cards(self) -> np.ndarray:
        """The 60 card indices in list order (the coach included)."""
        return np.array([c for c, n in self.counts for _ in range(n)], dtype=np.int16)

    def bag(self) -> np.ndarray:
        """The cards that are shuffled into the bag: every card but the coach."""
        out = [c for c, n in self.counts for _ in range(n) if c != self.coach]
        return np.array(out, dtype=np.int16)


def load_deck(path: Path | str, pool: Pool) -> Deck:
    """Read and validate a deck list against the pool; raise InputError listing every problem."""
    path = Path(path)
    entries, problems = read_deck_list(path, pool)
    problems += deck_problems(str(path), [(e.line, e.count, e.card) for e in entries],
                              max((e.line for e in entries), default=0), pool)
    if problems:  # in the order of the list's lines, as a reader goes through it
        raise InputError(sorted(problems, key=lambda p: p.line))
    ordered, first_line = tally(entries)
    return Deck.of(path, path.stem, ordered, pool, tuple(first_line[c] for c, _ in ordered))


def deck_problems(where: str, entries, last_line: int, pool: Pool,
                  label: str = "") -> list[Problem]:
    """The deck rules over a list's entries (line, count, card index; -1 for a card the pool
    lacks, which counts toward the size alone), in list order: at
    most MAX_COPIES of a card but Stamina and the Blank filler, at most one coach, one
    nation plus neutral cards, DECK_SIZE cards in all (the coach and any Blanks counted).
    `label` names an in-memory deck in each message."""
    table = pool.table
    problems: list[Problem] = []
    counts: dict[int, int] = {}
    coach_line = 0
    coach = -1
    nation = NEUTRAL
    nation_card = ""
    listed = 0
    for line, count, card in entries:
        listed += count
        if card < 0:
            continue
        cname = pool.names[card]
        if count < 1:
            problems.append(Problem(where, line, f"{label}card {cname!r}: count must be at "
                                    "least 1"))
            continue
        counts[card] = counts.get(card, 0) + count
        kind = table[card, C_KIND]
        # The Blank is the filler of experiments and never reaches a hand (a draw sets it
        # aside), so it has no copy limit; Stamina has none by the rules.
        if kind not in (STAMINA, BLANK) and counts[card] > MAX_COPIES:
            problems.append(Problem(where, line, f"{label}card {cname!r}: {counts[card]} "
                                    f"copies, at most {MAX_COPIES} of any card but Stamina "
                                    "and Blank"))
        if kind == COACH:
            if coach >= 0 and card != coach or counts[card] > 1:
                already = (f"already {pool.names[coach]!r} on line {coach_line}" if coach >= 0
                           else f"{counts[card]} copies listed")
                problems.append(Problem(where, line, f"{label}card {cname!r}: a deck has at "
                                        f"most one coach ({already})"))
            else:
                coach, coach_line = card, line
        card_nation = int(table[card, C_NATION])
        if card_nation != NEUTRAL:
            if nation == NEUTRAL:
                nation, nation_card = card_nation, cname
            elif card_nation != nation:
                problems.append(Problem(where, line, f"{label}card {cname!r} is "
                                        f"{NATIONS[card_nation]} but the deck is "
                                        f"{NATIONS[nation]} (from {nation_card!r}); one "
                                        "nation per deck"))
    if listed != DECK_SIZE:
        problems.append(Problem(where, last_line, f"{label}deck lists {listed} cards, must be "
                                f"exactly {DECK_SIZE} (coach included)"))
    return problems


def matchup_problems(pool: Pool, decks) -> list[Problem]:
    """The validator's word on decks and a card table built in memory (an experiment's
    variant): the card checks of cards.csv on every row, then the deck rules on each deck,
    named by the file it came from and the line its card was listed on (0: added in
    memory)."""
    problems = pool.problems()
    for deck in decks:
        lines = deck.lines or (0,) * len(deck.counts)
        entries = [(line, n, c) for (c, n), line in zip(deck.counts, lines, strict=True)]
        label = "" if deck.name == Path(deck.path).stem else f"deck {deck.name!r}: "
        problems += deck_problems(str(deck.path), entries, max(lines, default=0), pool, label)
    return problems


def validate(m) -> list[Problem]:
    """The validator's word on a matchup built in memory (an experiment's variant): the
    card table's values and codes, each deck under the deck rules, the rule options; []
    when legal."""
    return (matchup_problems(m.pool, m.decks)
            + OPTIONS.problems(m.rules.values, "rule options"))


def describe_deck(deck: Deck, pool: Pool) -> str:
    total = sum(n for _, n in deck.counts)
    coach = pool.names[deck.coach] if deck.coach >= 0 else "no coach"
    return f"{total} cards, {NATIONS[deck.nation]}, coach {coach}"


FILES = FolderFiles(load_pool, load_rules, lambda deck, pool, rules: load_deck(deck, pool),
                    load_policies, describe_deck)
load_folder = FILES.read
check_paths = FILES.check_paths
