"""Comparisons across stored runs: what moved between two runs beyond noise, and which card
verdicts hold under several policies."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from sim.game import Game


def diff_runs(path_a: Path, path_b: Path) -> pd.DataFrame:
    """Each schema quantity's delta between two stored runs of one game with its 95%
    interval (paired by match when both runs share seed and size), BH across quantities."""
    from analysis.load import load_run
    from analysis.stats import bh, p_values
    from sim.experiments import compare_frames
    from sim.problems import InputError, Problem

    a, b = load_run(path_a), load_run(path_b)
    if a.manifest.get("game") != b.manifest.get("game"):
        raise InputError([Problem(str(path_b), 0, "runs of two different games: "
                                  f"{a.manifest.get('game')} and {b.manifest.get('game')}")])
    paired = (a.manifest["seed"] == b.manifest["seed"] and len(a.matches) == len(b.matches))
    df = compare_frames(a.manifest["schema"], a.matches, b.matches, ("deck A", "deck B"),
                        paired)
    df["p"] = p_values(df.delta, df.se)
    df["moved"], df["p_adjusted"] = bh(df.p.to_numpy())
    df["paired"] = paired
    return df


def robust_flags(game: Game, folder, deck_a, deck_b, policies: list[str], matches: int,
                 seed: int, results="results", run_id=None, rules=None,
                 sets=None) -> pd.DataFrame:
    """Card verdicts under several policies (one run each, same seeds): a verdict that holds
    across at least three policies without a sign or large rank change is robust."""
    from analysis import metrics
    from analysis.load import load_run
    from sim.experiments import _folder, _save
    from sim.run import simulate

    path = _folder(results, run_id, "flags")
    by_policy = {}
    verdicts = []
    for policy in policies:
        m = game.load_matchup(folder, deck_a, deck_b, policy, policy, rules or {},
                              list(sets or ()))
        res = simulate(game, m, matches, seed, results=path, run_id=policy, backend="serial")
        flags = metrics.balance_flags(metrics.card_metrics(load_run(res.run.path)))
        by_policy[policy] = flags.assign(iwd=flags.iwd_relative)
        verdicts.append(flags[["deck", "card", "name", "verdict"]].assign(policy=policy))
    table = metrics.robustness(by_policy)
    v = pd.concat(verdicts).pivot_table(index=["deck", "card", "name"], columns="policy",
                                        values="verdict", aggfunc="first").reset_index()
    out = v.merge(table, on=["deck", "card"])
    same = out[policies].nunique(axis=1) == 1
    settled = out[policies[0]] != "not enough games"
    out["robust"] = out.robust & same & settled
    _save(path, {"robustness": out}, {"kind": "flags", "game": game.name,
                                       "policies": policies, "seed": seed,
                                       "matches": matches})
    return out
