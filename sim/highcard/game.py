"""High Card behind the game contract: its loaders, manifest and experiments, the parts
imported "as" themselves included, collected into one Game."""

from __future__ import annotations

from sim.highcard import options as O
from sim.highcard import pool as T
from sim.highcard.batch import Matchup
from sim.highcard.batch import load_matchup as load_matchup
from sim.highcard.batch import run_batch as run_batch
from sim.highcard.batch import validate as validate
from sim.highcard.batch import with_rules as with_rules
from sim.highcard.building import BUILDING as BUILDING
from sim.highcard.decks import check_paths as check_paths
from sim.highcard.edits import SWEEPS as SWEEPS
from sim.highcard.edits import value_edits as value_edits
from sim.highcard.exact import exact_check as exact_check
from sim.highcard.lint import LINT as LINT
from sim.highcard.params import complete
from sim.highcard.power import POWER as POWER
from sim.highcard.reference import reference_batch as reference_batch
from sim.highcard.reference import replay as replay
from sim.highcard.schema import SCHEMA as SCHEMA
from sim.highcard.schema import VALUE_BINS, VALUE_PLAYED
from sim.highcard.tuning import TUNING as TUNING
from sim.kit.game import Game
from sim.kit.manifests import Manifest

MANIFEST = Manifest(matchup=Matchup, pool=T.Pool, rules=O.OPTIONS.from_manifest,
                    params=complete,
                    labels=lambda m: {VALUE_PLAYED: [str(v) for v in range(VALUE_BINS)]},
                    game="highcard", texts=True)
OPTIONS = O.OPTIONS
GAME = Game.collect(globals(), compile_seconds=5,
                    title="High Card (the template)")
