"""The Encounter game behind the lab's contract: its manifest round trip, its validator and
the GAME object."""

from __future__ import annotations

from sim.encounter.batch import load_matchup, reference_batch, run_batch, with_rules
from sim.encounter.engine import DEATH_BINS
from sim.encounter.exact import exact_check
from sim.encounter.lint import LINT
from sim.encounter.pool import FILES, matchup_problems
from sim.encounter.reference import replay
from sim.encounter.schema import SCHEMA
from sim.encounter.tuning import TUNING
from sim.encounter.variants import SWEEPS, ablations, value_edits
from sim.game import Game


def describe(m) -> dict:
    """The manifest entry of a matchup: everything from_manifest needs, card values too."""
    pool = m.pool
    return {
        "game": "encounter",
        "folder": m.folder,
        "decks": [d.to_json() for d in m.decks],
        "policies": [{"name": n, "params": [int(x) for x in v]}
                     for n, v in zip(m.policy_names, m.policies, strict=True)],
        "rules": dict(m.rules),
        "card_pool": {"path": pool.path, "ids": list(pool.ids), "names": list(pool.names),
                      "kinds": list(pool.kinds), "sha256": pool.sha256,
                      "table": pool.table.tolist()},
        "histogram_labels": {"pc_death": [str(t) for t in range(DEATH_BINS)]},
        # The PC and its starting characteristics are in play from the start, never played.
        "starting": [[pool.ids[c] for c in (d.pc, *d.chars) if c not in d.draw + d.loot]
                     for d in m.decks],
    }


def from_manifest(man: dict):
    """The identical matchup from a manifest (card values as recorded)."""
    import numpy as np

    from sim.encounter.batch import Matchup
    from sim.encounter.pool import Deck, Pool

    cp = man["card_pool"]
    pool = Pool.from_words(cp.get("path", ""), cp["ids"], cp["names"], (), cp["table"],
                           cp.get("sha256", ""))
    decks = tuple(Deck.from_json(d) for d in man["decks"])
    pols = man["policies"]
    return Matchup(man.get("folder", ""), pool, dict(man["rules"]), (decks[0], decks[1]),
                   (pols[0]["name"], pols[1]["name"]),
                   tuple(np.array(p["params"], dtype=np.int64) for p in pols))


def validate(m) -> list:
    """The validator's word on a matchup built in memory: its cards, decks and rules."""
    return matchup_problems(m.pool, m.decks, m.rules)


GAME = Game(
    name="encounter",
    title="Encounter RPCCG",
    compile_seconds=121,
    schema=SCHEMA,
    load_matchup=load_matchup,
    run_batch=run_batch,
    reference_batch=reference_batch,
    replay=replay,
    describe=describe,
    from_manifest=from_manifest,
    check_paths=FILES.check_paths,
    with_rules=with_rules,
    value_edits=value_edits,
    ablations=ablations,
    sweeps=SWEEPS,
    validate=validate,
    exact_check=exact_check,
    tuning=TUNING,
    lint=LINT,
)
