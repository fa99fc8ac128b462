"""Intervals, tests and multiplicity control, as DataFrame -> DataFrame helpers."""

from __future__ import annotations

import numpy as np
import pandas as pd

Z95 = 1.959963984540054
Z975 = 1.9599639845400545  # scipy.stats.norm.isf(0.025), to the last bit (Z95 is one bit off)


def wilson(k, n, alpha: float = 0.05):
    """Wilson score interval(s) for k successes in n trials: statsmodels' `proportion_confint`
    (method "wilson") step for step, without loading scipy.stats, which would add most of a
    second to every command that prints a rate (tests/test_analysis.py checks it against
    statsmodels)."""
    k = np.asarray(k, dtype=float)
    n = np.asarray(n, dtype=float)
    nobs = np.where(n > 0, n, 1)
    if alpha == 0.05:
        crit = Z975  # what statsmodels reads from scipy: no scipy to load
    else:
        # deferred: scipy loads only when a statistic needs it (scipy.special, not scipy.stats)
        from scipy.special import ndtri

        crit = -ndtri(alpha / 2)  # scipy's norm.isf(alpha / 2)
    crit2 = crit**2
    q_ = k / nobs
    denom = 1 + crit2 / nobs
    center = (q_ + crit2 / (2 * nobs)) / denom
    with np.errstate(invalid="ignore"):
        dist = crit * np.sqrt(q_ * (1.0 - q_) / nobs + crit2 / (4.0 * nobs**2))
    dist /= denom
    lo = np.where(n > 0, np.clip(center - dist, 0, 1), np.nan)
    hi = np.where(n > 0, np.clip(center + dist, 0, 1), np.nan)
    return lo, hi


def with_rate(df: pd.DataFrame, k: str = "k", n: str = "n") -> pd.DataFrame:
    """Add rate, lo, hi (Wilson 95%) from count columns k and n."""
    lo, hi = wilson(df[k], df[n])
    rate = np.where(df[n] > 0, df[k] / df[n].where(df[n] > 0, 1), np.nan)
    return df.assign(rate=rate, lo=lo, hi=hi)


def rate_table(df: pd.DataFrame, by: list[str], success: str) -> pd.DataFrame:
    """Per group: k (sum of a 0/1 column), n, rate and its Wilson 95% interval."""
    g = df.groupby(by, observed=True)[success].agg(k="sum", n="count").reset_index()
    return with_rate(g)


def mean_table(df: pd.DataFrame, by: list[str], value: str) -> pd.DataFrame:
    """Per group: n, mean, and a normal 95% interval of the mean."""
    g = df.groupby(by, observed=True)[value].agg(n="count", mean="mean", sd="std").reset_index()
    half = Z95 * g.sd / np.sqrt(g.n)
    return g.assign(lo=g["mean"] - half, hi=g["mean"] + half)


def two_proportion_p(k1, n1, k2, n2) -> np.ndarray:
    """Two-sided p-value of a pooled two-proportion z-test (vectorised)."""
    # deferred: scipy and statsmodels load only when a statistic needs them
    from scipy.stats import norm

    k1, n1, k2, n2 = (np.asarray(x, dtype=float) for x in (k1, n1, k2, n2))
    pooled = (k1 + k2) / np.maximum(n1 + n2, 1)
    se = np.sqrt(pooled * (1 - pooled) * (1 / np.maximum(n1, 1) + 1 / np.maximum(n2, 1)))
    with np.errstate(invalid="ignore", divide="ignore"):
        z = (k1 / np.maximum(n1, 1) - k2 / np.maximum(n2, 1)) / se
    p = 2 * norm.sf(np.abs(z))
    return np.where((n1 > 0) & (n2 > 0) & (se > 0), p, 1.0)


def bh(p_values, alpha: float = 0.05) -> tuple[np.ndarray, np.ndarray]:
    """Benjamini-Hochberg: (rejected, adjusted p-values) (statsmodels)."""
    # deferred: scipy and statsmodels load only when a statistic needs them
    from statsmodels.stats.multitest import multipletests

    p = np.asarray(p_values, dtype=float)
    if p.size == 0:
        return np.zeros(0, dtype=bool), np.zeros(0)
    reject, adjusted, _, _ = multipletests(p, alpha=alpha, method="fdr_bh")
    return reject, adjusted


def paired_difference(base: np.ndarray, variant: np.ndarray) -> dict:
    """Mean of variant - base over the same games, its 95% interval, and the variance
    reduction against unpaired runs of the same size."""
    base = np.asarray(base, dtype=float)
    variant = np.asarray(variant, dtype=float)
    n = len(base)
    d = variant - base
    var_paired = d.var(ddof=1) if n > 1 else np.nan
    var_unpaired = base.var(ddof=1) + variant.var(ddof=1) if n > 1 else np.nan
    se = np.sqrt(var_paired / n) if n > 1 else np.nan
    return {
        "n": n, "delta": d.mean(), "se": se, "lo": d.mean() - Z95 * se,
        "hi": d.mean() + Z95 * se,
        "variance_reduction": var_unpaired / var_paired if var_paired > 0 else np.inf,
    }


def p_values(delta, se) -> np.ndarray:
    """Two-sided normal p-values of estimates with standard errors (1 where se is 0)."""
    # deferred: scipy and statsmodels load only when a statistic needs them
    from scipy.stats import norm

    delta = np.asarray(delta, dtype=float)
    se = np.asarray(se, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        z = delta / se
    return np.where(se > 0, 2 * norm.sf(np.abs(z)), 1.0)
