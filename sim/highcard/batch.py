"""A High Card matchup (two decks, two policies, one pool, one rule set), the kernel's
wrapper, and the validator's word on a matchup built in memory."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import numpy as np

from sim.core.problems import InputError, Problem
from sim.highcard import decks as D
from sim.highcard.options import OPTIONS
from sim.highcard.schema import SCHEMA
from sim.highcard.state import CAP
from sim.kit import matchups
from sim.kit.decklists import deck_arrays, judged
from sim.kit.records import kernel_entry


@dataclass(frozen=True)
class Matchup(matchups.Viewed):
    """Two decks, each with its policy, on one card pool under one rule set."""

    folder: str = ""

    def arrays(self):
        """The integer tables the kernel reads."""
        decks, lens, in_deck = deck_arrays(self.decks, len(self.pool), CAP)
        prms = np.stack(self.policies).astype(np.float64)
        return (self.pool.table, self.views_array(), self.rules.vector,
                prms, decks, lens, in_deck)


def decks_problems(m: Matchup) -> list[Problem]:
    """The deck rules' word on decks held in memory (no line to name: line 0)."""
    return judged(D.deck_problems, m.decks, m.pool, m.rules)


def validate(m: Matchup) -> list[Problem]:
    """The problems of a matchup built in memory, by the checks `cardlab check` applies to
    files: its rule values, every row of its card table, both decks under its rules."""
    return OPTIONS.problems(m.rules.values) + m.pool.problems() + decks_problems(m)


load_matchup = Matchup.loader(D.FILES, "aim")


def checked(m: Matchup) -> Matchup:
    """The matchup, when its decks are legal under its rules and card values (an edit may
    break the value cap); else InputError."""
    problems = decks_problems(m)
    if problems:
        raise InputError(problems)
    return m


def with_rules(m: Matchup, changes: dict) -> Matchup:
    return checked(dataclasses.replace(m, rules=m.rules.replace(dict(changes), "--rules")))


# The contract's run_batch: the compiled kernel, in pieces spread over the threads.
run_batch = kernel_entry(SCHEMA, "sim.highcard.engine")
