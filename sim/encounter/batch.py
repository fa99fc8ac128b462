"""Matchups (a deck and a policy per seat, one pool and rule set) and the batch wrappers
around the compiled kernel and the plain-Python reference engine."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from sim.core.problems import InputError, Problem
from sim.encounter import codes as K
from sim.encounter import state as S
from sim.encounter.decks import FILES, load_deck
from sim.encounter.options import load_rules
from sim.encounter.pool import load_pool
from sim.encounter.schema import schema_for
from sim.kit import matchups
from sim.kit.folders import reseated, seat_decks
from sim.kit.records import BatchRecords, kernel_entry


@dataclass(frozen=True)
class Matchup(matchups.Matchup):
    """A deck per seat (rule option players: 2 to 4), each with its policy, on one card pool
    under one rule set (a Pool, Rules and Decks), from a game folder."""

    folder: str = ""

    def arrays(self):
        """The integer tables the kernel reads: cards, rules, policies, decks, in-deck."""
        # deferred: the compiled engine loads only when a batch is played
        from sim.encounter.engine import (
            D_CH1,
            D_CH2,
            D_DRAW,
            D_LOOT,
            D_NDRAW,
            D_NLOOT,
            D_PC,
            D_SIZE,
        )

        n, seats = len(self.pool), len(self.decks)
        if seats != self.rules["players"]:
            raise InputError([Problem("--rules", 0, f"players = {self.rules['players']} "
                                      f"but the matchup has {seats} decks")])
        D = np.zeros((seats, D_SIZE), dtype=np.int64)
        in_deck = np.zeros((seats, n), dtype=np.int64)
        for p, deck in enumerate(self.decks):
            D[p, D_PC], D[p, D_CH1], D[p, D_CH2] = deck.pc, deck.chars[0], deck.chars[1]
            D[p, D_NDRAW], D[p, D_NLOOT] = len(deck.draw), len(deck.loot)
            D[p, D_DRAW: D_DRAW + len(deck.draw)] = deck.draw
            D[p, D_LOOT: D_LOOT + len(deck.loot)] = deck.loot
            for c, k in deck.counts().items():
                in_deck[p, c] = k
        M = np.stack(self.policies).astype(np.int64)
        return self.pool.table, self.rules.vector, M, D, in_deck


def load_matchup(folder, deck_a, deck_b, policy_a="careful", policy_b=None, rules=None,
                 sets=None, table=()) -> Matchup:
    """A matchup from a game folder: decks by file or name (`table`: those of seats C, D
    ... at a table of more players; the folder's [table] decks fill the seats left open),
    policies by name (seats after B play B's), rule changes as a dict, card value changes
    as "CARD.FIELD=VALUE"."""
    folder = Path(folder)
    pool = load_pool(folder / "cards.csv")
    if sets:
        pool = pool.with_sets(sets)
    base = load_rules(folder / "rules.toml")
    opts = base.replace(rules or {})
    seats = opts["players"]
    decks = [FILES.deck(folder, d, pool, opts)
             for d in seat_decks(folder, deck_a, deck_b, table, seats)]
    names = (policy_a, *[policy_b or policy_a] * (seats - 1))
    return Matchup(pool, opts, tuple(decks), names, FILES.policies(folder, names),
                   folder=str(folder))


def with_rules(m: Matchup, changes: dict) -> Matchup:
    """The matchup under changed rules, at the table size they give (sim.kit.folders.reseated)."""
    return reseated(m, m.rules.replace(changes), load_deck)


# The contract's run_batch: the compiled kernel, in pieces spread over the threads; a
# batch writes no event log (no_log: none of its rows).
run_batch = kernel_entry(schema_for, "sim.encounter.engine",
                         work=lambda engine, m: (np.zeros((0, S.LOG_COLS), dtype=np.int32),
                                                 engine.new_work(len(m.pool), len(m.decks))))


def reference_batch(m: Matchup, n: int, seed: int, first_match: int = 0, n_log: int = 0
                    ) -> BatchRecords:
    """The same records from the plain-Python reference engine."""
    # deferred: the reference engine loads only when it plays
    from sim.encounter.reference import reference_batch as play

    return play(m, n, seed, first_match, n_log)


__all__ = ["K", "Matchup", "load_matchup", "run_batch", "reference_batch", "with_rules"]
