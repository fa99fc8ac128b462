"""Survival curves of any histogram measure a game declares: the share of counts reaching
each value by seat with bands and hazards, Kaplan-Meier where the game marks counts cut
short (censored), and the exact overlay where the run has one."""

from __future__ import annotations

import numpy as np
import pandas as pd

from analysis.quantities import evaluate
from sim.core.stats import Z95, wilson, with_rate


def _ended(run, measure: str, seat: int, bins: int) -> np.ndarray:
    """Per bin, the seat's counts that ended at that value."""
    h = run.histograms[run.histograms.measure == measure]
    counts = np.zeros(bins, dtype=np.int64)
    sub = h[h.seat == seat].groupby("value")["count"].sum()
    counts[sub.index.to_numpy()] = sub.to_numpy()
    return counts


def _cut(run, measure: str, seat: int, bins: int) -> np.ndarray:
    """Per bin, the seat's counts cut short at that value (the schema's censored
    expression); values past the last bin join it, as the histogram's last bin does."""
    rules = run.schema["histograms"][measure].get("censored") or ()
    if not rules:
        return np.zeros(bins, dtype=np.int64)
    cut = evaluate(run.matches, rules[seat])
    cut = np.minimum(cut[cut >= 0], bins - 1).astype(np.int64)
    return np.bincount(cut, minlength=bins)


def _with_exact(run, measure: str, df: pd.DataFrame) -> pd.DataFrame:
    ex = run.exact_check
    if ex is not None and "measure" in ex and (ex.measure == measure).any():
        ex = ex[ex.measure == measure].rename(columns={"value": "bin"})
        df = df.merge(ex[["seat", "bin", "exact"]], on=["seat", "bin"], how="left")
        df.loc[df.bin == 0, "exact"] = 1.0
    return df


def _with_hazard(df: pd.DataFrame) -> pd.DataFrame:
    """The hazard ended / at_risk per bin with its Wilson 95% band."""
    hz = with_rate(pd.DataFrame({"k": df.ended, "n": df.at_risk}))
    return df.assign(hazard=hz.rate.to_numpy(), hazard_lo=hz.lo.to_numpy(),
                     hazard_hi=hz.hi.to_numpy())


def histogram_survival(run, measure: str) -> pd.DataFrame:
    """Per seat and bin, among the counts that ended (conditional on ending when the game
    censors the measure): n, reached k, P(value >= bin) with Wilson 95% band, and the
    hazard P(stop at bin | reached it) with its band; `label` is the bin's axis label;
    `at_risk`, `ended`, `censored` (0) as in measure_km; exact values beside them when the
    run's exact check covers the measure."""
    labels = run.bin_labels(measure)
    frames = []
    for seat in range(run.seats):
        counts = _ended(run, measure, seat, len(labels))
        reached = counts[::-1].cumsum()[::-1]
        frames.append(pd.DataFrame({
            "seat": seat, "bin": np.arange(len(labels)), "label": labels, "k": reached,
            "n": counts.sum(), "stopped": counts, "at_risk": reached, "ended": counts,
            "censored": 0}))
    df = with_rate(pd.concat(frames, ignore_index=True))
    return _with_exact(run, measure, _with_hazard(df))


def _greenwood_fit(ended: np.ndarray, cut: np.ndarray):
    """statsmodels' Kaplan-Meier of binned counts: (event values, S(value) = P(count >
    value), its Greenwood standard error). With frequency weights statsmodels 0.15 reports
    the standard error of the cumulative hazard (Tsiatis) in surv_prob_se, not of S, so
    Greenwood's sum is taken here from its weighted risk sets and events."""
    # deferred: scipy and statsmodels load only when a statistic needs them
    from statsmodels.duration.survfunc import SurvfuncRight

    values = np.arange(len(ended), dtype=float)
    keep_e, keep_c = ended > 0, cut > 0
    times = np.concatenate([values[keep_e], values[keep_c]])
    status = np.concatenate([np.ones(keep_e.sum()), np.zeros(keep_c.sum())])
    weights = np.concatenate([ended[keep_e], cut[keep_c]]).astype(float)
    if not keep_e.any():  # nothing ended: S is 1 wherever anyone is at risk
        return np.zeros(0), np.zeros(0), np.zeros(0)
    sf = SurvfuncRight(times, status, freq_weights=weights)
    n, d = sf.n_risk.astype(float), sf.n_events.astype(float)
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = np.where(n > d, d / (n * (n - d)), 0.0)  # S is 0 once n == d
    se = sf.surv_prob * np.sqrt(np.cumsum(terms))
    return sf.surv_times, sf.surv_prob, se


