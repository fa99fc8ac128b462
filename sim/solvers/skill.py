"""Skill depth: each policy's win rate against one reference opponent on both seats of every
deck pairing, all on the same seeds, and the paired spread from the weakest to the best."""

from __future__ import annotations

from collections.abc import Callable
from itertools import combinations

import numpy as np
import pandas as pd

from sim.core.stats import paired_difference, wilson
from sim.kit.game import Game
from sim.store.outputs import new_folder, save_tables


def pairings(decks: list[str]) -> list[tuple[str, str]]:
    """Every unordered pair of the decks (each policy plays both seats of each)."""
    return list(combinations(decks, 2))


def skill(game: Game, load: Callable[[str, str, str, str], object], pairs, policies: list[str],
          against: str, matches: int, seed: int, tuned: tuple[str, ...] = ()
          ) -> tuple[pd.DataFrame, dict]:
    """load(deck_a, deck_b, policy_a, policy_b) -> matchup. One row per policy: wins, n,
    rate and Wilson 95% interval over every pairing and seat, and its paired gain over
    `random` (or the first policy when there is none); plus the spread between the weakest
    and the best policy, paired on the same matches."""
    wins = {}
    for policy in policies:
        parts = []
        for a, b in pairs:
            for seat in (0, 1):
                pa, pb = (policy, against) if seat == 0 else (against, policy)
                parts.append(game.run_batch(load(a, b, pa, pb), matches, seed).wins(seat))
        wins[policy] = np.concatenate(parts).astype(np.float64)
    ref = "random" if "random" in wins else policies[0]
    rows = []
    for policy, w in wins.items():
        lo, hi = wilson(w.sum(), len(w))
        d = paired_difference(wins[ref], w)
        rows.append({"policy": policy, "tuned": policy in tuned, "k": int(w.sum()),
                     "n": len(w), "rate": w.mean(), "lo": float(lo), "hi": float(hi),
                     f"gain_over_{ref}": d["delta"], "gain_lo": d["lo"], "gain_hi": d["hi"]})
    df = pd.DataFrame(rows)
    best, worst = df.policy[df.rate.idxmax()], df.policy[df.rate.idxmin()]
    d = paired_difference(wins[worst], wins[best])
    summary = {"best": best, "worst": worst, "spread": d["delta"], "lo": d["lo"],
               "hi": d["hi"], "n": d["n"], "against": against, "reference": ref,
               "pairings": [list(p) for p in pairs]}
    return df, summary


def run(game: Game, load, pairs, policies, against, matches, seed, results="results",
        run_id=None, tuned=()) -> tuple[pd.DataFrame, dict]:
    """skill() written to results/<id>/ (skill.parquet and the manifest)."""
    df, summary = skill(game, load, pairs, policies, against, matches, seed, tuned)
    path = new_folder(results, run_id, "skill")
    save_tables(path, {"skill": df}, {"kind": "skill", "game": game.name, "seed": seed,
                                "matches": matches, "policies": policies, **summary})
    summary["path"] = str(path)
    return df, summary
