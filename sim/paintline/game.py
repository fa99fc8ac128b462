"""Paint the Line behind the game contract: loading, manifest round trip, the kernel and its
reference twin, the validator, designed changes and the exact check; the parts imported
"as" themselves are the contract's, collected into one Game."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np

from sim.kit.game import Game, Later
from sim.kit.manifests import Manifest, deck_counts
from sim.paintline.batch import Matchup, with_arsenals
from sim.paintline.batch import load_matchup as load
from sim.paintline.batch import run_batch as run_batch
from sim.paintline.building import BUILDING as BUILDING
from sim.paintline.decks import Deck
from sim.paintline.decks import check_paths as check_paths
from sim.paintline.decks import validate as validate
from sim.paintline.edits import SWEEPS as SWEEPS
from sim.paintline.edits import value_edits as value_edits
from sim.paintline.edits import worth as worth
from sim.paintline.lint import LINT as LINT
from sim.paintline.options import OPTIONS
from sim.paintline.order import DEFAULT
from sim.paintline.policy import N_PARAMS
from sim.paintline.pool import Pool
from sim.paintline.power import POWER as POWER
from sim.paintline.schema import LENGTH, TOP_STEP
from sim.paintline.schema import SCHEMA as SCHEMA
from sim.paintline.tuning import TUNING as TUNING


def load_matchup(folder: Path | str, deck_a: str, deck_b: str, policy_a: str,
                 policy_b: str | None = None, rules: dict | None = None,
                 sets: list[str] | None = None) -> Matchup:
    """A matchup from a game folder, rule options changed by name and card values by
    "CARD.FIELD=VALUE"."""
    m = load(folder, deck_a, deck_b, policy_a, policy_b)
    if rules:
        m = with_rules(m, rules)
    return set_values(m, sets) if sets else m


def set_values(m: Matchup, sets: list[str]) -> Matchup:
    """--set CARD.FIELD=VALUE: change card values for this run only."""
    return dataclasses.replace(m, pool=m.pool.with_sets(sets))


def with_rules(m: Matchup, changes: dict) -> Matchup:
    return with_arsenals(dataclasses.replace(m, rules=m.rules.replace(**changes)))


def manifest_deck(entry: dict, pool) -> Deck:
    """A deck back from its manifest entry, its coach and nation read off the card table."""
    return Deck.of(entry["path"], entry["name"], deck_counts(entry, pool), pool)


def manifest_params(values: list) -> np.ndarray:
    """A policy vector; one written before the `order` setting holds fewer values: its runs
    took the default order."""
    return np.array([*values, *[DEFAULT] * (N_PARAMS - len(values))], dtype=np.float64)


# Paint the Line's manifests keep the card table beside the pool and name no game or folder.
MANIFEST = Manifest(matchup=Matchup, pool=Pool, rules=OPTIONS.from_manifest,
                    deck=manifest_deck, params=manifest_params,
                    labels=lambda m: {TOP_STEP: list(m.rules.values["escalation"])},
                    table_apart=True, finish=with_arsenals)


# The reference engine loads only when it plays.
reference_batch = Later("sim.paintline.reference", "reference_batch")
replay = Later("sim.paintline.reference", "replay")


def exact_check(m: Matchup, totals):
    """Rally mode is solved exactly: every Monte Carlo quantity beside its exact value."""
    if not m.rules.values["rally_mode"]:
        return None
    # deferred: the exact solver (scipy) loads only when asked for
    from sim.paintline import exact

    return exact.check(exact.solve(m), totals.hists[LENGTH], totals.hists[TOP_STEP],
                       totals.wins[0], totals.n)


GAME = Game.collect(globals(), title="Paint the Line (Red Tide)", compile_seconds=8)
