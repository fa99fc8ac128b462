"""Comparisons across stored runs: what moved between two runs beyond noise, and which card
verdicts hold under several policies."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from analysis.load import load_run
from analysis.quantities import per_match
from analysis.verdicts import consensus
from sim.core.problems import InputError, Problem
from sim.core.stats import bh, p_values
from sim.experiments.designs import compare_frames
from sim.kit.game import Game
from sim.kit.records import SEAT_LETTERS
from sim.store.outputs import new_folder, save_tables


def diff_runs(path_a: Path, path_b: Path) -> pd.DataFrame:
    """Each schema quantity's delta between two stored runs of one game at one table size
    with its 95% interval (paired by match when both runs share seed and size), BH across
    quantities; InputError for runs of two games or two numbers of players."""
    a, b = load_run(path_a), load_run(path_b)
    if a.manifest.get("game") != b.manifest.get("game"):
        raise InputError([Problem(str(path_b), 0, "runs of two different games: "
                                  f"{a.manifest.get('game')} and {b.manifest.get('game')}")])
    if a.seats != b.seats:
        # A seat's quantities mean another thing at another table size ("deck A wins" has a
        # fair share of 1/4 at four, 1/2 at two), and a larger table records columns the
        # smaller lacks: no row of such a diff would compare like with like.
        raise InputError([Problem(str(path_b), 0, "runs with different numbers of players: "
                                  f"{path_a.name} seats {a.seats} players, {path_b.name} "
                                  f"seats {b.seats} players; diff compares runs at one "
                                  "table size (the same --rules players=N)")])
    paired = (a.manifest["seed"] == b.manifest["seed"] and len(a.matches) == len(b.matches))
    seats = tuple("deck " + x.upper() for x in SEAT_LETTERS[:len(a.manifest["decks"])])
    df = compare_frames(*(per_match(a.manifest["schema"], run.matches, seats) for run in (a, b)),
                        paired)
    df["p"] = p_values(df.delta, df.se)
    df["moved"], df["p_adjusted"] = bh(df.p.to_numpy())
    df["paired"] = paired
    return df


def robust_flags(game: Game, folder, deck_a, deck_b, policies: list[str], seed: int,
                 precision=None, trained: str | None = None, results="results", run_id=None,
                 rules=None, sets=None, progress=None) -> pd.DataFrame:
    """Causal card verdicts under several policies (both seats playing each, same seeds, each
    policy alone rather than the deck's best): a verdict counts when it holds under the
    trained policy and at least two others."""
    # deferred: scipy and statsmodels load only when a statistic needs them
    from sim.experiments.verdicts import Precision, card_verdicts

    precision = precision or Precision()
    # Every policy's matchup first, so that a bad name stops the command before any match.
    matchups = {p: game.load_matchup(folder, deck_a, deck_b, p, p, rules or {},
                                     list(sets or ())) for p in policies}
    path = new_folder(results, run_id, "flags")
    by_policy, played = {}, 0
    for policy, m in matchups.items():
        df = card_verdicts(game, m, seed, precision,
                           progress and (lambda *a, p=policy: progress(p, *a)))
        played += df.attrs["matches"]
        by_policy[policy] = df
    out = consensus(by_policy, trained)
    save_tables(path, {"flags": out, **{f"verdicts-{p}": d for p, d in by_policy.items()}},
                {"kind": "flags", "game": game.name, "policies": policies,
                 "trained": out.anchor.iat[0] if len(out) else trained, "seed": seed,
                 "matches": played, "margin_share": precision.share,
                 "decks": [deck_a, deck_b]})
    out.attrs["matches"] = played
    return out
