"""Escalation-index survival: P(a rally reaches index >= k), hazards, Kaplan-Meier."""

from __future__ import annotations

import numpy as np
import pandas as pd

from analysis.stats import with_rate


def index_survival(run) -> pd.DataFrame:
    """Per server seat and ladder step: rallies n, reached k, P(reach >= step) with Wilson
    95% band, and the hazard P(stop at step | reached it) with its band; exact values
    beside them when the run has an exact check."""
    r = run.rallies[run.rallies.measure == "top_step"]
    ladder = run.ladder
    rows = []
    for server in (0, 1):
        counts = np.zeros(len(ladder), dtype=np.int64)
        sub = r[r.server == server].groupby("value")["count"].sum()
        counts[sub.index.to_numpy()] = sub.to_numpy()
        n = counts.sum()
        reached = counts[::-1].cumsum()[::-1]
        for step in range(len(ladder)):
            rows.append((server, step, ladder[step], int(reached[step]), int(n),
                         int(counts[step])))
    df = pd.DataFrame(rows, columns=["server", "step", "index", "k", "n", "stopped"])
    df = with_rate(df)
    hz = with_rate(df.rename(columns={"k": "n_at", "stopped": "k"}).assign(
        n=lambda d: d.n_at))
    df["hazard"], df["hazard_lo"], df["hazard_hi"] = hz.rate, hz.lo, hz.hi
    if run.exact_check is not None:
        ex = run.exact_check[run.exact_check.quantity.str.startswith("P(index step")]
        ex = ex.assign(step=ex.quantity.str.extract(r">= (\d+)")[0].astype(int))
        df = df.merge(ex[["server", "step", "exact"]], on=["server", "step"], how="left")
        df.loc[df.step == 0, "exact"] = 1.0
    return df


def length_km(run) -> pd.DataFrame:
    """Kaplan-Meier survival of rally length (shots landed) per server seat (statsmodels),
    with rallies cut short by a deck-out forfeit as censored observations."""
    from statsmodels.duration.survfunc import SurvfuncRight

    r = run.rallies[run.rallies.measure == "length"]
    cut = run.matches[run.matches.cut_len >= 0]
    out = []
    for server in (0, 1):
        ended = r[r.server == server].groupby("value")["count"].sum()
        censored = cut[cut.cut_server == server].groupby("cut_len").size()
        times = np.concatenate([ended.index.to_numpy(), censored.index.to_numpy()]).astype(float)
        status = np.concatenate([np.ones(len(ended)), np.zeros(len(censored))])
        weights = np.concatenate([ended.to_numpy(), censored.to_numpy()]).astype(float)
        if weights.sum() == 0:
            continue
        sf = SurvfuncRight(times, status, freq_weights=weights)
        lo, hi = _pointwise_band(sf)
        out.append(pd.DataFrame({"server": server, "length": sf.surv_times,
                                 "survival": sf.surv_prob, "lo": lo, "hi": hi,
                                 "n": weights.sum(), "censored": float(censored.sum())}))
    return pd.concat(out, ignore_index=True) if out else pd.DataFrame()


def _pointwise_band(sf) -> tuple[np.ndarray, np.ndarray]:
    """95% pointwise band from Greenwood's standard errors, clipped to [0, 1]."""
    half = 1.959963984540054 * sf.surv_prob_se
    return np.clip(sf.surv_prob - half, 0, 1), np.clip(sf.surv_prob + half, 0, 1)
