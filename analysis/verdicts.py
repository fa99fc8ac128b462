"""Causal card verdicts from paired ablation contrasts: each card's worth to its deck against
the median of the deck's other cards, tested against a minimum practical effect with
Benjamini-Hochberg control across cards."""

from __future__ import annotations

import numpy as np
import pandas as pd

from analysis.stats import Z95, bh

MIN_EFFECT = 0.01  # one point of win rate: smaller differences are not worth a verdict
VERDICTS = ("over-powered", "under-powered", "balanced", "no evidence", "alone in its deck")


def contrast(series: np.ndarray) -> tuple[float, float]:
    """Mean and standard error of per-match paired differences of win indicators (each -1,
    0 or 1). The variance counts one more match each way (+1 and -1), so a contrast that
    has not yet differed in any match still has an honest, nonzero uncertainty."""
    x = np.asarray(series, dtype=float)
    n = len(x)
    if n < 2:
        return float(x.mean()) if n else 0.0, np.inf
    mean = float(x.mean())
    padded = (np.sum((x - mean) ** 2) + (1 - mean) ** 2 + (1 + mean) ** 2) / (n + 1)
    return mean, float(np.sqrt(padded / n))


def beyond_margin_p(estimate, se, min_effect: float) -> np.ndarray:
    """One-sided p-value that the effect lies beyond +-min_effect on the side of its
    estimate (H0: |effect| <= min_effect); 1 when there is no spread at all."""
    from scipy.stats import norm

    est = np.abs(np.asarray(estimate, dtype=float))
    se = np.asarray(se, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        z = (est - min_effect) / se
    return np.where(se > 0, norm.sf(z), np.where(est > min_effect, 0.0, 1.0))


def classify(df: pd.DataFrame, min_effect: float = MIN_EFFECT,
             alpha: float = 0.05) -> pd.DataFrame:
    """Verdicts for a table with columns relative (a card's worth against its yardstick, the
    median of the other cards it is judged with), relative_se and reference (True for a card
    with nothing to be judged against).

    - over-/under-powered: beyond +-min_effect of the yardstick, Benjamini-Hochberg at
      `alpha` across the cards tested;
    - balanced: the 95% interval lies inside +-min_effect;
    - no evidence: neither.
    Adds relative_lo, relative_hi, p, p_adjusted and verdict."""
    out = df.copy()
    half = Z95 * out.relative_se
    out["relative_lo"], out["relative_hi"] = out.relative - half, out.relative + half
    tested = ~out.reference.astype(bool)
    out["p"] = np.where(tested, beyond_margin_p(out.relative, out.relative_se, min_effect),
                        np.nan)
    out["p_adjusted"] = np.nan
    reject = np.zeros(len(out), dtype=bool)
    if tested.any():
        r, adj = bh(out.loc[tested, "p"].to_numpy(), alpha)
        reject[tested.to_numpy()] = r
        out.loc[tested, "p_adjusted"] = adj
    inside = (out.relative_lo > -min_effect) & (out.relative_hi < min_effect)
    out["verdict"] = np.select(
        [~tested, reject & (out.relative > 0), reject & (out.relative < 0), inside],
        ["alone in its deck", "over-powered", "under-powered", "balanced"], "no evidence")
    return out


def consensus(by_policy: dict[str, pd.DataFrame], anchor: str | None,
              at_least: int = 2) -> pd.DataFrame:
    """One row per (deck, card): its verdict under each policy, and the verdict that holds
    under `anchor` (the trained policy) and at least `at_least` other policies; "not robust"
    when no over-/under-powered verdict does (the anchor's own verdict otherwise)."""
    keys = ["deck", "card", "label"]
    wide = None
    for policy, df in by_policy.items():
        part = df[keys + ["verdict", "relative"]].rename(
            columns={"verdict": policy, "relative": f"relative {policy}"})
        wide = part if wide is None else wide.merge(part, on=keys, how="outer")
    policies = list(by_policy)
    anchor = anchor if anchor in by_policy else policies[0]
    others = [p for p in policies if p != anchor]

    def held(row) -> str:
        v = row[anchor]
        if v in ("over-powered", "under-powered"):
            agree = sum(row[p] == v for p in others)
            return v if agree >= at_least else "not robust"
        return v if isinstance(v, str) else "no evidence"

    wide["verdict"] = wide.apply(held, axis=1)
    wide["anchor"] = anchor
    return wide
