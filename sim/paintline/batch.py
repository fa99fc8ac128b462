"""Public wrapper around the kernel: a matchup in, validated and allocated, records out."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from sim.core.problems import InputError, Problem
from sim.kit import matchups
from sim.kit.records import kernel_entry
from sim.paintline.decks import FILES
from sim.paintline.options import MAX_ARSENAL, R_ARSENAL, R_LADDER_LEN, Rules
from sim.paintline.pool import BASIC_SHOT, C_KIND, TRICK_SHOT, Pool
from sim.paintline.schema import SCHEMA, TOP_STEP
from sim.paintline.state import CAP


@dataclass(frozen=True)
class Matchup(matchups.Viewed):
    """Two decks, each with its policy, on one card pool under one rule set (a Pool, Rules
    and two Decks)."""

    arsenals: tuple[tuple[int, ...], tuple[int, ...]] = ((), ())

    def arrays(self):
        """The integer tables the kernel reads."""
        n_cards = len(self.pool)
        bags = np.full((2, CAP), -1, dtype=np.int64)
        bag_lens = np.zeros(2, dtype=np.int64)
        coaches = np.full(2, -1, dtype=np.int64)
        in_deck = np.zeros((2, n_cards), dtype=np.int64)
        for p, deck in enumerate(self.decks):
            bag = deck.bag()
            if len(bag) > CAP:  # only a deck built in memory past the deck rules gets here
                raise InputError([Problem(str(deck.path), 0, f"deck {deck.name!r}: {len(bag)} "
                                          f"cards in the bag, the engine holds at most {CAP}")])
            bags[p, : len(bag)] = bag
            bag_lens[p] = len(bag)
            coaches[p] = deck.coach
            for card, count in deck.counts:
                in_deck[p, card] = count
        prms = np.stack(self.policies).astype(np.float64)
        R = self.rules.vector.copy()
        if self.rules.values["rally_mode"]:
            bag_lens[:] = 0
            coaches[:] = -1
            for p, cards in enumerate(self.arsenals):
                for k, card in enumerate(cards):
                    R[R_ARSENAL + p * MAX_ARSENAL + k] = card
        return (self.pool.table, self.views_array(), R, prms, bags,
                bag_lens, coaches, in_deck)


def load_matchup(folder: Path | str, deck_a: str | Path, deck_b: str | Path,
                 policy_a: str = "greedy", policy_b: str | None = None,
                 rules: Rules | None = None,
                 arsenals: tuple[list[str], list[str]] | None = None) -> Matchup:
    """A matchup from a game folder: decks by file or by name, policies by name."""
    folder = Path(folder)
    data = FILES.base(folder)
    decks = [FILES.deck(folder, d, data.pool, data.rules) for d in (deck_a, deck_b)]
    names = (policy_a, policy_b or policy_a)
    rules = rules or data.rules
    if arsenals is not None:
        rules = rules.replace(arsenal_a=list(arsenals[0]), arsenal_b=list(arsenals[1]))
    return with_arsenals(Matchup(data.pool, rules, (decks[0], decks[1]), names,
                                 FILES.policies(folder, names)))


def with_arsenals(m: Matchup) -> Matchup:
    """The matchup with its rally-mode arsenals resolved from the rule options (names or
    ids), the options rewritten as card ids so that a run's manifest names them exactly."""
    cards = resolve_arsenals(m.pool, (m.rules.values["arsenal_a"], m.rules.values["arsenal_b"]))
    ids = [[m.pool.ids[c] for c in seat] for seat in cards]
    rules = m.rules.replace(arsenal_a=ids[0], arsenal_b=ids[1])
    return dataclasses.replace(m, rules=rules, arsenals=cards)


def resolve_arsenals(pool: Pool, arsenals) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Rally-mode arsenals by card name or id: at most 4 shot cards a seat."""
    problems = []
    out = []
    for seat, names in zip("AB", arsenals, strict=True):
        cards = []
        for name in names:
            card = pool.lookup(name)
            if card is None:
                problems.append(Problem(f"arsenal {seat}", 0, pool.unknown(name)))
            elif pool.table[card, C_KIND] not in (BASIC_SHOT, TRICK_SHOT):
                problems.append(Problem(f"arsenal {seat}", 0, f"card {name!r} is not a shot "
                                        "card"))
            else:
                cards.append(card)
        if len(names) > MAX_ARSENAL:
            problems.append(Problem(f"arsenal {seat}", 0, f"at most {MAX_ARSENAL} cards"))
        out.append(tuple(cards))
    if problems:
        raise InputError(problems)
    return out[0], out[1]


# The contract's run_batch: the compiled kernel, in pieces spread over the threads.
run_batch = kernel_entry(SCHEMA, "sim.paintline.engine",
                         work=lambda engine, m: (engine.scratch(len(m.pool)),),
                         bins=lambda m: {TOP_STEP: int(m.rules.vector[R_LADDER_LEN])})
