"""The metagame of a field of decks: the win-rate matrix with intervals, the Nash mix of the
symmetric zero-sum game and its bootstrap spread, dominated decks, the field's health, and
its figures and report section; from per-match scores alone, never from a game package."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from analysis.health import (
    IN_MIX,
    default_target,
    dominated,
    effective_decks,
    judge,
    nash,
    rates,
)
from analysis.plots import ACCENT, axes_for, error_bars, plot_matrix
from analysis.report import Page, write_atomic
from sim.core.stats import Z95

# Scores are per match, for the deck in the first seat of an ordered pair (i, j): 1 a win,
# 0.5 a draw, 0 a loss. M[i, j] averages both seats, so M[i, j] + M[j, i] = 1 and the
# diagonal (a deck against itself) is 0.5 by symmetry, never played.
Scores = dict[tuple[int, int], np.ndarray]


def matrix(scores: Scores, k: int) -> tuple[np.ndarray, np.ndarray]:
    """(M, se): row deck's expected score against the column deck over both seats, and its
    standard error (the two seats as strata of equal weight)."""
    M = np.full((k, k), 0.5)
    se = np.zeros((k, k))
    for i in range(k):
        for j in range(k):
            if i == j:
                continue
            a, b = np.asarray(scores[i, j], float), 1 - np.asarray(scores[j, i], float)
            M[i, j] = (a.mean() + b.mean()) / 2
            var = (a.var(ddof=1) / len(a) if len(a) > 1 else 0.25)
            var += (b.var(ddof=1) / len(b) if len(b) > 1 else 0.25)
            se[i, j] = np.sqrt(var) / 2
    return M, se


def bootstrap(scores: Scores, k: int, reps: int = 200, seed: int = 0) -> np.ndarray:
    """Nash mixes of `reps` matrices, each from every ordered pair's matches resampled with
    replacement (a seeded generator: the same draws every time): shape (reps, k)."""
    rng = np.random.default_rng([seed, k, reps])
    # A pair's resampled mean needs only the counts of losses, draws and wins.
    counts = {p: np.array([(s == 0).sum(), (s == 0.5).sum(), (s == 1).sum()])
              for p, s in ((p, np.asarray(s, float)) for p, s in scores.items())}
    out = np.zeros((reps, k))
    for r in range(reps):
        M = np.full((k, k), 0.5)
        for i in range(k):
            for j in range(k):
                if i == j:
                    continue
                ca, cb = counts[i, j], counts[j, i]
                a = rng.multinomial(ca.sum(), ca / ca.sum()) @ np.array([0, .5, 1]) / ca.sum()
                b = rng.multinomial(cb.sum(), cb / cb.sum()) @ np.array([0, .5, 1]) / cb.sum()
                M[i, j] = (a + 1 - b) / 2
        out[r] = nash(M)
    return out


def interval_of(boot: np.ndarray, point) -> tuple[np.ndarray, np.ndarray]:
    """The bootstrap's 95% percentile interval, widened where it must be to hold the point
    estimate: a mix at a corner (a deck always or never played, or an effective number at
    its most, every deck alike) is one the resamples seldom repeat exactly, so they can
    all fall to one side of it."""
    lo, hi = np.quantile(boot, 0.025, axis=0), np.quantile(boot, 0.975, axis=0)
    return np.minimum(lo, point), np.maximum(hi, point)


def field_rates(M: np.ndarray, se: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each deck's mean score against the other decks (analysis.health.rates) and its
    standard error (the cells' errors as independent)."""
    k = len(M)
    err = np.array([np.sqrt(sum(se[i, j] ** 2 for j in range(k) if j != i)) / (k - 1)
                    for i in range(k)])
    return rates(M), err


def summary(scores: Scores, names: list[str], reps: int = 200, seed: int = 0) -> dict:
    """Everything `cardlab meta` reports: the matrix (long, with 95% intervals), the Nash
    mix with bootstrap intervals, each deck's average score against the field, the
    effective number of decks, and the dominated decks."""
    k = len(names)
    M, se = matrix(scores, k)
    lo, hi = np.clip(M - Z95 * se, 0, 1), np.clip(M + Z95 * se, 0, 1)
    mix = nash(M)
    boot = bootstrap(scores, k, reps, seed)
    nash_lo, nash_hi = interval_of(boot, mix)
    eff = effective_decks(mix)
    eff_lo, eff_hi = interval_of(np.array([effective_decks(b) for b in boot]), eff)
    cells = [{"deck": names[i], "opponent": names[j], "rate": M[i, j], "lo": lo[i, j],
              "hi": hi[i, j], "se": se[i, j],
              "n": len(scores[i, j]) + len(scores[j, i]) if i != j else 0}
             for i in range(k) for j in range(k)]
    avg, avg_se = field_rates(M, se)
    decks = pd.DataFrame({
        "deck": names, "nash": mix,
        "nash_lo": nash_lo, "nash_hi": nash_hi,
        "in_mix_share": (boot > 1e-6).mean(axis=0),
        "field_rate": avg, "field_lo": avg - Z95 * avg_se, "field_hi": avg + Z95 * avg_se,
        "field_se": avg_se})
    return {"matrix": pd.DataFrame(cells), "decks": decks,
            "dominated": dominated(M, names, lo, hi), "M": M, "se": se,
            "health": judge(M, names, default_target(k, 0.0, 1.0)),
            "effective_decks": eff, "effective_lo": float(eff_lo),
            "effective_hi": float(eff_hi), "bootstrap_reps": reps}


