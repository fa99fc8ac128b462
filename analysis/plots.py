"""Figures, one function each (`plot_x(df, ax=None)`), all in one shared style."""

from __future__ import annotations

import io
import textwrap

import numpy as np

SEAT_COLOURS = ("#1f5fa8", "#c0392b", "#1e8449", "#d68910")  # A blue, B red, C green, D amber
ACCENT = "#2c3e50"


def axes_for(ax, size=(6.4, 4.0)):
    # deferred: matplotlib loads only when a figure is drawn
    import matplotlib

    matplotlib.use("Agg", force=False)
    # deferred: matplotlib loads only when a figure is drawn
    import matplotlib.pyplot as plt

    if ax is None:
        _, ax = plt.subplots(figsize=size, layout="constrained")
    ax.grid(True, color="#dddddd", linewidth=0.7)
    ax.set_axisbelow(True)
    for side in ("top", "right"):
        ax.spines[side].set_visible(False)
    return ax


def error_bars(center, lo, hi):
    """Error-bar lengths, never negative (rounding can put a bound a hair past the rate)."""
    c = np.asarray(center, dtype=float)
    return [np.maximum(c - np.asarray(lo, dtype=float), 0),
            np.maximum(np.asarray(hi, dtype=float) - c, 0)]


def plot_headline(df, ax=None, fair: float = 0.5):
    """Horizontal bars of the headline rates with their 95% intervals, and a dotted line
    at a seat's fair share (`fair`: 1/N at a table of N)."""
    ax = axes_for(ax, (7.0, 0.45 * len(df) + 1.2))
    y = np.arange(len(df))[::-1]
    ax.barh(y, df.rate, color="#9fb8d6", height=0.6)
    ax.errorbar(df.rate, y, xerr=error_bars(df.rate, df.lo, df.hi), fmt="none",
                ecolor=ACCENT, capsize=3)
    ax.axvline(fair, color="#888888", linestyle=":", linewidth=1)
    ax.set_yticks(y, [f"{q}  (n={n:,})" for q, n in zip(df.quantity, df.n, strict=True)])
    ax.set_xlim(0, 1)
    ax.set_xlabel("rate with 95% Wilson interval")
    return ax


FEW_BINS = 15  # an axis of this many bins or fewer names every bin
MAX_TICKS = 12  # a longer one gets at most this many intervals (13 labels)


def survival_words(spec: dict) -> tuple[str, str, str]:
    """(x label, survival y label, hazard y label) of a histogram in the game's words:
    the schema's axis and `subject` (what the share is of, e.g. "PCs alive at this turn")."""
    axis = spec.get("axis") or spec["label"]
    subject = spec.get("subject") or f"counts reaching this value ({spec['label']})"
    return axis, f"share of {subject}", "share ending here, of those reaching it"


def _ylabel(ax, text: str) -> None:
    """A y label wrapped to the figure's height rather than cut off at its edge."""
    ax.set_ylabel(textwrap.fill(text, 30))


def _value_axis(ax, bins, labels) -> None:
    """Ticks of an axis of histogram bins: every bin's own label when few, otherwise at
    most MAX_TICKS + 1 evenly spaced ones, each with its bin's label."""
    # deferred: matplotlib loads only when a figure is drawn
    from matplotlib.ticker import FuncFormatter, MaxNLocator

    bins, labels = list(bins), [str(x) for x in labels]
    if not bins:
        return
    ax.set_xlim(bins[0] - 0.5, bins[-1] + 0.5)
    if len(bins) <= FEW_BINS:
        ax.set_xticks(bins, labels)
        return
    names = dict(zip(bins, labels, strict=True))
    ax.xaxis.set_major_locator(MaxNLocator(nbins=MAX_TICKS, integer=True, min_n_ticks=2))
    ax.xaxis.set_major_formatter(FuncFormatter(lambda x, _: names.get(int(round(x)), "")))


def _shown(df):
    """The bins a curve is drawn over: up to one past the last value anyone reached."""
    at = df["at_risk"] if "at_risk" in df else df["k"]
    reached = df.loc[at > 0, "bin"]
    last = min(reached.max() + 1, df.bin.max()) if len(reached) else df.bin.max()
    return df[df.bin <= last]


