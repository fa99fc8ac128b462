"""Par for a card and the changes whose direction is known: the numbers a card of its kind,
group and cost has on the pool's cost curve, the same card with no effect, a strong buff, par
made strong and a clone, each as {(card id, field): value} for the game's Power hooks.

Par is the folder's declared par (`par.csv`, sim.experiments.par_table) where it declares
the card's kind; else it is read off the whole pool, not the decks: the points a card of the
same kind and group has at the card's cost, on a line of points on cost through those cards
(Theil-Sen: the median of the pairwise slopes, through the median residual, so one card
changed moves it little; the median where the kind has one cost or none), shared among the
card's own numbers as it shares them. A number is the kind's when some card of the kind has
it nonzero."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from sim.experiments.par_table import declared_card


def peers(power, cards: pd.DataFrame, card: str, pool: pd.DataFrame | None = None
          ) -> pd.DataFrame:
    """The cards of `pool` (default: `cards`) of the card's kind and group, the card's own
    row read from `cards`."""
    pool = cards if pool is None else pool
    row = cards.loc[cards.id == card].iloc[0]
    mask = pool.kind == row.kind
    for g in power.group:
        mask &= pool[g] == row[g]
    return pool[mask]


def kind_fields(power, cards: pd.DataFrame, card: str) -> list[str]:
    """The numbers that carry power for the card's kind: some card of the kind has them."""
    same = peers(power, cards, card)
    return [f for f in power.stronger if (same[f] != 0).any()]


def _clip(power, field: str, value: float) -> int:
    lo, hi = power.bounds.get(field, (-(2**31), 2**31 - 1))
    return int(min(max(math.floor(value + 0.5), lo), hi))


def curve(same: pd.DataFrame, y: np.ndarray, cost: str, at: float) -> float:
    """The line of y on cost through the cards `same` (Theil-Sen, through the median
    residual), read at cost `at`; the median where they have one cost or none."""
    # deferred: scipy and statsmodels load only when a statistic needs them
    from scipy.stats import theilslopes

    if cost and same[cost].nunique() > 1:
        slope, intercept, _, _ = theilslopes(y, same[cost].to_numpy(dtype=float),
                                             method="joint")
        return intercept + slope * at
    return float(np.median(y))


def shares(total: int, own: np.ndarray) -> np.ndarray:
    """`total` whole points shared in proportion to `own` (largest remainder first)."""
    exact = total * own / own.sum()
    out = np.floor(exact).astype(int)
    for i in np.argsort(-(exact - out), kind="stable")[: total - out.sum()]:
        out[i] += 1
    return out


def par_values(power, cards: pd.DataFrame, card: str, pool: pd.DataFrame | None = None,
               declared: pd.DataFrame | None = None) -> dict[tuple[str, str], int]:
    """The card's numbers at par for its kind, group and cost, read off the folder's
    `declared` par (sim.experiments.par_table) where it declares the card's kind, else off `pool`
    (default: `cards`, the table the card's own row comes from; a pool kept fixed keeps par
    fixed while cards change). Each number's own curve gives the kind's typical card at
    that cost; the points a card of its kind has there (the sum of the numbers where more
    is stronger, on their own curve) are shared as that typical card shares them, or, where
    it has none of a number the card has (kinds whose cards each carry one number, such as
    Encounter's characteristics), as the card itself shares them. Any number where less is
    stronger takes its own curve. A card with none of the numbers (a card of words alone)
    takes the typical card's shape, or, where that has none either, shares the points alike
    among the kind's numbers. A declared typical card gives its numbers and their sum (a
    number it leaves blank stays the card's own)."""
    same = peers(power, cards, card, pool)
    row = cards.loc[cards.id == card].iloc[0]
    cost = power.cost_field(row.kind)
    at = float(row[cost]) if cost else 0.0
    given = declared_card(power, declared, row, at)
    typical = given or {f: curve(same, same[f].to_numpy(dtype=float), cost, at)
                        for f in power.stronger if (same[f] != 0).any()}
    fields = list(typical)
    more = [f for f in fields if power.stronger[f] > 0]
    # A drawback (a number below zero) is the card's own design, not a share of par's points.
    own = np.clip(row[more].to_numpy(dtype=float), 0, None) if more else np.zeros(0)
    out = {(card, f): _clip(power, f, typical[f]) for f in fields}
    if more:
        points = (sum(typical[f] for f in more) if given
                  else curve(same, same[more].sum(axis=1).to_numpy(dtype=float), cost, at))
        total = max(0, math.floor(points + 0.5))
        shape = np.array([max(out[card, f], 0) for f in more], dtype=float)
        if own.sum() > 0 and not ((shape > 0) | (own == 0)).all():
            shape = own
        elif shape.sum() == 0:  # neither has a shape: the kind's numbers share alike
            shape = np.ones(len(more))
        out |= {(card, f): _clip(power, f, v)
                for f, v in zip(more, shares(total, shape), strict=True)}
    return out


def dead_values(power, cards: pd.DataFrame, card: str) -> dict[tuple[str, str], int]:
    """The card with no effect: every number of its kind at its weakest, its cost kept."""
    out = {}
    for f in kind_fields(power, cards, card):
        lo, hi = power.bounds[f]
        out[card, f] = lo if power.stronger[f] > 0 else hi
    return out


def stronger(power, same: pd.DataFrame, field: str, value: int) -> int:
    """`value` moved the field's stronger way by at least half the spread of the cards `same`
    (at least 1), and to at least the strongest value among them."""
    sign = power.stronger[field]
    step = max(1, math.ceil((same[field].max() - same[field].min()) / 2))
    best = same[field].max() if sign > 0 else same[field].min()
    return _clip(power, field, max(value + step, best) if sign > 0 else min(value - step, best))


def buffed_values(power, cards: pd.DataFrame, card: str) -> dict[tuple[str, str], int]:
    """A strong buff: every number of its kind moved its stronger way by at least half the
    kind's spread (at least 1), and to at least the strongest value of the kind."""
    same = peers(power, cards, card)
    row = cards.loc[cards.id == card].iloc[0]
    return {(card, f): stronger(power, same, f, row[f]) for f in kind_fields(power, cards, card)}


def strong_values(power, cards: pd.DataFrame, card: str, values: dict[tuple[str, str], int],
                  pool: pd.DataFrame | None = None) -> dict[tuple[str, str], int]:
    """Par made strong, the yardstick above par: each of par's numbers (`values`) moved as a
    strong buff moves a card's, by the spread of the card's peers in `pool` (default:
    `cards`), so that a change to the card moves it not."""
    same = peers(power, cards, card, pool)
    return {(c, f): stronger(power, same, f, v) for (c, f), v in values.items()}


def against(power, cards: pd.DataFrame, card: str, values: dict[tuple[str, str], int]) -> int:
    """+1 when the card is at least as strong as `values` in every number and stronger in
    one (it dominates them), -1 when they dominate the card, 0 otherwise."""
    now = cards.set_index("id")
    signs = {power.stronger[f] * (int(now.at[c, f]) - v) for (c, f), v in values.items()}
    signs = {(d > 0) - (d < 0) for d in signs} - {0}
    return signs.pop() if len(signs) == 1 else 0


def differs(values: dict[tuple[str, str], int], cards: pd.DataFrame) -> bool:
    """Whether the values change anything of the cards as they are."""
    now = cards.set_index("id")
    return any(int(now.at[c, f]) != v for (c, f), v in values.items())
