"""The Encounter game behind the lab's contract: its manifest, its validator and the GAME
object, whose parts are the names imported "as" themselves."""

from __future__ import annotations

from sim.encounter.batch import Matchup
from sim.encounter.batch import load_matchup as load_matchup
from sim.encounter.batch import reference_batch as reference_batch
from sim.encounter.batch import run_batch as run_batch
from sim.encounter.batch import with_rules as with_rules
from sim.encounter.building import BUILDING as BUILDING
from sim.encounter.decks import FILES, Deck, matchup_problems
from sim.encounter.edits import SWEEPS as SWEEPS
from sim.encounter.edits import ablations as ablations
from sim.encounter.edits import value_edits as value_edits
from sim.encounter.engine import DEATH_BINS
from sim.encounter.exact import exact_check as exact_check
from sim.encounter.lint import LINT as LINT
from sim.encounter.options import OPTIONS as OPTIONS
from sim.encounter.params import manifest_params
from sim.encounter.pool import Pool
from sim.encounter.power import POWER as POWER
from sim.encounter.reference import replay as replay
from sim.encounter.schema import SCHEMA as SCHEMA
from sim.encounter.schema import schema_for as schema_for
from sim.encounter.tuning import TUNING as TUNING
from sim.kit.game import Game
from sim.kit.manifests import Manifest


def starting(m) -> dict:
    """The PC and its starting characteristics are in play from the start, never played."""
    return {"starting": [[m.pool.ids[c] for c in (d.pc, *d.chars) if c not in d.draw + d.loot]
                         for d in m.decks]}


SEATS = (OPTIONS.by_name["players"].lo, OPTIONS.by_name["players"].hi)
MANIFEST = Manifest(matchup=Matchup, pool=Pool, rules=OPTIONS.from_manifest,
                    deck=lambda d, pool: Deck.from_json(d),
                    deck_entry=lambda d, pool: d.to_json(),
                    params=manifest_params,
                    labels=lambda m: {"pc_death": [str(t) for t in range(DEATH_BINS)]},
                    game="encounter", extra=starting)


def validate(m) -> list:
    """The validator's word on a matchup built in memory: its cards, decks and rules."""
    return matchup_problems(m.pool, m.decks, m.rules)


check_paths = FILES.check_paths
GAME = Game.collect(globals(), title="Encounter RPCCG", compile_seconds=21)