def measure_km(run, measure: str) -> pd.DataFrame:
    """Kaplan-Meier of a histogram measure per seat and bin, counts cut short (the schema's
    censored columns) kept at risk up to their last value: `at_risk` (counts at this value
    or beyond, ended or cut short), `ended` and `censored` here, `rate` the estimated share
    of counts reaching this value, P(value >= bin) = prod over j < bin of (1 - ended_j /
    at_risk_j), with its 95% pointwise band (Greenwood), and the hazard ended / at_risk
    with a Wilson band. Without censoring it equals histogram_survival's rate."""
    labels = run.bin_labels(measure)
    bins = np.arange(len(labels))
    frames = []
    for seat in range(run.seats):
        ended = _ended(run, measure, seat, len(labels))
        cut = _cut(run, measure, seat, len(labels))
        at_risk = (ended + cut)[::-1].cumsum()[::-1]
        times, surv, se = _greenwood_fit(ended, cut)
        # Reaching bin k means lasting past k - 1: the step function S at k - 1.
        idx = np.searchsorted(times, bins - 1, side="right") - 1
        rate = np.where(idx >= 0, surv[np.maximum(idx, 0)] if len(surv) else 1.0, 1.0)
        err = np.where(idx >= 0, se[np.maximum(idx, 0)] if len(se) else 0.0, 0.0)
        lo = np.clip(rate - Z95 * err, 0, 1)
        # Before any count has ended Greenwood's band has no width, as if a share of 1 were
        # certain; there it is at least Wilson's for none ending among those at risk one
        # value earlier (at value 0 every count is there by definition).
        none_yet = (rate == 1) & (bins > 0)
        prev = np.concatenate([[0], at_risk[:-1]])
        wlo, _ = wilson(prev, prev)
        lo = np.where(none_yet & (prev > 0), np.minimum(lo, wlo), lo)
        hi = np.clip(rate + Z95 * err, 0, 1)
        # Past the value after the last count observed, a share still above 0 is unknown:
        # the counts left were cut short, and nothing says how far they would have gone.
        seen = np.flatnonzero(at_risk > 0)
        unknown = (bins > seen[-1] + 1) & (rate > 0) if len(seen) else np.ones(len(bins), bool)
        rate, lo, hi = (np.where(unknown, np.nan, x) for x in (rate, lo, hi))
        frames.append(pd.DataFrame({
            "seat": seat, "bin": bins, "label": labels, "at_risk": at_risk, "ended": ended,
            "censored": cut, "n": ended.sum() + cut.sum(), "rate": rate, "lo": lo, "hi": hi}))
    df = pd.concat(frames, ignore_index=True)
    return _with_exact(run, measure, _with_hazard(df))


def survival_curve(run, measure: str) -> pd.DataFrame:
    """The curve a figure or report shows for a measure: Kaplan-Meier when the game
    declares the measure censored (so a count cut short is never read as one that ended),
    otherwise the plain share reaching each value with Wilson bands."""
    if run.schema["histograms"][measure].get("censored"):
        return measure_km(run, measure)
    return histogram_survival(run, measure)


def survival_table(curve: pd.DataFrame, seats, value: str = "value") -> pd.DataFrame:
    """One row per value up to the last at which any count is at risk, each seat's
    columns side by side: at risk, ended here, cut short here (when any was), the share
    reaching the value with its 95% interval, and the exact value where there is one. A run
    of values at which no count ended or was cut short is one row ("28 .. 63"): at every
    value of it the numbers are the same. No rows when no count is at risk anywhere (no
    count ended or was cut short in the run)."""
    last = curve.loc[curve.at_risk > 0, "bin"].max()
    if pd.isna(last):
        return pd.DataFrame({value: pd.Series(dtype=str)})
    d = curve[curve.bin <= last]
    wide = d.pivot(index="bin", columns="seat")
    quiet = (wide["ended"] == 0).all(axis=1) & (wide["censored"] == 0).all(axis=1)
    if "exact" in d:  # an exact curve may still move where the simulated one is flat
        quiet[:] = False
    # A new row starts at every value that is not quiet, or whose predecessor is not.
    first = np.flatnonzero((~(quiet & quiet.shift(1, fill_value=False))).to_numpy())
    ends = np.append(first[1:], len(quiet)) - 1
    names = wide["label"][0].astype(str).to_numpy()
    rows = d[d.bin.isin(wide.index[first])]
    out = pd.DataFrame({value: [names[a] if a == b else f"{names[a]} .. {names[b]}"
                                for a, b in zip(first, ends, strict=True)]})
    censored = bool(curve.censored.sum())
    for seat, name in enumerate(seats):
        s = rows[rows.seat == seat]
        out[f"{name}: at risk"] = s.at_risk.to_numpy()
        out[f"{name}: ended"] = s.ended.to_numpy()
        if censored:
            out[f"{name}: cut short"] = s.censored.to_numpy()
        out[f"{name}: share"] = s.rate.to_numpy()
        out[f"{name}: 95% interval"] = ["" if np.isnan(lo) else f"{lo:.4f} .. {hi:.4f}"
                                        for lo, hi in zip(s.lo, s.hi, strict=True)]
        if "exact" in s:
            out[f"{name}: exact"] = s.exact.to_numpy()
    return out
