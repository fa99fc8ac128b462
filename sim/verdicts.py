"""Causal card verdicts for any game: each flagged card's copies taken out of its deck (the
game's neutral filler in their place), on the same seeds as the unchanged matchup, with
matches going round by round to the cards whose verdict is still open."""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy.stats import norm

from analysis.load import distinct_labels
from analysis.verdicts import MIN_EFFECT, classify, contrast
from sim import legality


@dataclass(frozen=True)
class Precision:
    """How many matches a verdict may take: every card starts with `start`, an open one
    doubles its matches each round up to `max_matches`. A card's verdict is settled once
    its interval (at the level that keeps every look together at 95%) clears the margin
    +-min_effect or lies inside it."""

    start: int = 2000
    max_matches: int = 64_000
    min_effect: float = MIN_EFFECT
    alpha: float = 0.05

    @property
    def looks(self) -> int:
        return int(np.ceil(np.log2(max(self.max_matches / self.start, 1)))) + 1

    def check(self) -> None:
        from sim.problems import InputError, Problem

        if not 0 < self.min_effect < 1:
            raise InputError([Problem("--min-effect", 0, "a win-rate margin in 0 .. 1, got "
                                      f"{self.min_effect}")])
        if not 2 <= self.start <= self.max_matches:
            raise InputError([Problem("--start", 0, f"start ({self.start}) must be at least 2 "
                                      f"and at most --max-matches ({self.max_matches})")])


class Arms:
    """Per-match wins of the unchanged matchup (one series per seat) and of each variant,
    matches 0 .. n-1 of the one seed they share."""

    def __init__(self, game, m, variants, seed: int):
        self.game, self.m, self.variants, self.seed = game, m, variants, seed
        self.base = [np.zeros(0, np.int8) for _ in m.decks]  # one series per seat
        self.wins = [np.zeros(0, np.int8) for _ in variants]
        self.played = 0

    def _more(self, matchup, seat: int, have: np.ndarray, n: int) -> np.ndarray:
        if len(have) >= n:
            return have
        rec = self.game.run_batch(matchup, n - len(have), self.seed, first_match=len(have))
        self.played += n - len(have)
        return np.concatenate([have, rec.wins(seat).astype(np.int8)])

    def extend(self, i: int, n: int) -> None:
        v = self.variants[i]
        self.wins[i] = self._more(v.matchup, v.seat, self.wins[i], n)
        self.base[v.seat] = self._more(self.m, v.seat, self.base[v.seat], n)

    def n(self, i: int) -> int:
        return len(self.wins[i])


def per_copy(arms: Arms, i: int, n: int) -> np.ndarray:
    """Per match, the win rate card i adds to its deck, per copy it has: a three-of and a
    one-of are judged on the strength of one card."""
    v = arms.variants[i]
    return (arms.base[v.seat][:n].astype(float) - arms.wins[i][:n]) / max(v.copies, 1)


