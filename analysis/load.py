"""Read a run folder of the results store into tidy DataFrames, with the names, kinds and
labels its manifest carries (analysis never asks a game package)."""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from analysis.quantities import seat_names
from sim.kit.records import seats_of
from sim.store.runs import read_table


@dataclass
class Run:
    """One stored run: its manifest and tables."""

    path: Path
    manifest: dict
    matches: pd.DataFrame
    histograms: pd.DataFrame
    cards: pd.DataFrame
    exact_check: pd.DataFrame | None

    @property
    def schema(self) -> dict:
        return self.manifest["schema"]

    @property
    def seats(self) -> int:
        """Players at the table (two for runs written before tables of more)."""
        return seats_of(self.schema)

    @property
    def deck_names(self) -> tuple[str, ...]:
        """Each seat's deck, A first."""
        return tuple(d["name"] for d in self.manifest["decks"])

    @property
    def seat_names(self) -> tuple[str, ...]:
        """Each seat's deck as a label: "deck (seat A)" where two seats hold the deck."""
        return seat_names(self.deck_names)

    @property
    def policy_names(self) -> tuple[str, ...]:
        return tuple(p["name"] for p in self.manifest["policies"])

    @property
    def label(self) -> str:
        return " vs ".join(f"{d} ({p})" for d, p in zip(self.deck_names, self.policy_names,
                                                        strict=True))

    @property
    def card_names(self) -> dict[str, str]:
        pool = self.manifest["card_pool"]
        return dict(zip(pool["ids"], pool.get("names", pool["ids"]), strict=True))

    @property
    def card_kinds(self) -> dict[str, str]:
        pool = self.manifest["card_pool"]
        return dict(zip(pool["ids"], pool.get("kinds", [""] * len(pool["ids"])), strict=True))

    @property
    def card_labels(self) -> dict[str, str]:
        """Card id -> the name a table shows: "name (id)" where two cards share a name."""
        pool = self.manifest["card_pool"]
        return distinct_labels(pool["ids"], pool.get("names", pool["ids"]))

    def bin_labels(self, measure: str) -> list:
        """The x-axis labels of a histogram's bins (the bin numbers unless the run fixes
        them, as a ladder of targets does)."""
        fixed = self.manifest.get("histogram_labels", {}).get(measure)
        return list(fixed) if fixed else list(range(self.schema["histograms"][measure]["bins"]))


def distinct_labels(ids, names) -> dict[str, str]:
    """Card id -> its name, or "name (id)" where two cards of the pool share the name."""
    seen = Counter(names)
    return {cid: (f"{name} ({cid})" if seen[name] > 1 else name)
            for cid, name in zip(ids, names, strict=True)}


def load_run(path: Path | str) -> Run:
    """A run folder: manifest.json plus every complete chunk of each table."""
    path = Path(path)
    manifest = json.loads((path / "manifest.json").read_text(encoding="utf-8"))
    check = path / "exact_check.parquet"
    return Run(path, manifest, read_table(path, "matches"), read_table(path, "histograms"),
               read_table(path, "cards"), pd.read_parquet(check) if check.exists() else None)
