"""Paint the Line behind the game contract: loading, manifest round trip, the kernel and its
reference twin, the validator, designed changes and the exact check, as one Game."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np

from sim.game import Game
from sim.paintline import edits, tuning
from sim.paintline.batch import Matchup, run_batch, with_arsenals
from sim.paintline.building import BUILDING
from sim.paintline.lint import LINT
from sim.paintline.schema import LENGTH, SCHEMA, TOP_STEP


def load_matchup(folder: Path | str, deck_a: str, deck_b: str, policy_a: str,
                 policy_b: str | None = None, rules: dict | None = None,
                 sets: list[str] | None = None) -> Matchup:
    """A matchup from a game folder, rule options changed by name and card values by
    "CARD.FIELD=VALUE"."""
    from sim.paintline.batch import load_matchup as load
    from sim.paintline.decks import load_folder

    base = load_folder(folder).rules
    m = load(folder, deck_a, deck_b, policy_a, policy_b,
             base.replace(**rules) if rules else base)
    return set_values(m, sets) if sets else m


def set_values(m: Matchup, sets: list[str]) -> Matchup:
    """--set CARD.FIELD=VALUE: change card values for this run only."""
    from sim.paintline.pool import INT_COLUMNS
    from sim.problems import InputError, Problem

    changes = {}
    problems = []
    for item in sets:
        target, sep, raw = item.partition("=")
        card_name, dot, column = target.rpartition(".")
        card = m.pool.lookup(card_name) if sep and dot else None
        if not sep or not dot:
            problems.append(Problem("--set", 0, f"expects CARD.FIELD=VALUE, got {item!r}"))
        elif card is None:
            close = ", ".join(m.pool.closest(card_name)) or "none"
            problems.append(Problem("--set", 0, f"unknown card {card_name!r}; closest: {close}"))
        elif column not in INT_COLUMNS:
            problems.append(Problem("--set", 0, f"unknown field {column!r}; one of "
                                    f"{', '.join(INT_COLUMNS)}"))
        elif not raw.strip().isdigit():
            problems.append(Problem("--set", 0, f"{item}: value must be a whole number >= 0"))
        else:
            changes[(card, INT_COLUMNS[column])] = int(raw)
    if problems:
        raise InputError(problems)
    return dataclasses.replace(m, pool=m.pool.with_values(changes))


def with_rules(m: Matchup, changes: dict) -> Matchup:
    return with_arsenals(dataclasses.replace(m, rules=m.rules.replace(**changes)))


def describe(m: Matchup) -> dict:
    """The matchup as the manifest records it: enough to rebuild it exactly."""
    from sim.paintline.pool import C_KIND, KINDS

    pool = m.pool
    return {
        "rules": m.rules.values,
        "card_pool": {"path": str(pool.path), "sha256": pool.sha256, "ids": list(pool.ids),
                      "names": list(pool.names),
                      "kinds": [KINDS[k] for k in pool.table[:, C_KIND]]},
        "card_table": pool.table.tolist(),
        "decks": [{"name": d.name, "path": str(d.path),
                   "cards": [[pool.ids[c], n] for c, n in d.counts]} for d in m.decks],
        "policies": [{"name": name, "params": vec.tolist()}
                     for name, vec in zip(m.policy_names, m.policies, strict=True)],
        "histogram_labels": {TOP_STEP: list(m.rules.values["escalation"])},
    }


def from_manifest(manifest: dict) -> Matchup:
    """The exact matchup a run was made with (card values included), whatever the files
    say now; texts come from the pool file when it still lists the same cards."""
    from sim.paintline import pool as T
    from sim.paintline.decks import Deck
    from sim.paintline.options import load_rules
    from sim.paintline.order import DEFAULT
    from sim.paintline.policy import N_PARAMS

    cp = manifest["card_pool"]
    path = Path(cp["path"])
    ids = tuple(cp["ids"])
    try:
        words = T.load_pool(path)
    except Exception:  # moved or broken since: the manifest alone is enough
        words = None
    same = words is not None and words.ids == ids
    table = np.array(manifest["card_table"], dtype=np.int64)
    table.setflags(write=False)
    pool = T.Pool(path, ids, tuple(cp.get("names", ids)),
                  words.texts if same else ("",) * len(ids), table, cp["sha256"])
    decks = []
    for d in manifest["decks"]:
        counts = tuple((ids.index(c), n) for c, n in d["cards"])
        coach = next((c for c, _ in counts if table[c, T.C_KIND] == T.COACH), -1)
        nation = max((int(table[c, T.C_NATION]) for c, _ in counts), default=T.NEUTRAL)
        decks.append(Deck(Path(d["path"]), d["name"], counts, coach, nation))
    rules = load_rules().replace(**manifest["rules"])
    pols = manifest["policies"]
    # A manifest written before the `order` setting holds fewer values: its runs took the
    # default order.
    vecs = tuple(np.array([*p["params"], *[DEFAULT] * (N_PARAMS - len(p["params"]))],
                          dtype=np.float64) for p in pols)
    return with_arsenals(Matchup(pool, rules, (decks[0], decks[1]),
                                 (pols[0]["name"], pols[1]["name"]), (vecs[0], vecs[1])))


def reference_batch(m: Matchup, n: int, seed: int, first_match: int = 0, n_log: int = 0):
    from sim.paintline.reference import reference_batch as batch

    return batch(m, n, seed, first_match, n_log)


def replay(m: Matchup, seed: int, match_index: int):
    from sim.paintline.reference import replay as play

    return play(m, seed, match_index)


def check_paths(paths):
    from sim.paintline.decks import check_paths as check

    return check(paths)


def validate(m: Matchup) -> list:
    """The validator's word on a matchup built in memory (an experiment's variant): the
    card table's values and codes, each deck under the deck rules, the rule options; []
    when legal."""
    from sim.paintline.decks import matchup_problems
    from sim.paintline.options import _check_rule_values

    return (matchup_problems(m.pool, m.decks)
            + _check_rule_values(m.rules.values, "rule options", {}))


def exact_check(m: Matchup, totals):
    """Rally mode is solved exactly: every Monte Carlo quantity beside its exact value."""
    if not m.rules.values["rally_mode"]:
        return None
    from sim.paintline import exact

    return exact.check(exact.solve(m), totals.hists[LENGTH], totals.hists[TOP_STEP],
                       totals.wins[0], totals.n)


GAME = Game(
    name="paintline",
    title="Paint the Line (Red Tide)",
    schema=SCHEMA,
    load_matchup=load_matchup,
    run_batch=run_batch,
    reference_batch=reference_batch,
    replay=replay,
    describe=describe,
    from_manifest=from_manifest,
    check_paths=check_paths,
    with_rules=with_rules,
    value_edits=edits.value_edits,
    ablations=edits.ablations,
    sweeps=edits.SWEEPS,
    worth=edits.worth,
    validate=validate,
    exact_check=exact_check,
    tuning=tuning.TUNING,
    lint=LINT,
    building=BUILDING,
)