def median_arms(arms: Arms, members: list[int]) -> list[int]:
    """The median card of these by estimated worth per copy: one card, or the middle two."""
    if not members:
        return []
    worth = {i: float(per_copy(arms, i, arms.n(i)).mean()) for i in members}
    order = sorted(members, key=lambda i: (worth[i], arms.variants[i].card))
    k = len(order)
    return sorted({order[(k - 1) // 2], order[k // 2]})


def references(arms: Arms, decks: dict[tuple, list[int]]) -> dict[int, list[int]]:
    """Each card's yardstick: the median of the other cards of its deck and group (a card
    is never its own yardstick), or of the deck's other cards when it is alone in its
    group; none when it is alone in its deck."""
    refs = {}
    for (seat, _), members in decks.items():
        deck = [i for (s, _), ms in decks.items() if s == seat for i in ms]
        for i in members:
            others = [j for j in members if j != i] or [j for j in deck if j != i]
            refs[i] = median_arms(arms, others)
    return refs


def table(arms: Arms, decks: dict[tuple, list[int]], refs: dict[int, list[int]],
          labels: dict[str, str], kinds: dict[str, str]) -> pd.DataFrame:
    """One row per card: its worth (the win rate all its copies add to its deck), and its
    worth per copy relative to its yardstick (the median of the other cards of its deck
    and group), each with its standard error, paired by match."""
    rows = []
    for (seat, group), members in decks.items():
        for i in members:
            v, n, ref = arms.variants[i], arms.n(i), refs[i]
            worth, worth_se = contrast(arms.base[seat][:n].astype(float) - arms.wins[i])
            mine = per_copy(arms, i, n)
            rel, rel_se = (0.0, 0.0) if not ref else contrast(
                mine - np.mean([per_copy(arms, r, n) for r in ref], axis=0))
            rows.append({"variant": i, "seat": seat, "deck": arms.m.decks[seat].name,
                         "card": v.card,
                         "name": v.name, "label": labels.get(v.card, v.name),
                         "kind": kinds.get(v.card, ""), "group": group,
                         "copies": v.copies, "n": n,
                         "worth": worth, "worth_se": worth_se,
                         "worth_per_copy": float(mine.mean()), "relative": rel,
                         "relative_se": rel_se, "reference": not ref,
                         "median_card": " / ".join(labels[arms.variants[r].card]
                                                   for r in ref)})
    return pd.DataFrame(rows)


def open_cards(df: pd.DataFrame, p: Precision) -> pd.Series:
    """Cards whose verdict is not settled at the per-look level."""
    z = norm.ppf(1 - p.alpha / (2 * p.looks))
    lo, hi = df.relative - z * df.relative_se, df.relative + z * df.relative_se
    settled = (lo > p.min_effect) | (hi < -p.min_effect) | (
        (lo > -p.min_effect) & (hi < p.min_effect))
    return ~settled & ~df.reference


def card_verdicts(game, m, seed: int, precision: Precision = Precision(),
                  progress=None) -> pd.DataFrame:
    """Verdicts for every card of the kinds the game flags, in both decks. attrs: matches
    (played in all), seconds, rounds, the precision used and the variants skipped."""
    precision.check()
    start = time.perf_counter()
    pool = game.describe(m)["card_pool"]
    labels = distinct_labels(pool["ids"], pool["names"])
    kinds = dict(zip(pool["ids"], pool["kinds"], strict=True))
    flagged = set(game.schema.flag_kinds)
    variants, skipped = legality.split(game, [
        v for v in game.ablations(m) if not flagged or kinds.get(v.card) in flagged])
    arms = Arms(game, m, variants, seed)
    # A game may judge like against like (its card pool's verdict_groups); otherwise every
    # flagged card of a deck is judged against the median of the deck's other cards.
    groups = dict(zip(pool["ids"], pool.get("verdict_groups") or [""] * len(pool["ids"]),
                      strict=True))
    decks: dict[tuple[int, str], list[int]] = {}
    for i, v in enumerate(variants):
        decks.setdefault((v.seat, groups[v.card]), []).append(i)
    target, rounds = precision.start, 0
    todo = list(range(len(variants)))
    while True:
        for i in todo:
            arms.extend(i, target)
        refs = references(arms, decks)
        grown = True
        while grown:  # a yardstick has every match of the cards it measures
            grown = False
            for i, ref in refs.items():
                for r in ref:
                    if arms.n(r) < arms.n(i):
                        arms.extend(r, arms.n(i))
                        grown = True
        df = table(arms, decks, refs, labels, kinds)
        still = df.index[open_cards(df, precision)].tolist()
        if progress:
            progress(rounds, target, len(still), arms.played)
        if not still or target >= precision.max_matches:
            break
        target, rounds = min(2 * target, precision.max_matches), rounds + 1
        todo = df.variant[still].tolist()
    out = classify(df, precision.min_effect, precision.alpha) if len(df) else df
    out.attrs.update({"matches": arms.played, "seconds": time.perf_counter() - start,
                      "rounds": rounds + 1, "min_effect": precision.min_effect,
                      "start": precision.start, "max_matches": precision.max_matches,
                      "alpha": precision.alpha, "skipped": skipped})
    return out


def for_run(path, precision: Precision = Precision(), progress=None) -> pd.DataFrame:
    """A stored run's verdicts, on its own matchup and seed, saved beside it as
    verdicts.parquet with verdicts.json (how they were made and how many matches they took)."""
    import json
    from pathlib import Path

    from sim.game import get
    from sim.outputs import save_tables, write_json

    path = Path(path)
    manifest = json.loads((path / "manifest.json").read_text(encoding="utf-8"))
    from sim.warmup import ensure

    game = get(manifest["game"])
    matchup = game.from_manifest(manifest)
    ensure(game, matchup)
    df = card_verdicts(game, matchup, int(manifest["seed"]), precision, progress)
    skipped = df.attrs.pop("skipped")
    save_tables(path, {"verdicts": df, "verdicts_skipped": skipped}, None)
    write_json(path / "verdicts.json", {**df.attrs, "skipped": len(skipped),
                                        "seed": manifest["seed"]})
    df.attrs["skipped"] = skipped
    return df
