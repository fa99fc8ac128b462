"""Read a run folder of the results store into tidy DataFrames."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import pandas as pd


@dataclass
class Run:
    """One stored run: its manifest and tables."""

    path: Path
    manifest: dict
    matches: pd.DataFrame
    rallies: pd.DataFrame
    cards: pd.DataFrame
    exact_check: pd.DataFrame | None

    @property
    def deck_names(self) -> tuple[str, str]:
        d = self.manifest["decks"]
        return d[0]["name"], d[1]["name"]

    @property
    def policy_names(self) -> tuple[str, str]:
        p = self.manifest["policies"]
        return p[0]["name"], p[1]["name"]

    @property
    def ladder(self) -> list[int]:
        return list(self.manifest["rules"]["escalation"])

    @property
    def label(self) -> str:
        (a, b), (pa, pb) = self.deck_names, self.policy_names
        return f"{a} ({pa}) vs {b} ({pb})"


def load_run(path: Path | str) -> Run:
    """A run folder: manifest.json plus every complete chunk of each table."""
    from sim.store import read_table

    path = Path(path)
    manifest = json.loads((path / "manifest.json").read_text(encoding="utf-8"))
    check = path / "exact_check.parquet"
    return Run(path, manifest, read_table(path, "matches"), read_table(path, "rallies"),
               read_table(path, "cards"), pd.read_parquet(check) if check.exists() else None)
