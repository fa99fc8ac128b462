"""The Encounter game behind the lab's contract: its manifest round trip, its validator and
the GAME object."""

from __future__ import annotations

from sim.encounter.batch import load_matchup, reference_batch, run_batch, with_rules
from sim.encounter.engine import DEATH_BINS
from sim.encounter.exact import exact_check
from sim.encounter.lint import LINT
from sim.encounter.pool import matchup_problems
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
    pool = Pool(cp.get("path", ""), tuple(cp["ids"]), tuple(cp["names"]), tuple(cp["kinds"]),
                np.array(cp["table"], dtype=np.int64), (), cp.get("sha256", ""))
    decks = tuple(Deck.from_json(d) for d in man["decks"])
    pols = man["policies"]
    return Matchup(man.get("folder", ""), pool, dict(man["rules"]), (decks[0], decks[1]),
                   (pols[0]["name"], pols[1]["name"]),
                   tuple(np.array(p["params"], dtype=np.int64) for p in pols))


def check_paths(paths) -> tuple[list[str], list]:
    """The validator: game folders (cards, rules, policies, every deck) or single files."""
    from pathlib import Path

    from sim.datafiles import attempt
    from sim.encounter.options import load_rules
    from sim.encounter.params import load_policies
    from sim.encounter.pool import load_deck, load_pool
    from sim.problems import Problem

    notes, problems = [], []
    for raw in paths:
        path = Path(raw)
        folder = path if path.is_dir() else path.parent
        if not path.exists():
            problems.append(Problem(str(path), 0, "no such file or folder"))
            continue
        pool = attempt(problems, load_pool, folder / "cards.csv")
        rules = attempt(problems, load_rules, folder / "rules.toml")
        if path.is_dir() or path.name == "policies.toml":
            pols = attempt(problems, load_policies, folder / "policies.toml")
            if pols is not None:
                notes.append(f"{folder / 'policies.toml'}: {len(pols)} policies")
        if pool is not None and (path.is_dir() or path.name == "cards.csv"):
            notes.append(f"{pool.path}: {len(pool)} cards")
        if rules is not None and (path.is_dir() or path.name == "rules.toml"):
            notes.append(f"{folder / 'rules.toml'}: {len(rules)} rule options")
        decks = sorted(folder.glob("*.deck")) if path.is_dir() else (
            [path] if path.suffix == ".deck" else [])
        for d in decks:
            if pool is not None and rules is not None:
                deck = attempt(problems, load_deck, d, pool, rules)
                if deck is not None:
                    notes.append(f"{d}: {pool.names[deck.pc]}, {len(deck.draw)} draw, "
                                 f"{len(deck.loot)} loot")
    return notes, problems


def validate(m) -> list:
    """The validator's word on a matchup built in memory: its cards, decks and rules."""
    return matchup_problems(m.pool, m.decks, m.rules)


GAME = Game(
    name="encounter",
    title="Encounter RPCCG",
    schema=SCHEMA,
    load_matchup=load_matchup,
    run_batch=run_batch,
    reference_batch=reference_batch,
    replay=replay,
    describe=describe,
    from_manifest=from_manifest,
    check_paths=check_paths,
    with_rules=with_rules,
    value_edits=value_edits,
    ablations=ablations,
    sweeps=SWEEPS,
    validate=validate,
    exact_check=exact_check,
    tuning=TUNING,
    lint=LINT,
)