def plot_heatmap(cells: pd.DataFrame, names: list[str], ax=None, title: str = ""):
    """The field's matrix: row deck's score against the column deck, with 95% intervals."""
    df = cells.copy()
    # A deck against itself is not played: its cell stays empty.
    df.loc[df.n == 0, ["rate", "lo", "hi"]] = np.nan
    df["deck"] = pd.Categorical(df.deck, names)
    df["opponent"] = pd.Categorical(df.opponent, names)
    ax = plot_matrix(df, ax=ax, row="deck", col="opponent",
                     title=title or "row deck's win rate against the column deck")
    return ax


def plot_nash(decks: pd.DataFrame, ax=None):
    """Each deck's weight in the Nash mix with its bootstrap 95% interval."""
    ax = axes_for(ax, (6.4, 0.5 * len(decks) + 1.4))
    y = np.arange(len(decks))[::-1]
    ax.barh(y, decks.nash, color="#9fb8d6", height=0.6)
    ax.errorbar(decks.nash, y, xerr=error_bars(decks.nash, decks.nash_lo, decks.nash_hi),
                fmt="none", ecolor=ACCENT, capsize=3)
    ax.set_yticks(y, list(decks.deck))
    ax.set_xlim(0, 1)
    ax.set_xlabel("weight in the Nash mix (bootstrap 95% interval)")
    return ax


def write_figures(result: dict, names: list[str], path: Path) -> None:
    """heatmap.png and nash.png into the run folder."""
    # deferred: matplotlib loads only when a figure is drawn
    import matplotlib.pyplot as plt

    for name, ax in (("heatmap", plot_heatmap(result["matrix"], names)),
                     ("nash", plot_nash(result["decks"]))):
        ax.figure.savefig(path / f"{name}.png", dpi=110, bbox_inches="tight")
        plt.close(ax.figure)


def add_section(page, result: dict, names: list[str], title: str = "Metagame") -> None:
    """The field's section of a report (analysis.report.Page): matrix, Nash mix, health."""
    page.section(title, "Every deck against every other from both seats on the same seeds "
                 "(common random numbers); a draw counts half. Intervals: 95%, normal over "
                 "the two seats; the Nash mix's from re-solving bootstrap resamples of every "
                 "pair's matches, widened to hold the point estimate where the resamples "
                 "all fall to one side of it (a mix at a corner: a deck always or never "
                 "played, every deck alike).")
    page.figure(plot_heatmap(result["matrix"], names), "win-rate matrix")
    cells = result["matrix"]
    wide = cells.assign(rate=cells.rate.where(cells.n > 0)).pivot(
        index="deck", columns="opponent", values="rate")
    page.table(wide.loc[names, names].reset_index())
    page.figure(plot_nash(result["decks"]), "Nash mix")
    page.table(result["decks"][["deck", "nash", "nash_lo", "nash_hi", "in_mix_share",
                                "field_rate", "field_lo", "field_hi"]])
    page.text(f"Effective number of decks in the Nash mix (exp of its entropy): "
              f"{result['effective_decks']:.2f} (bootstrap 95%: {result['effective_lo']:.2f} "
              f".. {result['effective_hi']:.2f}) of {len(names)}.")
    dom = result["dominated"]
    if len(dom):
        page.table(dom)
    else:
        page.text("No deck is dominated.")
    page.text(health_line(result["health"], len(names)))


def health_line(h: dict, k: int) -> str:
    """The field's health in one sentence: healthy, or each part of the target it misses."""
    t = default_target(k, 0.0, 1.0)
    if not t.health:
        return "Health needs three decks or more: of two, one dominates unless they are even."
    want = (f"at least {t.support} decks of weight {IN_MIX} or more in the Nash mix, an "
            f"effective number of at least {t.diversity}, no deck dominated")
    if h["healthy"]:
        return f"Healthy field ({want})."
    return f"Not a healthy field ({want}): " + "; ".join(h["reasons"]) + "."


def write_report(path: Path, result: dict, names: list[str], heading: str) -> None:
    """report.html and report.md of a meta folder: its one section."""
    page = Page(heading)
    add_section(page, result, names)
    write_atomic(path / "report.html", "\n".join(page.html))
    write_atomic(path / "report.md", "\n".join(page.md))
