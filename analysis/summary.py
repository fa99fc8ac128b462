"""A stored run's headline counts read chunk by chunk, in constant memory: the rates the
game's schema names, each with k, n and a Wilson 95% interval, and the mean lengths."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from analysis.quantities import evaluate, rate_specs, seat_labels
from sim.core.stats import Z95, with_rate
from sim.store.matches import read_arrays

BATCH = 250_000  # matches evaluated at once: each expression costs milliseconds a call


def _batches(folders):
    """The matches tables of the chunk folders, joined into batches of about BATCH rows.
    The sums are of integer values, so they do not depend on the batching."""
    held, rows = [], 0
    for folder in folders:
        held.append(read_arrays(folder))
        rows += len(held[-1]["match_index"])
        if rows >= BATCH:
            yield _joined(held)
            held, rows = [], 0
    if held:
        yield _joined(held)


def _joined(held):
    return pd.DataFrame({c: np.concatenate([h[c] for h in held]) for c in held[0]})


def headline_counts(run_path: Path | str, manifest: dict):
    """(rates table, [(length label, mean, 95% half-width)], n) of a stored run."""
    schema = manifest["schema"]
    decks = tuple(d["name"] for d in manifest["decks"])
    if len(decks) > 2:
        # At a larger table a deck may sit twice and the seats after B share B's policy:
        # each row names its seat's deck and policy.
        decks = seat_labels(decks, [p["name"] for p in manifest["policies"]])
    specs = rate_specs(schema, decks)
    k = np.zeros(len(specs))
    n = np.zeros(len(specs))
    lengths = list(schema.get("lengths", {}).items())
    sums = np.zeros((len(lengths), 2))
    total = 0
    base = Path(run_path) / "chunks"
    for df in _batches(sorted(p for p in base.iterdir() if p.is_dir() and p.name.isdigit())):
        total += len(df)
        for i, (_, ke, ne) in enumerate(specs):
            k[i] += evaluate(df, ke).sum()
            n[i] += evaluate(df, ne).sum()
        for i, (col, _) in enumerate(lengths):
            x = df[col].to_numpy(dtype=np.float64)
            sums[i] += (x.sum(), (x * x).sum())
    rows = pd.DataFrame({"quantity": [s[0] for s in specs], "k": k.astype(np.int64),
                         "n": n.astype(np.int64)})
    # A draw row only where a match was drawn: the records do not say whether a game's
    # rules allow draws, and a row of 0 would read as a measured rate in one whose rules
    # have none.
    rows = rows[(rows.quantity != "draws") | (rows.k > 0)].reset_index(drop=True)
    out = []
    for i, (_, text) in enumerate(lengths):
        mean = sums[i, 0] / max(total, 1)
        var = max(sums[i, 1] / max(total, 1) - mean**2, 0.0) * total / max(total - 1, 1)
        out.append((text, mean, Z95 * (var / max(total, 1)) ** 0.5))
    return with_rate(rows), out, total