def plot_survival(df, ax=None, labels=("A", "B"), xlabel="value",
                  ylabel="share of counts reaching this value"):
    """The share of counts reaching each value per seat with 95% bands (Kaplan-Meier when
    df is measure_km's), drawn over bin numbers with the bins' labels; the exact curve
    dashed where present."""
    ax = axes_for(ax)
    df = _shown(df)
    for seat in sorted(df.seat.unique()):
        d = df[(df.seat == seat) & df.rate.notna()]
        c = SEAT_COLOURS[seat]
        ax.plot(d.bin, d.rate, "-", color=c, linewidth=2, label=f"{labels[seat]} (simulated)")
        ax.fill_between(d.bin, d.lo, d.hi, color=c, alpha=0.2)
        if "exact" in d and d.exact.notna().any():
            ax.plot(d.bin, d.exact, "o--", color=c, markersize=4, linewidth=1,
                    label=f"{labels[seat]} (exact)")
    first = df[df.seat == df.seat.min()]
    _value_axis(ax, first.bin, first["label"])
    ax.set_xlabel(xlabel)
    _ylabel(ax, ylabel)
    ax.set_ylim(0, 1.02)
    ax.legend(frameon=False)
    return ax


def plot_hazard(df, ax=None, labels=("A", "B"), xlabel="value",
                ylabel="share ending here, of those reaching it"):
    """Per-bin hazard: the share of counts that stop at this value among those at risk
    there, with Wilson 95% intervals where some stopped (a bin where nothing stopped is a
    point at 0 with no bar: its upper bound alone would read as a hazard)."""
    ax = axes_for(ax)
    df = _shown(df)
    seats = sorted(df.seat.unique())
    for seat in seats:
        d = df[(df.seat == seat) & df.hazard.notna()]
        c = SEAT_COLOURS[seat]
        lo, hi = error_bars(d.hazard, d.hazard_lo, d.hazard_hi)
        happened = (d.hazard > 0).to_numpy()
        # Seats side by side within a bin, centred on it.
        ax.errorbar(d.bin + (seat - (len(seats) - 1) / 2) * 0.6 / len(seats), d.hazard,
                    yerr=[np.where(happened, lo, 0), np.where(happened, hi, 0)], fmt="o",
                    color=c,
                    capsize=3 if len(d) <= FEW_BINS else 0, markersize=3,
                    elinewidth=1, label=labels[seat])
    first = df[df.seat == df.seat.min()]
    _value_axis(ax, first.bin, first["label"])
    ax.set_xlabel(xlabel)
    _ylabel(ax, ylabel)
    # Small hazards are the usual case: the axis ends just above the highest band.
    top = np.nanmax(df.hazard_hi.where(df.hazard > 0).to_numpy(dtype=float), initial=0.0)
    ax.set_ylim(0, min(1.02, max(0.05, 1.1 * top)))
    ax.legend(frameon=False)
    return ax


def plot_lengths(matches, column: str, label: str, ax=None):
    """Distribution of a per-match length measure (a count: whole numbers on its axis)."""
    # deferred: matplotlib loads only when a figure is drawn
    from matplotlib.ticker import MaxNLocator

    ax = axes_for(ax)
    counts = matches[column].value_counts().sort_index()
    ax.bar(counts.index, counts / counts.sum(), color="#9fb8d6")
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlabel(label)
    ax.set_ylabel("share of matches")
    return ax


