"""A Payne matchup (two decks, two policies, one pool, one rule set) and the kernel's wrapper."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from sim.core.problems import InputError, Problem
from sim.kit import matchups
from sim.kit.decklists import deck_arrays, judged
from sim.kit.records import BatchRecords, play_in_pieces
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
        return table, self.rules.vector, prms, decks, lens, in_deck, battlers, n_battlers


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


def load_matchup(folder, deck_a, deck_b, policy_a="prior", policy_b=None, rules=None,
                 sets=None) -> Matchup:
    """A matchup from a game folder: decks by file or name, policies by name, rule changes
    as a dict, card edits as "CARD.FIELD=VALUE"."""
    m = Matchup.read(D.FILES, folder, (deck_a, deck_b), (policy_a, policy_b or policy_a),
                     rules, sets, folder=str(folder))
    check_decks(m.pool, m.rules, m.decks)
    return m


# `sides` is a character's number of sides that help its role (sim.payne.power): the arrows
# with that many helping sides, its own kept first.
def run_batch(matchup: Matchup, n: int, seed: int, first_match: int = 0, n_log: int = 0,
              block: int | None = None) -> BatchRecords:
    """Play matches first_match .. first_match + n - 1 with the compiled kernel, in pieces of
    `block` matches (default: a few pieces a thread) spread over the threads."""
    # deferred: the compiled engine loads only when a batch is played
    from sim.payne.engine import new_work, play_piece

    table, R, prms, decks, lens, in_deck, battlers, n_battlers = matchup.arrays()
    views = matchup.views_array()

    def play(rec: BatchRecords, card_stats: np.ndarray, lo: int, hi: int) -> None:
        play_piece(lo, hi, table, views, R, prms, decks, lens, in_deck, battlers, n_battlers, seed,
                   first_match, rec.matches, rec.hists["round_points"], card_stats, rec.log,
                   rec.log_n, new_work(table.shape[0]))

    return play_in_pieces(SCHEMA, n, table.shape[0], seed, first_match, n_log, play, block)
