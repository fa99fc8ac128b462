"""Survival curves of any histogram measure a game declares: P(value >= k) by seat with
bands and hazards, the exact overlay where the run has one, and Kaplan-Meier with the
measure's censored observations."""

from __future__ import annotations

import numpy as np
import pandas as pd

from analysis.stats import Z95, with_rate


def histogram_survival(run, measure: str) -> pd.DataFrame:
    """Per seat and bin: counts n, reached k, P(value >= bin) with Wilson 95% band, and the
    hazard P(stop at bin | reached it) with its band; `label` is the bin's axis label; exact
    values beside them when the run's exact check covers the measure."""
    h = run.histograms[run.histograms.measure == measure]
    labels = run.bin_labels(measure)
    rows = []
    for seat in (0, 1):
        counts = np.zeros(len(labels), dtype=np.int64)
        sub = h[h.seat == seat].groupby("value")["count"].sum()
        counts[sub.index.to_numpy()] = sub.to_numpy()
        n = counts.sum()
        reached = counts[::-1].cumsum()[::-1]
        for b in range(len(labels)):
            rows.append((seat, b, labels[b], int(reached[b]), int(n), int(counts[b])))
    df = pd.DataFrame(rows, columns=["seat", "bin", "label", "k", "n", "stopped"])
    df = with_rate(df)
    hz = with_rate(df.rename(columns={"k": "n_at", "stopped": "k"}).assign(
        n=lambda d: d.n_at))
    df["hazard"], df["hazard_lo"], df["hazard_hi"] = hz.rate, hz.lo, hz.hi
    ex = run.exact_check
    if ex is not None and "measure" in ex and (ex.measure == measure).any():
        ex = ex[ex.measure == measure].rename(columns={"value": "bin"})
        df = df.merge(ex[["seat", "bin", "exact"]], on=["seat", "bin"], how="left")
        df.loc[df.bin == 0, "exact"] = 1.0
    return df


def measure_km(run, measure: str) -> pd.DataFrame:
    """Kaplan-Meier survival of a histogram measure per seat (statsmodels), with the
    counts the game records as cut short (its censored columns) as censored observations."""
    from statsmodels.duration.survfunc import SurvfuncRight

    from analysis.quantities import evaluate

    spec = run.schema["histograms"][measure]
    h = run.histograms[run.histograms.measure == measure]
    rules = spec.get("censored") or ()
    out = []
    for seat in (0, 1):
        ended = h[h.seat == seat].groupby("value")["count"].sum()
        cut = evaluate(run.matches, rules[seat]) if rules else np.zeros(0)
        censored = pd.Series(cut[cut >= 0]).value_counts().sort_index()
        times = np.concatenate([ended.index.to_numpy(), censored.index.to_numpy()]).astype(float)
        status = np.concatenate([np.ones(len(ended)), np.zeros(len(censored))])
        weights = np.concatenate([ended.to_numpy(), censored.to_numpy()]).astype(float)
        if weights.sum() == 0:
            continue
        sf = SurvfuncRight(times, status, freq_weights=weights)
        half = Z95 * sf.surv_prob_se  # 95% pointwise band from Greenwood's errors
        out.append(pd.DataFrame({"seat": seat, "value": sf.surv_times,
                                 "survival": sf.surv_prob,
                                 "lo": np.clip(sf.surv_prob - half, 0, 1),
                                 "hi": np.clip(sf.surv_prob + half, 0, 1),
                                 "n": weights.sum(), "censored": float(censored.sum())}))
    return pd.concat(out, ignore_index=True) if out else pd.DataFrame()
