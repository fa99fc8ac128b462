"""Payne behind the game contract: its loaders, manifest and experiments, the parts imported
"as" themselves included, collected into one Game."""

from __future__ import annotations

import dataclasses

from sim.kit.game import Game
from sim.kit.manifests import Manifest
from sim.payne import options as O
from sim.payne import pool as T
from sim.payne.batch import Matchup, check_decks
from sim.payne.batch import load_matchup as load_matchup
from sim.payne.batch import run_batch as run_batch
from sim.payne.batch import validate as validate
from sim.payne.building import BUILDING as BUILDING
from sim.payne.decks import check_paths as check_paths
from sim.payne.edits import SWEEPS as SWEEPS
from sim.payne.edits import value_edits as value_edits
from sim.payne.exact import exact_check as exact_check
from sim.payne.lint import LINT as LINT
from sim.payne.params import complete
from sim.payne.power import POWER as POWER
from sim.payne.reference import reference_batch as reference_batch
from sim.payne.reference import replay as replay
from sim.payne.schema import SCHEMA as SCHEMA
from sim.payne.tuning import TUNING as TUNING

MANIFEST = Manifest(matchup=Matchup, pool=T.Pool,
                    rules=O.OPTIONS.from_manifest,
                    params=complete, labels=lambda m: {"round_points": ["0", "1", "2"]},
                    game="payne", texts=True)


def with_rules(m: Matchup, changes: dict) -> Matchup:
    rules = m.rules.replace(dict(changes), "--rules")
    check_decks(m.pool, rules, m.decks)
    return dataclasses.replace(m, rules=rules)


OPTIONS = O.OPTIONS
GAME = Game.collect(globals(), title="The Payne Academy Card Game", compile_seconds=5)
