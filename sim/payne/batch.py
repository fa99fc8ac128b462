"""A Payne matchup (two decks, two policies, one pool, one rule set) and the kernel's wrapper."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from sim.core.problems import InputError, Problem
from sim.kit import matchups
from sim.kit.decklists import deck_arrays, judged
from sim.kit.records import kernel_entry
from sim.payne import decks as D
from sim.payne import options as O
from sim.payne import pool as T
from sim.payne.schema import SCHEMA
from sim.payne.state import CAP


@dataclass(frozen=True)
class Matchup(matchups.Viewed):
    """Two decks, each with its policy, on one card pool under one rule set (a Pool, Rules
    and two Decks)."""

    folder: str = ""

    def arrays(self):
        """The integer tables the kernel reads."""
        decks, lens, in_deck = deck_arrays(self.decks, len(self.pool), CAP)
        battlers = np.full((2, 2, CAP), -1, dtype=np.int64)
        n_battlers = np.zeros((2, 2), dtype=np.int64)
        table = self.pool.table
        for p, deck in enumerate(self.decks):
            for c in deck.cards():
                if table[c, T.C_KIND] == T.CHARACTER:
                    role = table[c, T.C_ROLE]
                    battlers[p, role, n_battlers[p, role]] = c
                    n_battlers[p, role] += 1
        prms = np.stack(self.policies).astype(np.float64)
        return (table, self.views_array(), self.rules.vector, prms, decks, lens, in_deck,
                battlers, n_battlers)


def decks_problems(pool: T.Pool, rules: O.Rules, decks) -> list[Problem]:
    """The deck rules' word on decks held in memory (no line to name: line 0)."""
    return judged(D.deck_problems, decks, pool, rules)


def check_decks(pool: T.Pool, rules: O.Rules, decks) -> None:
    """Both decks legal under these rules (deck_size may have changed)."""
    problems = decks_problems(pool, rules, decks)
    if problems:
        raise InputError(problems)


def validate(m: Matchup) -> list[Problem]:
    """The problems of a matchup built in memory, by the checks `cardlab check` applies to
    files: its rule values, every row of its card table, both decks under its rules."""
    problems = O.OPTIONS.problems(m.rules.values) + m.pool.problems()
    return problems + decks_problems(m.pool, m.rules, m.decks)


load_matchup = Matchup.loader(D.FILES, "prior")


# The contract's run_batch: the compiled kernel, in pieces spread over the threads.
run_batch = kernel_entry(SCHEMA, "sim.payne.engine")