def plot_matrix(df, ax=None, row="entrant", col="opponent", title=""):
    """Heatmap of win rates (row's win rate against column) with the rate and interval."""
    ax = axes_for(ax, (6.4, 5.0))
    ax.grid(False)
    piv = df.pivot(index=row, columns=col, values="rate")
    lo = df.pivot(index=row, columns=col, values="lo")
    hi = df.pivot(index=row, columns=col, values="hi")
    im = ax.imshow(piv.to_numpy(dtype=float), cmap="RdBu", vmin=0, vmax=1)
    ax.set_xticks(range(len(piv.columns)), piv.columns, rotation=30, ha="right")
    ax.set_yticks(range(len(piv.index)), piv.index)
    for i in range(piv.shape[0]):
        for j in range(piv.shape[1]):
            v = piv.iat[i, j]
            if np.isfinite(v):
                ax.text(j, i, f"{v:.3f}\n[{lo.iat[i, j]:.3f}, {hi.iat[i, j]:.3f}]",
                        ha="center", va="center", fontsize=8,
                        color="white" if abs(v - 0.5) > 0.3 else "black")
    ax.figure.colorbar(im, ax=ax, label="win rate")
    ax.set_title(title)
    return ax


VERDICT_COLOURS = {"over-powered": "#c0392b", "under-powered": "#1f5fa8",
                   "balanced": "#27ae60", "no evidence": "#7f8c8d",
                   "dead": "#222222", "untested here": "#b8860b", "misplayed": "#8e44ad",
                   "no par": "#bbbbbb"}


def plot_verdicts(df, ax=None):
    """Each card's causal worth per copy against par for its kind and cost, with 95%
    intervals and its margin, coloured by verdict."""
    d = df.dropna(subset=["relative"]).sort_values(["deck", "relative"])
    ax = axes_for(ax, (7.0, 0.28 * len(d) + 1.5))
    y = np.arange(len(d))
    for verdict, c in VERDICT_COLOURS.items():
        s = (d.verdict == verdict).to_numpy()
        if s.any():
            ax.errorbar(d.relative[s], y[s], xerr=error_bars(d.relative[s], d.relative_lo[s],
                                                       d.relative_hi[s]),
                        fmt="o", color=c, capsize=2, label=verdict)
    ax.axvline(0, color="#888888", linewidth=1)
    if "margin" in d:  # above par and below (one margin both ways in older runs)
        up = d.margin_up if "margin_up" in d else d.margin
        down = d.margin_down if "margin_down" in d else d.margin
        ax.plot(up, y, "|", color="#888888", markersize=8, label="margin")
        ax.plot(-down, y, "|", color="#888888", markersize=8)
    ax.set_yticks(y, [f"{n} ({deck})" for n, deck in zip(d.label, d.deck, strict=True)])
    ax.set_xlabel("win rate one copy adds to its deck, against par for its kind and cost")
    # Beside the axes, where it covers no card's row.
    ax.legend(frameon=False, fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1.0))
    return ax


def plot_curve(df, x, ax=None, label="", exact=None):
    """A response curve (sweep or sensitivity): rate with its 95% band against x."""
    ax = axes_for(ax)
    ax.plot(df[x], df.rate, "o-", color=SEAT_COLOURS[0], label=label or "simulated")
    ax.fill_between(df[x], df.lo, df.hi, color=SEAT_COLOURS[0], alpha=0.2)
    if exact is not None:
        ax.plot(df[x], exact, "s--", color=ACCENT, label="exact")
    ax.set_xlabel(x)
    ax.set_ylabel("win rate (95% interval)")
    ax.legend(frameon=False)
    return ax


def plot_deltas(df, ax=None, label="delta"):
    """Paired deltas with intervals, one row per item (sensitivity, what-if)."""
    d = df.sort_values("delta")
    ax = axes_for(ax, (7.0, 0.3 * len(d) + 1.5))
    y = np.arange(len(d))
    ax.errorbar(d.delta, y, xerr=error_bars(d.delta, d.lo, d.hi), fmt="o", color=ACCENT,
                capsize=2)
    ax.axvline(0, color="#888888", linewidth=1)
    ax.set_yticks(y, d.item)
    ax.set_xlabel(label)
    return ax


def to_png(ax) -> bytes:
    """The figure of an axes as PNG bytes (and closes it)."""
    # deferred: matplotlib loads only when a figure is drawn
    import matplotlib.pyplot as plt

    buf = io.BytesIO()
    # Tight: long tick labels and axis titles stay inside the picture.
    ax.figure.savefig(buf, format="png", dpi=110, bbox_inches="tight")
    plt.close(ax.figure)
    return buf.getvalue()
