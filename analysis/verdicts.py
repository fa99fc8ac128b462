"""Causal card verdicts from paired contrasts: each card's worth per copy against par for its
kind and cost, tested against a margin the game gives (a share of the gap between par and a
card with no effect) with Benjamini-Hochberg control across cards."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from sim.core.stats import Z95, bh

# The margin of a verdict: this share of the gap between par and the same card with no
# effect, so that a dead card lies twice the margin below par.
SHARE = 0.5
Z80 = 0.8416212335729143  # a verdict's detectable worth is at 80% power
VERDICTS = ("over-powered", "under-powered", "balanced", "no evidence", "dead",
            "untested here", "misplayed", "no par")


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


def beyond_margin_p(estimate, se, margin) -> np.ndarray:
    """One-sided p-value that the effect lies beyond +-margin (a number, or one per row) on
    the side of its estimate (H0: |effect| <= margin); 1 when there is no spread at all."""
    # deferred: scipy and statsmodels load only when a statistic needs them
    from scipy.stats import norm

    est = np.abs(np.asarray(estimate, dtype=float))
    se = np.asarray(se, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        z = (est - np.asarray(margin, dtype=float)) / se
    return np.where(se > 0, norm.sf(z), np.where(est > margin, 0.0, 1.0))


def peers(df: pd.DataFrame) -> pd.Series:
    """The cards whose gaps a card's pools with: its `peer` (its kind and the fields a card
    shares with its par, such as Payne Academy's role) where the table has one, else its
    kind."""
    for column in ("peer", "kind"):
        if column in df:
            return df[column]
    return pd.Series("", index=df.index)


def pooled_gap(df: pd.DataFrame, column: str = "gap") -> dict[str, float]:
    """The game's gap between par and no effect (`column` "gap"; "up": between par made
    strong and par), per copy, for each card's peers (`peers`) and ("") for the game: the
    median over the cards whose own gap the run told from zero (peers with none take the
    game's; 0 when no card's was told)."""
    told = df[column] - Z95 * df[f"{column}_se"] > 0
    out = {"": float(df[column][told].median()) if told.any() else 0.0}
    out |= {k: float(g.median()) for k, g in df[column][told].groupby(peers(df)[told]) if k}
    return out


def covariance(x: np.ndarray, y: np.ndarray) -> float:
    """The covariance of the means of two per-match paired series of one run (over n + 1, as
    `contrast` pads its variance), so that a contrast less a share of another has an honest
    standard error: a card and its margin are measured on the same matches."""
    x, y = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    n = len(x)
    if n < 2:
        return 0.0
    return float(np.sum((x - x.mean()) * (y - y.mean())) / (n + 1) / n)


def peer_gap(df: pd.DataFrame, gaps: float | dict[str, float]) -> pd.Series:
    """Each card's peers' gap (`gaps`: {peers: gap}, "" the game's, or one number)."""
    gaps = gaps if isinstance(gaps, dict) else {"": float(gaps)}
    return peers(df).map(gaps).fillna(gaps.get("", 0.0)).astype(float)


def negligible(df: pd.DataFrame, share: float, pooled: float | dict[str, float],
               pooled_up: dict[str, float] | None = None, z: float = Z95) -> pd.Series:
    """Cards whose numbers the matchup does not test: neither the card with no effect nor
    par made strong moves the deck by what the run can tell from zero (at 95%), and each
    moves it, at `z`, by less than the margin of the card's peers (`share` of their gaps,
    below par and above), so that no value of these numbers could make the card over- or
    under-powered here."""
    down = share * peer_gap(df, pooled)
    small = ((df.gap.abs() + z * df.gap_se < down) & (df.gap.abs() < Z95 * df.gap_se)
             & (down > 0))
    if "up" in df:
        up = share * peer_gap(df, pooled_up or {"": 0.0})
        up = up.where(up > 0, down)
        small &= (df.up.abs() + z * df.up_se < up) & (df.up.abs() < Z95 * df.up_se)
    return small


@dataclass(frozen=True)
class Margins:
    """The bounds of a verdict, per card: `up` and `down` the worth a card must clear above or
    below par to be over- or under-powered; `own_up` and `own_down` the bounds it must stay
    inside to be balanced. Each bound a card's own gap sets is measured on the card's own
    matches, so the distance from a card's worth to it has its own standard error: `over_se`
    (worth less `up`, also the bound of balanced above), `under_se` (worth plus `down`) and
    `floor_se` (worth plus `own_down`)."""

    up: pd.Series
    down: pd.Series
    own_up: pd.Series
    own_down: pd.Series
    over_se: pd.Series
    under_se: pd.Series
    floor_se: pd.Series


def margins(df: pd.DataFrame, share: float, pooled: float | dict[str, float],
            z: float = Z95, pooled_up: dict[str, float] | None = None) -> Margins:
    """A card's margins, each `share` of a gap the game gives. Below par: the gap between par
    and the same card with no effect, its own where the run told that gap from zero (at `z`),
    else its peers' (`pooled`: {peers: gap}, "" the game's, or one number); the bound of
    balanced is its own gap's share, so that a card with no effect is never balanced. Above
    par: the smaller of the margin below and `share` of the gap between par made strong (a
    strong buff of par's numbers) and par, its own where told, else its peers'
    (`pooled_up`); the bound of balanced above is the same. Where the table has no such gap
    (column `up`), the margin below on both sides.

    A peers' gap is a number; a card's own gap is measured on the card's matches, paired
    with its worth (covariances `rel_gap_cov`, `rel_up_cov`: 0 where the table has none), so
    the distance between the two is judged as one paired contrast. A card with no effect,
    whose worth is minus its own gap match by match, is then as far below its margin as its
    gap is from zero, in standard errors."""
    def column(name):
        return df[name] if name in df else pd.Series(0.0, index=df.index)

    def se(sign, est_se, cov):
        # the standard error of worth + sign * share * estimate (a measured gap)
        var = df.relative_se ** 2 + (share * est_se) ** 2 + 2 * sign * share * cov
        return np.sqrt(var.clip(lower=0))

    rel_se = df.relative_se.astype(float)
    measured = df.gap > 0  # a gap clipped to 0 is no measured bound
    own = share * df.gap.clip(lower=0)
    floor_se = se(1, df.gap_se, column("rel_gap_cov")).where(measured, rel_se)
    told = df.gap - z * df.gap_se > 0
    down = own.where(told, share * peer_gap(df, pooled))
    under_se = floor_se.where(told, rel_se)
    # worth less the margin below, as a bound above par
    down_over_se = se(-1, df.gap_se, column("rel_gap_cov")).where(told, rel_se)
    if "up" not in df:
        return Margins(down, down, own, own, down_over_se, under_se, floor_se)
    kind_up = peer_gap(df, pooled_up or {"": 0.0})
    fallback = (share * kind_up).where(kind_up > 0, down)
    fallback_se = rel_se.where(kind_up > 0, down_over_se)
    up_told = df.up - z * df.up_se > 0
    strong = (share * df.up.clip(lower=0)).where(up_told, fallback)
    strong_se = se(-1, df.up_se, column("rel_up_cov")).where(up_told, fallback_se)
    # The smaller of the two scales, so that both a strong buff of par and par against the
    # card with no effect clear it: a game whose worth bends either way (a card's first
    # points worth most, or its last) hides neither a strong buff nor a dead card.
    up = np.minimum(strong, down)
    over_se = strong_se.where(strong <= down, down_over_se)
    return Margins(up, down, up, own, over_se, under_se, floor_se)


def classify(df: pd.DataFrame, share: float = SHARE, alpha: float = 0.05,
             pooled: float | dict[str, float] | None = None,
             pooled_up: dict[str, float] | None = None) -> pd.DataFrame:
    """Verdicts for a table with columns relative (a card's worth per copy against par, paired
    by match), relative_se, gap and gap_se (par against the same card with no effect, per
    copy), played (how often the card was played or used; nan when the game does not say),
    untested (the change to par moved no record) and, optionally, drawn (in how many matches
    the card was drawn), up and up_se (par made
    strong against par, per copy), rel_gap_cov and rel_up_cov (the covariances of the
    worth with those gaps, measured on the same matches) and against_par (+1 where the
    card's numbers dominate par's, -1 where par's dominate the card's).

    - dead: drawn, and no policy played it; untested here: never drawn (the matchup never
      dealt it) or its numbers changed no record, or neither
      no effect nor par made strong moved its deck by anything told from zero or by as much
      as its peers' margin (`negligible`, once nothing else is said of it);
    - misplayed: beyond the margin the wrong way for its numbers (a card at least as strong
      as par in every number worth less than par, or a card par dominates worth more):
      what the policies do with the card, not the card, moved its deck;
    - over-/under-powered: beyond the margin on the side of the estimate (`margins`: above
      par a share of what par made strong gains, below it a share of what no effect loses;
      a margin the card's own gap sets is measured with it, paired),
      Benjamini-Hochberg at `alpha` across the cards;
    - balanced: the 95% intervals of its distances to the bounds of balanced (below,
      `share` of the card's own gap) lie inside them, and that gap's interval lies above 0
      (the run could tell a dead card from par);
    - no evidence: neither.
    `pooled` and `pooled_up` are the game's gaps by kind (default: `pooled_gap` of this
    table). Adds relative_lo, relative_hi, margin (on the side of the estimate) and
    margin_se (the standard error of the worth's distance to it), margin_up, margin_down,
    gap_lo, detectable (the smallest worth the run would find at 80% power), own_up and
    own_margin (the bounds of balanced above and below), over_se, under_se and floor_se
    (`Margins`), p, p_adjusted, negligible and verdict."""
    out = df.copy()
    half = Z95 * out.relative_se
    out["relative_lo"], out["relative_hi"] = out.relative - half, out.relative + half
    out["gap_lo"] = out.gap - Z95 * out.gap_se
    pooled = pooled_gap(out) if pooled is None else pooled
    if pooled_up is None and "up" in out:
        pooled_up = pooled_gap(out, "up")
    bounds = margins(out, share, pooled, pooled_up=pooled_up)
    out["margin_up"], out["margin_down"] = bounds.up, bounds.down
    above = out.relative >= 0
    out["margin"] = bounds.up.where(above, bounds.down)
    out["margin_se"] = bounds.over_se.where(above, bounds.under_se)
    out["own_up"], out["own_margin"] = bounds.own_up, bounds.own_down
    out["over_se"], out["under_se"] = bounds.over_se, bounds.under_se
    out["floor_se"] = bounds.floor_se
    out["detectable"] = (Z95 + Z80) * out.relative_se
    unplayed = out.played.fillna(1) == 0
    # never drawn either: the matchup never dealt it (cards in play from the start, such as
    # rally mode's arsenals, are played without being drawn)
    unseen = unplayed & ((out["drawn"].fillna(1) == 0) if "drawn" in out else False)
    dead = unplayed & ~unseen
    untested = (out.untested.astype(bool) | unseen) & ~dead
    tested = ~dead & ~untested
    out["p"] = np.where(tested, beyond_margin_p(out.relative, out.margin_se, out.margin),
                        np.nan)
    out["p_adjusted"] = np.nan
    reject = np.zeros(len(out), dtype=bool)
    if tested.any():
        r, adj = bh(out.loc[tested, "p"].to_numpy(), alpha)
        reject[tested.to_numpy()] = r
        out.loc[tested, "p_adjusted"] = adj
    inside = ((out.relative + bounds.own_down - Z95 * bounds.floor_se > 0)
              & (out.relative - bounds.own_up + Z95 * bounds.over_se < 0) & (out.gap_lo > 0))
    # A card stronger than par in every number cannot be worth less than par under play that
    # uses it well (it may be played exactly as par is), nor one par dominates worth more.
    order = out.against_par if "against_par" in out else pd.Series(0, index=out.index)
    wrong = reject & (np.sign(out.relative) * order < 0)
    # Numbers that no value could carry past the margin here: the matchup does not test them.
    out["negligible"] = negligible(out, share, pooled, pooled_up) & tested
    out["verdict"] = np.select(
        [dead, untested, wrong, reject & (out.relative > 0), reject & (out.relative < 0),
         inside, out.negligible],
        ["dead", "untested here", "misplayed", "over-powered", "under-powered", "balanced",
         "untested here"],
        "no evidence")
    out.attrs["pooled_gap"] = pooled
    if pooled_up is not None:
        out.attrs["pooled_up"] = pooled_up
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
