"""Deck lists as every game writes them: `COUNT Card` lines (a card by id, or by a name only
one card has), `#` comments and, where a game's decks have parts, `[section]` headers; read
into entries with the problems of reading, before any game's deck rules judge them; and the
deck of a game whose decks are card counts alone."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from sim.core.datafiles import read_text
from sim.core.problems import InputError, Problem, suggest


@dataclass(frozen=True)
class Entry:
    """One card line of a deck list."""

    line: int
    count: int
    card: int  # the pool's index; -1 for a card the pool lacks (it still counts toward a size)
    section: str = ""


def read_deck_list(path: Path | str, pool, sections: tuple[str, ...] = ()
                   ) -> tuple[list[Entry], list[Problem]]:
    """The card lines of a deck list in file order, and the problems of reading it: a line
    that is not `COUNT Card`, a count under 1, an unknown card (kept as -1), and with
    `sections` an unknown section or a card line outside one."""
    where = str(path)
    entries: list[Entry] = []
    problems: list[Problem] = []
    section = ""
    for line, raw in enumerate(read_text(path).splitlines(), start=1):
        text = raw.split("#", 1)[0].strip()
        if not text:
            continue
        if sections and text.startswith("[") and text.endswith("]"):
            section = text[1:-1].strip().lower()
            if section not in sections:
                problems.append(Problem(where, line, f"unknown section [{section}]; sections: "
                                        f"{', '.join(sections)}{suggest(section, sections)}"))
            continue
        head, word = (text.split(None, 1) + [""])[:2]  # the count, then the card's words
        if not head.isdecimal() or not word:
            problems.append(Problem(where, line, f"expected 'COUNT Card Name', got {text!r}"))
            continue
        if sections and section not in sections:
            problems.append(Problem(where, line, "card line outside a section ("
                                    f"{', '.join(f'[{s}]' for s in sections)})"))
            continue
        card = pool.lookup(word)
        if card is None:
            problems.append(Problem(where, line, pool.unknown(word)))
        elif int(head) < 1:
            problems.append(Problem(where, line, f"card {pool.ids[card]!r}: count must be at "
                                    "least 1"))
            continue
        entries.append(Entry(line, int(head), -1 if card is None else card, section))
    return entries, problems


def tally(entries: list[Entry]) -> tuple[tuple[tuple[int, int], ...], dict[int, int]]:
    """Each known card's copies over all its lines, in the order first listed, and the line
    each was first listed on."""
    first: dict[int, int] = {}
    counts: dict[int, int] = {}
    for e in entries:
        if e.card >= 0:
            first.setdefault(e.card, e.line)
            counts[e.card] = counts.get(e.card, 0) + e.count
    return tuple(sorted(counts.items(), key=lambda kv: first[kv[0]])), first


@dataclass(frozen=True)
class Deck:
    """A deck that is card counts alone: card indices with copies, in list order."""

    path: str
    name: str
    counts: tuple[tuple[int, int], ...]

    def cards(self) -> np.ndarray:
        """Every copy, in list order (the order a shuffle starts from)."""
        return np.array([c for c, n in self.counts for _ in range(n)], dtype=np.int64)


def parse_deck(path: Path | str, pool) -> tuple[Deck, list[Problem], dict[int, int]]:
    """A deck list's cards, with the problems of reading it (not yet its legality) and the
    line each card was first listed on."""
    entries, problems = read_deck_list(path, pool)
    ordered, first = tally(entries)
    return Deck(str(path), Path(path).stem, ordered), problems, first


def deck_reader(deck_rules: Callable[..., list[Problem]]) -> Callable[..., Deck]:
    """A game's deck reader (FolderFiles.read_deck) for decks of card counts alone: the list
    read (`parse_deck`), then, once it reads cleanly, judged by the game's
    `deck_rules(deck, pool, rules, first lines)`; InputError with every problem."""
    def read_deck(path: Path | str, pool, rules) -> Deck:
        deck, problems, first = parse_deck(path, pool)
        problems += deck_rules(deck, pool, rules, first) if not problems else []
        if problems:
            raise InputError(problems)
        return deck

    return read_deck


def deck_arrays(decks, n_cards: int, cap: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A kernel's view of decks of card counts: every copy in list order, a row a seat
    (padded with -1 to `cap`), each deck's length, and the copies of each card a seat."""
    cards = np.full((len(decks), cap), -1, dtype=np.int64)
    lens = np.zeros(len(decks), dtype=np.int64)
    in_deck = np.zeros((len(decks), n_cards), dtype=np.int64)
    for p, deck in enumerate(decks):
        listed = deck.cards()
        cards[p, : len(listed)] = listed
        lens[p] = len(listed)
        for c, n in deck.counts:
            in_deck[p, c] += n
    return cards, lens, in_deck


def size_problems(deck: Deck, size: int, line: int) -> list[Problem]:
    """The deck rule of every deck of card counts: exactly `size` cards (rule option
    deck_size), named on `line` (the list's last)."""
    total = sum(n for _, n in deck.counts)
    if total == size:
        return []
    return [Problem(deck.path, line, f"deck lists {total} cards, must be exactly {size} "
                    "(rule option deck_size)")]


@dataclass(frozen=True)
class Name:
    """The copies of one name in a deck (versions of a card share its name)."""

    entries: list[tuple[int, int]]  # (card, copies) in list order
    copies: int  # of every version
    line: int  # the last line listing one of them
    label: str  # "card 'id' (Name)" of the last version listed


def names_in(deck: Deck, pool, first: dict[int, int], counted: Callable[[int], bool]
             ) -> list[Name]:
    """The deck's cards that `counted` keeps, grouped by name (letter case aside), for the
    per-name copy limits."""
    groups: dict[str, list[tuple[int, int]]] = {}
    for card, n in deck.counts:
        if counted(card):
            groups.setdefault(pool.names[card].lower(), []).append((card, n))
    return [Name(entries, sum(n for _, n in entries), max(first.get(c, 0) for c, _ in entries),
                 f"card {pool.ids[entries[-1][0]]!r} ({pool.names[entries[-1][0]]})")
            for entries in groups.values()]


def whole_deck(deck: Deck, first: dict[int, int], message: str) -> Problem:
    """A problem of the deck as a whole, named on the list's last line (`first`: each card's
    first line)."""
    return Problem(deck.path, max(first.values(), default=0), message)


def listing_problems(deck: Deck, pool, rules, first: dict[int, int],
                     counted: Callable[[int], bool], most: int,
                     per_name: Callable[[Name], list[Problem]] | None = None) -> list[Problem]:
    """The deck rules every list of card counts keeps: exactly deck_size cards (its rule
    option) and at most `most` copies of a name among the cards `counted` keeps (`names_in`),
    each name followed by what a game's own limits per name say of it (`per_name`)."""
    out = size_problems(deck, rules.values["deck_size"], max(first.values(), default=0))
    for name in names_in(deck, pool, first, counted):
        if name.copies > most:
            out.append(Problem(deck.path, name.line, f"{name.label}: {name.copies} copies of "
                               f"the name, at most {most}"))
        out += per_name(name) if per_name else []
    return out


def judged(deck_rules: Callable[..., list[Problem]], decks, pool, rules) -> list[Problem]:
    """The game's deck rules on decks of card counts held in memory (an experiment's
    variant): every problem, line 0 where a file would name one."""
    return [problem for deck in decks
            for problem in deck_rules(deck, pool, rules, {c: 0 for c, _ in deck.counts})]
